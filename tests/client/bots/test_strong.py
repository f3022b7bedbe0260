"""``strong`` and its search: wins and saves in one, races, and how it keeps to its time budget."""

import itertools

import pytest

from client.bots import StrongPlayer
from client.bots.search import Searcher
from shared.quoridor import Position, parse_position

BUDGET_MS = 40   # small: these positions are decided within a ply or two


@pytest.mark.parametrize("text", ["e8 a5 0 5 5 -", "a5 d2 1 5 5 -", "e7 e8 0 3 3 -", "e2 e3 1 3 3 -",
                                  "c8 c4 0 0 0 a8h,c7v"])
def test_strong_takes_a_win_in_one(text, ask):
    pos = parse_position(text)
    bot = StrongPlayer(time_budget_ms=BUDGET_MS)
    step = ask(bot, pos)
    assert pos.is_legal(step)
    assert pos.apply(step).winner() == pos.turn


@pytest.mark.parametrize("text", ["a2 e2 0 5 5 -", "e8 a8 1 5 5 -", "a4 h2 0 2 6 g2h,f1v"])
def test_strong_walls_off_an_opponent_about_to_win(text, ask):
    pos = parse_position(text)
    op = 1 - pos.turn
    assert pos.distance(op) == 1
    step = ask(StrongPlayer(time_budget_ms=BUDGET_MS), pos)
    after = pos.apply(step)
    assert not step.is_move() and pos.is_legal(step)
    assert all(after.apply(reply).winner() != op for reply in after.legal_steps())


@pytest.mark.parametrize("turn", [0, 1])
def test_strong_without_walls_on_either_side_races(turn, ask):
    pos = parse_position(f"d5 f6 {turn} 0 0 a1h,c2h,e3h,g4h,b5v,d6v,f7v,h8v,c7h,e8h")
    step = ask(StrongPlayer(time_budget_ms=BUDGET_MS), pos)
    assert step.is_move()
    assert pos.apply(step).distance(turn) == pos.distance(turn) - 1


def test_strong_completes_at_least_one_iteration_within_its_budget(ask):
    pos = parse_position("c4 g6 0 6 5 c3h,e5h,e6v,g4h,b7v,f7h,d2v,h5v,a4h")
    bot = StrongPlayer(time_budget_ms=BUDGET_MS)
    step = ask(bot, pos)
    assert bot.last_result is not None and bot.last_result.step == step
    assert bot.last_result.depth >= 1 and bot.last_result.nodes > 0


def test_search_stops_when_its_clock_passes_the_budget():
    ticks = itertools.count()
    searcher = Searcher(clock=lambda: next(ticks) / 1000)   # every clock read is one more millisecond
    pos = Position.initial()
    result = searcher.search(pos, 0.050)
    assert result.step in pos.legal_steps()
    # The clock is read once per node, so the search ends within about 50 nodes of work.
    assert 1 <= result.depth and result.nodes <= 55
    assert result.elapsed <= 0.060


def test_search_with_its_budget_already_spent_still_answers_legally():
    ticks = itertools.count()
    searcher = Searcher(clock=lambda: float(next(ticks)))   # one second per read
    pos = parse_position("c4 g6 1 6 5 c3h,e5h,e6v,g4h,b7v,f7h,d2v,h5v,a4h")
    result = searcher.search(pos, 0.001)
    assert result.depth == 0 and result.step in pos.legal_steps()


def test_search_of_a_position_without_legal_steps_returns_no_step(stuck):
    assert Searcher().search(stuck, 0.05).step is None


def test_restart_forgets_the_transposition_table(ask):
    bot = StrongPlayer(time_budget_ms=BUDGET_MS)
    ask(bot, parse_position("c4 g6 0 6 5 c3h,e5h,e6v,g4h,b7v,f7h,d2v,h5v,a4h"))
    assert bot.searcher.table
    bot.restart()
    assert not bot.searcher.table


@pytest.mark.parametrize("limit, budget", [(None, 200.0), (1000, 200.0), (150, 60.0), (100, 40.0)])
def test_strong_budget_is_at_most_40_percent_of_the_time_limit(limit, budget):
    bot = StrongPlayer()
    bot.time_limit_ms = limit
    assert bot.budget_ms == pytest.approx(budget)


def test_strong_keeps_to_a_150_ms_limit_in_a_local_match():
    from client.match import play_match
    from shared.quoridor import GameStatus, find_ruleset
    from shared.referee import RefereeSettings

    settings = RefereeSettings(find_ruleset("course"), 150, 3, 100)      # quoridor-match -t 150
    strong, _, games = play_match(("strong", "defender"), 2, settings, log_dir=None)
    late = [r for game in games for r in game.records
            if r.player == "strong" and r.status in (GameStatus.TIMEOUT, GameStatus.RULES_BREAKER)]
    assert late == [] and strong.violations == 0

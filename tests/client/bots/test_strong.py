"""``strong`` and its search: wins and saves in one, races, and how it keeps to its time budget."""

import pytest

from client.bots import DefenderPlayer, StrongPlayer
from client.bots.search import Searcher
from client.driver import BotDriver
from client.match import play_game
from client.player import Player
from shared.quoridor import (
    GameStatus,
    Position,
    find_ruleset,
    parse_position,
    parse_step,
    position_text,
)
from shared.referee import RefereeSettings
from tests.clocks import TickingClock

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
    searcher = Searcher(clock=TickingClock(0.001))   # every clock read is one more millisecond
    pos = Position.initial()
    result = searcher.search(pos, 0.050)
    assert result.step in pos.legal_steps()
    # The clock is read once per node, so the search ends within about 50 nodes of work.
    assert 1 <= result.depth and result.nodes <= 55
    assert result.elapsed <= 0.060


def test_search_with_its_budget_already_spent_still_answers_legally():
    searcher = Searcher(clock=TickingClock(1.0))   # one second per read
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


@pytest.mark.parametrize("strong_seat", [0, 1])
def test_strong_keeps_to_a_150_ms_limit_in_a_local_match(strong_seat):
    # One counting clock for the referee and the searcher: a read is 0.1 ms (about a node's work), so a
    # step is charged the nodes it searched and the game is the same on any machine.
    clock = TickingClock(0.0001)
    strong = StrongPlayer("strong")
    strong.searcher = Searcher(clock=clock)
    bots: list[Player] = [DefenderPlayer("defender"), DefenderPlayer("defender")]
    bots[strong_seat] = strong
    names = ("strong", "defender") if strong_seat == 0 else ("defender", "strong")
    settings = RefereeSettings(find_ruleset("course"), 150, 3, 100)      # quoridor-match -t 150
    game = play_game((BotDriver(bots[0]), BotDriver(bots[1])), names, settings, clock)
    assert strong.budget_ms == pytest.approx(60.0)
    own = [r for r in game.records if r.player == "strong"]
    assert own and all(r.status in (GameStatus.OK, GameStatus.WIN) for r in own)
    assert game.outcome.winner == strong_seat and game.outcome.violations[strong_seat] == 0
    # The search stops at its 60 ms budget (plus a node's work): far inside the limit, never near it.
    assert max(r.thinking_ms or 0 for r in own) <= 70


#: From a game ``strong`` lost on the step cap to ``defender``: far ahead (6 steps to go, 22 for the other
#: pawn) but not decided (``defender`` kept 2 walls), it paced f4 g4 while ``defender`` paced f2 f3 in its
#: way, each position as good as the last time, for 80 moves.
PACED = "e1h,g1h,c2h,f4h,h4h,d6h,d2v,e2v,f2v,c3v,c5v,e5v"


def test_a_searcher_told_the_games_positions_does_not_come_back_to_one():
    pos = parse_position(f"f3 g4 1 6 2 {PACED}")
    back = parse_step("f4")
    assert Searcher(clock=TickingClock(1e-6)).search(pos, 0.003).step == back   # no worse, for all it knows
    result = Searcher(clock=TickingClock(1e-6)).search(pos, 0.003, {pos, pos.apply(back)})
    assert result.step is not None and result.step != back


@pytest.mark.parametrize("text", [f"f3 e4 1 6 2 {PACED}", f"f2 f4 1 6 2 {PACED}"])
def test_strong_kept_all_game_makes_progress_where_it_paced_until_the_step_cap(text, ask):
    strong = StrongPlayer("strong", time_budget_ms=3)
    strong.searcher = Searcher(clock=TickingClock(1e-6))   # 3,000 clock reads (about nodes) a search
    defender = DefenderPlayer("defender")
    pos = parse_position(text)
    seat = pos.turn
    mine: list[Position] = []
    while not pos.is_over() and len(mine) < 40:
        if pos.turn == seat:
            assert pos not in mine, f"strong came back to {position_text(pos)}"
            mine.append(pos)
        pos = pos.apply(ask(strong if pos.turn == seat else defender, pos))
    assert pos.winner() == seat


def test_strong_on_a_node_budget_plays_the_same_game_on_any_clock():
    # With nodes, no clock is read for the search: a slow clock and a fast one give the same game, and no search
    # visits more nodes than its budget.
    def game(tick: float) -> tuple[list[object], list[int]]:
        strong = StrongPlayer("strong", nodes=60)
        settings = RefereeSettings(find_ruleset("course"), None, 3, 100)
        played = play_game((BotDriver(strong), BotDriver(DefenderPlayer("defender"))), ("strong", "defender"),
                           settings, TickingClock(tick))
        nodes = [strong.last_result.nodes] if strong.last_result is not None else []
        return [r.step for r in played.records], nodes

    steps, nodes = game(0.0001)
    assert (steps, nodes) == game(0.5)
    assert nodes and max(nodes) <= 60
    with pytest.raises(ValueError, match="node budget"):
        StrongPlayer("strong", nodes=0)

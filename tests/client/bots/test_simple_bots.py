"""``random``, ``runner`` and ``defender``: what each one plays, and whole games of the runner."""

import pytest

from client.bots import DefenderPlayer, RandomPlayer, RunnerPlayer
from client.driver import BotDriver
from client.match import play_game
from client.player import Player
from shared.quoridor import Position, Step, parse_position, parse_step
from shared.referee import RefereeSettings


# -- random -------------------------------------------------------------------------------
def test_random_is_repeatable_with_a_seed(ask):
    pos = parse_position("c4 g6 0 6 5 c3h,e5h,e6v,g4h,b7v,f7h,d2v,h5v,a4h")
    first = [ask(RandomPlayer(seed=11), pos) for _ in range(3)]
    assert first[0] == first[1] == first[2]
    answers = {ask(RandomPlayer(seed=seed), pos) for seed in range(20)}
    assert len(answers) > 1


def test_random_walks_a_whole_game_with_legal_pawn_moves_only_like_the_handouts_sample(ask):
    # The handout's sample player (MyPlayer.cpp) is a random walk that never places a wall.
    bots = (RandomPlayer(seed=1), RandomPlayer(seed=2))
    pos = Position.initial()
    for _ in range(300):
        step = ask(bots[pos.turn], pos)
        assert step in pos.legal_steps()
        assert step.is_move()
        pos = pos.apply(step)
        if pos.is_over():
            break
    assert pos.walls_left == (10, 10)


def test_random_with_a_wall_rate_drops_walls_now_and_then(ask):
    bots = (RandomPlayer(seed=1, wall_rate=0.1), RandomPlayer(seed=2, wall_rate=0.1))
    pos = Position.initial()
    walls = 0
    for _ in range(300):
        step = ask(bots[pos.turn], pos)
        assert step in pos.legal_steps()
        walls += not step.is_move()
        pos = pos.apply(step)
        if pos.is_over():
            break
    assert 0 < walls < 30


def test_random_boxed_in_places_a_legal_wall_rather_than_pass(ask):
    # The benchmark's stuck position, with one wall left for the side to move (no pawn move is legal).
    pos = parse_position("e3 f3 1 0 1 a1h,e1h,f2h,c3h,f3h,h3h,c4h,b5h,a6h,f8h,g1v,a2v,f2v,d3v,g4v,c5v,f5v,b6v,b8v,e8v")
    assert pos.legal_moves() == []
    step = ask(RandomPlayer(seed=3), pos)
    assert not step.is_move() and pos.is_legal(step)


# -- runner -------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["e1 e9 0 10 10 -", "e2 e9 1 10 10 -", "c4 g6 0 6 5 c3h,e5h,e6v,g4h,b7v,f7h,d2v,h5v,a4h",
                                  "c4 g6 1 6 5 c3h,e5h,e6v,g4h,b7v,f7h,d2v,h5v,a4h"])
def test_runner_steps_one_cell_closer_to_its_goal(text, ask):
    pos = parse_position(text)
    step = ask(RunnerPlayer(), pos)
    assert step.is_move()
    assert pos.apply(step).distance(pos.turn) == pos.distance(pos.turn) - 1


@pytest.mark.parametrize("text, target", [("e4 e5 0 10 10 -", "e6"), ("e4 e5 1 10 10 -", "e3")])
def test_runner_jumps_over_the_pawn_on_its_path(text, target, ask):
    assert ask(RunnerPlayer(), parse_position(text)) == parse_step(target)


def test_runner_sidesteps_when_a_wall_stands_behind_the_pawn_in_its_way(ask):
    pos = parse_position("e4 e5 0 3 3 e5h,c2v")   # the wall above e5 forbids the jump
    step = ask(RunnerPlayer(), pos)
    assert step in (parse_step("d4"), parse_step("f4"))
    assert pos.apply(step).distance(0) == pos.distance(0) - 1


class Passive(Player):
    """Stays away from its goal: every turn the legal pawn move that leaves its path longest."""

    def next_step(self, change):
        pos = self.position
        return Step(max(pos.legal_moves(), key=lambda loc: (pos.apply(Step(loc)).distance(pos.turn), loc)))


@pytest.mark.parametrize("runner_seat", [0, 1])
def test_runner_reaches_its_goal_row_against_a_passive_opponent(runner_seat):
    players = [Passive("p"), Passive("p")]
    players[runner_seat] = RunnerPlayer("r")
    drivers = (BotDriver(players[0]), BotDriver(players[1]))
    ticks = iter(range(10_000))   # a clock that never times anybody out
    game = play_game(drivers, ("a", "b"), RefereeSettings(time_limit_ms=None), lambda: next(ticks) / 1e6)
    assert game.outcome.winner == runner_seat
    assert game.outcome.reason == "goal"
    assert len(game.records) <= 2 * 12    # 8 steps of path, a detour round the passive pawn at most
    assert game.outcome.violations == (0, 0)


# -- defender -----------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["e5 e2 0 10 10 -", "e8 e5 1 10 10 -", "a7 c3 0 4 4 c6h,e6h,d3v"])
def test_defender_walls_in_an_opponent_one_step_from_winning(text, ask):
    pos = parse_position(text)
    op = 1 - pos.turn
    assert pos.distance(op) in (1, 2) and pos.distance(op) <= pos.distance(pos.turn)
    step = ask(DefenderPlayer(), pos)
    assert not step.is_move() and pos.is_legal(step)
    assert pos.apply(step).distance(op) > pos.distance(op)


def test_defender_runs_while_it_leads_the_race(ask):
    pos = parse_position("e7 e6 0 10 10 -")   # it needs 2 steps, the opponent 5
    step = ask(DefenderPlayer(), pos)
    assert step == parse_step("e8")


def test_defender_without_walls_runs_like_the_runner(ask):
    pos = parse_position("e5 e2 0 0 10 -")
    assert ask(DefenderPlayer(), pos) == ask(RunnerPlayer(), pos)

"""``blocker``: walls early, each on the leader's shortest path and lengthening it; then it runs."""

import pytest

from client.bots import BlockerPlayer, RunnerPlayer
from client.bots.blocker import block_step
from shared.quoridor import Position, Step, parse_position, parse_step


def lengthening(pos: Position, player: int) -> dict[Step, int]:
    """Every legal wall of the side to move that lengthens ``player``'s path, with how much (brute force)."""
    before = pos.distance(player)
    out = {}
    for wall in pos.legal_walls():
        step = Step(new_wall=wall)
        gain = pos.apply(step).distance(player) - before
        if gain > 0:
            out[step] = gain
    return out


@pytest.mark.parametrize("text", [
    "e2 e9 1 10 10 -",                                      # the other pawn moved first: it leads
    "e1 e9 0 10 10 -",                                      # the start, a level race
    "c4 g6 1 6 5 c3h,e5h,e6v,g4h,b7v,f7h,d2v,h5v,a4h",      # mid-game, the other pawn a step ahead
    "e6 e3 0 4 2 d5h,f3v",                                  # the other pawn two steps from home
])
def test_blocker_walls_the_leaders_shortest_path_where_it_hurts_most(text, ask):
    pos = parse_position(text)
    leader = 1 - pos.turn
    assert pos.distance(leader) <= pos.distance(pos.turn)
    step = ask(BlockerPlayer(), pos)
    assert not step.is_move() and pos.is_legal(step)
    options = lengthening(pos, leader)
    # It lengthens the leader's path, so it stands on every shortest path, and no wall lengthens it more.
    assert options[step] == max(options.values())


@pytest.mark.parametrize("text, walls", [
    ("e6 e3 0 10 10 -", True),       # it needs 3 steps, the other pawn 2: the other leads
    ("e7 e3 0 10 10 -", True),       # 2 and 2: level
    ("e7 e4 0 10 10 -", False),      # 2 and 3: it leads
])
def test_blocker_walls_unless_it_leads_and_then_runs(text, walls, ask):
    pos = parse_position(text)
    step = ask(BlockerPlayer(), pos)
    assert step.is_move() is not walls
    if not walls:
        assert step == parse_step("e8")


def test_blocker_without_walls_runs_like_the_runner(ask):
    pos = parse_position("e5 e2 0 0 10 -")
    assert block_step(pos) is None
    assert ask(BlockerPlayer(), pos) == ask(RunnerPlayer(), pos)


@pytest.mark.parametrize("blocker_seat", [0, 1])
def test_against_the_runner_blocker_walls_from_its_first_turn_until_it_leads_then_runs_home(blocker_seat, ask):
    bots = [RunnerPlayer("r"), RunnerPlayer("r")]
    bots[blocker_seat] = BlockerPlayer("b")
    leader = 1 - blocker_seat
    pos = Position.initial()
    turns: list[bool] = []          # its turns: True for a wall
    while not pos.is_over():
        step = ask(bots[pos.turn], pos)
        if pos.turn == blocker_seat:
            turns.append(not step.is_move())
            options = lengthening(pos, leader) if pos.walls_left[blocker_seat] else {}
            if pos.distance(blocker_seat) < pos.distance(leader) or not options:   # it leads, or cannot block
                assert step.is_move() and pos.apply(step).distance(blocker_seat) < pos.distance(blocker_seat)
            else:                                                                   # the wall that hurts most
                assert options.get(step) == max(options.values())
        pos = pos.apply(step)
    assert turns[0] and turns.index(False) >= 3      # its walls come first, three at least
    assert pos.winner() == blocker_seat

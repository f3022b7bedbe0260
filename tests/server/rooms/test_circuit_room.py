"""The circuit room, called directly: requests, verdicts on rotations and clicks, play, leaderboard."""

import random

import pytest

from server.rooms import Leaderboard, RoomContext, RoomError
from server.rooms.circuit import CircuitRoom
from shared.circuit import parse_circuit, solve
from shared.grid import Pos
from shared.protocol import Action, PuzzleRequest, Solution
from tests.server.rooms.boards import ticking


@pytest.fixture
def room():
    return CircuitRoom(Leaderboard(ticking()))


def ask(room, ctx, **fields):
    return room.request(ctx, PuzzleRequest(room="circuit", **fields))


def solution_clicks(circuit):
    """Clicks "row,col" that turn ``circuit`` into a connected one (from the solver)."""
    rotations = solve(circuit)
    clicks = []
    for pos, rotation in sorted(rotations.items()):
        turns = ((rotation - circuit[pos].rotation) // 90) % 4
        clicks += [f"{pos.row},{pos.col}"] * turns
    return clicks


def test_a_request_gives_a_reproducible_scrambled_level(room):
    ctx = RoomContext("ann")
    data = ask(room, ctx, difficulty="hell", seed=9).data
    circuit = parse_circuit(data["grid"])
    assert data["difficulty"] == "hell" and 7 <= data["rows"] == data["cols"] <= 8
    assert list(circuit.source) == data["source"] and data["movable"] == len(circuit.movable())
    assert not circuit.connected and solve(circuit) is not None
    assert ask(room, ctx, difficulty="hell", seed=9).data["grid"] == data["grid"]
    assert ask(room, ctx, size=10, seed=1).data["rows"] == 10
    assert ask(room, ctx).data["difficulty"] == "normal"


@pytest.mark.parametrize("fields, words", [
    ({"difficulty": "insane"}, "unknown difficulty 'insane'"),
    ({"size": 99}, "grid side 99 is out of range"),
    ({"collection": "microban"}, "generates its levels"),
])
def test_bad_requests(room, fields, words):
    with pytest.raises(RoomError) as info:
        ask(room, RoomContext("ann"), **fields)
    assert info.value.code == "bad_level" and words in info.value.message


def test_rotation_answers_are_judged_and_ranked(room):
    ctx = RoomContext("ann")
    puzzle = ask(room, ctx, difficulty="easy", seed=2)
    circuit = parse_circuit(puzzle.data["grid"])
    fixed = circuit.with_rotations(solve(circuit))
    verdict = room.solution(ctx, Solution(puzzle=puzzle.puzzle, answer=fixed.rotations()))
    assert verdict.valid and verdict.solved and verdict.figures["connected"]
    assert verdict.figures["rotations"] == circuit.clicks_to(fixed) and verdict.figures["rank"] == 1
    unchanged = room.solution(ctx, Solution(puzzle=puzzle.puzzle, answer=circuit.rotations()))
    assert unchanged.valid and not unchanged.solved and "not connected" in unchanged.reason
    bad = room.solution(ctx, Solution(puzzle=puzzle.puzzle, answer=[45] * len(circuit.movable())))
    assert not bad.valid and bad.failed_at == 0 and "45" in bad.reason
    for answer in ("0,1", [0]):
        with pytest.raises(RoomError) as info:
            room.solution(ctx, Solution(puzzle=puzzle.puzzle, answer=answer))
        assert info.value.code == "bad_answer"


def test_click_answers_are_judged(room):
    ctx = RoomContext("ann")
    puzzle = ask(room, ctx, difficulty="normal", seed=4)
    circuit = parse_circuit(puzzle.data["grid"])
    clicks = solution_clicks(circuit)
    verdict = room.solution(ctx, Solution(puzzle=puzzle.puzzle, answer=clicks))
    assert verdict.solved and verdict.figures["rotations"] == len(clicks)
    source = f"{circuit.source.row},{circuit.source.col}"
    for answer, words in ((["x"], "expected \"row,col\""), ([source], "does not turn"), (["99,0"], "outside")):
        bad = room.solution(ctx, Solution(puzzle=puzzle.puzzle, answer=answer))
        assert not bad.valid and bad.failed_at == 0 and words in bad.reason
    assert not room.solution(ctx, Solution(puzzle=puzzle.puzzle, answer=[])).solved


def test_step_by_step_play(room):
    ctx = RoomContext("ann")
    puzzle = ask(room, ctx, difficulty="easy", seed=7)
    pid, circuit = puzzle.puzzle, parse_circuit(puzzle.data["grid"])
    clicks = solution_clicks(circuit)
    row, col = map(int, clicks[0].split(","))
    state = room.action(ctx, Action(puzzle=pid, action="rotate", args={"row": row, "col": col}))
    assert state.counters["rotations"] == 1 and state.state["grid"] != puzzle.data["grid"]
    state = room.action(ctx, Action(puzzle=pid, action="undo"))
    assert state.counters["rotations"] == 0 and state.state["grid"] == puzzle.data["grid"]
    state = room.action(ctx, Action(puzzle=pid, action="lock", args={"row": row, "col": col}))
    assert state.state["locked"] == [[row, col]]
    with pytest.raises(RoomError, match="locked; unlock it first"):
        room.action(ctx, Action(puzzle=pid, action="rotate", args={"row": row, "col": col}))
    room.action(ctx, Action(puzzle=pid, action="unlock", args={"row": row, "col": col}))
    room.action(ctx, Action(puzzle=pid, action="lock", args={"row": row, "col": col}))
    assert room.action(ctx, Action(puzzle=pid, action="undo")).state["locked"] == []
    for click in clicks:
        r, c = map(int, click.split(","))
        state = room.action(ctx, Action(puzzle=pid, action="rotate", args={"row": r, "col": c}))
    assert state.solved and state.counters == {"rotations": len(clicks), "rank": 1}
    assert list(circuit.terminal) in state.state["powered"]
    top = room.action(ctx, Action(puzzle=pid, action="leaderboard")).state["leaderboard"]
    assert top[0]["player"] == "ann" and top[0]["score"] == [len(clicks)]
    state = room.action(ctx, Action(puzzle=pid, action="reset"))
    assert state.state["grid"] == puzzle.data["grid"] and not state.solved and state.counters == {"rotations": 0}


@pytest.mark.parametrize("action, args, words", [
    ("rotate", {}, "needs integer row and col"),
    ("rotate", {"row": "a", "col": 1}, "needs integer row and col"),
    ("rotate", {"row": 40, "col": 1}, "outside"),
    ("spin", {}, "unknown circuit action 'spin'"),
])
def test_bad_actions(room, action, args, words):
    ctx = RoomContext("ann")
    pid = ask(room, ctx, difficulty="easy", seed=7).puzzle
    with pytest.raises(RoomError) as info:
        room.action(ctx, Action(puzzle=pid, action=action, args=args))
    assert info.value.code == "invalid_fields" and words in info.value.message


def test_puzzles_of_another_room_are_unknown_here(room):
    ctx = RoomContext("ann")
    pid = ctx.new_puzzle("ice", object())
    with pytest.raises(RoomError) as info:
        room.action(ctx, Action(puzzle=pid, action="undo"))
    assert info.value.code == "unknown_puzzle"


def test_long_click_answers_are_judged_as_the_clicks_played_one_by_one(room):
    ctx = RoomContext("ann")
    puzzle = ask(room, ctx, difficulty="hell", seed=4)
    initial = ctx.puzzle(puzzle.puzzle).level.initial
    movable = initial.movable()
    rng = random.Random(7)
    clicks = [f"{p.row},{p.col}" for p in rng.choices(movable, k=600)]
    played = initial
    for click in clicks:
        played = played.rotate(Pos(*map(int, click.split(","))))
    verdict = room.solution(ctx, Solution(puzzle=puzzle.puzzle, answer=clicks))
    assert verdict.valid and verdict.solved == played.connected and verdict.figures["rotations"] == 600
    fixed = room.solution(ctx, Solution(puzzle=puzzle.puzzle, answer=clicks + solution_clicks(played)))
    assert fixed.solved and fixed.figures["rotations"] == 600 + len(solution_clicks(played))
    empty = next(p for p in initial.grid().positions() if p not in movable)
    for bad, why in ((f"{empty.row},{empty.col}", "does not turn"), ("99,0", "outside"), ("1;2", "expected")):
        verdict = room.solution(ctx, Solution(puzzle=puzzle.puzzle, answer=clicks[:400] + [bad] + clicks[400:]))
        assert not verdict.valid and verdict.failed_at == 400 and why in verdict.reason

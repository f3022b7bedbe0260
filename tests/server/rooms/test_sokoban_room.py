"""The sokoban room, called directly: requests, verdicts with ranks, step play, leaderboard, errors."""

from __future__ import annotations

import pytest

from server.rooms import Leaderboard, RoomContext, RoomError
from server.rooms.sokoban import SokobanRoom, bundled_collections
from shared.protocol import Action, PuzzleRequest, Solution

LEVEL = "#######\n#@ $ .#\n#######\nTitle: corridor\n"


@pytest.fixture
def room() -> SokobanRoom:
    return SokobanRoom(Leaderboard())


def ask(room, ctx, **fields):
    return room.request(ctx, PuzzleRequest(room="sokoban", **fields))


def test_bundled_collections_are_the_redistributable_ones():
    assert sorted(bundled_collections()) == ["Grigr2001_100", "Grigr2002_40", "GrigrSpecial_40", "Holland_81"]
    assert "copyright message is retained" in bundled_collections()["Holland_81"]


def test_request_by_collection_and_index(room):
    ctx = RoomContext("alice")
    message = ask(room, ctx, collection="holland", index=2)
    assert message.room == "sokoban" and message.data["collection"] == "Holland_81"
    assert message.data["index"] == 2 and message.data["level"] == "Holland_81/2"
    assert "#" in message.data["xsb"] and message.data["boxes"] > 0
    assert message.puzzle in ctx.puzzles


def test_request_by_xsb_text(room):
    message = ask(room, RoomContext("alice"), xsb=LEVEL)
    assert message.data["title"] == "corridor" and message.data["level"].startswith("xsb-")
    assert message.data["xsb"].startswith("#######\n#@ $ .#")


@pytest.mark.parametrize("fields, code, words", [
    ({"collection": "nope"}, "bad_level", "no collection 'nope'"),
    ({"collection": "Holland_81", "index": 81}, "bad_level", "no level 81"),
    ({"xsb": "#####\n#@$x.#\n#####"}, "bad_level", "invalid character 'x'"),
    ({"xsb": "hello"}, "bad_level", "holds no level"),
    ({"xsb": "######\n#@$$.#\n######"}, "bad_level", "2 boxes and 1 goal"),
    ({}, "invalid_fields", "needs 'collection'"),
])
def test_bad_requests(room, fields, code, words):
    with pytest.raises(RoomError) as caught:
        ask(room, RoomContext("alice"), **fields)
    assert caught.value.code == code and words in caught.value.message


def test_verdicts_rank_solved_answers(room):
    alice, bob = RoomContext("alice"), RoomContext("bob")
    pa = ask(room, alice, xsb=LEVEL).puzzle
    pb = ask(room, bob, xsb=LEVEL).puzzle
    slow = room.solution(alice, Solution(puzzle=pa, answer="rRlrR"))
    assert slow.solved and slow.valid and slow.figures["moves"] == 5 and slow.figures["rank"] == 1
    fast = room.solution(bob, Solution(puzzle=pb, answer="rRR"))
    assert fast.figures == {"moves": 3, "pushes": 2, "rank": 1, "best_moves": 3, "best_pushes": 2}
    again = room.solution(alice, Solution(puzzle=pa, answer="rRlrR"))
    assert again.figures["rank"] == 2


def test_invalid_and_unsolved_answers(room):
    ctx = RoomContext("alice")
    puzzle = ask(room, ctx, xsb=LEVEL).puzzle
    verdict = room.solution(ctx, Solution(puzzle=puzzle, answer="rRRR"))
    assert not verdict.valid and verdict.failed_at == 3 and "wall" in verdict.reason
    assert "rank" not in verdict.figures
    verdict = room.solution(ctx, Solution(puzzle=puzzle, answer="r"))
    assert verdict.valid and not verdict.solved


def test_bad_answers(room):
    ctx = RoomContext("alice")
    puzzle = ask(room, ctx, xsb=LEVEL).puzzle
    for answer in ("rQ", ["r", "R"]):
        with pytest.raises(RoomError) as caught:
            room.solution(ctx, Solution(puzzle=puzzle, answer=answer))
        assert caught.value.code == "bad_answer"
    with pytest.raises(RoomError) as caught:
        room.solution(ctx, Solution(puzzle="sokoban-999999", answer="r"))
    assert caught.value.code == "unknown_puzzle"


def test_step_play_with_undo_redo_reset_and_leaderboard(room):
    ctx = RoomContext("carol")
    puzzle = ask(room, ctx, xsb=LEVEL).puzzle

    def act(name):
        return room.action(ctx, Action(puzzle=puzzle, action=name))

    state = act("left")
    assert state.state["blocked"] and state.counters == {"moves": 0, "pushes": 0}
    act("r")
    state = act("r")
    assert state.counters == {"moves": 2, "pushes": 1} and state.state["map"] == "#######\n#  @$.#\n#######"
    assert act("undo").counters["moves"] == 1
    assert act("redo").counters["moves"] == 2
    state = act("R")
    assert state.solved and state.state["rank"] == 1 and state.state["lurd"] == "rRR"
    board = act("leaderboard").state["leaderboard"]
    assert board[0]["player"] == "carol" and (board[0]["moves"], board[0]["pushes"]) == (3, 2)
    state = act("reset")
    assert state.counters["moves"] == 0 and not state.solved


def test_hint_comes_from_the_reference_solver(room):
    ctx = RoomContext("dave")
    puzzle = ask(room, ctx, xsb=LEVEL).puzzle
    room.action(ctx, Action(puzzle=puzzle, action="r"))
    assert room.action(ctx, Action(puzzle=puzzle, action="hint")).state["hint"] == "RR"


def test_unknown_action(room):
    ctx = RoomContext("alice")
    puzzle = ask(room, ctx, xsb=LEVEL).puzzle
    with pytest.raises(RoomError) as caught:
        room.action(ctx, Action(puzzle=puzzle, action="jump"))
    assert caught.value.code == "invalid_fields" and "'jump'" in caught.value.message

"""The sokoban room, called directly: requests, verdicts with ranks, step play, leaderboard, errors, caps, jobs."""

from __future__ import annotations

import pytest

from server.rooms import Job, Leaderboard, RoomContext, RoomError, sokoban
from server.rooms.sokoban import SokobanRoom
from shared.protocol import Action, PuzzleRequest, Solution
from tests.server.rooms.boards import ticking

LEVEL = "#######\n#@ $ .#\n#######\nTitle: corridor\n"


@pytest.fixture
def room() -> SokobanRoom:
    return SokobanRoom(Leaderboard(ticking()))


def ask(room, ctx, **fields):
    return room.request(ctx, PuzzleRequest(room="sokoban", **fields))


def test_the_room_offers_the_redistributable_collections_by_default(room):
    assert sorted(room.collections) == ["Grigr2001_100", "Grigr2002_40", "GrigrSpecial_40", "Holland_81"]
    assert "copyright message is retained" in room.collections["Holland_81"]


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


def room_text(width: int, height: int, boxes: int) -> str:
    """A walled ``width`` x ``height`` room with ``boxes`` boxes on its top inner rows, goals below, the player last."""
    inner = [(r, c) for r in range(1, height - 1) for c in range(1, width - 1)]
    marks = {cell: "$" for cell in inner[:boxes]} | {cell: "." for cell in inner[boxes:2 * boxes]}
    marks[inner[-1]] = "@"
    return "\n".join("".join("#" if r in (0, height - 1) or c in (0, width - 1) else marks.get((r, c), " ")
                             for c in range(width)) for r in range(height))


@pytest.mark.parametrize("xsb, words", [
    (room_text(101, 100, 3), "101x100 = 10100 cells"),
    (room_text(80, 30, sokoban.MAX_BOXES + 1), f"{sokoban.MAX_BOXES + 1} boxes"),
    # Run-length counts that would expand to a huge map (or one too long for int()): refused unexpanded.
    ("#####\n#@$.#\n999999999999#", "too large"),
    ("#####\n#@$.#\n" + "9" * 5000 + "#", "too large"),
    ("#####\n#@$.#\n" + "50000#", "too large"),
    ("#####\n#@$.#\n" + "20000#", "20000x3 = 60000 cells"),
])
def test_levels_over_the_caps_are_refused(room, xsb, words):
    with pytest.raises(RoomError) as caught:
        ask(room, RoomContext("eve"), xsb=xsb)
    assert caught.value.code == "bad_level" and words in caught.value.message


def test_the_caps_apply_to_the_level_asked_for_not_the_rest_of_the_text(room):
    big = room_text(120, 100, 3)
    message = ask(room, RoomContext("eve"), xsb=LEVEL + "\n\n" + big)
    assert message.data["width"] == 7
    wide = "#" * 3000 + "\n#@ $ ." + " " * 2993 + "#\n" + "#" * 3000      # 9,000 cells: within the cap
    assert ask(room, RoomContext("eve"), xsb=wide).data["width"] == 3000


def test_a_hint_is_a_job_and_says_why_it_has_none(room):
    ctx = RoomContext("dave")
    puzzle = ask(room, ctx, xsb=LEVEL).puzzle
    job = room.prepare(ctx, Action(puzzle=puzzle, action="hint"))
    assert isinstance(job, Job) and job.budget_s == sokoban.HINT_SECONDS
    assert job.run_here().state["hint"] == "rRR"
    assert job.stopped().state == {**job.run_here().state, "hint": None, "hint_status": "stopped"}
    stuck = ask(room, ctx, xsb="#####\n#@$ #\n#  .#\n#####").puzzle
    room.action(ctx, Action(puzzle=stuck, action="r"))          # the box into a corner, off its goal
    state = room.action(ctx, Action(puzzle=stuck, action="hint")).state
    assert state["hint"] is None and state["hint_status"] == "unsolvable"


def test_quick_frames_are_answered_at_once_and_long_answers_are_jobs(room):
    ctx = RoomContext("dave")
    puzzle = ask(room, ctx, xsb=LEVEL).puzzle
    assert room.prepare(ctx, Action(puzzle=puzzle, action="r")).counters["moves"] == 1
    room.action(ctx, Action(puzzle=puzzle, action="reset"))
    short = room.prepare(ctx, Solution(puzzle=puzzle, answer="rRR"))
    assert short.solved and short.figures["rank"] == 1
    wander = "rl" * (sokoban.INLINE_ANSWER // 2 + 1) + "rRR"
    job = room.prepare(ctx, Solution(puzzle=puzzle, answer=wander))
    assert isinstance(job, Job)
    verdict = job.finish(job.function(*job.args))
    assert verdict == room.solution(ctx, Solution(puzzle=puzzle, answer=wander))
    assert verdict.solved and verdict.figures["moves"] == len(wander)

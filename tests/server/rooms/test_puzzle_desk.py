"""The puzzle desk keeps users apart: a long hint runs in a worker while others are answered, a connection has
one frame in hand, a hint past its budget is stopped, jobs beyond the line are refused ``busy``."""

from __future__ import annotations

import asyncio
from functools import partial
from pathlib import Path

import pytest

from server.rooms import desk as puzzle_desk
from server.rooms.desk import PuzzleDesk
from server.rooms import Job, RoomContext, RoomError, sokoban
from shared.protocol import Action, PuzzleRequest, Solution
from tests.server.conftest import bounded
from tests.server.rooms import jobs
from tests.server.rooms.test_rooms_on_server import CORRIDOR, ask, enter
from tests.server.rooms.test_workers import Gate


def hold_hints(monkeypatch: pytest.MonkeyPatch, gate: Gate) -> None:
    """Make every hint a job that runs until ``gate`` opens (the worker imports ``jobs`` by name)."""
    monkeypatch.setattr(sokoban, "solve_hint", partial(jobs.blocking_hint, *gate.args))


async def corridor(desk: PuzzleDesk, ctx: RoomContext) -> str:
    """A new corridor puzzle for ``ctx``; its id."""
    puzzle = await bounded(desk.answer("sokoban", ctx, PuzzleRequest(room="sokoban", xsb=CORRIDOR)))
    return puzzle.puzzle


async def test_a_move_on_another_connection_is_answered_while_a_hint_runs(make_server, monkeypatch, tmp_path):
    gate = Gate(tmp_path)
    hold_hints(monkeypatch, gate)
    server = await make_server(players=0)
    slow, quick = await enter(server, key="slow"), await enter(server, key="quick")
    held = await ask(slow, {"type": "puzzle_request", "room": "sokoban", "xsb": CORRIDOR})
    await slow.send({"type": "action", "puzzle": held["puzzle"], "action": "hint"})
    await gate.until_started()
    own = await ask(quick, {"type": "puzzle_request", "room": "sokoban", "xsb": CORRIDOR})
    state = await ask(quick, {"type": "action", "puzzle": own["puzzle"], "action": "r"})
    assert state["type"] == "state" and state["counters"]["moves"] == 1
    assert not gate.release.exists()          # the hint is still running: it cannot end before the gate opens
    gate.open()
    hint = await slow.reply()
    assert hint["type"] == "state" and hint["state"]["hint"] is None and hint["state"]["hint_status"] == "time_limit"
    await slow.close()
    await quick.close()


async def test_a_connection_has_one_frame_in_hand(make_desk, monkeypatch, tmp_path):
    gate = Gate(tmp_path)
    hold_hints(monkeypatch, gate)
    desk = await make_desk()
    mine, other = RoomContext("mine"), RoomContext("other")
    puzzle, theirs = await corridor(desk, mine), await corridor(desk, other)
    hint = asyncio.create_task(desk.answer("sokoban", mine, Action(puzzle=puzzle, action="hint")))
    await gate.until_started()
    with pytest.raises(RoomError) as refused:
        await bounded(desk.answer("sokoban", mine, Action(puzzle=puzzle, action="r")))
    assert refused.value.code == "busy" and "previous frame" in refused.value.message
    moved = await bounded(desk.answer("sokoban", other, Action(puzzle=theirs, action="r")))
    assert moved.counters["moves"] == 1
    gate.open()
    assert (await bounded(hint)).state["hint_status"] == "time_limit"
    moved = await bounded(desk.answer("sokoban", mine, Action(puzzle=puzzle, action="r")))
    assert moved.counters["moves"] == 1       # the frame refused meanwhile was not played


async def test_a_hint_past_its_budget_is_stopped_and_answered_without_one(make_desk, monkeypatch, tmp_path):
    hold_hints(monkeypatch, Gate(tmp_path))   # never opened: only the desk can end this job
    monkeypatch.setattr(sokoban, "HINT_SECONDS", 0.05)
    desk = await make_desk(grace_s=0.05)
    ctx = RoomContext("ann")
    puzzle = await corridor(desk, ctx)
    state = await bounded(desk.answer("sokoban", ctx, Action(puzzle=puzzle, action="hint")))
    assert state.state["hint"] is None and state.state["hint_status"] == "stopped"
    assert desk.pool.killed == 1
    monkeypatch.undo()                        # the real solver again, in the replacement worker
    state = await bounded(desk.answer("sokoban", ctx, Action(puzzle=puzzle, action="hint")))
    assert state.state["hint"] == "rRR" and state.state["hint_status"] == "solved"


async def test_jobs_beyond_the_line_are_refused_busy_and_quick_answers_go_on(make_desk, monkeypatch, tmp_path):
    gate = Gate(tmp_path)
    hold_hints(monkeypatch, gate)
    desk = await make_desk(workers=1, waiting=0)
    first, second = RoomContext("first"), RoomContext("second")
    held, other = await corridor(desk, first), await corridor(desk, second)
    hint = asyncio.create_task(desk.answer("sokoban", first, Action(puzzle=held, action="hint")))
    await gate.until_started()
    with pytest.raises(RoomError) as refused:
        await bounded(desk.answer("sokoban", second, Action(puzzle=other, action="hint")))
    assert refused.value.code == "busy" and "workers are busy" in refused.value.message
    state = await bounded(desk.answer("sokoban", second, Action(puzzle=other, action="r")))
    assert state.counters["moves"] == 1
    gate.open()
    await bounded(hint)


async def test_a_long_answer_is_judged_in_a_worker_like_a_short_one(make_desk):
    desk = await make_desk()
    ctx = RoomContext("ann")
    puzzle = await corridor(desk, ctx)
    wander = "rl" * (sokoban.INLINE_ANSWER // 2 + 1)     # legal moves, then the solution
    message = Solution(puzzle=puzzle, answer=wander + "rRR")
    assert isinstance(desk.rooms["sokoban"].prepare(ctx, message), Job)
    verdict = await bounded(desk.answer("sokoban", ctx, message))
    assert verdict.valid and verdict.solved and verdict.figures["moves"] == len(wander) + 3
    with pytest.raises(RoomError) as bad:
        await bounded(desk.answer("sokoban", ctx, Solution(puzzle=puzzle, answer=wander + "x")))
    assert bad.value.code == "bad_answer" and "'x'" in bad.value.message


async def test_a_room_bug_in_a_job_is_an_internal_error(make_desk, monkeypatch):
    monkeypatch.setattr(sokoban, "solve_hint", partial(jobs.fail, "a bug in the solver"))
    desk = await make_desk()
    ctx = RoomContext("ann")
    puzzle = await corridor(desk, ctx)
    with pytest.raises(RoomError) as failed:
        await bounded(desk.answer("sokoban", ctx, Action(puzzle=puzzle, action="hint")))
    assert failed.value.code == "internal_error"
    state = await bounded(desk.answer("sokoban", ctx, Action(puzzle=puzzle, action="r")))
    assert state.counters["moves"] == 1


def test_the_desk_starts_its_workers_from_the_module_defaults(monkeypatch):
    monkeypatch.setattr(puzzle_desk, "WORKERS", 3)
    assert PuzzleDesk(Path("unused.db")).pool.size == 3

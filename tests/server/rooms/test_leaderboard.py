"""The puzzle rooms' leaderboard: a pure board in memory, its SQLite store behind a facade that owns its thread,
and the desk that stores a room call's entries before anyone hears of them."""

from __future__ import annotations

import ast
import asyncio
import json
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from server.disk.store_thread import StoreClosedError
from server.rooms import RoomContext, RoomError
from server.rooms import leaderboard as board_module
from server.rooms.desk import PuzzleDesk
from server.rooms.leaderboard import Entry, Leaderboard, Record
from server.rooms.leaderboard_store import THREAD_NAME, LeaderboardRecords
from shared.protocol import Action, PuzzleRequest, Solution
from tests.server.conftest import bounded
from tests.server.rooms.boards import ticking
from tests.server.rooms.test_rooms_on_server import CORRIDOR


async def solve_corridor(desk: PuzzleDesk, ctx: RoomContext, answer: str = "rRR") -> Any:
    """Ask for the corridor and hand in ``answer``: the verdict."""
    puzzle = await bounded(desk.answer("sokoban", ctx, PuzzleRequest(room="sokoban", xsb=CORRIDOR)))
    return await bounded(desk.answer("sokoban", ctx, Solution(puzzle=puzzle.puzzle, answer=answer)))


async def board_of(desk: PuzzleDesk, ctx: RoomContext) -> list[tuple[str, int]]:
    """The corridor's leaderboard as ``ctx`` is shown it: (player, moves), best first."""
    puzzle = await bounded(desk.answer("sokoban", ctx, PuzzleRequest(room="sokoban", xsb=CORRIDOR)))
    state = await bounded(desk.answer("sokoban", ctx, Action(puzzle=puzzle.puzzle, action="leaderboard")))
    return [(e["player"], e["moves"]) for e in state.state["leaderboard"]]


# -- the board --------------------------------------------------------------------------------------

def test_the_board_module_does_no_io_and_reads_no_clock():
    tree = ast.parse(Path(board_module.__file__).read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {(node.module or "").split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not imported & {"sqlite3", "pathlib", "threading", "datetime", "time", "os", "asyncio"}, imported


def test_the_board_ranks_by_score_then_time_keeps_each_players_best_and_hands_over_what_changed():
    board = Leaderboard(ticking())
    assert board.record("sokoban", "a", "ann", (5, 2), "x") == 1
    assert board.record("sokoban", "a", "bob", (5, 2), "y") == 2          # the same score, later
    assert board.record("sokoban", "a", "cid", (3, 1), "z") == 1
    assert board.record("sokoban", "a", "ann", (9, 9), "worse") == 2      # not better: the old entry stays
    assert [(e.player, e.score, e.answer) for e in board.top("sokoban", "a")] == [
        ("cid", (3, 1), "z"), ("ann", (5, 2), "x"), ("bob", (5, 2), "y")]
    taken = board.take_unsaved()
    assert [(u.room, u.level, u.entry.player, u.replaced) for u in taken] == [
        ("sokoban", "a", "ann", None), ("sokoban", "a", "bob", None), ("sokoban", "a", "cid", None)]
    assert board.take_unsaved() == []
    first = board.top("sokoban", "a")[1]
    assert board.record("sokoban", "a", "ann", (2, 2), "best") == 1
    [better] = board.take_unsaved()
    assert better.entry.answer == "best" and better.replaced == first
    board.withdraw([better])                                               # not stored: ann's old entry is back
    assert board.top("sokoban", "a")[1] == first and board.take_unsaved() == []


def test_a_seeded_board_ranks_the_stored_entries_and_has_nothing_unsaved():
    board = Leaderboard(ticking())
    board.seed([Record("ice", "7", Entry("old", (4, 1), "rr", "2025-01-01T00:00:00+00:00"))])
    assert board.take_unsaved() == []
    assert board.record("ice", "7", "new", (4, 1), "dd") == 2              # the stored entry is older
    assert [e.player for e in board.top("ice", "7")] == ["old", "new"]


# -- the store and its facade -----------------------------------------------------------------------

async def test_the_store_keeps_the_rows_of_earlier_servers_and_writes_them_alike(tmp_path):
    path = tmp_path / "puzzles.db"
    with sqlite3.connect(path) as db:     # a file as the server before the facade made it
        db.execute("CREATE TABLE IF NOT EXISTS leaderboard (room TEXT, level TEXT, player TEXT, score TEXT, "
                   "answer TEXT, at TEXT, PRIMARY KEY (room, level, player))")
        db.execute("INSERT INTO leaderboard VALUES ('sokoban', 'corridor', 'old', '[3, 2]', 'rRR', "
                   "'2025-05-05T10:00:00+00:00')")
    db.close()
    records = await bounded(LeaderboardRecords.open(path))
    assert await bounded(records.entries()) == [
        Record("sokoban", "corridor", Entry("old", (3, 2), "rRR", "2025-05-05T10:00:00+00:00"))]
    new = Record("ice", "9", Entry("new", (7, 3), "rdl", "2026-01-01T00:00:00+00:00"))
    await bounded(records.save([new]))
    await bounded(records.close())
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT * FROM leaderboard WHERE room = 'ice'").fetchall()
        mode = db.execute("PRAGMA journal_mode").fetchone()[0]
    db.close()
    assert rows == [("ice", "9", "new", json.dumps([7, 3]), "rdl", "2026-01-01T00:00:00+00:00")] and mode == "wal"


async def test_the_facade_owns_its_thread_and_refuses_calls_once_closed(tmp_path):
    records = await bounded(LeaderboardRecords.open(None))
    assert any(t.name.startswith(THREAD_NAME) for t in threading.enumerate())
    entry = Record("circuit", "k", Entry("ann", (4,), "a", "2026-01-01T00:00:00+00:00"))
    await bounded(records.save([entry]))
    assert await bounded(records.entries()) == [entry]
    await bounded(records.close())
    assert records.closed and not any(t.name.startswith(THREAD_NAME) for t in threading.enumerate())
    with pytest.raises(StoreClosedError):
        await records.save([entry])
    assert list(tmp_path.iterdir()) == []                                  # in memory: nothing on disk


# -- the desk ---------------------------------------------------------------------------------------

async def test_a_verdict_is_sent_only_once_its_entry_is_stored(make_desk, monkeypatch):
    saving, release = asyncio.Event(), asyncio.Event()
    handed: list[Record] = []
    real_save = LeaderboardRecords.save

    async def held_save(self: LeaderboardRecords, records: Sequence[Record]) -> None:
        handed.extend(records)
        saving.set()
        await release.wait()
        await real_save(self, records)

    monkeypatch.setattr(LeaderboardRecords, "save", held_save)
    desk = await make_desk(workers=1)
    ctx = RoomContext("ann")
    puzzle = await bounded(desk.answer("sokoban", ctx, PuzzleRequest(room="sokoban", xsb=CORRIDOR)))
    verdict = asyncio.create_task(desk.answer("sokoban", ctx, Solution(puzzle=puzzle.puzzle, answer="rRR")))
    await bounded(saving.wait())
    assert [(r.room, r.entry.player, r.entry.score) for r in handed] == [("sokoban", "ann", (3, 2))]
    assert not verdict.done()             # the save is held: the verdict cannot have been given
    release.set()
    assert (await bounded(verdict)).figures["rank"] == 1
    stored = await bounded(desk._records.entries())                      # noqa: SLF001
    assert [(r.room, r.level, r.entry) for r in stored] == [(r.room, r.level, r.entry) for r in handed]


async def test_an_entry_that_cannot_be_stored_is_an_internal_error_and_leaves_the_board_as_it_was(make_desk,
                                                                                                   monkeypatch):
    async def failing_save(self: LeaderboardRecords, records: Sequence[Record]) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    desk = await make_desk(workers=1)
    with monkeypatch.context() as patch:
        patch.setattr(LeaderboardRecords, "save", failing_save)
        with pytest.raises(RoomError) as failed:
            await solve_corridor(desk, RoomContext("ann"))
        assert failed.value.code == "internal_error" and "could not store" in failed.value.message
        assert await board_of(desk, RoomContext("bob")) == []              # nobody is shown the unstored entry
    verdict = await solve_corridor(desk, RoomContext("ann"))               # storing works again: ranked and kept
    assert verdict.figures["rank"] == 1 and await board_of(desk, RoomContext("bob")) == [("ann", 3)]


async def test_the_leaderboard_survives_a_new_desk_on_the_same_file(make_desk, tmp_path):
    path = tmp_path / "puzzles.db"
    first = await make_desk(path, workers=1)
    assert (await solve_corridor(first, RoomContext("ann"))).figures["rank"] == 1
    await bounded(first.close())
    second = await make_desk(path, workers=1)
    assert await board_of(second, RoomContext("bob")) == [("ann", 3)]
    assert (await solve_corridor(second, RoomContext("bob"), "rlrRR")).figures["rank"] == 2

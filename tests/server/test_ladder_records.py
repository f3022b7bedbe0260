"""``LadderRecords``: the ladder's store from the event loop: each call returns the store's answer, its errors come back
as the store raises them, and ``close`` waits for the games queued before it (issue 30)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading

import pytest

from server.disk.sqlite_files import DatabaseFileError
from server.disk.store_thread import StoreClosedError
from server.ladder.records import THREAD_NAME, LadderRecords
from server.ladder.store import LadderGame, LadderStore, Track
from shared.ladder import LiveRatings

RATINGS = LiveRatings()


def _game(number: int, white: Track, black: Track) -> LadderGame:
    after = RATINGS.after_game(white.skill, black.skill, 0)
    return LadderGame(f"L{number}-g1", number, white, black, 0, "goal", "e2 e8", None, "2026-01-01T00:00:00",
                      (300, 200), (0, 1), ((100, 200), (50,)), ((), ("not_reachable",)), after)


def _store_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith(THREAD_NAME)]


async def test_each_call_returns_what_the_store_answers(tmp_path):
    records = await LadderRecords.open(tmp_path / "ladder.db")
    me = await records.track("me", "v1", RATINGS.initial())
    you = await records.track("you", "v1", RATINGS.initial())
    await records.record(_game(7, me, you))
    assert [t.label for t in await records.tracks()] == ["me@v1", "you@v1"]
    assert await records.last_pairing() == 7
    assert await records.meetings() == {("me", "you"): 1}
    assert await records.meetings("2999-01-01T00:00:00") == {}
    assert [f.game_id for f in await records.facts([me.id])] == ["L7-g1"]
    rows, tracks = await records.published()
    track, report = await records.report("me@v1", 1000)
    assert await records.report("nobody", 1000) is None
    await records.close()
    store = LadderStore(tmp_path / "ladder.db")                # the same answers, read on this thread
    try:
        assert (rows, tracks) == store.published() and store.report("me@v1", 1000) == (track, report)
    finally:
        store.close()


async def test_a_stores_error_comes_back_as_its_own_and_no_thread_is_left(tmp_path):
    records = await LadderRecords.open(tmp_path / "ladder.db")
    me = await records.track("me", "v1", RATINGS.initial())
    await records.record(_game(1, me, me))
    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):     # the same game id again: SQLite refuses it
        await records.record(_game(1, me, me))
    await records.close()
    with pytest.raises(StoreClosedError, match="is closed"):
        await records.tracks()
    other = tmp_path / "other.db"
    other.write_bytes(b"not a database at all, " * 100)
    with pytest.raises(DatabaseFileError, match=r"other\.db is not an SQLite database .*move it aside"):
        await LadderRecords.open(other)

    async def gone() -> None:
        while _store_threads():
            await asyncio.sleep(0.01)
    await asyncio.wait_for(gone(), 5)


async def test_close_waits_for_the_games_queued_before_it(tmp_path):
    records = await LadderRecords.open(tmp_path / "ladder.db")
    me = await records.track("me", "v1", RATINGS.initial())
    you = await records.track("you", "v1", RATINGS.initial())
    writes = [asyncio.ensure_future(records.record(_game(n, me, you))) for n in range(1, 6)]
    await asyncio.sleep(0)                                      # each task queues its game
    await records.close()
    assert records.closed and all(w.done() and w.exception() is None for w in writes) and not _store_threads()
    store = LadderStore(tmp_path / "ladder.db")
    try:
        assert [f.game_id for f in store.facts()] == [f"L{n}-g1" for n in range(1, 6)]
    finally:
        store.close()

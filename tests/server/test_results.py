"""``Results``, the store's async facade: every call works from the event loop, calls that queue up
while its thread works share one commit, a failing call fails alone, and closing waits for every
write that was asked for."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Coroutine, Iterator, Set as AbstractSet
from contextlib import contextmanager
from pathlib import Path

import pytest

from server.tournament.results import THREAD_NAME, Results
from server.tournament.store import NotFoundError, ResultStore, StoreError, StoreUsageError
from shared.tournament import GameResult, ScheduledGame, round_robin
from tests.server.conftest import bounded

PLAYERS = ["carol", "alice", "bob"]
SETTINGS = {"format": "round-robin", "limits": {"think_ms": 2000}}


def plan() -> list[ScheduledGame]:
    return [g for r in round_robin(PLAYERS, 1, 42) for g in r]


def key(game: ScheduledGame) -> tuple[int, int, int]:
    return game.round, game.pairing, game.game_in_pairing


async def new_tournament(results: Results) -> int:
    return await bounded(results.create_tournament("cup", "round-robin", 1, 42, PLAYERS, SETTINGS))


async def record(results: Results, tid: int, game: ScheduledGame, winner: int = 0) -> None:
    await results.record_result(tid, key(game), GameResult(game.white, game.black, winner, "goal", (10, 20)),
                                log_path="g.csv", game_id=f"g{key(game)}", started_at="t0", ended_at="t1", steps=9)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "data" / "arena.db"


@contextmanager
def write_lock(db: Path) -> Iterator[None]:
    """Another process's write transaction: the store's thread waits in its BEGIN until the block ends."""
    other = sqlite3.connect(db, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield
        other.execute("COMMIT")
    finally:
        other.close()


class Batches:
    """Tells when the store's thread begins a batch of calls (before it asks for the write lock)."""

    def __init__(self) -> None:
        self.began = threading.Event()

    def expect(self) -> None:
        """Forget the batches begun so far: ``next`` waits for one begun after this call."""
        self.began.clear()

    async def next(self) -> None:
        """Wait (at most 10 s) until the thread has begun a batch since ``expect``."""
        assert await asyncio.to_thread(self.began.wait, 10), "the store's thread began no batch"


@pytest.fixture
def batches(monkeypatch: pytest.MonkeyPatch) -> Batches:
    """Each batch the store's thread begins, told (``ResultStore.batch`` wrapped; it is taken at ``Results.open``)."""
    told = Batches()
    batch = ResultStore.batch

    @contextmanager
    def telling(store: ResultStore) -> Iterator[None]:
        told.began.set()
        with batch(store):
            yield
    monkeypatch.setattr(ResultStore, "batch", telling)
    return told


async def queued(*calls: Coroutine[object, object, object]) -> list[asyncio.Future[object]]:
    """The ``calls`` as tasks, each queued on the store's thread by the time this returns."""
    tasks = [asyncio.ensure_future(call) for call in calls]
    await asyncio.sleep(0)      # a yield, not a wait: each task runs up to its first await, its call queued
    return tasks


def store_threads(besides: AbstractSet[threading.Thread] = frozenset()) -> list[str]:
    """The names of the store threads alive now, but for those in ``besides`` (other tests' servers)."""
    return [t.name for t in threading.enumerate() if t.name.startswith(THREAD_NAME) and t not in besides]


async def test_every_operation_of_a_tournament_works_from_the_event_loop(db, tmp_path):
    games = plan()
    async with await bounded(Results.open(db)) as results:
        tid = await new_tournament(results)
        assert (await results.latest_unfinished()).id == tid
        assert (await results.tournament(tid)).players == tuple(PLAYERS)
        await results.schedule(tid, iter(games))                   # any iterable, read before the call returns
        await results.mark_started(tid, key(games[0]), "g1", "t0")
        await results.mark_started(tid, key(games[1]), "g2", "t0")
        await record(results, tid, games[0])
        assert await results.reset_unfinished(tid) == 1            # games[1] was left running
        assert [g.status for g in await results.games(tid)] == ["finished", "pending", "pending"]
        assert [g.game_id for g in await results.results(tid)] == [f"g{key(games[0])}"]
        assert await results.record_timeout(tid, "bob") == 1
        assert await results.record_timeout(tid, "bob", kicked=True) == 2
        assert (await results.player_states(tid))["bob"] == (2, True)
        await results.finish_tournament(tid, [{"player": "carol", "points": 1.0}])
        assert (await results.tournament(tid)).finished and await results.latest_unfinished() is None
        json_path, csv_path = await results.export(tid, tmp_path / "cup")
        assert json_path.exists() and csv_path.exists()


async def test_calls_that_queue_while_the_thread_works_share_one_commit(db, batches):
    games = plan()
    async with await bounded(Results.open(db)) as results:
        tid = await new_tournament(results)
        await results.schedule(tid, games)
        before = results.commits
        with write_lock(db):
            batches.expect()
            first = asyncio.ensure_future(results.mark_started(tid, key(games[0]), "g1", "t0"))
            await batches.next()                        # the thread took it and waits for the lock
            rest = await queued(*[results.mark_started(tid, key(g), f"g{n}", "t0") for n, g in enumerate(games[1:], 2)],
                                results.record_timeout(tid, "alice"))
        await bounded(asyncio.gather(first, *rest))
        # Four calls, one commit with the first or one after it: never one commit each.
        assert results.commits - before <= 2
        assert [g.game_id for g in await results.games(tid)] == ["g1", "g2", "g3"]


async def test_a_failing_call_fails_alone_and_the_others_of_its_batch_are_committed(db, batches):
    games = plan()
    async with await bounded(Results.open(db)) as results:
        tid = await new_tournament(results)
        await results.schedule(tid, games)
        await record(results, tid, games[2])
        with write_lock(db):
            batches.expect()
            blocker = asyncio.ensure_future(results.record_timeout(tid, "carol"))
            await batches.next()                        # the thread took it and waits for the lock
            before = results.commits
            calls = await queued(
                results.mark_started(tid, key(games[0]), "g1", "t0"),
                results.mark_started(tid, (9, 9, 9), "gx", "t0"),            # not scheduled
                record(results, tid, games[2], winner=1),                    # results are final
                results.mark_started(tid, key(games[1]), "g2", "t0"))
        outcomes = await bounded(asyncio.gather(blocker, *calls, return_exceptions=True))
        assert outcomes[0] == 1 and outcomes[1] is None and outcomes[4] is None
        assert isinstance(outcomes[2], NotFoundError) and isinstance(outcomes[3], StoreUsageError)
        assert results.commits - before == 2                 # the blocker's batch, then these four together
        assert [(g.status, g.game_id, g.winner) for g in await results.games(tid)] == [
            ("running", "g1", None), ("running", "g2", None), ("finished", f"g{key(games[2])}", 0)]


async def test_close_waits_for_the_writes_asked_for_later_and_the_file_reopens(db, batches):
    others = set(threading.enumerate())
    results = await bounded(Results.open(db))
    tid = await new_tournament(results)
    with write_lock(db):
        batches.expect()
        for _ in range(3):
            results.record_timeout_later(tid, "bob")          # from a callback: returns at once
        results.record_timeout_later(tid, "alice", kicked=True)
        [closing] = await queued(results.close())
        await batches.next()                                  # the thread took the writes and waits for the lock
        assert not closing.done()
    await bounded(closing)
    assert results.closed and not store_threads(others)
    async with await bounded(Results.open(db)) as again:
        assert await again.player_states(tid) == {"carol": (0, False), "alice": (1, True), "bob": (3, False)}
        assert (await again.tournament(tid)).name == "cup"


async def test_a_failed_write_asked_for_later_is_logged_and_the_others_are_made(db, caplog):
    async with await bounded(Results.open(db)) as results:
        tid = await new_tournament(results)
        results.record_timeout_later(tid, "nobody")
        results.record_timeout_later(tid, "bob")
        await bounded(results.flush())
        assert "storing a timeout of 'nobody' in tournament" in caplog.text and "no player 'nobody'" in caplog.text
        assert (await results.player_states(tid))["bob"] == (1, False)


async def test_a_call_whose_wait_is_cancelled_is_still_made(db, batches):
    async with await bounded(Results.open(db)) as results:
        tid = await new_tournament(results)
        with write_lock(db):
            batches.expect()
            waiting = asyncio.ensure_future(results.record_timeout(tid, "bob"))
            await batches.next()                              # the thread took it and waits for the lock
            waiting.cancel()
        assert (await bounded(results.player_states(tid)))["bob"] == (1, False)


async def test_a_closed_store_refuses_calls_and_closes_once(db):
    results = await bounded(Results.open(db))
    await asyncio.gather(results.close(), results.close())
    await results.close()
    with pytest.raises(StoreError, match="is closed"):
        await results.latest_unfinished()
    with pytest.raises(StoreError, match="is closed"):
        results.record_timeout_later(1, "bob")


async def test_a_file_that_is_not_a_database_is_refused_and_leaves_no_thread(tmp_path):
    path = tmp_path / "arena.db"
    path.write_bytes(b"name,score\nalice,1\n" * 200)
    others = set(threading.enumerate())
    with pytest.raises(StoreError, match="is not a Quoridor Arena results database"):
        await bounded(Results.open(path))
    for thread in set(threading.enumerate()) - others:        # the store's, if it has not ended yet
        if thread.name.startswith(THREAD_NAME):
            await asyncio.to_thread(thread.join, 5)
    assert not store_threads(others)

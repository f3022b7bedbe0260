"""``Results``: the results database as the server uses it — typed ``async`` calls on the store's own thread.

``ResultStore`` (``server.tournament.store``) is synchronous SQLite. ``Results`` owns the one worker thread it
runs on and a ``ThreadBatcher`` in front of it: the calls that queue up while the thread is busy
(hundreds of games ending together) run as one batch in one transaction, so they share one
commit, one sync to disk. Each call is still all or nothing by itself (a savepoint): one that
raises fails alone, and the others of its batch are committed.

Calls run in the order they are made. Their arguments are read on the store's thread, so a
caller must not change a mapping or list it passed before the call returns. Cancelling a wait
does not cancel the call: a write that was asked for is made.

``record_timeout_later`` is for callbacks that cannot wait (a step's hook): it returns at once,
logs its failure, and ``flush()``/``close()`` wait for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar, cast

from shared.tournament import GameResult, ScheduledGame

from server.disk.batching import Outcome, ThreadBatcher
from server.tournament.store import ResultStore, StoreError
from server.tournament.rows import GameRow, TournamentRow

__all__ = ["Results", "GameKey", "THREAD_NAME"]

log = logging.getLogger("quoridor.server")

T = TypeVar("T")
#: The store's identity of a scheduled game: (round, pairing, game in pairing).
GameKey = tuple[int, int, int]
#: The name (prefix) of the store's worker thread.
THREAD_NAME = "quoridor-db"

#: One queued call: what it does to the store, on the store's thread.
_Call = Callable[[ResultStore], Any]


class Results:
    """The results database at ``path``: ``await Results.open(path)``, then one ``async`` method per operation.

    Every method raises what ``ResultStore`` raises for it (``StoreError``, its ``NotFoundError``,
    ``StoreUsageError``); after ``close()`` every call raises ``StoreError``.
    """

    def __init__(self, store: ResultStore, thread: ThreadPoolExecutor) -> None:
        """Take over an open ``store`` and the one-worker ``thread`` it is used on (``open`` makes both)."""
        self.path = store.path
        self._store = store
        self._thread = thread
        self._calls: ThreadBatcher[_Call] = ThreadBatcher(thread, self._run_batch)
        self._later: set[asyncio.Future[Any]] = set()
        self._closing = False
        self._closed = asyncio.Event()

    @classmethod
    async def open(cls, path: Path) -> Results:
        """Open (creating it and its folder if missing) the results database at ``path`` on a new thread.

        Raises ``StoreError`` if it cannot be opened or is not a results database; no thread is left behind.
        """
        thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix=THREAD_NAME)
        try:
            store = await asyncio.get_running_loop().run_in_executor(thread, ResultStore, Path(path))
        except BaseException:
            thread.shutdown(wait=False)
            raise
        return cls(store, thread)

    @property
    def commits(self) -> int:
        """Transactions committed so far (a batch of calls counts once; reads count too)."""
        return self._store.commits

    @property
    def closed(self) -> bool:
        """True once ``close()`` was called."""
        return self._closing

    # -- tournaments ----------------------------------------------------------------------------
    async def create_tournament(self, name: str, fmt: str, games_per_pairing: int, seed: int | None,
                                players: Sequence[str], settings: Mapping[str, Any]) -> int:
        """Store a new, unfinished tournament and its players (in seat order); returns its id."""
        players, settings = tuple(players), dict(settings)
        return await self._run(lambda store: store.create_tournament(name, fmt, games_per_pairing, seed,
                                                                     players, settings))

    async def latest_unfinished(self) -> TournamentRow | None:
        """The most recently created tournament not marked finished, or None."""
        return await self._run(lambda store: store.latest_unfinished())

    async def tournament(self, tid: int) -> TournamentRow:
        """The tournament ``tid``; ``NotFoundError`` (a KeyError) if there is none."""
        return await self._run(lambda store: store.tournament(tid))

    async def finish_tournament(self, tid: int, standings: Sequence[Mapping[str, Any]]) -> None:
        """Mark ``tid`` finished with its final ``standings`` (one mapping per row, best first)."""
        rows = list(standings)
        await self._run(lambda store: store.finish_tournament(tid, rows))

    async def export(self, tid: int, folder: Path) -> tuple[Path, Path]:
        """Write ``folder/results.json`` and ``folder/results.csv`` for ``tid``; returns both paths."""
        return await self._run(lambda store: store.export(tid, folder))

    # -- games ------------------------------------------------------------------------------------
    async def schedule(self, tid: int, games: Iterable[ScheduledGame]) -> None:
        """Add ``games`` as 'pending' (a key already stored keeps its row); all or nothing."""
        planned = tuple(games)
        await self._run(lambda store: store.schedule(tid, planned))

    async def reset_unfinished(self, tid: int) -> int:
        """Turn the 'running' games of ``tid`` (left by a crash) back to 'pending'; returns how many."""
        return await self._run(lambda store: store.reset_unfinished(tid))

    async def mark_started(self, tid: int, key: GameKey, game_id: str, started_at: str) -> None:
        """Set a scheduled game 'running' with its ``game_id`` and start time; a finished game is refused."""
        await self._run(lambda store: store.mark_started(tid, key, game_id, started_at))

    async def record_result(self, tid: int, key: GameKey, result: GameResult, *, log_path: str | None,
                            game_id: str, started_at: str | None, ended_at: str, steps: int) -> None:
        """Store the ``result`` of a scheduled game and set it 'finished' (the same result again: no-op)."""
        await self._run(lambda store: store.record_result(tid, key, result, log_path=log_path, game_id=game_id,
                                                          started_at=started_at, ended_at=ended_at, steps=steps))

    async def games(self, tid: int, status: str | None = None) -> list[GameRow]:
        """The games of ``tid`` (only those with ``status`` if given), by (round, pairing, game_in_pairing)."""
        return await self._run(lambda store: store.games(tid, status))

    async def results(self, tid: int) -> list[GameRow]:
        """The finished games of ``tid`` in order."""
        return await self._run(lambda store: store.results(tid))

    # -- players ----------------------------------------------------------------------------------
    async def record_timeout(self, tid: int, player: str, *, kicked: bool = False) -> int:
        """Count a timeout of ``player`` (and its removal, when ``kicked``); returns its timeouts so far."""
        return await self._run(lambda store: store.record_timeout(tid, player, kicked=kicked))

    def record_timeout_later(self, tid: int, player: str, *, kicked: bool = False) -> None:
        """``record_timeout`` without waiting (from a callback): queued now, a failure is logged.

        ``flush()`` and ``close()`` wait for it. Raises ``StoreError`` at once if the store is closed.
        """
        self._write_later(lambda store: store.record_timeout(tid, player, kicked=kicked),
                          f"a timeout of {player!r} in tournament {tid}")

    async def player_states(self, tid: int) -> dict[str, tuple[int, bool]]:
        """Each player's timeouts so far and whether it was removed for them, by name."""
        return await self._run(lambda store: store.player_states(tid))

    # -- lifecycle ----------------------------------------------------------------------------------
    async def flush(self) -> None:
        """Wait until every write queued by a ``*_later`` method so far is made (or has failed, logged)."""
        while self._later:
            await asyncio.gather(*list(self._later), return_exceptions=True)

    async def close(self) -> None:
        """Refuse new calls, wait for the queued ones (``*_later`` writes included), close the database
        and end the thread. Idempotent; a second caller waits until the first has finished."""
        if self._closing:
            await self._closed.wait()
            return
        self._closing = True
        try:
            await self.flush()
            # The thread runs its jobs in order: this comes after every batch queued so far.
            await asyncio.get_running_loop().run_in_executor(self._thread, self._store.close)
        finally:
            self._thread.shutdown(wait=True)    # idle by now: nothing to wait for
            self._closed.set()

    async def __aenter__(self) -> Results:
        return self     # closed by __aexit__

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()

    # -- plumbing -----------------------------------------------------------------------------------
    def _enqueue(self, call: Callable[[ResultStore], T]) -> asyncio.Future[T]:
        if self._closing:
            raise StoreError(f"the results store {self.path} is closed; open it again with Results.open")
        return cast("asyncio.Future[T]", self._calls.enqueue(call))

    async def _run(self, call: Callable[[ResultStore], T]) -> T:
        return await self._enqueue(call)

    def _write_later(self, call: _Call, what: str) -> None:
        future = self._enqueue(call)
        self._later.add(future)

        def written(done: asyncio.Future[Any]) -> None:
            self._later.discard(done)
            if not done.cancelled() and done.exception() is not None:
                log.error("storing %s failed: %s", what, done.exception())
        future.add_done_callback(written)

    def _run_batch(self, calls: Sequence[_Call]) -> list[Outcome]:
        """On the store's thread: ``calls`` in order in one transaction, each in its own savepoint."""
        outcomes: list[Outcome] = []
        with self._store.batch():
            for call in calls:
                try:
                    outcomes.append((True, call(self._store)))
                except Exception as exc:  # noqa: BLE001 - that call's error, raised to its caller
                    outcomes.append((False, exc))
        return outcomes

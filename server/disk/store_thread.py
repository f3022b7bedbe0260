"""``StoreThread``: a synchronous store on the one worker thread it owns, the one way the server reaches a store.

Each store's facade (``server.tournament.results.Results``, ``server.ladder.records.LadderRecords``,
``server.submissions.records.SubmissionRecords``, ``server.rooms.leaderboard_store.LeaderboardRecords``) is a
``StoreFacade``: it holds one and gives every store call a typed ``async`` method over ``call``. Calls run in the order they are made; the calls that queue up while
the thread works run as one batch (a ``ThreadBatcher``), inside ``batch(store)`` when the store has
one (the results' one transaction), else one after another. A call's exception is raised to its
caller as the store raised it, and fails that call alone. Cancelling a wait does not cancel the
call: a write that was asked for is made. ``close`` refuses new calls, waits for the queued ones,
closes the store on its thread and ends the thread: nothing is left running.

An SQLite error of a call is raised as ``server.disk.sqlite_files.DatabaseFileError``, one line naming the
store's file. At quiet times (nothing queued, ``QUIET_CHECKPOINT_BATCHES`` batches since the last) and at
``close`` a store that has ``checkpoint()`` empties its WAL into its file, so the ``-wal`` file stays small
and a copy of the file alone holds what was stored before the quiet time.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from types import TracebackType
from typing import Any, Generic, Protocol, Self, TypeVar, cast

from server.disk.batching import Outcome, ThreadBatcher
from server.disk.sqlite_files import database_error

__all__ = ["StoreThread", "StoreFacade", "StoreClosedError", "QUIET_CHECKPOINT_BATCHES"]

#: Batches of calls after which a quiet moment empties the store's WAL (each checkpoint is two syncs).
QUIET_CHECKPOINT_BATCHES = 16

log = logging.getLogger("quoridor.server")

T = TypeVar("T")


class _Store(Protocol):
    path: Path | None

    def close(self) -> None: ...


S = TypeVar("S", bound=_Store)


class StoreClosedError(RuntimeError):
    """A call to a store whose facade was closed."""


class StoreThread(Generic[S]):
    """``store`` and the one-worker ``executor`` it is used on (``open`` makes both): ``await call(fn)`` runs
    ``fn(store)`` there; after ``close()`` every call raises ``closed()``."""

    def __init__(self, store: S, executor: ThreadPoolExecutor, *, closed: Callable[[], Exception],
                 batch: Callable[[S], AbstractContextManager[Any]] | None = None) -> None:
        """Take over an open ``store`` and its ``executor``; ``batch(store)`` wraps each batch of calls."""
        self.store = store
        self._executor = executor
        self._closed_error = closed
        self._batch = batch
        self._calls: ThreadBatcher[Callable[[S], Any]] = ThreadBatcher(executor, self._run_batch,
                                                                        on_idle=self._quiet)
        self._batches = 0                   # batches run since the WAL was last emptied
        self._later: set[asyncio.Future[Any]] = set()
        self._closing = False
        self._closed = asyncio.Event()

    @classmethod
    async def open(cls, name: str, make: Callable[[], S], *, closed: Callable[[], Exception],
                   batch: Callable[[S], AbstractContextManager[Any]] | None = None) -> StoreThread[S]:
        """``make()`` the store on a new thread named ``name``; what ``make`` raises is raised here, no thread left."""
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        try:
            store = await asyncio.get_running_loop().run_in_executor(executor, make)
        except BaseException:
            executor.shutdown(wait=False)
            raise
        return cls(store, executor, closed=closed, batch=batch)

    @property
    def closed(self) -> bool:
        """True once ``close()`` was called."""
        return self._closing

    async def call(self, fn: Callable[[S], T]) -> T:
        """``fn(store)`` on the store's thread, after every call made before it; its result, or its exception."""
        return await self._enqueue(fn)

    def call_later(self, fn: Callable[[S], Any], what: str) -> None:
        """``fn(store)`` without waiting (from a callback): queued now, a failure logged as storing ``what``.

        ``flush()`` and ``close()`` wait for it; raises ``closed()`` at once after ``close()``.
        """
        future = self._enqueue(fn)
        self._later.add(future)

        def written(done: asyncio.Future[Any]) -> None:
            self._later.discard(done)
            if not done.cancelled() and done.exception() is not None:
                log.error("storing %s failed: %s", what, done.exception())
        future.add_done_callback(written)

    async def flush(self) -> None:
        """Wait until every call queued by ``call_later`` so far is made (or has failed, logged)."""
        while self._later:
            await asyncio.gather(*list(self._later), return_exceptions=True)

    async def close(self) -> None:
        """Refuse new calls, wait for the queued ones, close the store and end the thread.

        Idempotent; a second caller waits until the first has finished.
        """
        if self._closing:
            await self._closed.wait()
            return
        self._closing = True
        try:
            await self.flush()
            # The thread runs its jobs in order: this comes after every batch queued so far.
            await asyncio.get_running_loop().run_in_executor(self._executor, self._close_store)
        finally:
            self._executor.shutdown(wait=True)    # idle by now: nothing to wait for
            self._closed.set()

    def _enqueue(self, fn: Callable[[S], T]) -> asyncio.Future[T]:
        if self._closing:
            raise self._closed_error()
        return cast("asyncio.Future[T]", self._calls.enqueue(fn))

    def _run_batch(self, calls: Sequence[Callable[[S], Any]]) -> list[Outcome]:
        """On the store's thread: ``calls`` in order, in one ``batch(store)`` if there is one."""
        outcomes: list[Outcome] = []
        self._batches += 1
        try:
            with self._batch(self.store) if self._batch is not None else nullcontext():
                for call in calls:
                    try:
                        outcomes.append((True, call(self.store)))
                    except Exception as exc:  # noqa: BLE001 - that call's error, raised to its caller
                        outcomes.append((False, self._said(exc, "using")))
        except Exception as exc:                    # the batch's own commit: every call of it failed
            said = self._said(exc, "committing to")
            if said is exc:
                raise
            raise said from None
        return outcomes

    def _said(self, error: Exception, doing: str) -> Exception:
        """A file's error (full, damaged, locked, unreadable: not a constraint the call broke) in one line."""
        path = getattr(self.store, "path", None)
        if path is None or not (isinstance(error, sqlite3.OperationalError) or type(error) is sqlite3.DatabaseError):
            return error
        return database_error(error, path, f"{doing} the database")

    def _checkpoint(self) -> None:
        """On the store's thread: empty the store's WAL into its file, if it has one (``checkpoint()``)."""
        checkpoint = getattr(self.store, "checkpoint", None)
        if checkpoint is None:
            return
        try:
            if checkpoint():
                self._batches = 0
        except Exception as exc:  # noqa: BLE001 - the WAL stays as it is (bounded by SQLite's own checkpoints)
            log.warning("%s", self._said(exc, "checkpointing"))

    def _quiet(self) -> None:
        """On the store's thread, with nothing queued: a checkpoint every ``QUIET_CHECKPOINT_BATCHES`` batches."""
        if self._batches >= QUIET_CHECKPOINT_BATCHES and not self._closing:
            self._checkpoint()

    def _close_store(self) -> None:
        if self._batches:
            self._checkpoint()
        self.store.close()


class StoreFacade(Generic[S]):
    """The shape every store's facade shares: it owns a ``StoreThread`` (``open`` in the subclass makes it), knows
    its file (``path``), and closes it (``close``, or leaving an ``async with``); the subclass adds one typed
    ``async`` method per store call over ``self._thread.call``."""

    def __init__(self, thread: StoreThread[S]) -> None:
        """Take over the open store on its own thread."""
        self.path = thread.store.path
        self._thread = thread

    @property
    def closed(self) -> bool:
        """True once ``close()`` was called."""
        return self._thread.closed

    async def close(self) -> None:
        """Refuse new calls, wait for the queued ones, close the database and end the thread. Idempotent; a second
        caller waits until the first has finished."""
        await self._thread.close()

    async def __aenter__(self) -> Self:
        return self     # closed by __aexit__

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()

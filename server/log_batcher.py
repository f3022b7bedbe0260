"""``RowBatcher``: the log thread's work for every game of a tournament, in one ordered queue.

Three kinds of jobs share one ``ThreadBatcher``, so they run in the order they were queued and a
game's rows are always written before its log is finished:

* opening a game's live log (``open``: the game does not wait for it);
* its rows: one hand-off per step (an executor job per row) costs more event-loop time than the
  rest of a step's work together, so the rows of every game are gathered and handed over once
  per ``interval_s``; a crash loses at most that interval of rows of unfinished games, whose
  ``.part`` logs are never taken for finished games anyway (``--resume`` plays them again);
* finishing a game's log (``finish``): the logs of the games that end together are written with
  one sync of their folder (``finish_logs``).

Out of file descriptors (EMFILE, ENFILE), opening or finishing a log is tried again, with growing
pauses, for up to ``retry_s``: the games that end meanwhile close their files. The log thread never
waits for it (the pauses are timers on the event loop), and a game whose ``.part`` file could not
be made keeps its rows in memory for its finished log. A finished log that still cannot be written
raises ``LogUnavailableError``: the game is not recorded and must be played again.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from shared.gamelog import GameHeader, GameLog, GameOutcome, StepRecord

from .batching import Outcome, ThreadBatcher
from .logfile import LiveLogWriter, LogUnavailableError, finish_logs, out_of_descriptors

__all__ = ["RowBatcher", "FLUSH_INTERVAL_S", "FD_RETRY_S", "LogUnavailableError"]

log = logging.getLogger("quoridor.server")

#: Seconds a row may wait before it is handed to the log thread. Each hand-off writes (and flushes)
#: every running game's ``.part`` file, one system call each, and each call lets the log thread
#: take the GIL from the event loop: at 500 games, 0.05 s made 10,000 of them a second, and at 0.2 s
#: every hand-off still cost the games a sixth of their steps for a tenth of a second
#: (``bench/server_load.py``). The ``.part`` rows only show a game as it goes: an unfinished game is
#: played again.
FLUSH_INTERVAL_S = 1.0
#: Seconds opening or finishing a log is retried while the server is out of file descriptors.
FD_RETRY_S = 30.0
#: The first pause before such a retry; each next one is twice as long, up to ``RETRY_MAX_PAUSE_S``.
RETRY_FIRST_PAUSE_S = 0.05
RETRY_MAX_PAUSE_S = 1.0
#: Seconds between two warnings that descriptors ran out (hundreds of games fail at once).
FD_WARNING_INTERVAL_S = 10.0


def _pause(attempt: int) -> float:
    return min(RETRY_FIRST_PAUSE_S * 2.0 ** attempt, RETRY_MAX_PAUSE_S)


class RowBatcher:
    """Opens, feeds and finishes game logs on ``executor``, in the order asked (one batch at a time)."""

    def __init__(self, executor: Executor | None, interval_s: float = FLUSH_INTERVAL_S,
                 retry_s: float = FD_RETRY_S) -> None:
        self.executor = executor
        self.interval_s = interval_s
        #: Seconds opening or finishing a log is retried while file descriptors are out.
        self.retry_s = retry_s
        self.jobs: ThreadBatcher[tuple[Any, ...]] = ThreadBatcher(executor, _run_jobs)
        self._pending: dict[LiveLogWriter, list[StepRecord]] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._reopen: dict[LiveLogWriter, asyncio.TimerHandle] = {}   # opens waiting for their next try
        self._finishing: set[LiveLogWriter] = set()
        self._warned_at = -math.inf

    def open(self, path: Path, header: GameHeader) -> LiveLogWriter:
        """A new game's live log, at once: its ``.part`` file is made on the log thread, ahead of its rows.

        The game never waits for the disk. Out of file descriptors, the file is tried again for up
        to ``retry_s``; meanwhile, and if it is never made, the rows are kept for the finished log
        (a failure is logged). ``finish`` says whether the finished log could be written.
        """
        writer = LiveLogWriter(path, header, open_now=False)
        self._try_open(writer, 0, None)
        return writer

    def _try_open(self, writer: LiveLogWriter, attempt: int, since: float | None) -> None:
        self._reopen.pop(writer, None)
        try:
            future = self.jobs.enqueue(("open", writer))
        except RuntimeError:
            if attempt == 0:
                raise
            return                      # a retry after the log thread was shut down: the server is stopping
        future.add_done_callback(lambda done: self._opened(writer, attempt, since, done))

    def _opened(self, writer: LiveLogWriter, attempt: int, since: float | None, done: asyncio.Future[Any]) -> None:
        """An open job is over: retry it later if descriptors ran out (unless its game is ending)."""
        error = None if done.cancelled() else done.exception()
        if error is None or isinstance(error, ValueError):      # opened, or its game ended first
            return
        what = out_of_descriptors(error)
        if what is None:
            log.error("cannot make the live log %s: %s (the game goes on; its rows are kept for its finished log)",
                      writer.part, error)
            return
        if writer in self._finishing or writer.closed:
            return                      # its finished log is written from memory, retried by ``finish``
        loop = done.get_loop()
        now = loop.time()
        since = now if since is None else since
        if now - since >= self.retry_s:
            log.error("%s: gave up making the live log %s after %.1f s (the game goes on; its rows are kept "
                      "for its finished log)", what, writer.part, now - since)
            return
        self._warn(what, f"cannot make the live log {writer.part}")
        self._reopen[writer] = loop.call_later(_pause(attempt), self._try_open, writer, attempt + 1, since)

    def _warn(self, what: str, detail: str) -> None:
        """One line, at most every ``FD_WARNING_INTERVAL_S``, that descriptors ran out and what is done."""
        now = asyncio.get_running_loop().time()
        if now - self._warned_at >= FD_WARNING_INTERVAL_S:
            self._warned_at = now
            log.warning("%s: %s; retrying for up to %g s (raise the limit, or play fewer games at once with -c)",
                        what, detail, self.retry_s)

    def add(self, writer: LiveLogWriter, record: StepRecord) -> None:
        """Queue one row of ``writer``'s game; it is written within ``interval_s``."""
        self._pending.setdefault(writer, []).append(record)
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.interval_s, self.flush)

    def flush(self) -> None:
        """Hand every queued row to the log thread now (jobs queued after this one run after it)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self._pending:
            return
        batch, self._pending = self._pending, {}
        self.jobs.enqueue(("rows", batch)).add_done_callback(_log_failure)

    async def finish(self, writer: LiveLogWriter, outcome: GameOutcome) -> GameLog:
        """Write the game's queued rows, then its finished log; returns the log.

        Out of file descriptors, it is tried again for up to ``retry_s``, then ``LogUnavailableError``
        (an ``OSError``) is raised: the game is not recorded and must be played again. Any other
        failure raises its own error at once.
        """
        self.flush()
        reopen = self._reopen.pop(writer, None)
        if reopen is not None:
            reopen.cancel()             # the finished log is written from memory: no .part file needed now
        self._finishing.add(writer)
        try:
            return await self._finish(writer, outcome)
        finally:
            self._finishing.discard(writer)

    async def _finish(self, writer: LiveLogWriter, outcome: GameOutcome) -> GameLog:
        loop = asyncio.get_running_loop()
        since: float | None = None
        attempt = 0
        while True:
            try:
                game: GameLog = await self.jobs.submit(("finish", writer, outcome))
                return game
            except OSError as exc:
                what = out_of_descriptors(exc)
                if what is None:
                    raise
                now = loop.time()
                since = now if since is None else since
                if now - since >= self.retry_s:
                    log.error("%s: gave up writing the log %s after %.1f s", what, writer.path, now - since)
                    raise LogUnavailableError(writer.path, exc, now - since) from exc
                self._warn(what, f"cannot write the finished log {writer.path}")
            await asyncio.sleep(_pause(attempt))
            attempt += 1


def _run_jobs(jobs: Sequence[tuple[Any, ...]]) -> list[Outcome]:
    """On the log thread: every job in order; the finished logs of the batch share their folders' syncs."""
    outcomes: list[Outcome] = []
    finishing: list[tuple[int, LiveLogWriter, GameOutcome]] = []
    for job in jobs:
        kind = job[0]
        if kind == "rows":
            _write(job[1])
            outcomes.append((True, None))
        elif kind == "open":
            try:
                job[1].open()
                outcomes.append((True, None))
            except (OSError, ValueError) as exc:    # ValueError: its game ended first
                outcomes.append((False, exc))
        else:
            # Rows queued after this finish belong to no game of it (a game's rows come before its
            # finish), so finishing them all at the end of the batch keeps every game's order.
            finishing.append((len(outcomes), job[1], job[2]))
            outcomes.append((False, RuntimeError("not finished")))
    if finishing:
        for (index, _, _), outcome in zip(finishing, finish_logs([(w, o) for _, w, o in finishing])):
            outcomes[index] = outcome
    return outcomes


def _write(batch: dict[LiveLogWriter, list[StepRecord]]) -> None:
    for writer, records in batch.items():
        try:
            writer.append_many(records)
        except (OSError, ValueError) as exc:    # one game's broken log must not lose the others' rows
            log.error("writing the log %s failed: %s", writer.part, exc)


def _log_failure(future: asyncio.Future[Any]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("writing game logs failed: %s", future.exception())

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
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from shared.gamelog import GameHeader, GameLog, GameOutcome, StepRecord

from .batching import Outcome, ThreadBatcher
from .logfile import LiveLogWriter, finish_logs

__all__ = ["RowBatcher", "FLUSH_INTERVAL_S"]

log = logging.getLogger("quoridor.server")

#: Seconds a row may wait before it is handed to the log thread. Each hand-off writes (and flushes)
#: every running game's ``.part`` file, one system call each, and each call lets the log thread
#: take the GIL from the event loop: at 500 games, 0.05 s made 10,000 of them a second.
FLUSH_INTERVAL_S = 0.2


class RowBatcher:
    """Opens, feeds and finishes game logs on ``executor``, in the order asked (one batch at a time)."""

    def __init__(self, executor: Executor | None, interval_s: float = FLUSH_INTERVAL_S) -> None:
        self.executor = executor
        self.interval_s = interval_s
        self.jobs: ThreadBatcher[tuple[Any, ...]] = ThreadBatcher(executor, _run_jobs)
        self._pending: dict[LiveLogWriter, list[StepRecord]] = {}
        self._timer: asyncio.TimerHandle | None = None

    def open(self, path: Path, header: GameHeader) -> LiveLogWriter:
        """A new game's live log, at once: its ``.part`` file is made on the log thread, ahead of its rows.

        The game never waits for the disk: should the file fail, its rows fail with that error
        (logged) and so does ``finish``, which the game's end raises.
        """
        writer = LiveLogWriter(path, header, open_now=False)
        self.jobs.enqueue(("open", writer)).add_done_callback(_log_failure)
        return writer

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
        """Write the game's queued rows, then its finished log; returns the log (raises if it failed)."""
        self.flush()
        return await self.jobs.submit(("finish", writer, outcome))


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
            except OSError as exc:
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

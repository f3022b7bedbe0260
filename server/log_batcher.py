"""``RowBatcher``: hands the log rows of every running game to the log thread in batches.

One hand-off per step (an executor job per row) costs more event-loop time than the rest of a
step's work together (a queue put and a thread wake-up each); gathering the rows of every game
and writing them in one job per ``interval_s`` keeps that cost flat however many games run. A
crash loses at most the last interval of rows of unfinished games, whose ``.part`` logs are
never taken for finished games anyway (``--resume`` plays them again).
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor

from shared.gamelog import StepRecord

from .logfile import LiveLogWriter

__all__ = ["RowBatcher", "FLUSH_INTERVAL_S"]

log = logging.getLogger("quoridor.server")

#: Seconds a row may wait before it is handed to the log thread. Each hand-off writes (and flushes)
#: every running game's ``.part`` file, one system call each, and each call lets the log thread
#: take the GIL from the event loop: at 500 games, 0.05 s made 10,000 of them a second.
FLUSH_INTERVAL_S = 0.2


class RowBatcher:
    """Collects ``(writer, row)`` pairs and writes them on ``executor`` (one thread: rows keep their order)."""

    def __init__(self, executor: Executor | None, interval_s: float = FLUSH_INTERVAL_S) -> None:
        self.executor = executor
        self.interval_s = interval_s
        self._pending: dict[LiveLogWriter, list[StepRecord]] = {}
        self._timer: asyncio.TimerHandle | None = None

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
        future = asyncio.get_running_loop().run_in_executor(self.executor, _write, batch)
        future.add_done_callback(_log_failure)


def _write(batch: dict[LiveLogWriter, list[StepRecord]]) -> None:
    for writer, records in batch.items():
        try:
            writer.append_many(records)
        except (OSError, ValueError) as exc:    # one game's broken log must not lose the others' rows
            log.error("writing the log %s failed: %s", writer.part, exc)


def _log_failure(future: asyncio.Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("writing game logs failed: %s", future.exception())

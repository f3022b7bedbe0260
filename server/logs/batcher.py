"""``RowBatcher``: every game's log of a tournament, written by the event loop and finished on the log thread.

Writing a row to a file is a copy into the page cache, microseconds; a sync waits for the disk. So
the event loop makes the live logs itself and only the syncs go to a thread. (A thread of its own
writing them was slower: every system call it makes hands the GIL over from the event loop and
back, and at 500 games those hand-overs took a quarter of a core from the games,
``bench/server_load.py``.) What it does for a game:

* ``open``: the live log (``<name>.part``, header and rows so far), made at once, one write (made
  later, at the first flush that has its rows, the files' creation slowed the steps of every game a
  little: in ``bench/server_load.py`` (c) the added delay's p50 went from 0.5 to 0.8 ms);
* ``add``: a row, queued; once per ``interval_s`` (``flush``) the rows of every game are formatted
  (in one go per game, which costs less than one by one), kept in memory and written, one system
  call per game, about ``ROWS_PER_PASS`` rows per pass of the event loop so that a tournament's
  flush never holds its clocks up (``bench/server_load.py`` (b)-(d)). A crash loses at most
  that interval of rows of unfinished games, whose ``.part`` logs are never taken for finished
  games anyway (``--resume`` plays them again);
* ``finish``: its last rows formatted, then written with the result rows in one write, synced and
  put in place on the log thread (``executor``): the logs of the games that end together share
  their syncs (``finish_logs``) in one ``ThreadBatcher`` batch.

Out of file descriptors (EMFILE, ENFILE), opening or finishing a log is tried again, with growing
pauses, for up to ``retry_s`` (the pauses are timers on the event loop): the games that end
meanwhile close their files. A game whose ``.part`` file could not be made keeps its rows in
memory for its finished log. A finished log that still cannot be written raises
``LogUnavailableError``: the game is not recorded and must be played again.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path

from shared.gamelog import GameHeader, GameLog, GameOutcome, StepRecord

from server.disk.batching import ThreadBatcher
from server.logs.logfile import LiveLogWriter, LogUnavailableError, finish_logs, out_of_descriptors

__all__ = ["RowBatcher", "FLUSH_INTERVAL_S", "ROWS_PER_PASS", "FD_RETRY_S", "LogUnavailableError"]

log = logging.getLogger("quoridor.server")

#: Seconds a row may wait before it is written to its game's ``.part`` file (one system call per game
#: per interval). The ``.part`` rows only show a game as it goes: an unfinished game is played again.
FLUSH_INTERVAL_S = 1.0
#: Rows one pass of the event loop formats and writes (about 1 ms; at least one game's): the rest go in the next passes.
ROWS_PER_PASS = 500
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
    """Opens and feeds game logs on the event loop; finishes them on ``executor`` (see the module docstring).

    ``clock`` measures how long a log has been retried (``retry_s``) and the warnings' interval.
    """

    def __init__(self, executor: Executor | None, interval_s: float = FLUSH_INTERVAL_S,
                 retry_s: float = FD_RETRY_S, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.executor = executor
        self._clock = clock
        self.interval_s = interval_s
        #: Seconds opening or finishing a log is retried while file descriptors are out.
        self.retry_s = retry_s
        #: The log thread's queue: finished logs, synced in batches.
        self.jobs: ThreadBatcher[tuple[LiveLogWriter, GameOutcome]] = ThreadBatcher(executor, finish_logs)
        self._pending: dict[LiveLogWriter, list[StepRecord]] = {}   # rows since the last flush, by game
        self._writing: dict[LiveLogWriter, list[StepRecord]] = {}   # a flush under way: what it has still to write
        self._timer: asyncio.TimerHandle | None = None
        self._reopen: dict[LiveLogWriter, asyncio.TimerHandle] = {}   # opens waiting for their next try
        self._finishing: set[LiveLogWriter] = set()
        self._warned_at = -math.inf

    def open(self, path: Path, header: GameHeader) -> LiveLogWriter:
        """A new game's live log: its ``.part`` file is made now.

        Out of file descriptors, the file is tried again for up to ``retry_s``; meanwhile, and if
        it is never made, the rows are kept for the finished log (a failure is logged). ``finish``
        says whether the finished log could be written.
        """
        writer = LiveLogWriter(path, header, open_now=False)
        self._try_open(writer, 0, None)
        return writer

    def _try_open(self, writer: LiveLogWriter, attempt: int, since: float | None) -> None:
        self._reopen.pop(writer, None)
        if writer in self._finishing or writer.closed:
            return                      # its finished log is written from memory, retried by ``finish``
        try:
            writer.open()
        except ValueError:              # closed meanwhile: nothing to make
            return
        except OSError as error:
            what = out_of_descriptors(error)
            if what is None:
                log.error("cannot make the live log %s: %s (the game goes on; its rows are kept for its finished "
                          "log)", writer.part, error)
                return
            now = self._clock()
            since = now if since is None else since
            if now - since >= self.retry_s:
                log.error("%s: gave up making the live log %s after %.1f s (the game goes on; its rows are kept "
                          "for its finished log)", what, writer.part, now - since)
                return
            self._warn(what, f"cannot make the live log {writer.part}")
            self._reopen[writer] = asyncio.get_running_loop().call_later(_pause(attempt), self._try_open, writer,
                                                                         attempt + 1, since)

    def _warn(self, what: str, detail: str) -> None:
        """One line, at most every ``FD_WARNING_INTERVAL_S``, that descriptors ran out and what is done."""
        now = self._clock()
        if now - self._warned_at >= FD_WARNING_INTERVAL_S:
            self._warned_at = now
            log.warning("%s: %s; retrying for up to %g s (raise the limit, or play fewer games at once with -c)",
                        what, detail, self.retry_s)

    def add(self, writer: LiveLogWriter, record: StepRecord) -> None:
        """Queue one row of ``writer``'s game: within ``interval_s`` it is formatted, kept in the game's log in
        memory and written to its ``.part`` file."""
        self._pending.setdefault(writer, []).append(record)
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.interval_s, self.flush)

    def flush(self) -> None:
        """Log every queued row: about ``ROWS_PER_PASS`` now, the others in the next passes of the loop."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self._pending:
            return
        start = not self._writing
        for writer, records in self._pending.items():
            self._writing.setdefault(writer, []).extend(records)    # after its rows a flush under way still has
        self._pending = {}
        if start:
            self._write_some()

    def _write_some(self) -> None:
        budget = ROWS_PER_PASS
        while self._writing and budget > 0:
            writer = next(iter(self._writing))
            records = self._writing.pop(writer)
            budget -= len(records)
            _write(writer, records)
        if self._writing:
            asyncio.get_running_loop().call_soon(self._write_some)

    async def finish(self, writer: LiveLogWriter, outcome: GameOutcome) -> GameLog:
        """Format the game's last rows, then write them and the result rows and put the finished log in place (on the
        log thread); returns the log.

        Out of file descriptors, it is tried again for up to ``retry_s``, then ``LogUnavailableError``
        (an ``OSError``) is raised: the game is not recorded and must be played again. Any other
        failure raises its own error at once.
        """
        _stage(writer, self._writing.pop(writer, []) + self._pending.pop(writer, []))
        reopen = self._reopen.pop(writer, None)
        if reopen is not None:
            reopen.cancel()             # the finished log is written from memory: no .part file needed now
        self._finishing.add(writer)
        try:
            return await self._finish(writer, outcome)
        finally:
            self._finishing.discard(writer)

    async def _finish(self, writer: LiveLogWriter, outcome: GameOutcome) -> GameLog:
        since: float | None = None
        attempt = 0
        while True:
            try:
                game: GameLog = await self.jobs.submit((writer, outcome))
                return game
            except OSError as exc:
                what = out_of_descriptors(exc)
                if what is None:
                    raise
                now = self._clock()
                since = now if since is None else since
                if now - since >= self.retry_s:
                    log.error("%s: gave up writing the log %s after %.1f s", what, writer.path, now - since)
                    raise LogUnavailableError(writer.path, exc, now - since) from exc
                self._warn(what, f"cannot write the finished log {writer.path}")
            await asyncio.sleep(_pause(attempt))
            attempt += 1


def _stage(writer: LiveLogWriter, records: list[StepRecord]) -> None:
    """Format ``records`` into ``writer``'s game (``_write`` without the write); a failure is said in one line."""
    try:
        if records:
            writer.stage(records)
    except ValueError as exc:               # its log is closed, or a row names no player of it
        log.error("writing the live log %s failed: %s", writer.part, exc)


def _write(writer: LiveLogWriter, records: list[StepRecord]) -> None:
    """Log ``records`` in ``writer``'s game (formatted in one go, written in one system call); a broken log is
    said in one line and loses no other game's rows (nor, when only its file failed, its own: they stay in
    memory for its finished log)."""
    try:
        if records:
            writer.stage(records)
        writer.write_staged()
    except (OSError, ValueError) as exc:    # ValueError: its log is closed, or a row names no player of it
        log.error("writing the live log %s failed: %s", writer.part, exc)

"""``BackgroundAnalyser``: every finished game analysed, one at a time, by the analysis process, off the event loop.

The event loop only queues (``finished``, ``ask``: a lock held for microseconds); one thread of its own hands
the games to the analysis process (``AnalysisProcess``, at the lowest CPU priority) one at a time and waits
for each, so a live game is never delayed by an analysis. Games wait in two lines, each oldest first: those a
page asked for, then the backlog (finished games, and at start the logs with no current analysis:
``server.analysis.store.stale_logs``). The lines hold ``bound`` games together; when a game finishes with the
lines full, the oldest game of the backlog is dropped (said in the log: the first time, then every
``DROPS_SAID``-th) and analysed only when a page asks for it or after a restart; a page's request is always taken
(the oldest request gives way when the lines hold nothing else).
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from server.analysis.process import AnalysisProcessError
from server.analysis.store import finished_logs

__all__ = ["BackgroundAnalyser", "Analysis", "QUEUE_BOUND", "FAILURES_KEPT", "DROPS_SAID", "CRASHES_TO_STOP"]

log = logging.getLogger("quoridor.server")

QUEUE_BOUND = 1000
"""Games that may wait for their analysis (a class tournament has 120; a busy ladder finishes more than the
analysis keeps up with only when the server's cores are all busy)."""
#: Failed games remembered (their failure shown to a page that asks, not tried again until a restart).
FAILURES_KEPT = 1000
#: A full queue is said in the log at its first drop and then at every this many more.
DROPS_SAID = 100
#: The analysis process ending during this many games in a row (it cannot start, or crashes on anything) stops the
#: analysis until the server starts again: said once in the log, not a process started for every game.
CRASHES_TO_STOP = 3


class Analysis(Protocol):
    """What the analyser hands games to: ``AnalysisProcess`` (or a test's stand-in)."""

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Answer one request (``server.analysis.child``'s); may raise ``AnalysisProcessError``."""

    def close(self) -> None:
        """End it (idempotent)."""


class BackgroundAnalyser:
    """Queues finished games and analyses them in the background, one at a time (see the module doc)."""

    def __init__(self, analysis: Analysis, *, scan: Path | None = None, bound: int = QUEUE_BOUND,
                 on_done: Callable[[Path, dict[str, Any]], None] | None = None) -> None:
        if bound < 1:
            raise ValueError(f"the analysis queue must hold at least one game, not {bound}")
        self.analysis = analysis
        self.bound = bound
        #: Told of each game's answer, in the analyser's thread (tests, the bench).
        self.on_done = on_done
        self.dropped = 0
        #: Why the analysis stopped for good (``CRASHES_TO_STOP``), or None while it works.
        self.broken: str | None = None
        self._scan = scan
        self._asked: OrderedDict[Path, None] = OrderedDict()
        self._backlog: OrderedDict[Path, None] = OrderedDict()
        self._current: Path | None = None
        self._failed: OrderedDict[Path, str] = OrderedDict()
        self._changed = threading.Condition()
        self._closing = False
        self._thread: threading.Thread | None = None

    # -- what the event loop calls ------------------------------------------------------------
    def start(self) -> None:
        """Start the analyser's thread (and, given ``scan``, look there first for logs with no current analysis)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="quoridor-analysis", daemon=True)
            self._thread.start()

    def finished(self, log_path: Path) -> None:
        """A game's log is finished: it joins the backlog (the oldest waiting game gives way when it is full)."""
        with self._changed:
            if (self._closing or self.broken is not None or log_path in self._asked or log_path in self._backlog
                    or log_path == self._current):
                return
            self._make_room()
            self._backlog[log_path] = None
            self._changed.notify_all()

    def ask(self, log_path: Path) -> int:
        """A page wants ``log_path``'s analysis: queued ahead of the backlog (behind earlier requests) if it is not
        being analysed; returns its ``position``."""
        with self._changed:
            if self.broken is not None:
                return 0
            if log_path != self._current and log_path not in self._asked:
                self._backlog.pop(log_path, None)
                self._failed.pop(log_path, None)
                self._make_room()
                self._asked[log_path] = None
                self._changed.notify_all()
            return self._position(log_path) or 0

    def position(self, log_path: Path) -> int | None:
        """How many games are analysed before ``log_path`` (0: it is being analysed, or is next with nothing under
        way), or None when it is not queued."""
        with self._changed:
            return self._position(log_path)

    def failure(self, log_path: Path) -> str | None:
        """Why ``log_path``'s analysis failed (one line; every game's once the analysis stopped), or None."""
        with self._changed:
            return self.broken or self._failed.get(log_path)

    @property
    def waiting(self) -> int:
        """Games waiting (not counting the one being analysed)."""
        with self._changed:
            return len(self._asked) + len(self._backlog)

    def queued_in(self, folder: Path) -> list[Path]:
        """The logs of ``folder`` waiting or being analysed."""
        with self._changed:
            current = [] if self._current is None else [self._current]
            return [path for path in (*current, *self._asked, *self._backlog) if path.parent == folder]

    def wait_for(self, logs: list[Path], timeout: float | None = None) -> bool:
        """Wait until none of ``logs`` waits or is analysed (at most ``timeout`` seconds); True when none does."""
        wanted = set(logs)

        def done() -> bool:
            return self._current not in wanted and wanted.isdisjoint(self._asked) and wanted.isdisjoint(self._backlog)
        with self._changed:
            return self._changed.wait_for(lambda: done() or self._closing, timeout) and done()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until nothing is queued or analysed (at most ``timeout`` seconds); True when it is (tests, benches)."""
        with self._changed:
            return self._changed.wait_for(lambda: self._idle() or self._closing, timeout) and self._idle()

    def close(self) -> None:
        """Stop: nothing more is analysed, the process is ended, the thread joined (blocks up to a few seconds)."""
        with self._changed:
            self._closing = True
            self._changed.notify_all()
        self.analysis.close()
        if self._thread is not None:
            self._thread.join()

    # -- the queue ----------------------------------------------------------------------------
    def _idle(self) -> bool:
        return self._scan is None and self._current is None and not self._asked and not self._backlog

    def _position(self, log_path: Path) -> int | None:
        if log_path == self._current:
            return 0
        under_way = 0 if self._current is None else 1
        for place, waiting in enumerate((*self._asked, *self._backlog)):
            if waiting == log_path:
                return under_way + place
        return None

    def _make_room(self) -> None:
        """Drop the oldest waiting game when the lines are full: of the backlog, else the oldest page's request."""
        if len(self._asked) + len(self._backlog) < self.bound:
            return
        line = self._backlog if self._backlog else self._asked
        gone, _ = line.popitem(last=False)
        self.dropped += 1
        if self.dropped % DROPS_SAID == 1 or DROPS_SAID == 1:
            log.warning("the analysis queue is full (%d games): %s is not analysed now (when a page asks for it, or "
                        "after a restart); %d game(s) dropped so far", self.bound, gone, self.dropped)

    def _take(self) -> dict[str, Any] | None:
        """The next request for the process (the scan first), or None when closing; waits for one."""
        with self._changed:
            self._changed.wait_for(lambda: self._closing or self._scan is not None or self._asked or self._backlog)
            if self._closing:
                return None
            if self._scan is not None:
                return {"op": "scan", "root": str(self._scan), "limit": self.bound}
            line = self._asked if self._asked else self._backlog
            self._current, _ = line.popitem(last=False)
            return {"op": "analyse", "log": str(self._current)}

    # -- the thread ---------------------------------------------------------------------------
    def _run(self) -> None:
        if self._scan is not None and next(finished_logs(self._scan), None) is None:
            with self._changed:     # no log to look at: no process started for nothing (a new data directory)
                self._scan = None
                self._changed.notify_all()
        crashes = 0
        while (request := self._take()) is not None:
            try:
                answer = self.analysis.request(request)
                crashes = 0
            except AnalysisProcessError as exc:
                answer = {"ok": False, "error": str(exc)}
                crashes += 1
                if crashes >= CRASHES_TO_STOP and not self._closing:
                    self._stop(str(exc))
                    return
            if request["op"] == "scan":
                self._scanned(answer)
            else:
                self._analysed(Path(request["log"]), answer)

    def _stop(self, error: str) -> None:
        """The process failed ``CRASHES_TO_STOP`` times in a row: no more analyses until the server starts again."""
        self.broken = (f"the analysis stopped: its process failed {CRASHES_TO_STOP} times in a row ({error}); the "
                       "server's log says why, and a restart tries again")
        log.error("%s", self.broken)
        with self._changed:
            self._current, self._scan = None, None
            self._asked.clear()
            self._backlog.clear()
            self._changed.notify_all()

    def _scanned(self, answer: dict[str, Any]) -> None:
        stale = [Path(p) for p in answer.get("stale", [])] if answer.get("ok") else []
        if not answer.get("ok"):
            log.warning("the analysis process could not look for unanalysed logs: %s", answer.get("error"))
        with self._changed:
            self._scan = None
            # older than every game finished since the start: they go first, and the oldest give way if need be
            older = [path for path in stale if path not in self._asked and path not in self._backlog]
            for path in reversed(older):
                self._backlog[path] = None
                self._backlog.move_to_end(path, last=False)
            while len(self._asked) + len(self._backlog) > self.bound:
                self._make_room()
            self._changed.notify_all()
        if stale:
            log.info("%d finished game(s) with no current analysis queued", len(stale))

    def _analysed(self, log_path: Path, answer: dict[str, Any]) -> None:
        if not answer.get("ok") and not answer.get("missing") and not self._closing:
            log.warning("%s not analysed: %s", log_path, answer.get("error"))
        with self._changed:
            self._current = None
            if not answer.get("ok"):
                self._failed[log_path] = str(answer.get("error") or "the analysis failed")
                while len(self._failed) > FAILURES_KEPT:
                    self._failed.popitem(last=False)
            self._changed.notify_all()
        if self.on_done is not None:
            self.on_done(log_path, answer)

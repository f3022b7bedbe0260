"""``AnalysisProcess``: the server's side of its analysis process (``server.analysis.child``), one request at a time.

Started at the first request (its priority lowered at once), started again after it died, ended by ``close``
(its input closed and terminated at once, killed if it does not end): a server never leaves it behind. Only the
analyser's thread calls ``request``; it blocks there while the process works, holding no lock and not the event
loop.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from typing import Any

__all__ = ["AnalysisProcess", "AnalysisProcessError", "DEFAULT_KIT", "END_WAIT_S", "lower_priority"]

DEFAULT_KIT = "server.analysis.kit"
"""The kit the process imports (``server.analysis.kit``: ``shared.analysis``); tests name a fake one."""

#: Seconds the process has to end once terminated (an analysis under way is dropped: it is done again after a
#: restart), before it is killed.
END_WAIT_S = 2.0


class AnalysisProcessError(RuntimeError):
    """The analysis process ended (or never started) while a request waited for its answer."""


def lower_priority(pid: int) -> None:
    """Lower the process ``pid``'s CPU priority to the lowest (nice 19, ``SCHED_IDLE`` where there is one), as far as
    the system lets us; the process does it again itself (``server.analysis.child.lowest_priority``)."""
    try:
        os.setpriority(os.PRIO_PROCESS, pid, 19)
    except (AttributeError, OSError):
        pass
    idle = getattr(os, "SCHED_IDLE", None)
    if idle is not None:
        try:
            os.sched_setscheduler(pid, idle, os.sched_param(0))
        except OSError:
            pass


class AnalysisProcess:
    """One analysis process, started when first needed: ``request`` sends a request and waits for its answer."""

    def __init__(self, kit: str = DEFAULT_KIT, nodes: int | None = None, *, python: str = sys.executable) -> None:
        self.kit, self.nodes, self.python = kit, nodes, python
        self._process: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()
        self._closed = False

    @property
    def pid(self) -> int | None:
        """The running process's id, or None when none runs."""
        process = self._process
        return process.pid if process is not None and process.poll() is None else None

    def _started(self) -> subprocess.Popen[str]:
        with self._lock:
            if self._closed:
                raise AnalysisProcessError("the analysis process is closed")
            if self._process is None or self._process.poll() is not None:
                command = [self.python, "-m", "server.analysis.child", "--kit", self.kit]
                if self.nodes is not None:
                    command += ["--nodes", str(self.nodes)]
                self._process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                                 text=True, encoding="utf-8", bufsize=1)
                lower_priority(self._process.pid)     # from its first instruction, not once it has started
            return self._process

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send ``message`` and return the answer; ``AnalysisProcessError`` when the process ends first."""
        process = self._started()
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(json.dumps(message) + "\n")
            process.stdin.flush()
            line = process.stdout.readline()
        except (OSError, ValueError):       # a broken pipe, or a pipe closed by close()
            line = ""
        if not line:
            try:
                code: int | None = process.wait(END_WAIT_S)        # its output ended: so does it
            except subprocess.TimeoutExpired:
                code = None
            raise AnalysisProcessError("the analysis process ended" + ("" if code is None else f" (exit code {code})"))
        try:
            answer = json.loads(line)
        except ValueError:
            raise AnalysisProcessError(f"the analysis process answered {line[:80]!r}") from None
        if not isinstance(answer, dict):
            raise AnalysisProcessError(f"the analysis process answered {line[:80]!r}")
        return answer

    def close(self) -> None:
        """End the process (idempotent): its input closed, then terminated, then killed; waits for it."""
        with self._lock:
            self._closed = True
            process, self._process = self._process, None
        if process is None:
            return
        if process.stdin is not None:
            try:
                process.stdin.close()
            except OSError:
                pass
        process.terminate()                     # it leaves no half-written file (server.analysis.child)
        try:
            process.wait(END_WAIT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()

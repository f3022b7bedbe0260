"""The analysis process: at the lowest CPU priority, one request at a time, ended with its server, never left behind
(the fake kit, in a real process)."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys

import pytest

from server.analysis import AnalysisProcess
from server.analysis.child import lowest_priority
from server.analysis.store import analysis_path

from tests.server.analysis.conftest import BOUND_S, write_log


def ended_within(pid: int, seconds: float) -> bool:
    """True when the process ``pid`` (not necessarily our child) ends within ``seconds``: no polling."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([fd], [], [], seconds)[0])
    finally:
        os.close(fd)


def test_the_process_analyses_at_the_lowest_priority_and_ends_when_closed(tmp_path, fake_kit_path):
    log = write_log(tmp_path, "g.csv")
    process = AnalysisProcess(fake_kit_path, nodes=5)
    try:
        assert process.request({"op": "analyse", "log": str(log)}) == {"ok": True, "done": "analysed"}
        assert json.loads(analysis_path(log).read_text())["nodes"] == 5
        assert process.request({"op": "analyse", "log": str(log)}) == {"ok": True, "done": "current"}
        pid = process.pid
        assert pid is not None
        assert os.getpriority(os.PRIO_PROCESS, pid) == 19
        if hasattr(os, "SCHED_IDLE"):
            assert os.sched_getscheduler(pid) == os.SCHED_IDLE
    finally:
        process.close()
    assert process.pid is None and ended_within(pid, 0)
    with pytest.raises(RuntimeError, match="closed"):
        process.request({"op": "analyse", "log": str(log)})


def test_a_process_that_dies_fails_its_request_and_another_takes_the_next(tmp_path, fake_kit_path):
    crash, log = write_log(tmp_path, "crash.csv", crash=True), write_log(tmp_path, "g.csv")
    process = AnalysisProcess(fake_kit_path)
    try:
        process.request({"op": "scan", "root": str(tmp_path), "limit": 10})
        first = process.pid
        assert first is not None
        with pytest.raises(RuntimeError, match=r"the analysis process ended \(exit code 3\)"):
            process.request({"op": "analyse", "log": str(crash)})
        assert process.request({"op": "analyse", "log": str(log)}) == {"ok": True, "done": "analysed"}
        second = process.pid
        assert second not in (None, first)
        os.kill(second, signal.SIGKILL)             # killed between games: the next request starts another
        assert ended_within(second, BOUND_S)
        assert process.request({"op": "analyse", "log": str(log)}) == {"ok": True, "done": "current"}
    finally:
        process.close()


def test_the_process_never_outlives_a_server_that_died(tmp_path, fake_kit_path):
    """A server killed outright (SIGKILL: no close) still leaves no analysis process behind."""
    log = write_log(tmp_path, "g.csv")
    server = subprocess.Popen([sys.executable, "-c", (
        "import sys; from server.analysis import AnalysisProcess\n"
        f"p = AnalysisProcess({fake_kit_path!r})\n"
        f"p.request({{'op': 'analyse', 'log': {str(log)!r}}})\n"
        "print(p.pid, flush=True); sys.stdin.read()\n")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        child = int(server.stdout.readline())
        server.kill()
        server.wait(BOUND_S)
        assert ended_within(child, BOUND_S)
    finally:
        server.kill()
        server.wait(BOUND_S)


def test_lowest_priority_says_what_it_set():
    code = "from server.analysis.child import lowest_priority; print(lowest_priority())"
    said = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=BOUND_S).stdout
    assert "nice 19" in said and (("SCHED_IDLE" in said) == hasattr(os, "SCHED_IDLE"))
    assert lowest_priority is not None


def test_once_its_input_ends_a_sigterm_ends_the_process_without_python_saying_anything(monkeypatch, fake_kit_path):
    # The server closes the process's input, then sends SIGTERM if it has not gone: arriving while the interpreter
    # shuts down, a handler that raises SystemExit made Python print 'Exception ignored ... SystemExit: 0' on the
    # organiser's terminal at the end of every tournament. Past serving, SIGTERM has its default action again.
    from server.analysis import child

    monkeypatch.setattr(child, "lowest_priority", lambda: [])         # not this test process's priority
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO(""))
    before = signal.getsignal(signal.SIGTERM)
    try:
        assert child.main(["--kit", fake_kit_path]) == 0
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    finally:
        signal.signal(signal.SIGTERM, before)

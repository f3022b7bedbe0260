"""Fixtures for the queue tests: a real ``redis-server`` on 127.0.0.1 and a free port, worker processes, test bots.

Without ``redis-server`` (``apt-get install redis-server``) or the ``queue`` extra (``pip install -e '.[queue]'``)
these tests skip, saying how to install them; with ``QUORIDOR_REQUIRE_QUEUE=1`` (``.ci/run`` sets it) they fail.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.sandbox import sandbox_status

#: Set (as .ci/run does) to make a missing redis-server or saq fail the queue tests instead of skipping them.
REQUIRED = os.environ.get("QUORIDOR_REQUIRE_QUEUE") == "1"
ROOT = Path(__file__).resolve().parents[3]
HOW_TO = ("the queue tests need redis-server (apt-get install redis-server) and the queue extra "
          "(pip install -e '.[queue]')")


def _require(problem: str | None) -> None:
    if problem is None:
        return
    if REQUIRED:
        pytest.fail(f"QUORIDOR_REQUIRE_QUEUE=1 but {problem}: {HOW_TO}")
    pytest.skip(f"{problem}: {HOW_TO}")


def require_engine_client() -> None:
    """Skip the calling test module (before it imports saq) when the queue extra is missing, or fail when required."""
    try:
        import redis  # noqa: F401
        import saq  # noqa: F401
    except ImportError as exc:
        if REQUIRED:
            raise
        pytest.skip(f"{exc}: {HOW_TO}", allow_module_level=True)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Engine:
    """A ``redis-server`` of this test alone: its own port and folder (append-only file: it survives a stop)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = _free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """``redis://127.0.0.1:PORT/0``."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start the engine (again: it reads its append-only file) and wait until it answers."""
        argv = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder),
                "--save", "", "--appendonly", "yes", "--appendfsync", "always", "--protected-mode", "no",
                "--logfile", str(self.folder / "redis.log")]
        self.process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.2) as conn:
                conn.sendall(b"PING\r\n")
                if conn.recv(64).startswith(b"+PONG"):
                    return
            time.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer on port {self.port}; see {self.folder / 'redis.log'}")

    def stop(self) -> None:
        """Stop the engine as an operator would (SIGTERM: it finishes its append-only file first)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.process = None


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    """A running ``redis-server`` for this test (skipped, with how to install it, when there is none)."""
    _require(None if shutil.which("redis-server") else "redis-server is not installed")
    try:
        import saq  # noqa: F401
    except ImportError:
        _require("saq (the job queue's client) is not installed")
    folder = tmp_path / "engine"
    folder.mkdir()
    running = Engine(folder)
    running.start()
    yield running
    running.stop()


@pytest.fixture
def sandboxed() -> None:
    """bubblewrap works here (handed-in bots run in it); else a skip saying how to install it."""
    problem = sandbox_status()
    if problem is not None:
        if os.environ.get("QUORIDOR_REQUIRE_SANDBOX") == "1":
            pytest.fail(f"QUORIDOR_REQUIRE_SANDBOX=1 but {problem}")
        pytest.skip(problem)


class Workers:
    """``quoridor-worker`` processes of one test; each logs to its own file."""

    def __init__(self, url: str, folder: Path) -> None:
        self.url = url
        self.folder = folder
        self.processes: dict[str, subprocess.Popen[bytes]] = {}

    def start(self, name: str, *extra: str) -> subprocess.Popen[bytes]:
        """Start worker ``name`` (its own cache; sweeps every second)."""
        argv = [sys.executable, "-m", "server.queue.worker_cli", "--queue", self.url, "--cache",
                str(self.folder / "cache"), "--sweep", "1", "--name", name, "-v", *extra]
        with open(self.log_path(name), "wb") as out:
            process = subprocess.Popen(argv, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        self.processes[name] = process
        return process

    def wait_ready(self, *names: str, seconds: float = 30.0) -> None:
        """Wait until each of ``names`` serves the queue (a bounded wait)."""
        deadline = time.monotonic() + seconds
        while not all(" serves " in self.log(name) for name in names):
            if time.monotonic() > deadline:
                raise AssertionError(f"workers {names} did not start: " + " | ".join(self.log(n) for n in names))
            time.sleep(0.05)

    def log_path(self, name: str) -> Path:
        """Where worker ``name`` logs."""
        return self.folder / f"{name}.log"

    def log(self, name: str) -> str:
        """What worker ``name`` logged so far."""
        return self.log_path(name).read_text(encoding="utf-8", errors="replace")

    def kill(self, name: str) -> None:
        """SIGKILL worker ``name`` (its sandboxed bots die with it)."""
        process = self.processes[name]
        process.kill()
        process.wait(10)

    def stop_all(self) -> None:
        """End every worker of the test and whatever its session still holds."""
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)      # the session this test started for it, by its id


@pytest.fixture
def workers(engine: Engine, tmp_path: Path) -> Iterator[Workers]:
    """Start workers with ``workers.start(name)``; all are ended after the test."""
    folder = tmp_path / "workers"
    folder.mkdir()
    started = Workers(engine.url, folder)
    yield started
    started.stop_all()


def sleeper_source(sleep_s: float = 0.03) -> str:
    """A handed-in bot that sleeps ``sleep_s`` each step instead of thinking, then steps as ``runner`` does."""
    return textwrap.dedent(f"""\
        import time

        from client.bots import runner


        class Sleeper(runner.RunnerPlayer):
            def next_step(self, change):
                time.sleep({sleep_s})
                return super().next_step(change)
        """)


@pytest.fixture
def sleeper(tmp_path: Path):
    """Write a sleeping walker bot (``bot.py``) into a folder of its own; the folder."""
    def make(name: str = "sleeper", sleep_s: float = 0.03) -> Path:
        folder = tmp_path / "bots" / name
        folder.mkdir(parents=True)
        (folder / "bot.py").write_text(sleeper_source(sleep_s), encoding="utf-8")
        return folder
    return make

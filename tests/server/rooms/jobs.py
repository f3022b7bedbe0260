"""Jobs for the worker-pool tests: module-level, so that a worker process can import them by name.

A job that must stay busy waits for a file the test creates (``release``), after creating one
itself (``started``), so the tests order events by files, never by the clock; every wait is bounded.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

#: The longest any job here waits for its release file.
PATIENCE_S = 30.0


def echo(value: object) -> object:
    """``value`` back."""
    return value


def pid() -> int:
    """The worker's process id."""
    return os.getpid()


def fail(message: str, *ignored: object) -> None:
    """Raise ``ValueError(message)`` (whatever else it is given)."""
    raise ValueError(message)


def die() -> None:
    """End the worker process at once."""
    os._exit(3)


def wait_for(started: str, release: str) -> str:
    """Create ``started``, then wait (at most ``PATIENCE_S``) until ``release`` exists; returns ``"released"``."""
    Path(started).touch()
    deadline = time.monotonic() + PATIENCE_S
    while not Path(release).exists():
        if time.monotonic() > deadline:
            return "gave up"
        time.sleep(0.005)
    return "released"


def blocking_hint(started: str, release: str, position: object, seconds: float, nodes: int) -> tuple[str, None]:
    """A stand-in for ``server.rooms.sokoban.solve_hint`` that runs until released, then finds nothing."""
    wait_for(started, release)
    return "time_limit", None

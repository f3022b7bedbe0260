"""A fake analysis kit (``server.analysis.kit``'s two functions) for the server's analysis tests: instant.

Its engine version is ``FAKE_ENGINE`` from the environment (default ``fake-1``), so that a test can make every
stored analysis stale; a log holding ``BOOM`` makes the analysis fail, as an engine error would, and one holding
``CRASH`` ends the analysis process (as a crash of the interpreter would).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from typing import Any

from shared.gamelog import read_log_data


def engine() -> str:
    """The fake engine's version now."""
    return os.environ.get("FAKE_ENGINE", "fake-1")


def __getattr__(name: str) -> str:
    """``ENGINE_VERSION``, read when asked (a test may change the engine between two of its servers)."""
    if name == "ENGINE_VERSION":
        return engine()
    raise AttributeError(name)


def analysis_key(data: bytes) -> str:
    """sha256 of the log's bytes and the engine's version, as ``shared.analysis.analysis_key``."""
    return hashlib.sha256(data + engine().encode()).hexdigest()


def analyse(data: bytes, name: str, nodes: int | None = None,
            progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """A ``GameAnalysis.to_json()``-shaped answer: one entry per step row of the log."""
    if b"CRASH" in data:
        os._exit(3)
    if b"BOOM" in data:
        raise RuntimeError("the fake engine failed")
    log = read_log_data(data, name)
    plies = [{"ply": i + 1, "seat": i % 2} for i in range(len(log.steps))]
    for done in range(len(plies)):
        if progress is not None:
            progress(done + 1, len(plies))
    return {"engine": engine(), "nodes": nodes or 7, "plies": plies, "players": []}

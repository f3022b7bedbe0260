"""Helpers of the server's analysis tests: logs on disk, and the analysis process's work done in the test's thread."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest

from shared.gamelog import GameHeader, GameLog, GameOutcome, StepRecord, format_log
from shared.quoridor import GameStatus, Step

from server.analysis import child
from server.analysis.process import AnalysisProcessError

from tests.server.analysis import fake_kit

ROOT = Path(__file__).resolve().parents[3]
#: The fake kit as the analysis process imports it.
FAKE_KIT = "tests.server.analysis.fake_kit"
#: Every wait of these tests is bounded by this many seconds.
BOUND_S = 30.0


def write_log(folder: Path, name: str, *, white: str = "alice", black: str = "bob", boom: bool = False,
              crash: bool = False) -> Path:
    """A finished two-step game log at ``folder/name`` (``boom``: one the fake engine fails on; ``crash``: one it
    ends its process on)."""
    steps = [StepRecord(white, Step.move(5, 2), GameStatus.OK, 120, 0),
             StepRecord(black, Step.wall(4, 7, 6, 7), GameStatus.OK, 340, 1)]
    game = "BOOM" if boom else "CRASH" if crash else name
    log = GameLog(GameHeader((white, black), game=game), steps, GameOutcome(0, "goal", (120, 340), (0, 0)))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(format_log(log), encoding="utf-8")
    return path


class InThread:
    """The analysis process's answers (``child.answer`` with the fake kit), given in the analyser's own thread.

    With ``gate`` set, each analysis waits for one ``release()``: a test decides when each game is done.
    """

    def __init__(self, *, gated: bool = False) -> None:
        self.gated = gated
        self._permits = threading.Semaphore(0)
        self.requests: list[dict[str, Any]] = []
        self.started = threading.Condition()
        self.closed = False

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        with self.started:
            self.requests.append(message)
            self.started.notify_all()
        if self.gated and message["op"] == "analyse":
            if not self._permits.acquire(timeout=BOUND_S) or self.closed:
                raise AnalysisProcessError("the analysis process ended")
        return child.answer(fake_kit, message)

    def release(self, count: int = 1) -> None:
        for _ in range(count):
            self._permits.release()

    def wait_started(self, count: int) -> None:
        """Wait until ``count`` requests were made (bounded)."""
        with self.started:
            assert self.started.wait_for(lambda: len(self.requests) >= count, BOUND_S)

    def close(self) -> None:
        self.closed = True
        self.release(1000)


@pytest.fixture
def fake_kit_path(monkeypatch: pytest.MonkeyPatch) -> str:
    """The fake kit, importable by an analysis process started from this test (the repository on its path)."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    monkeypatch.delenv("FAKE_ENGINE", raising=False)
    return FAKE_KIT

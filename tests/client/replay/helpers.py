"""Shared test data for the replay viewer: the legacy logs kept in the repo, and small logs made here."""

from __future__ import annotations

from pathlib import Path

from shared.gamelog import GameHeader, GameLog, GameOutcome, StepRecord, format_log
from shared.quoridor import GameStatus, Step

__all__ = ["LEGACY", "DATA_LEGACY", "legacy", "small_log", "write_small_log"]

ROOT = Path(__file__).resolve().parents[3]
LEGACY = ROOT / "tests" / "shared" / "gamelog" / "legacy"
DATA_LEGACY = ROOT / ".." / "shared" / "data" / "legacy-logs"


def legacy(name: str) -> Path:
    """A legacy log kept in the repo."""
    return LEGACY / name


def small_log() -> GameLog:
    """alice (seat 0) and bob: a move, a wall, an illegal move (InvalidStep), a timeout, then a move each."""
    steps = [
        StepRecord("alice", Step.move(5, 2), GameStatus.OK, 120, 0),
        StepRecord("bob", Step.wall(4, 7, 6, 7), GameStatus.OK, 340, 1),
        StepRecord("alice", Step.move(7, 7), GameStatus.INVALID_STEP, 15, 2),
        StepRecord("bob", Step(), GameStatus.TIMEOUT, 1000, 3),
        StepRecord("alice", Step.move(5, 3), GameStatus.OK, 80, 4),
        StepRecord("bob", Step.move(5, 8), GameStatus.OK, 60, 5),
    ]
    return GameLog(GameHeader(("alice", "bob"), game="g-7", tournament="t1"), steps)


def write_small_log(folder: Path, name: str = "g7.csv", *, outcome: GameOutcome | None = None) -> Path:
    """``small_log`` written as our CSV in ``folder``."""
    log = small_log()
    if outcome is not None:
        log = GameLog(log.header, log.steps, outcome)
    path = folder / name
    path.write_text(format_log(log), encoding="utf-8")
    return path

"""Fake clocks for tests that time things: readings advance per call, so nothing depends on the machine's speed."""

from __future__ import annotations

__all__ = ["TickingClock"]


class TickingClock:
    """A fake clock: each reading is ``step`` seconds after the one before (the first is 0)."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        return (self.readings - 1) * self.step

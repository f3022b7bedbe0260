"""``best_of``: the shortest of several timed runs of a function, for the benches' figures."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

__all__ = ["best_of"]

T = TypeVar("T")


def best_of(repeat: int, run: Callable[[], T]) -> tuple[float, T]:
    """The shortest of ``repeat`` (at least 1) runs of ``run``, in seconds, and the last run's result."""
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat}")
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - started)
    return best, result

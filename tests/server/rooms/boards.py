"""A stand-in clock for the rooms' in-memory ``Leaderboard``: the tests stamp entries themselves."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

START = datetime(2026, 1, 1, tzinfo=UTC)


def ticking(step_s: int = 1) -> Callable[[], str]:
    """A stamp that is ``step_s`` seconds later at each call, from 2026-01-01 (the table's form, to the second)."""
    seconds = itertools.count(0, step_s)
    return lambda: (START + timedelta(seconds=next(seconds))).isoformat(timespec="seconds")

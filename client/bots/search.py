"""``Searcher``: the engine's alpha-beta search (``shared.engine.search``) on this machine's clock.

The engine reads no clock (it is pure, and its node budget is what makes the analysis deterministic);
a bot searches by time, so this ``Searcher`` defaults its clock to ``time.perf_counter``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from shared.engine import search as _engine
from shared.engine.search import REPETITION, SearchResult

__all__ = ["Searcher", "SearchResult", "REPETITION"]


class Searcher(_engine.Searcher):
    """The engine's searcher, timed by ``time.perf_counter`` unless given another clock."""

    def __init__(self, wall_limit: int = 6, root_wall_limit: int = 12, max_depth: int = 30,
                 table_limit: int = 300_000, clock: Callable[[], float] | None = time.perf_counter) -> None:
        super().__init__(wall_limit, root_wall_limit, max_depth, table_limit, clock)

"""``strong``: plays the move of a time-bounded alpha-beta search (``search.Searcher``)."""

from __future__ import annotations

from shared.quoridor import ChessboardChange, Step

from ..player import Player
from .search import Searcher, SearchResult

__all__ = ["StrongPlayer"]


class StrongPlayer(Player):
    """Searches each turn for at most ``time_budget_ms`` (plus the work of one node), keeping its table all game."""

    def __init__(self, key: str = "", time_budget_ms: int = 200) -> None:
        super().__init__(key)
        if time_budget_ms <= 0:
            raise ValueError(f"time budget must be positive, got {time_budget_ms} ms")
        self.time_budget_ms = time_budget_ms
        self.searcher = Searcher()
        #: The last search (step, score, completed depth, nodes, seconds), for logs and tests.
        self.last_result: SearchResult | None = None

    def restart(self) -> None:
        """A new game: forget the positions of the last one."""
        self.searcher.clear()

    def next_step(self, change: ChessboardChange) -> Step:
        """The searched best step; ``Step()`` when no step is legal."""
        self.last_result = self.searcher.search(self.position, self.time_budget_ms / 1000)
        return self.last_result.step or Step()

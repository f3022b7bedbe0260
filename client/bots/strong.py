"""``strong``: plays the step of the engine's alpha-beta search (``shared.engine``), timed by ``search.Searcher``."""

from __future__ import annotations

from shared.quoridor import ChessboardChange, Position, Step

from ..player import Player
from .search import Searcher, SearchResult

__all__ = ["StrongPlayer", "LIMIT_SHARE"]

#: The share of the server's time limit a search may use: the search can overrun its budget by
#: one node's work, and the limit also pays for the network and the framework.
LIMIT_SHARE = 0.4


class StrongPlayer(Player):
    """Searches each turn for at most ``time_budget_ms`` (plus the work of one node), keeping its table all game.

    With a time limit (``time_limit_ms``, set by the client) the budget is at most ``LIMIT_SHARE``
    of it: ``min(time_budget_ms, 0.4 x limit)``. Given ``nodes``, it searches that many nodes a turn instead, on no
    clock: the same game gives the same steps on any machine (the analysis's calibration games play it so).
    """

    def __init__(self, key: str = "", time_budget_ms: int = 200, *, nodes: int | None = None) -> None:
        super().__init__(key)
        if time_budget_ms <= 0:
            raise ValueError(f"time budget must be positive, got {time_budget_ms} ms")
        if nodes is not None and nodes < 1:
            raise ValueError(f"a node budget must be positive, got {nodes}")
        self.time_budget_ms = time_budget_ms
        #: The nodes a turn's search may visit instead of a time budget (``None``: searched on the clock).
        self.nodes = nodes
        self.searcher = Searcher()
        #: The last search (step, score, completed depth, nodes, seconds), for logs and tests.
        self.last_result: SearchResult | None = None
        #: The positions of this game at this bot's turns and just after its steps: every position since
        #: its first searched turn (the search's ``seen``; a line that comes back to one scores as a loss
        #: of two steps). Forgotten by ``restart``.
        self.seen: set[Position] = set()

    @property
    def budget_ms(self) -> float:
        """This step's search budget in ms: ``time_budget_ms``, cut to 40% of the time limit when there is one."""
        limit = self.time_limit_ms
        return float(self.time_budget_ms) if not limit else min(float(self.time_budget_ms), LIMIT_SHARE * limit)

    def restart(self) -> None:
        """A new game: forget the positions of the last one."""
        self.searcher.clear()
        self.seen.clear()

    def next_step(self, change: ChessboardChange) -> Step:
        """The searched best step; ``Step()`` when no step is legal."""
        pos = self.position
        self.seen.add(pos)
        if self.nodes is not None:
            self.last_result = self.searcher.search(pos, seen=self.seen, nodes=self.nodes)
        else:
            self.last_result = self.searcher.search(pos, self.budget_ms / 1000, self.seen)
        step = self.last_result.step
        if step is None:
            return Step()
        self.seen.add(pos.apply(step))
        return step

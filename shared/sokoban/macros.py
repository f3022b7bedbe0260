"""Tunnel macros: a box pushed into a one-wide dead-end tunnel of goals goes straight to its far end.

A *goal tunnel* is a run of floor cells, each walled on both sides across the run, closed by a wall
at one end, every cell a goal. A box pushed into it (towards the closed end) can never come out
again (the player cannot get past it), and every goal behind it must still be filled through
the same mouth, so the box must end on the deepest free cell; stopping it earlier only jams the
tunnel. The macro pushes it there in one move, which keeps every solution reachable and cuts the
states where the tunnel is half filled out of the search.
"""

from __future__ import annotations

from .budget import Budget
from .level import Level

__all__ = ["Tunnels"]


class Tunnels:
    """The goal tunnels of a level, as one mask per push direction (up, down, left, right)."""

    def __init__(self, level: Level, budget: Budget | None = None) -> None:
        """Find the tunnels of ``level``: a walk over its cells per direction (``budget`` checked before each)."""
        check = (budget or Budget.unlimited()).check
        stride, floor, goals = level.stride, level.floor, level.goals
        self.offsets = (-stride, stride, -1, 1)
        size = floor.bit_length()
        #: ``slide[d]``: goal-tunnel cells that a push in direction ``d`` drives deeper.
        self.slide = [0, 0, 0, 0]
        for d, offset in enumerate(self.offsets):
            check()
            across = (1, -1) if d < 2 else (stride, -stride)

            def walled(cell: int, across: tuple[int, int] = across) -> bool:
                return floor >> cell & 1 == 1 and all(not floor >> (cell + a) & 1 for a in across if cell + a >= 0)

            for end in range(size):
                if not walled(end) or floor >> (end + offset) & 1:
                    continue
                cells, cell = 0, end
                while cell >= 0 and walled(cell):
                    cells |= 1 << cell
                    cell -= offset
                if cell >= 0 and floor >> cell & 1 and cells & ~goals == 0:
                    self.slide[d] |= cells

    @property
    def any(self) -> bool:
        """True when the level has a goal tunnel."""
        return any(self.slide)

    def extend(self, target: int, d: int, boxes: int) -> int:
        """Where a box pushed onto ``target`` in direction ``d`` comes to rest (``boxes`` excludes it)."""
        slide = self.slide[d]
        if not slide >> target & 1:
            return target
        offset = self.offsets[d]
        while slide >> (target + offset) & 1 and not boxes >> (target + offset) & 1:
            target += offset
        return target

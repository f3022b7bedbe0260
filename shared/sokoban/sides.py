"""Push distances that know which side of the box the player is on (a box alone with the player).

The plain distances of ``deadlocks.Board`` let the player stand anywhere. Here a state is a box
cell and the *side* the player is on: the component of the floor without that box cell that
holds the player. A push needs the player on the side of the cell behind the box, and leaves it
on the side of the cell the box left. Where a box cuts the floor in two (a corridor, a doorway),
the player may be shut out of the side it must push from, and the distance grows or becomes
infinite. Every real solution, projected on one box, is a solution of this relaxation (other
boxes only block), so the distances are lower bounds and an infinite one is a deadlock.

The tables cost a flood fill per box cell and side, then a breadth-first search per target; the
``Budget`` given is checked before each box cell and each target.
"""

from __future__ import annotations

from collections import deque

from shared.grid import iter_bits

from .budget import Budget
from .corrals import reach
from .matching import INFINITE

__all__ = ["Sides"]


class Sides:
    """Per box cell, its sides (player components) and, per side, the moves to each target (pushes, or pulls)."""

    def __init__(self, floor: int, stride: int, targets: list[int], pulls: bool = False,
                 budget: Budget | None = None) -> None:
        """Tables for boxes on ``floor`` (connected) going to ``targets`` (floor cells), by pushes or by ``pulls``."""
        check = (budget or Budget.unlimited()).check
        offsets = (-stride, stride, -1, 1)
        size = floor.bit_length()
        #: ``parts[b]``: the components of ``floor`` without ``b`` that touch ``b`` (bit masks).
        self.parts: list[list[int]] = [[] for _ in range(size)]
        #: ``side[b][d]``: index in ``parts[b]`` of the component holding ``b + offsets[d]`` (-1: a wall).
        side: list[list[int]] = [[-1] * 4 for _ in range(size)]
        for b in iter_bits(floor):
            check()
            rest = floor & ~(1 << b)
            for d, offset in enumerate(offsets):
                n = b + offset
                if n < 0 or not rest >> n & 1:
                    continue
                for i, part in enumerate(self.parts[b]):
                    if part >> n & 1:
                        side[b][d] = i
                        break
                else:
                    side[b][d] = len(self.parts[b])
                    self.parts[b].append(reach(1 << n, rest, stride))
        #: Box cells with more than one side: only there does the player's position change a row.
        self.cuts = sum(1 << b for b in range(size) if len(self.parts[b]) > 1)
        self.none = [INFINITE] * len(targets)
        # rows[b][i][t]: moves taking a box from b, player on side i, to targets[t].
        self.rows: list[list[list[int]]] = [[[INFINITE] * len(targets) for _ in self.parts[b]] for b in range(size)]
        # Every move as an edge between (box cell, side) states; the search runs them backwards.
        into: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for b in iter_bits(floor):
            for d, offset in enumerate(offsets):
                # A push: the player behind (b - offset), the box to b + offset, the player then on b.
                # A pull: the player ahead (b + offset) steps on to b + 2 * offset, the box follows.
                stand, after, far = (b + offset, b + offset, b + 2 * offset) if pulls else (b - offset, b + offset, b)
                if min(stand, after, far) < 0 or not floor >> stand & 1 or not floor >> after & 1 \
                        or not floor >> far & 1:
                    continue
                i = side[b][d if pulls else d ^ 1]
                j = side[after][d if pulls else d ^ 1]
                into.setdefault((after, j), []).append((b, i))
        for t, target in enumerate(targets):
            check()
            dist = {(target, i): 0 for i in range(len(self.parts[target]))}
            queue = deque(dist)
            while queue:
                state = queue.popleft()
                for before in into.get(state, ()):
                    if before not in dist:
                        dist[before] = dist[state] + 1
                        queue.append(before)
            for (cell, i), moves in dist.items():
                self.rows[cell][i][t] = moves

    def row(self, box: int, player: int) -> list[int]:
        """The cost row of a box at ``box`` with the player at ``player`` (any cell of its region)."""
        rows = self.rows[box]
        if len(rows) == 1:
            return rows[0]
        for i, part in enumerate(self.parts[box]):
            if part >> player & 1:
                return rows[i]
        return self.none

"""What the solver knows before it searches: push distances, dead squares, and frozen boxes.

* A **dead square** is a cell from which a box can never reach any goal, even alone on the board
  (found by pulling a box backwards from every goal); a box pushed there is lost.
* A **freeze deadlock** is a box that can move neither along a row nor along a column (walls,
  dead squares on both sides, or boxes that are themselves frozen) while off a goal.

The tables cost a breadth-first search per goal (and per goal again for each new set of boxes
frozen on goals); the ``Budget`` given is checked before each one.
"""

from __future__ import annotations

from collections.abc import Iterable

from shared.grid import bfs_distances

from .budget import Budget
from .level import Level
from .matching import INFINITE

__all__ = ["Board"]


class Board:
    """A level's fixed facts for the solver: cell offsets, goal distances per cell, live squares."""

    def __init__(self, level: Level, budget: Budget | None = None) -> None:
        #: The solve's time budget: checked before each breadth-first search here and in ``rows``, and by
        #: the corral-deadlock searches on this board.
        self.budget = budget = budget or Budget.unlimited()
        budget.check()
        self.level = level
        self.stride = level.stride
        self.floor = level.floor
        self.walls = ~level.floor          # everything that is not floor blocks a box
        self.offsets = (-level.stride, level.stride, -1, 1)     # up, down, left, right
        goals = level.goals & level.floor      # goals the player cannot reach hold fixed boxes
        self.goal_cells = [i for i in range(level.floor.bit_length()) if goals >> i & 1]
        # distances[g][cell]: pushes to bring a box from cell to goal g alone (INFINITE if it cannot).
        self.distances: list[list[int]] = []
        for goal in self.goal_cells:
            budget.check()
            self.distances.append(self.pull_distances([goal]))
        size = level.floor.bit_length()
        nearest = [INFINITE] * size
        for d in self.distances:
            budget.check()
            nearest = list(map(min, nearest, d))
        self.nearest = nearest
        #: Floor cells from which a box can still reach some goal.
        self.live = sum(1 << cell for cell in range(size) if self.nearest[cell] < INFINITE and level.floor >> cell & 1)
        self.size = size
        self._rows: dict[int, list[list[int]]] = {}

    def pull_distances(self, targets: Iterable[int], floor: int | None = None) -> list[int]:
        """Pushes bringing a box alone on ``floor`` to the nearest of ``targets``, per cell (``INFINITE``: never).

        Found by pulling back from the targets: a box at ``b`` comes from ``b + o`` if the player can
        stand at ``b + 2o``.
        """
        floor = self.floor if floor is None else floor
        offsets = self.offsets
        size = self.floor.bit_length()

        def pulls(cell: int) -> list[int]:
            return [cell + o for o in offsets if 0 <= cell + 2 * o < size and floor >> (cell + o) & 1
                    and floor >> (cell + 2 * o) & 1]

        dist = [INFINITE] * size
        for cell, pushes in bfs_distances(targets, pulls, multi=True).items():
            dist[cell] = pushes
        return dist

    def costs(self, box_cells: list[int]) -> list[list[int]]:
        """The matching's cost matrix: one row per box, one column per goal."""
        return [[d[cell] for d in self.distances] for cell in box_cells]

    def goal_row(self, cell: int) -> list[int]:
        """One box's row of the cost matrix."""
        return [d[cell] for d in self.distances]

    def rows(self, frozen: int) -> list[list[int]]:
        """Cost rows per cell when the boxes of ``frozen`` (all on goals) stand for good, walls to the others.

        ``rows(0)[cell] == goal_row(cell)``. A frozen box's row is 0 for its own goal and infinite
        elsewhere; every other row counts pushes around the frozen boxes, so a goal they shut off
        (say, a dead-end goal column whose only pushing square a frozen box holds) becomes
        unreachable and the matching infeasible.
        """
        table = self._rows.get(frozen)
        if table is None:
            distances = []
            for g, goal in enumerate(self.goal_cells):
                self.budget.check()
                distances.append(self.distances[g] if not frozen else
                                 [0 if cell == goal else INFINITE for cell in range(self.size)] if frozen >> goal & 1
                                 else self.pull_distances([goal], self.floor & ~frozen))
            self.budget.check()
            # One row per cell, one column per goal: a transpose at C speed (a comprehension per cell
            # costs about ten times as much on the largest levels the rooms take).
            table = [list(row) for row in zip(*distances)] if distances else [[] for _ in range(self.size)]
            self._rows[frozen] = table
        return table

    # -- freeze deadlocks -------------------------------------------------------------
    def freeze(self, box: int, boxes: int) -> int:
        """The mask of the frozen group of the box at ``box`` (0 when that box can still move)."""
        frozen: set[int] = set()
        if not self._blocked(box, boxes, True, frozen, {box}) or not self._blocked(box, boxes, False, frozen, {box}):
            return 0
        frozen.add(box)
        return sum(1 << cell for cell in frozen)

    def frozen_off_goal(self, box: int, boxes: int) -> bool:
        """True when the box at ``box`` is frozen with some frozen box of its group off a goal."""
        return self.freeze(box, boxes) & ~self.level.goals != 0

    def _blocked(self, box: int, boxes: int, horizontal: bool, frozen: set[int], seen: set[int]) -> bool:
        """Can the box at ``box`` not move along this axis? (Boxes in ``seen`` count as walls, breaking cycles.)"""
        step = 1 if horizontal else self.stride
        a, b = box - step, box + step
        walls = self.walls
        if walls >> a & 1 or walls >> b & 1 or a in seen or b in seen:
            return True
        live = self.live
        if not live >> a & 1 and not live >> b & 1:
            return True
        for side in (a, b):
            if boxes >> side & 1:
                seen.add(side)
                stuck = self._blocked(side, boxes, not horizontal, frozen, seen)
                seen.discard(side)
                if stuck:
                    frozen.add(side)
                    return True
        return False

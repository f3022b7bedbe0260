"""The backward search: from the solved position, *pull* boxes back to where the level starts them.

Packing levels (goals in a room the boxes must fill in the right order) are hard forwards and easy
backwards: pulling boxes out of a full goal room never jams it. A state is keyed exactly as in
the forward search (boxes, then the lowest cell of the player's region), so the two searches can
meet: a key both have reached joins a forward path from the start with a backward path to the goal.

A pull is stored as the forward push it undoes, ``(box cell, direction index)``: the box at
``cell + offset`` comes back to ``cell`` and the player, who stood on ``cell``, steps to
``cell - offset``. The bound is the minimum-cost matching of boxes to the level's starting box
cells by pull distance: a box alone on the board with the player on its side of it (``sides``).
"""

from __future__ import annotations

import heapq

from shared.grid import bfs_distances, iter_bits

from .budget import Budget
from .corrals import reach
from .level import Level
from .matching import INFINITE, match, rematch
from .sides import Sides

__all__ = ["PullBoard", "PullSearch", "pull_moves"]


class PullBoard:
    """A level's fixed facts for pulling: pull distances from each cell back to each starting box cell."""

    def __init__(self, level: Level, budget: Budget | None = None) -> None:
        check = (budget or Budget.unlimited()).check
        self.stride = level.stride
        self.floor = level.floor
        self.offsets = (-level.stride, level.stride, -1, 1)
        self.starts = list(iter_bits(level.boxes & level.floor))
        self.distances: list[list[int]] = []
        for start in self.starts:
            check()
            self.distances.append(self._push_distances(start))
        size = level.floor.bit_length()
        #: Floor cells from which a box can be pulled back to some starting cell.
        self.live = sum(1 << cell for cell in range(size)
                        if level.floor >> cell & 1 and any(d[cell] < INFINITE for d in self.distances))

    def _push_distances(self, start: int) -> list[int]:
        """Pushes taking a box alone from ``start`` to each cell (= pulls bringing it back)."""
        floor, offsets = self.floor, self.offsets
        size = floor.bit_length()

        def pushes(cell: int) -> list[int]:
            return [cell + o for o in offsets if 0 <= cell - o and floor >> (cell - o) & 1 and floor >> (cell + o) & 1]

        dist = [INFINITE] * size
        for cell, count in bfs_distances(start, pushes).items():
            dist[cell] = count
        return dist

    def row(self, cell: int) -> list[int]:
        """One box's row of the cost matrix (columns: the starting box cells)."""
        return [d[cell] for d in self.distances]


def pull_moves(boxes: int, region: int, free: int, offsets: tuple[int, ...]) -> list[tuple[int, int]]:
    """Every pull from ``region`` as the push it undoes: ``(cell the box returns to, direction index)``."""
    found = []
    for d, offset in enumerate(offsets):
        # The box at c + offset comes to c (in the region); the player steps back to c - offset (free).
        if offset > 0:
            cells = region & (boxes >> offset) & (free << offset)
        else:
            cells = region & (boxes << -offset) & (free >> -offset)
        found += [(cell, d) for cell in iter_bits(cells)]
    return found


class PullSearch:
    """A best-first search by pulls from every solved position; ``found`` holds a key a forward search reached."""

    def __init__(self, level: Level, weight: int, forward: list[dict[int, tuple[int, int, int, int] | None]],
                 budget: Budget | None = None) -> None:
        #: The solve's time budget, checked through the set-up (per table, per root) and per pull tried.
        self.budget = budget = budget or Budget.unlimited()
        self.board = board = PullBoard(level, budget)
        self.weight, self.forward = weight, forward
        self.floor, self.stride = level.floor, level.stride
        self.shift = self.floor.bit_length()
        goals = level.goals & level.floor
        cells = list(iter_bits(goals))
        #: Pull distances by the player's side of the box (see ``sides``); rows are redone per root.
        self.sides = Sides(level.floor, level.stride, board.starts, pulls=True, budget=budget)
        costs = [board.row(cell) for cell in cells]
        matching = match(costs, budget)
        #: key -> (child key, cell, direction index): the forward push (cell, d) leads from key to the child.
        self.parents: dict[int, tuple[int, int, int] | None] = {}
        self.heap: list[tuple] = []
        self.counter = 0
        self.nodes = 0
        self.found: int | None = None
        if matching.cost >= INFINITE:
            return
        rest = self.floor & ~goals
        while rest:                   # one root per region the player may finish in
            budget.check()
            region = reach(rest & -rest, rest, self.stride)
            rest &= ~region
            player = (region & -region).bit_length() - 1
            key = (goals << self.shift) | player
            self.parents[key] = None
            root_costs = [self.sides.row(cell, player) for cell in cells]
            root = match(root_costs, budget)
            if root.cost >= INFINITE:
                continue
            self.counter += 1
            self.heap.append((weight * root.cost, root.cost, -self.counter, 0, key, goals, region, cells,
                              root_costs, root))
        heapq.heapify(self.heap)
        for key in self.parents:            # a root reached forwards already (the start itself)
            if any(key in table for table in forward):
                self.found = key

    def run(self, batch: int) -> bool:
        """Expand up to ``batch`` states; False once the search is over (met a forward search, or exhausted)."""
        if self.found is not None:
            return False
        floor, stride, shift, weight = self.floor, self.stride, self.shift, self.weight
        offsets, live, sides = self.board.offsets, self.board.live, self.sides
        cuts = sides.cuts
        parents, heap, forward = self.parents, self.heap, self.forward
        check = self.budget.check
        for _ in range(batch):
            if not heap:
                return False
            _, _, _, pulls, key, boxes, region, cells, costs, matching = heapq.heappop(heap)
            self.nodes += 1
            free = floor & ~boxes
            for cell, d in pull_moves(boxes, region, free, offsets):
                if not live >> cell & 1:
                    continue
                check()
                offset = offsets[d]
                box = cell + offset
                new_boxes = boxes ^ (1 << box) ^ (1 << cell)
                new_region = reach(1 << (cell - offset), floor & ~new_boxes, stride)
                player = (new_region & -new_region).bit_length() - 1
                new_key = (new_boxes << shift) | player
                if new_key in parents:
                    continue
                row = cells.index(box)
                new_cells = cells.copy()
                new_cells[row] = cell
                new_costs = costs.copy()
                new_costs[row] = sides.row(cell, player)
                new_matching = rematch(matching, new_costs, row)
                for other in iter_bits(new_boxes & cuts & ~(1 << cell)):    # the player changed sides?
                    i = new_cells.index(other)
                    fresh = sides.row(other, player)
                    if fresh != new_costs[i]:
                        check()
                        new_costs[i] = fresh
                        new_matching = rematch(new_matching, new_costs, i)
                if new_matching.cost >= INFINITE:
                    continue
                parents[new_key] = (key, cell, d)
                if any(new_key in table for table in forward):
                    self.found = new_key
                    return False
                self.counter += 1
                heapq.heappush(heap, (pulls + 1 + weight * new_matching.cost, new_matching.cost, -self.counter,
                                      pulls + 1, new_key, new_boxes, new_region, new_cells, new_costs, new_matching))
        return True

    def pushes_from(self, key: int) -> list[tuple[int, int, int]]:
        """The forward pushes ``(box, direction, 1)`` leading from ``key`` (reached here) to a solved position."""
        out: list[tuple[int, int, int]] = []
        entry = self.parents[key]
        while entry is not None:
            key, cell, d = entry
            out.append((cell, d, 1))
            entry = self.parents[key]
        return out

"""Corral deadlocks: a corral whose own boxes can never let the player in, nor settle, found by small searches.

A *corral* (see ``corrals``) is an area of free cells the player cannot reach. Its *boxes* are those
touching it and those standing in line with them (behind or ahead of a box the player might push
from outside). Every other box is taken off the board: what the player can do with the boxes left
is a relaxation of the position (fewer obstacles, never more), so any solution of the level, cut
down to those boxes, is a sequence of pushes here too. Two bounded searches use that:

1. **Opening.** Search the pushes of the corral's boxes until the player steps into the corral, or
   every box left and every goal of the corral is settled (each box on a goal, each goal of the
   corral under a box). Running out of pushes with neither proves a deadlock: a box from elsewhere
   can be pushed into the corral only when, without that box, the player could step in. (This
   catches, say, a goal tunnel behind a box whose pushing square another box shuts.)
2. **Clearing.** When the player gets in only after two pushes or more (a box pushed through a
   doorway into a room), search again without stopping at the door: every box left must reach a
   goal, or leave the corral's *area* (its cells and its boxes' cells), where it is taken off the
   board too (a further relaxation). Running out of pushes proves a deadlock: a room whose boxes
   jam each other and the one pushed in, which the player could enter but never clear.

Both searches prune pushes onto dead squares, boxes frozen off goals and, in the second, follow
PI-corrals (``pi_corral_pushes``) with only boxes off goals counting as change, since a search of
some boxes does not need every goal filled. A search cut short proves nothing, so the limits only
trade deadlocks found for time. After the corral deadlocks of JSoko and YASS (Sokoban wiki, "How to
detect deadlocks"); the second search is what solves Microban 153 (rooms joined by one-cell doors).
Both check the board's ``Budget`` (the solve's time limit) before each position they expand.
"""

from __future__ import annotations

import heapq
from collections import deque

from shared.grid import iter_bits

from .corrals import pi_corral_pushes, reach
from .deadlocks import Board
from .matching import INFINITE

__all__ = ["CLEAR_BOXES", "CLEAR_LIMIT", "OPEN_LIMIT", "CorralDeadlocks"]

# The limits were set on the Microban bench (seconds for the 155 levels in all, then for level 153):
#: Positions the opening search expands at most (32 to 200 all give 11.0 to 11.5 s).
OPEN_LIMIT = 64
#: Positions the clearing search expands at most (60: 16.9 s and 7.6 s; 120: 11.0 s and 2.4 s; 250: 11.1 s).
CLEAR_LIMIT = 120
#: Boxes the clearing search keeps at most (5: 13.6 s and 4.9 s; 6: 11.0 s; 8: 11.5 s). Also two fewer than
#: the level has: with all of them it is the level itself, costing more than it finds (17.1 s).
CLEAR_BOXES = 6


def _around(cells: int, stride: int) -> int:
    return (cells << 1) | (cells >> 1) | (cells << stride) | (cells >> stride)


class CorralDeadlocks:
    """Corral-deadlock tests for one level; verdicts are remembered by corral, its boxes and the player's region."""

    def __init__(self, board: Board, *, open_limit: int = OPEN_LIMIT, clear_limit: int = CLEAR_LIMIT,
                 clear_boxes: int = CLEAR_BOXES) -> None:
        self.board = board
        self.floor, self.stride, self.offsets = board.floor, board.stride, board.offsets
        self.goals = board.level.goals & board.floor
        self.open_limit, self.clear_limit = open_limit, clear_limit
        self.clear_boxes = min(clear_boxes, (board.level.boxes & board.floor).bit_count() - 2)
        #: (corral, its boxes, lowest cell the player reaches among them) -> deadlock?
        self._verdicts: dict[tuple[int, int, int], bool] = {}

    def around(self, boxes: int, region: int, cell: int) -> bool:
        """True when a corral near the box just pushed onto ``cell`` is a proven deadlock (``region``: the player's)."""
        stride = self.stride
        shut = self.floor & ~boxes & ~region
        if not shut:
            return False
        # The push may have shut a corral next to the box, or blocked a box of one: then the corral
        # lies within two steps of the box.
        cells = 1 << cell
        seeds = _around(cells | (_around(cells, stride) & boxes), stride) & shut
        near = 0
        while seeds:
            corral = reach(seeds & -seeds, shut, stride)
            seeds &= ~corral
            near |= corral
            if self.is_deadlock(boxes, region, corral):
                return True
        # Some corrals are deadlocks only together (a goal tunnel behind a box, and the square the player
        # must push it from shut by another box): join in every corral sharing a box with these.
        joined = near
        while True:
            more = _around(_around(joined, stride) & boxes, stride) & shut & ~joined
            if not more:
                break
            joined |= reach(more & -more, shut, stride)
        return joined != near and self.is_deadlock(boxes, region, joined)

    def is_deadlock(self, boxes: int, region: int, corral: int) -> bool:
        """True when ``corral`` (one or several corrals) with ``boxes`` is proven a deadlock by either search."""
        stride, goals = self.stride, self.goals
        touching = _around(corral, stride) & boxes
        if not (corral & goals) and not (touching & ~goals):
            return False                 # nothing in it needs to change
        kept = self._kept(boxes, corral, touching)
        start = reach(region & -region, self.floor & ~kept, stride)
        key = (corral, kept, (start & -start).bit_length() - 1)
        verdict = self._verdicts.get(key)
        if verdict is None:
            pushes = self._opening(kept, start, corral)
            if pushes < 0:
                verdict = True
            elif pushes >= 2 and kept.bit_count() <= self.clear_boxes:
                # A corral one push opens seldom hides a trap, and searching those too costs more than
                # it saves (the Microban bench: 12.8 s against 11.0 s, level 153 3.2 s against 2.4 s).
                verdict = not self._clears(kept, start, corral | kept)
            else:
                verdict = False
            self._verdicts[key] = verdict
        return verdict

    def _kept(self, boxes: int, corral: int, touching: int) -> int:
        """The corral's boxes: those touching it, and those in line with one where a push from outside could go."""
        floor = self.floor
        kept = touching
        for box in iter_bits(touching):
            for offset in self.offsets:
                stand, ahead = box - offset, box + offset
                if corral >> stand & 1 or not floor >> stand & 1 or not floor >> ahead & 1:
                    continue
                kept |= boxes & ((1 << stand) | (1 << ahead))
        return kept

    def _opening(self, kept: int, region: int, corral: int) -> int:
        """Fewest pushes of ``kept`` letting the player into ``corral``: 0 when it settles first or the search
        gives up, -1 when neither the one nor the other ever happens."""
        board, floor, stride, offsets, goals = self.board, self.floor, self.stride, self.offsets, self.goals
        live = board.live
        seen = {(kept, region & -region)}
        queue = deque([(kept, region, 1)])
        check = board.budget.check
        for _ in range(self.open_limit):
            check()
            if not queue:
                return -1
            boxes, region, pushes = queue.popleft()
            free = floor & ~boxes
            for box in iter_bits(boxes):
                for offset in offsets:
                    target = box + offset
                    if not region >> (box - offset) & 1 or not free >> target & 1 or not live >> target & 1:
                        continue
                    new_boxes = boxes ^ (1 << box) ^ (1 << target)
                    if board.freeze(target, new_boxes) & ~goals:
                        continue             # frozen off a goal: this line is dead
                    new_region = reach(1 << box, floor & ~new_boxes, stride)
                    if new_region & corral:
                        return pushes
                    if not (new_boxes & ~goals or corral & goals & ~new_boxes):
                        return 0             # settled without the player getting in
                    key = (new_boxes, new_region & -new_region)
                    if key not in seen:
                        seen.add(key)
                        queue.append((new_boxes, new_region, pushes + 1))
        return -1 if not queue else 0

    def _clears(self, kept: int, region: int, area: int) -> bool:
        """Can every box of ``kept`` reach a goal or leave ``area``? False only when the search runs out of pushes."""
        board, floor, stride, offsets, goals = self.board, self.floor, self.stride, self.offsets, self.goals
        live = board.live
        if not kept & ~goals:
            return True
        # Pushes from each cell to the nearest goal or way out, a box alone: the search goes greedily
        # by their sum (so that a corral which clears shows it soon), and a box that can do neither is lost.
        distances = board.pull_distances(iter_bits(goals | floor & ~area))
        seen = {(kept, region & -region)}
        heap = [(0, 0, kept, region)]
        counter = 0
        check = board.budget.check
        for _ in range(self.clear_limit):
            check()
            if not heap:
                return False
            _, _, boxes, region = heapq.heappop(heap)
            candidates = pi_corral_pushes(board, boxes, region, all_goals=False)
            if candidates is None:
                candidates = [(box, d) for box in iter_bits(boxes) for d in range(4)]
            free = floor & ~boxes
            for box, d in candidates:
                offset = offsets[d]
                target = box + offset
                if not region >> (box - offset) & 1 or not free >> target & 1 or not live >> target & 1:
                    continue
                new_boxes = boxes ^ (1 << box) ^ (1 << target)
                if not area >> target & 1:
                    new_boxes ^= 1 << target     # out of the area: off the board
                elif board.freeze(target, new_boxes) & ~goals:
                    continue
                rest = new_boxes & ~goals
                if not rest:
                    return True
                cost = sum(distances[cell] for cell in iter_bits(rest))
                if cost >= INFINITE:
                    continue
                new_region = reach(1 << box, floor & ~new_boxes, stride)
                key = (new_boxes, new_region & -new_region)
                if key not in seen:
                    seen.add(key)
                    counter += 1
                    heapq.heappush(heap, (cost, counter, new_boxes, new_region))
        return bool(heap)

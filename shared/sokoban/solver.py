"""A Sokoban solver: best-first searches over box positions, forwards by pushes and backwards by pulls.

A state is the boxes (a bit mask) and the player's region, named by its lowest cell: moves that
do not push are folded into the reachability of that region, so the search branches on pushes
only. Pushes into dead squares, pushes that freeze a box off a goal and pushes that leave a corral
its own boxes can never open or clear (``corral_deadlocks``) are pruned; boxes frozen on goals
become walls for the bound; a box pushed into a dead-end tunnel of goals slides to its
far end in one move (``macros``). States are ordered by ``pushes + weight * bound``, where the
bound is the minimum-cost matching of boxes to goals by push distance, each box alone with the
player on its side of it (``sides``; infinite when no perfect matching exists, which prunes too).
A backward search (``pull``) pulls boxes from the solved position towards the start; it wins by
reaching the start or by meeting a forward search. The pushes found are joined by shortest walks
into a LURD solution, checked with ``judge`` before it is returned. Solutions are valid, not
necessarily optimal (weighted bounds, macros, meeting points).

The time limit holds from the first instruction: one ``Budget`` on the clock given is checked
through the set-up (every table above, built per goal, per box cell, per root), per state
expanded and per push tried in the searches, and per push joined into the LURD text; when it is
spent the result is ``time_limit``, whatever phase was running.

A ``progress`` callback, when given, hears how the search goes (``progress.Reporter``): the states
expanded and the seconds spent, checked after each batch and reported every half second on the
clock. The solver still does no I/O; the callback may (the command line prints from it).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass

from shared.grid import DIRECTIONS, iter_bits, shortest_path

from .budget import Budget, OutOfTime
from .corral_deadlocks import CorralDeadlocks
from .corrals import pi_corral_pushes, reach
from .deadlocks import Board
from .level import Level
from .matching import INFINITE, Matching, match, rematch
from .macros import Tunnels
from .progress import ProgressCallback, Reporter, SolveProgress
from .pull import PullSearch
from .sides import Sides
from .verdict import judge

__all__ = ["PORTFOLIO", "PULLS", "SolveProgress", "SolveResult", "solve"]


@dataclass(frozen=True)
class SolveResult:
    """What a search found. ``status``: ``solved``, ``unsolvable`` (searched it all), ``time_limit`` or ``node_limit``."""

    status: str
    lurd: str | None
    moves: int
    pushes: int
    nodes: int
    seconds: float

    @property
    def solved(self) -> bool:
        """True when ``lurd`` solves the level."""
        return self.status == "solved"


def _pushes(boxes: int, region: int, targets: int, offsets: tuple[int, ...]) -> list[tuple[int, int]]:
    """``(box, direction index)`` of every push from the player's region onto a cell of ``targets``."""
    found = []
    for d, offset in enumerate(offsets):
        # Boxes with the player's region behind them and a target cell ahead of them.
        if offset > 0:
            movable = boxes & (region << offset) & (targets >> offset)
        else:
            movable = boxes & (region >> -offset) & (targets << -offset)
        found += [(box, d) for box in iter_bits(movable)]
    return found


#: The searches ``solve`` runs side by side: (weight of the bound, share of the expansions).
#: A steady weight solves most levels; a greedy one finds long solutions in roomy levels; the
#: plain A* (weight 1) gets out of the traps that mislead the greedy ones.
PORTFOLIO: tuple[tuple[int, int], ...] = ((3, 2), (100, 1), (1, 1))
#: The backward (pull) searches ``solve`` runs beside them, same form; packing levels fall to these.
PULLS: tuple[tuple[int, int], ...] = ((3, 2),)
_BATCH = 128      # expansions per turn of one search (the budget is checked within it, per expansion)


class _Search:
    """One best-first search, run a batch at a time; ``found`` holds the solving key once found."""

    def __init__(self, level: Level, board: Board, sides: Sides, weight: int, corrals: CorralDeadlocks | None,
                 start: tuple[int, int, list[int], list[list[int]], Matching]) -> None:
        #: ``corrals``: the corral-deadlock tests (shared by the searches), ``None`` for no corral pruning at all.
        self.level, self.board, self.weight, self.corrals = level, board, weight, corrals
        self.floor, self.stride = level.floor, level.stride
        self.goals = level.goals & level.floor
        self.shift = self.floor.bit_length()
        boxes0, region0, cells0, costs0, matching0 = start
        key0 = (boxes0 << self.shift) | ((region0 & -region0).bit_length() - 1)
        self.tunnels = Tunnels(level, board.budget)
        self.sides = sides
        #: key -> (parent key, box cell pushed, direction index, pushes in a row); the start has no parent.
        self.parents: dict[int, tuple[int, int, int, int] | None] = {key0: None}
        self.counter = 0
        # Heap entries: (priority, bound, tie, pushes, key, boxes, region, box cells, costs, matching).
        self.heap: list[tuple] = [(weight * matching0.cost, matching0.cost, 0, 0, key0, boxes0, region0, cells0,
                                   costs0, matching0, 0)]
        self.nodes = 0
        self.found: int | None = None
        #: The tables of the backward searches: a key found in one is a meeting point.
        self.backward: list[dict[int, tuple[int, int, int] | None]] = []

    def _row(self, cell: int, player: int, frozen: int) -> list[int]:
        """The cost row of a box at ``cell``: pushes by the player's side, around the boxes of ``frozen``."""
        row = self.sides.row(cell, player)
        if not frozen:
            return row
        return [max(a, b) for a, b in zip(row, self.board.rows(frozen)[cell])]

    def run(self, batch: int) -> bool:
        """Expand up to ``batch`` states; False once the search is over (solved or exhausted)."""
        board, floor, stride, shift, goals, weight = (self.board, self.floor, self.stride, self.shift, self.goals,
                                                      self.weight)
        live, offsets, parents, heap, backward = board.live, board.offsets, self.parents, self.heap, self.backward
        tunnels = self.tunnels
        slide = tunnels.slide
        cuts = self.sides.cuts
        corrals = self.corrals
        check = board.budget.check
        for _ in range(batch):
            if not heap:
                return False
            check()
            _, _, _, pushes, key, boxes, region, cells, costs, matching, frozen = heapq.heappop(heap)
            self.nodes += 1
            candidates = pi_corral_pushes(board, boxes, region) if corrals is not None else None
            if candidates is None:
                candidates = _pushes(boxes, region, floor & ~boxes & live, offsets)
            for box, d in candidates:
                check()
                offset = offsets[d]
                target = box + offset
                if slide[d] >> target & 1:        # into a goal tunnel: on to its deepest free cell
                    target = tunnels.extend(target, d, boxes)
                new_boxes = boxes ^ (1 << box) ^ (1 << target)
                group = board.freeze(target, new_boxes)
                if group & ~goals:
                    continue                      # frozen off a goal: a deadlock
                new_region = reach(1 << (target - offset), floor & ~new_boxes, stride)
                new_key = (new_boxes << shift) | ((new_region & -new_region).bit_length() - 1)
                if new_key in parents:
                    continue
                if corrals is not None and corrals.around(new_boxes, new_region, target):
                    continue                      # a corral that never opens nor clears: a deadlock
                row = cells.index(box)
                new_cells = cells.copy()
                new_cells[row] = target
                player = (new_region & -new_region).bit_length() - 1
                if group & ~frozen:               # boxes newly frozen on goals: walls from now on
                    new_frozen = frozen | group
                    new_costs = [self._row(cell, player, new_frozen) for cell in new_cells]
                    new_matching = match(new_costs, board.budget)
                else:
                    new_frozen = frozen
                    new_costs = costs.copy()
                    new_costs[row] = self._row(target, player, frozen)
                    new_matching = rematch(matching, new_costs, row)
                    for other in iter_bits(new_boxes & cuts & ~(1 << target)):   # the player changed sides?
                        i = new_cells.index(other)
                        fresh = self._row(other, player, frozen)
                        if fresh != new_costs[i]:
                            check()
                            new_costs[i] = fresh
                            new_matching = rematch(new_matching, new_costs, i)
                if new_matching.cost >= INFINITE:
                    continue
                count = (target - box) // offset
                parents[new_key] = (key, box, d, count)
                if new_boxes == goals or any(new_key in table for table in backward):
                    self.found = new_key
                    return False
                self.counter += 1
                priority = pushes + count + weight * new_matching.cost
                heapq.heappush(heap, (priority, new_matching.cost, -self.counter, pushes + count, new_key, new_boxes,
                                      new_region, new_cells, new_costs, new_matching, new_frozen))
        return True


def solve(level: Level, *, time_limit: float = 10.0, node_limit: int | None = None,
          portfolio: tuple[tuple[int, int], ...] = PORTFOLIO, pulls: tuple[tuple[int, int], ...] = PULLS,
          corrals: bool = True, clock: Callable[[], float],
          progress: ProgressCallback | None = None) -> SolveResult:
    """Search for a solution of ``level`` within ``time_limit`` seconds (and ``node_limit`` expanded states).

    Runs the forward searches of ``portfolio`` and the backward (pull) searches of ``pulls``
    (weight of the bound against pushes made, share of the expansions) in turns, and returns the
    first solution found: a forward search reaching the goal, a backward one reaching the start,
    or the two meeting. Guaranteed: a returned ``lurd`` is checked by ``judge`` (valid and solved);
    it is *not* guaranteed to be optimal in moves or pushes. ``corrals`` turns PI-corral pruning and the
    corral-deadlock tests on.
    ``unsolvable`` means a search ran out of states to expand (every pruning used is sound).
    ``time_limit`` counts on ``clock`` (seconds, given by the caller: ``time.monotonic``, or a test's own; the
    solver never reads the machine's clock itself) from the call's first instruction, set-up included (see the
    module's notes): a clock already past the limit stops the solve before any table is built.
    ``progress`` is called with a ``SolveProgress`` every half second on ``clock`` while the searches run.
    """
    budget = Budget(time_limit, clock)
    searches: list[tuple[_Search | PullSearch, int]] = []
    reporter = Reporter(progress, budget) if progress is not None else None
    try:
        return _solve(level, budget, node_limit, portfolio, pulls, corrals, searches, reporter)
    except OutOfTime:
        nodes = sum(search.nodes for search, _ in searches)
        return SolveResult("time_limit", None, 0, 0, nodes, budget.spent())


def _solve(level: Level, budget: Budget, node_limit: int | None, portfolio: tuple[tuple[int, int], ...],
           pulls: tuple[tuple[int, int], ...], corrals: bool,
           searches: list[tuple[_Search | PullSearch, int]], reporter: Reporter | None = None) -> SolveResult:
    """``solve``'s body; ``searches`` is filled as the searches are made, so that an ``OutOfTime`` can count them."""
    spent = budget.spent
    board = Board(level, budget)
    floor, goals = level.floor, level.goals & level.floor
    fixed = level.boxes & ~floor                 # boxes the player can never reach
    if fixed & ~level.goals:
        return SolveResult("unsolvable", None, 0, 0, 0, spent())
    boxes0 = level.boxes & floor
    if boxes0 == goals:
        return SolveResult("solved", "", 0, 0, 0, spent())
    cells0 = list(iter_bits(boxes0))
    if any(not board.live >> cell & 1 for cell in cells0 if not goals >> cell & 1):
        return SolveResult("unsolvable", None, 0, 0, 0, spent())
    sides = Sides(floor, level.stride, board.goal_cells, budget=budget)
    region0 = reach(1 << level.player, floor & ~boxes0, level.stride)
    costs0 = [sides.row(cell, level.player) for cell in cells0]
    matching0 = match(costs0, budget)
    if matching0.cost >= INFINITE:
        return SolveResult("unsolvable", None, 0, 0, 0, spent())
    start = (boxes0, region0, cells0, costs0, matching0)
    tests = CorralDeadlocks(board) if corrals else None       # one table of verdicts for all the searches
    forward = [(_Search(level, board, sides, weight, tests, start), share) for weight, share in portfolio]
    tables = [search.parents for search, _ in forward]
    if not tables:                               # a backward search alone still stops at the start
        shift = floor.bit_length()
        tables = [{(boxes0 << shift) | ((region0 & -region0).bit_length() - 1): None}]
    backward = [(PullSearch(level, weight, tables, budget), share) for weight, share in pulls]
    for search, _ in forward:
        search.backward = [pull.parents for pull, _ in backward]
    searches += [*forward, *backward]
    status, winner = "time_limit", None
    nodes = 0
    while winner is None:
        for search, share in searches:
            if not search.run(_BATCH * share):
                winner = search
                break
            if reporter is not None:             # after each batch: a fraction of a second apart
                reporter.tick(sum(other.nodes for other, _ in searches))
        nodes = sum(search.nodes for search, _ in searches)
        if winner is None and budget.over():
            break
        if winner is None and node_limit is not None and nodes >= node_limit:
            status = "node_limit"
            break
    if winner is None or winner.found is None:
        return SolveResult("unsolvable" if winner is not None else status, None, 0, 0, nodes, spent())
    key = winner.found
    pushes = next((_pushes_to(search.parents, key) for search, _ in forward if key in search.parents), [])
    pushes += next((pull.pushes_from(key) for pull, _ in backward if key in pull.parents), [])
    lurd = _lurd(level, pushes, budget)
    verdict = judge(level, lurd)
    if not (verdict.valid and verdict.solved):       # a bug, not a property of the level
        raise AssertionError(f"solver produced a wrong solution: {verdict.reason}")
    return SolveResult("solved", lurd, verdict.moves, verdict.pushes, nodes, spent())


def _pushes_to(parents: dict[int, tuple[int, int, int, int] | None], key: int) -> list[tuple[int, int, int]]:
    """The pushes ``(box, direction, count)`` from the start to ``key``, walked back through a forward search."""
    pushes: list[tuple[int, int, int]] = []
    entry = parents[key]
    while entry is not None:
        key, box, d, count = entry
        pushes.append((box, d, count))
        entry = parents[key]
    pushes.reverse()
    return pushes


def _lurd(level: Level, pushes: list[tuple[int, int, int]], budget: Budget | None = None) -> str:
    """Join ``pushes`` (box cell, direction index, pushes in a row) by shortest walks from the player's start."""
    check = (budget or Budget.unlimited()).check
    stride, floor = level.stride, level.floor
    offsets = (-stride, stride, -1, 1)
    letters = [direction.letter for direction in DIRECTIONS]
    player, boxes = level.player, level.boxes
    out: list[str] = []
    for box, d, count in pushes:
        check()                                  # a walk is a breadth-first search of the floor
        offset = offsets[d]
        stand = box - offset
        free = floor & ~boxes

        def neighbours(cell: int, free: int = free) -> list[int]:
            return [cell + o for o in offsets if free >> (cell + o) & 1]

        path = shortest_path(player, lambda cell, stand=stand: cell == stand, neighbours)
        if path is None:
            raise AssertionError("solver lost the player's way between pushes")
        for a, b in zip(path, path[1:]):
            out.append(letters[offsets.index(b - a)])
        out.append(letters[d].upper() * count)
        boxes ^= (1 << box) | (1 << (box + count * offset))
        player = box + (count - 1) * offset
    return "".join(out)

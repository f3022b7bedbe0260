"""The circuit level generator: every call succeeds, first time, with a solvable and scrambled level.

The design note picks a source and a terminal, draws a random path between them by randomised
DFS, then rejects it unless its tile and corner counts fit the difficulty, retrying up to 50
times (and sometimes giving up). Here the counts are drawn first and the path is made to fit:

1. For a grid side ``n`` the pairs ``(m, k)`` (movable tiles, corners) in the difficulty's
   ranges that the snake family below can build are computed exactly (a small dynamic
   programme over runs, columns and lengths, cached); one is drawn. Each listed difficulty has
   such pairs at every grid side of its range (the tests check the whole table).
2. Randomised DFS, as in the note, but grown from a random source towards the counts rather
   than towards a fixed terminal: neighbours in random order, a branch cut as soon as exactly
   ``k`` corners are out of reach, the terminal wherever the ``m + 1``-th move ends. The path
   never touches itself (no cell joins next to an earlier one but its predecessor), so the
   tiles wire only along it and the source and terminal are at least two cells apart. The
   search is bounded (``DFS_ATTEMPTS`` tries of ``DFS_BUDGET`` cells); it finds a path for
   about nine levels in ten, winding freely (``CircuitLevel.drawn_by == "dfs"``).
3. Otherwise the snake construction, which cannot fail: seen after one of the eight symmetries
   of the square, a path only moves down, left or right, alternating vertical runs (down) with
   horizontal runs (left or right, so it may turn back like a snake); each row holds one
   contiguous stretch, so it never crosses itself. Every choice (run shape, run lengths, start
   column, each horizontal run) is drawn among options whose count of completions is non-zero,
   so the draw cannot dead-end; it has at least two vertical moves, so the source and the
   terminal are at least two cells apart (``drawn_by == "snake"``).
4. Tiles follow from each cell's entry and exit sides (the note's table). Scrambling turns
   ``int(m * share)`` tiles (at least one) to a wrong rotation. The first scrambled tile along
   the path is turned so that it does not open towards the tile before it; the tiles before
   it are correct and connect only along the path, so the source's wired region stops there:
   the scrambled level is never already solved.

Screen order throughout: ``Pos(row, col)`` with the note's x as ``row`` and y as ``col``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from math import comb

from shared.grid import Direction, Grid, Pos

from .board import Circuit
from .difficulty import Difficulty, find_difficulty
from .tiles import EMPTY, ROTATIONS, Tile, TileKind, corner_rotation, straight_rotation, stub_rotation

__all__ = ["CircuitLevel", "CircuitGeneratorError", "generate_level", "feasible_pairs", "MIN_SIZE", "MAX_SIZE"]

MIN_SIZE = 3     #: the smallest grid side accepted
MAX_SIZE = 16    #: the largest grid side accepted
DFS_ATTEMPTS = 2   #: randomised DFS tries per level before the snake construction takes over
DFS_BUDGET = 120   #: cells one DFS try may enter (bounds the time of a try that dead-ends)


class CircuitGeneratorError(ValueError):
    """Generator parameters it cannot use (a grid side out of range, or one no level of the difficulty fits)."""


@dataclass(frozen=True)
class CircuitLevel:
    """A generated level: the scrambled start, one solution, and the path the solution wires."""

    difficulty: Difficulty
    size: int
    seed: int | None
    initial: Circuit
    solution: Circuit
    path: tuple[Pos, ...]          # source first, terminal last
    scrambled: tuple[Pos, ...]     # the tiles turned away from the solution
    drawn_by: str = "dfs"          # how the path was drawn: "dfs" (randomised DFS) or "snake" (fallback)

    @property
    def movable(self) -> int:
        """The number of movable tiles (the path's inner cells)."""
        return len(self.path) - 2

    @property
    def corners(self) -> int:
        """The number of corner tiles."""
        return sum(self.solution[p].kind is TileKind.CORNER for p in self.path)


def generate_level(difficulty: str | Difficulty = "normal", *, seed: int | None = None,
                   size: int | None = None) -> CircuitLevel:
    """A level of ``difficulty`` (a name or a ``Difficulty``); ``seed`` makes it reproducible.

    ``size`` fixes the grid side (otherwise drawn from the difficulty's range). Raises
    ``CircuitGeneratorError`` only for a ``size`` out of range or too small for the difficulty.
    """
    diff = find_difficulty(difficulty) if isinstance(difficulty, str) else difficulty
    rng = random.Random(seed)
    if size is not None and (not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE):
        raise CircuitGeneratorError(f"grid side {size!r} is out of range; expected {MIN_SIZE} to {MAX_SIZE}")
    n = size if size is not None else rng.randint(*diff.sizes)
    pairs = feasible_pairs(n, diff)
    if not pairs:
        raise CircuitGeneratorError(f"no {diff.name} level fits a {n}x{n} grid; its sides are "
                                    f"{diff.sizes[0]} to {diff.sizes[1]}")
    m, k = rng.choice(pairs)
    path = _dfs_path(rng, n, m, k, DFS_ATTEMPTS, DFS_BUDGET)
    drawn_by = "dfs"
    if path is None:
        path, drawn_by = _draw_path(rng, n, m, k), "snake"
    solution = _wire(n, path)
    initial, scrambled = _scramble(rng, solution, path, diff.scramble)
    return CircuitLevel(diff, n, seed, initial, solution, path, scrambled, drawn_by)


# -- counting the path family ------------------------------------------------------------

@lru_cache(maxsize=None)
def _h_ways(n: int, runs: int, total: int, col: int) -> int:
    """Ways to make ``runs`` horizontal runs of ``total`` cells from column ``col`` inside ``n`` columns."""
    if runs == 0:
        return int(total == 0)
    if total < runs:
        return 0
    longest = total - (runs - 1)
    return (sum(_h_ways(n, runs - 1, total - ln, col - ln) for ln in range(1, min(longest, col) + 1))
            + sum(_h_ways(n, runs - 1, total - ln, col + ln) for ln in range(1, min(longest, n - 1 - col) + 1)))


@lru_cache(maxsize=None)
def _shapes(n: int, m: int, k: int) -> tuple[tuple[bool, int, int], ...]:
    """``(starts_horizontal, down_moves, count)`` for paths of ``m`` inner cells and ``k`` corners."""
    runs = k + 1
    out = []
    for starts_h in (True, False):
        h = (runs + 1) // 2 if starts_h else runs // 2
        v = runs - h
        if h < 1 or v < 1:
            continue
        for down in range(max(v, 2), n):
            across = m + 1 - down
            if across < h:
                continue
            count = sum(_h_ways(n, h, across, c) for c in range(n)) * comb(down - 1, v - 1) * (n - down)
            if count:
                out.append((starts_h, down, count))
    return tuple(out)


@lru_cache(maxsize=None)
def feasible_pairs(n: int, difficulty: Difficulty) -> tuple[tuple[int, int], ...]:
    """The ``(movable, corners)`` pairs of ``difficulty`` that the generator can build on an ``n`` x ``n`` grid."""
    lo, hi = difficulty.movable
    clo, chi = difficulty.corners
    return tuple((m, k) for m in range(lo, hi + 1) for k in range(clo, min(chi, m) + 1) if _shapes(n, m, k))


# -- drawing one path --------------------------------------------------------------------

@lru_cache(maxsize=None)
def _adjacent(n: int) -> tuple[tuple[int, ...], ...]:
    """Cell index ``row * n + col`` -> the indices of its orthogonal neighbours inside ``n`` x ``n``."""
    return tuple(tuple(r2 * n + c2 for r2, c2 in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                       if 0 <= r2 < n and 0 <= c2 < n)
                 for r in range(n) for c in range(n))


def _dfs_path(rng: random.Random, n: int, m: int, k: int, attempts: int, budget: int) -> tuple[Pos, ...] | None:
    """A path of ``m`` inner cells and ``k`` corners grown by randomised DFS, or ``None`` within the bounds.

    Each of ``attempts`` tries starts on a random cell and may enter ``budget`` cells in all. The
    path never touches itself: a cell joins only if none of its neighbours but the one it comes
    from is already on the path, so the tiles wire only along the path (no shortcut exists).
    """
    adjacent = _adjacent(n)
    moves = m + 1
    for _ in range(attempts):
        first = rng.randrange(n * n)
        path, on = [first], {first}
        left = [budget]

        def grow(here: int, step: int, corners: int, todo: int) -> bool:
            if not todo:
                return True
            options = list(adjacent[here])
            rng.shuffle(options)
            for cell in options:
                turns = corners + (step != 0 and cell - here != step)
                # Each remaining move can add at most one corner: keep exactly k within reach.
                if turns > k or k - turns > todo - 1 or cell in on:
                    continue
                if any(other in on for other in adjacent[cell] if other != here):
                    continue
                left[0] -= 1
                if left[0] < 0:
                    return False
                path.append(cell)
                on.add(cell)
                if grow(cell, cell - here, turns, todo - 1):
                    return True
                path.pop()
                on.discard(cell)
            return False

        if grow(first, 0, 0, moves):
            return tuple(Pos(*divmod(cell, n)) for cell in path)
    return None


def _draw_path(rng: random.Random, n: int, m: int, k: int) -> tuple[Pos, ...]:
    shapes = _shapes(n, m, k)
    starts_h, down, _ = rng.choices(shapes, weights=[s[2] for s in shapes])[0]
    runs = k + 1
    h = (runs + 1) // 2 if starts_h else runs // 2
    v = runs - h
    across = m + 1 - down
    cuts = sorted(rng.sample(range(1, down), v - 1))
    vertical = [b - a for a, b in zip([0, *cuts], [*cuts, down])]
    col = rng.choices(range(n), weights=[_h_ways(n, h, across, c) for c in range(n)])[0]
    start = Pos(rng.randint(0, n - 1 - down), col)
    horizontal: list[int] = []      # signed run lengths: negative goes left
    left = across
    for j in range(h, 0, -1):
        options = [-ln for ln in range(1, min(left, col) + 1)] + [ln for ln in range(1, min(left, n - 1 - col) + 1)]
        weights = [_h_ways(n, j - 1, left - abs(o), col + o) for o in options]
        step = rng.choices(options, weights=weights)[0]
        horizontal.append(step)
        col += step
        left -= abs(step)
    moves: list[Direction] = []
    hs, vs = iter(horizontal), iter(vertical)
    for index in range(runs):
        if (index % 2 == 0) == starts_h:
            step = next(hs)
            moves += [Direction.RIGHT if step > 0 else Direction.LEFT] * abs(step)
        else:
            moves += [Direction.DOWN] * next(vs)
    path = [start]
    for direction in moves:
        path.append(path[-1].step(direction))
    symmetry = rng.randrange(8)
    cells = [_transform(p, n, symmetry) for p in path]
    if rng.random() < 0.5:
        cells.reverse()
    return tuple(cells)


def _transform(p: Pos, n: int, symmetry: int) -> Pos:
    """One of the eight symmetries of the ``n`` x ``n`` square."""
    r, c = p
    if symmetry & 4:
        r, c = c, r
    if symmetry & 2:
        r = n - 1 - r
    if symmetry & 1:
        c = n - 1 - c
    return Pos(r, c)


# -- tiles -------------------------------------------------------------------------------

def _wire(n: int, path: tuple[Pos, ...]) -> Circuit:
    grid: Grid[Tile] = Grid(n, n, EMPTY)
    grid[path[0]] = Tile(TileKind.SOURCE, stub_rotation(path[0].direction_to(path[1])))
    grid[path[-1]] = Tile(TileKind.TERMINAL, stub_rotation(path[-1].direction_to(path[-2])))
    for before, cell, after in zip(path, path[1:], path[2:]):
        entry, exit_ = cell.direction_to(before), cell.direction_to(after)
        if entry is exit_.opposite:
            grid[cell] = Tile(TileKind.STRAIGHT, straight_rotation(entry))
        else:
            grid[cell] = Tile(TileKind.CORNER, corner_rotation(entry, exit_))
    return Circuit(grid)


def _scramble(rng: random.Random, solution: Circuit, path: tuple[Pos, ...],
              share: float) -> tuple[Circuit, tuple[Pos, ...]]:
    inner = len(path) - 2
    count = min(inner, max(1, int(inner * share + 1e-9)))      # 1e-9: 10 * 0.7 must give 7
    chosen = sorted(rng.sample(range(1, inner + 1), count))
    changes: dict[Pos, int] = {}
    for index in chosen:
        cell = path[index]
        tile = solution[cell]
        wrong = [r for r in ROTATIONS if not tile.accepts(r)]
        if index == chosen[0]:      # cut the wire here: no opening back towards the source side
            back = cell.direction_to(path[index - 1])
            wrong = [r for r in wrong if back not in Tile(tile.kind, r).openings]
        changes[cell] = rng.choice(wrong)
    return solution.with_rotations(changes), tuple(path[i] for i in chosen)

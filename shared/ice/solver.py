"""The optimal ice-maze solver: fewest moves, then the shortest total distance slid.

The search runs over *stop points* (where a slide can end) by layers of moves, a breadth-first
search whose layers carry a second key, the distance. Why the answer is optimal under the
order ``(moves, distance)``:

* Layer ``k`` holds exactly the stop points whose fewest-moves count ``d(v)`` is ``k`` (plain
  breadth-first search: every move costs one).
* Claim: when layer ``k + 1`` is built, ``best[v]`` is the least distance of any ``(k + 1)``-move
  route to ``v``. Take such a route and its last move ``u -> v``. Its ``k``-move prefix reaches
  ``u``, so ``d(u) <= k``; and ``d(v) <= d(u) + 1`` gives ``d(u) >= k``: ``u`` is in layer ``k``.
  By induction the prefix slid at least ``best[u]``, so the route slid at least
  ``best[u] + len(u -> v)``, the smallest of which over layer ``k`` is what ``best[v]`` keeps
  (its parent link realises it). The start is layer 0 with distance 0.
* ``E`` ends the game (a slide stops on it), so a route reaches ``E`` with its last move, and
  ``E``'s layer is its fewest moves; finishing that layer makes its distance the least among
  routes of that many moves. A move that goes nowhere (blocked at once) only adds a move, so
  no optimal route has one; the search skips them.

Ties are broken deterministically (earlier stop points of a layer first, then ``u d l r``).

For speed the maze is flattened into a byte string with a wall border (no bounds checks) and
slides walk it directly; ``IceMaze.slide`` is the reference the tests compare against.
``explore`` (the generator's reach question) is a ``shared.grid.flood_fill`` over those slides,
``entry_moves`` (how far away the generator may put ``E``) a ``shared.grid.bfs_distances``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shared.grid import DIRECTIONS, Direction, Pos, bfs_distances, flood_fill

from .maze import OBSTACLE, IceMaze

__all__ = ["Route", "best_route", "solve", "explore", "entry_moves"]

# Byte codes of the flattened maze: 0 stops a slide before it, 1 is slid over, >= 2 is stopped on.
_CODES = bytes.maketrans(b"# SxE", b"\x00\x01\x01\x02\x03")


@dataclass(frozen=True)
class Route:
    """A route through a maze: its directions, the stop point after each move, and its two costs."""

    directions: tuple[Direction, ...]
    stops: tuple[Pos, ...]          # start first, then where each move ended
    distance: int

    @property
    def moves(self) -> int:
        """The number of moves."""
        return len(self.directions)

    @property
    def letters(self) -> list[str]:
        """The directions as letters (``u d l r``), the kata's answer form."""
        return [d.letter for d in self.directions]

    @property
    def cost(self) -> tuple[int, int]:
        """``(moves, distance)``: the order routes are ranked by (smaller is better)."""
        return self.moves, self.distance


class _Flat:
    """A maze as a byte string with a one-cell wall border; a cell's neighbour is ``index + step``."""

    __slots__ = ("stride", "codes", "steps")

    def __init__(self, rows: Sequence[str]) -> None:
        self.stride = stride = len(rows[0]) + 2
        wall = OBSTACLE * stride
        text = wall + "".join(OBSTACLE + row + OBSTACLE for row in rows) + wall
        self.codes = text.encode("ascii").translate(_CODES)
        self.steps = tuple(d.screen_delta[0] * stride + d.screen_delta[1] for d in DIRECTIONS)

    def index(self, pos: Pos) -> int:
        return (pos.row + 1) * self.stride + pos.col + 1

    def pos(self, index: int) -> Pos:
        row, col = divmod(index, self.stride)
        return Pos(row - 1, col - 1)


def best_route(maze: IceMaze) -> Route | None:
    """An optimal route from ``S`` to ``E`` (fewest moves, then least distance), or ``None``."""
    # A specialised loop, kept on purpose: shared/grid's bfs_distances carries one key (moves)
    # and this search needs the second (distance) per layer. A lexicographic Dijkstra with a
    # neighbour callback over the same slides measured 0.35-0.49 ms against 0.30 ms for this
    # loop (median, the 300 34x34 mazes of bench/ice_solver.py, best of 3 each, 2 shared cores).
    flat = _Flat(maze.rows())
    codes, steps = flat.codes, flat.steps
    start, end = flat.index(maze.start), flat.index(maze.end)
    best = {start: 0}                             # stop point -> least distance in its layer
    parent: dict[int, tuple[int, int]] = {}       # stop point -> (previous stop, direction index)
    layer = [start]
    while layer:
        found: dict[int, int] = {}
        for u in layer:
            du = best[u]
            for k in range(4):
                step, v, n = steps[k], u, 0
                while True:
                    w = v + step
                    c = codes[w]
                    if not c:
                        break
                    v, n = w, n + 1
                    if c > 1:
                        break
                if not n or v in best:
                    continue
                d = du + n
                old = found.get(v)
                if old is None or d < old:
                    found[v] = d
                    parent[v] = (u, k)
        if end in found:
            return _trace(flat, parent, start, end, found[end])
        best.update(found)
        layer = list(found)
    return None


def _trace(flat: _Flat, parent: dict[int, tuple[int, int]], start: int, end: int, distance: int) -> Route:
    directions: list[Direction] = []
    stops = [end]
    node = end
    while node != start:
        node, k = parent[node]
        directions.append(DIRECTIONS[k])
        stops.append(node)
    directions.reverse()
    stops.reverse()
    return Route(tuple(directions), tuple(flat.pos(i) for i in stops), distance)


def solve(maze: IceMaze) -> list[str] | None:
    """The kata's answer: the letters of an optimal route, or ``None`` when ``E`` cannot be reached."""
    route = best_route(maze)
    return None if route is None else route.letters


def explore(rows: Sequence[str], start: Pos) -> tuple[set[Pos], set[Pos]]:
    """Stop points reachable from ``start`` and every cell entered on the way, on rows of maze cells.

    The rows need not hold an ``E`` (the generator asks before placing it); an ``E`` present
    stops slides and ends play there. ``start`` is in both sets.
    """
    flat = _Flat(rows)
    codes, steps = flat.codes, flat.steps
    first = flat.index(start)
    touched = {first}
    note = touched.add

    def slides(u: int) -> list[int]:
        """Where each slide from stop point ``u`` ends, noting the cells it enters."""
        if codes[u] == 3 and u != first:    # the game ends on E: nothing slides on from it
            return []
        out = []
        for step in steps:
            v = u
            while True:
                w = v + step
                c = codes[w]
                if not c:
                    break
                v = w
                note(v)
                if c > 1:
                    break
            out.append(v)
        return out

    stops = flood_fill(first, slides)
    return {flat.pos(i) for i in stops}, {flat.pos(i) for i in touched}


def entry_moves(rows: Sequence[str], start: Pos) -> dict[Pos, int]:
    """Each cell a slide from a stop point reachable from ``start`` enters, with the fewest moves that enter it.

    That count is the optimal route's length to an ``E`` put on the cell: slides that do not
    enter the cell are the same with ``E`` there, and the first that enters it stops on ``E``.
    The generator places ``E`` with it. Obstacles are never entered, so never listed; nor is
    ``start``. The rows need not hold an ``E`` (an ``E`` present stops slides and ends play there).
    """
    flat = _Flat(rows)
    codes, steps = flat.codes, flat.steps
    first = flat.index(start)

    def ends(u: int) -> list[int]:
        """The stop points one move from ``u`` (none from ``E``: the game ends there)."""
        if codes[u] == 3 and u != first:
            return []
        out = []
        for step in steps:
            v = u
            while codes[v + step]:
                v += step
                if codes[v] > 1:
                    break
            if v != u:
                out.append(v)
        return out

    entered: dict[int, int] = {}
    for u, d in bfs_distances(first, ends).items():
        if codes[u] == 3 and u != first:
            continue
        for step in steps:
            v = u
            while codes[v + step]:
                v += step
                if entered.get(v, d + 2) > d + 1:
                    entered[v] = d + 1
                if codes[v] > 1:
                    break
    entered.pop(first, None)
    return {flat.pos(i): moves for i, moves in entered.items()}

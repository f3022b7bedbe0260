"""Which free wall slots are legal: the wall-graph test, a path per pawn and short flood fills. Pure ints.

A wall can only cut cells apart if it closes a cycle in the planar graph of walls and border,
that is when at least two of its three grid points already belong to one connected piece of that
graph (``closing``). Such a wall is checked only for a pawn whose path it crosses. The path is
kept as a mask of cells (``path_cells``): one shortest path, so two of its cells that are
neighbours with no wall between them are consecutive on it. Adding walls keeps that true, so a
position made by ``apply`` carries a pawn's path forward when the new wall does not cut it.

A wall that cuts the path at one edge ``a``-``b`` leaves the rest of it standing, so ``rejoins``
grows both ends at once: they meet (legal, usually a few steps around the wall), or one stops
growing first and its piece alone decides (the enclosed side, usually small). A wall that cuts
the path twice gets the full fill from the pawn to its goal row.
"""

from __future__ import annotations

__all__ = ["closing", "reaches", "rejoins", "path_cells", "sealing_walls"]


def closing(components: tuple[int, ...], free_h: int, free_v: int) -> tuple[int, int]:
    """Free slots of each orientation that touch one wall component at two or more grid points."""
    need_h = need_v = 0
    for c in components:
        b, d = c >> 1, c >> 2
        need_h |= (c & b) | (c & d) | (b & d)
        b, d = c >> 10, c >> 20
        need_v |= (c & b) | (c & d) | (b & d)
    return need_h & free_h, need_v & free_v


def reaches(seed: int, goal: int, up: int, down: int, left: int, right: int) -> bool:
    """True when the region flood-filled from ``seed`` meets ``goal`` (hot path: inlined spread)."""
    region = seed
    while not region & goal:
        grown = (region | ((region & up) << 10) | ((region & down) >> 10)
                 | ((region & left) >> 1) | ((region & right) << 1))
        if grown == region:
            return False
        region = grown
    return True


def rejoins(a: int, b: int, pawn: int, goal: int, up: int, down: int, left: int, right: int) -> bool:
    """True when ``pawn`` still reaches ``goal`` after its path lost the one edge ``a``-``b`` (single cells).

    Both ends grow in turn. They meet: the path mends around the wall. One stops growing first:
    that end's piece is final; holding the pawn, the answer is whether it holds a goal cell,
    else the pawn is on the other end's side, which fills on until it meets the goal or stops.
    """
    while True:
        grown = (a | ((a & up) << 10) | ((a & down) >> 10) | ((a & left) >> 1) | ((a & right) << 1))
        if grown & b:
            return True
        if grown == a:
            return bool(a & goal) if a & pawn else reaches(b, goal, up, down, left, right)
        a = grown
        grown = (b | ((b & up) << 10) | ((b & down) >> 10) | ((b & left) >> 1) | ((b & right) << 1))
        if grown & a:
            return True
        if grown == b:
            return bool(b & goal) if b & pawn else reaches(a, goal, up, down, left, right)
        b = grown


def path_cells(cell: int, goal: int, opened: tuple[int, int, int, int]) -> int:
    """The cells of one shortest path from ``cell`` to the ``goal`` mask as a mask; 0 when there is none."""
    up, down, left, right = opened
    frontier = seen = 1 << cell
    layers = [frontier]
    while not frontier & goal:
        frontier = (((frontier & up) << 10) | ((frontier & down) >> 10)
                    | ((frontier & left) >> 1) | ((frontier & right) << 1)) & ~seen
        if not frontier:
            return 0
        seen |= frontier
        layers.append(frontier)
    current = frontier & goal
    current &= -current
    path = current
    for k in range(len(layers) - 2, -1, -1):
        previous = (((current & up) << 10) | ((current & down) >> 10)
                    | ((current & left) >> 1) | ((current & right) << 1)) & layers[k]
        current = previous & -previous
        path |= current
    return path


def sealing_walls(need_h: int, need_v: int, opened: tuple[int, int, int, int],
                  pawns: tuple[int, int], paths: tuple[int, int], goals: tuple[int, int]) -> tuple[int, int]:
    """The slots among ``need_h``/``need_v`` (closing, free) whose wall leaves a pawn no path to its goal row.

    ``paths`` holds a path per pawn as a cell mask (``path_cells``, or one carried forward by
    ``apply``); only the walls that cut one are filled.
    """
    up, down, left, right = opened
    bad_h = bad_v = 0
    for player in (0, 1):
        path = paths[player]
        # Cells whose move up / right is an edge of the path (consecutive cells on it, see above).
        edge_up = path & (path >> 10) & up
        edge_right = path & (path >> 1) & right
        todo = need_h & ((edge_up << 10) | (edge_up << 9)) & ~bad_h
        while todo:
            low = todo & -todo
            todo ^= low
            p = low.bit_length() - 1
            u, d = up & ~(3 << (p - 10)), down & ~(3 << p)
            first, second = edge_up >> (p - 10) & 1, edge_up >> (p - 9) & 1
            if first and second:
                ok = reaches(1 << pawns[player], goals[player], u, d, left, right)
            elif first:
                ok = rejoins(1 << (p - 10), 1 << p, 1 << pawns[player], goals[player], u, d, left, right)
            else:
                ok = rejoins(1 << (p - 9), 1 << (p + 1), 1 << pawns[player], goals[player], u, d, left, right)
            if not ok:
                bad_h |= low
        todo = need_v & ((edge_right << 1) | (edge_right >> 9)) & ~bad_v
        while todo:
            low = todo & -todo
            todo ^= low
            p = low.bit_length() - 1
            r, lf = right & ~(0x401 << (p - 1)), left & ~(0x401 << p)
            first, second = edge_right >> (p - 1) & 1, edge_right >> (p + 9) & 1
            if first and second:
                ok = reaches(1 << pawns[player], goals[player], up, down, lf, r)
            elif first:
                ok = rejoins(1 << (p - 1), 1 << p, 1 << pawns[player], goals[player], up, down, lf, r)
            else:
                ok = rejoins(1 << (p + 9), 1 << (p + 10), 1 << pawns[player], goals[player], up, down, lf, r)
            if not ok:
                bad_v |= low
    return bad_h, bad_v

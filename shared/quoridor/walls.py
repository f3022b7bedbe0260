"""Which free wall slots are legal: the wall-graph test, a path per pawn and short flood fills. Pure ints.

A wall can only cut cells apart if it closes a cycle in the planar graph of walls and border,
that is when at least two of its three grid points already belong to one connected piece of that
graph (``closing``). Such a wall is checked only for a pawn whose path it crosses. The path is
kept as a mask of cells (``path_cells``): one shortest path, so two of its cells that are
neighbours with no wall between them are consecutive on it. Adding walls keeps that true, so a
position made by ``apply`` carries a pawn's path forward when the new wall does not cut it,
mends it round the wall's near end when it cuts it once (``walled_path``), and follows the pawn's
steps (``moved_path``), each only while that stays true; else the path is found again when asked.

A cut edge whose way of three moves round the wall's near end is open costs the pawn nothing.
Else, a wall that cuts the path at one edge ``a``-``b`` leaves the rest of it standing, so ``rejoins``
grows both ends at once: they meet (legal, usually a few steps around the wall), or one stops
growing first and its piece alone decides (the enclosed side, usually small). A wall that cuts
the path twice gets the full fill from the pawn to its goal row. A slot found to shut a pawn in
still does on a board with more walls while that pawn stands still (``Walls.sealed``): no fill.
"""

from __future__ import annotations

from .geometry import BORDER_POINTS, H_POINTS, H_SLOTS, LAYOUT, MOVE_CELLS, MOVE_SHIFTS, V_POINTS, V_SLOTS
from .rulesets import Ruleset
from .types import BLOCK_SUM

__all__ = ["Walls", "closing", "reaches", "rejoins", "path_cells", "moved_path", "walled_path", "sealing_walls"]


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


def moved_path(path: int, me: int, cell: int, around: int) -> int:
    """The mover's path (a cell mask, see above) after its pawn went from ``me`` to ``cell``; 0 when it is
    to be found again. A step onto the path's next cell (a neighbour on it) drops ``me``; a step off it
    adds ``cell`` when ``me`` is its only neighbour on the path (so no two cells on it are neighbours
    without being consecutive); a jump starts afresh. ``around``: ``Walls.around``."""
    if cell - me not in _NEXT_TO:
        return 0
    if path >> cell & 1:
        return path ^ (1 << me)
    if _NEIGHBOURS[cell << 4 | around >> (cell << 2) & 15] & path == 1 << me:
        return path | 1 << cell
    return 0


def walled_path(path: int, horizontal: bool, p: int, around: int) -> int:
    """A pawn's path after a wall at slot ``p`` (``around`` with the wall): itself when the wall cuts none of its
    edges; cut at one edge ``a``-``b``, mended by the way of three moves round the wall's near end
    (``a``-``x``-``y``-``b``) when it is open, ``x`` and ``y`` are not on the path and each has no other
    neighbour on it; else 0 (to be found again)."""
    if horizontal:
        cut = (path >> (p - 10)) & (path >> p) & 3
        if not cut:
            return path
        if cut == 3:
            return 0
        mend = _H_MENDS[p][cut >> 1]
    else:
        cut = (path >> (p - 1)) & (path >> p) & 0x401
        if not cut:
            return path
        if cut == 0x401:
            return 0
        mend = _V_MENDS[p][cut >> 10]
    if mend is None:
        return 0
    a, b, x, y, need = mend
    if around & need != need or path >> x & 1 or path >> y & 1 \
            or _NEIGHBOURS[x << 4 | around >> (x << 2) & 15] & path != 1 << a \
            or _NEIGHBOURS[y << 4 | around >> (y << 2) & 15] & path != 1 << b:
        return 0
    return path | 1 << x | 1 << y


def _keeps_path(first: int, second: int, a1: int, b1: int, a2: int, b2: int, pawn: int, goal: int,
                up: int, down: int, left: int, right: int) -> bool:
    """Whether a pawn still reaches ``goal`` after a wall that cuts its path at edge ``a1``-``b1`` (``first``),
    at ``a2``-``b2`` (``second``), both, or neither (masks are the open masks with the wall)."""
    if first:
        if second:
            return reaches(pawn, goal, up, down, left, right)
        return rejoins(a1, b1, pawn, goal, up, down, left, right)
    if second:
        return rejoins(a2, b2, pawn, goal, up, down, left, right)
    return True


def sealing_walls(need_h: int, need_v: int, opened: tuple[int, int, int, int], around: int,
                  pawns: tuple[int, int], paths: tuple[int, int], goals: tuple[int, int]) -> tuple[int, int]:
    """The slots among ``need_h``/``need_v`` (closing, free) whose wall leaves a pawn no path to its goal row.

    ``paths`` holds a path per pawn as a cell mask (``path_cells``, or one carried forward by
    ``apply``); only the walls that cut one are checked: a cut edge whose way of three moves round
    the wall's near end is open (``around``: ``Walls.around``, without the wall) keeps the pawn its
    path at once, else it is filled.
    """
    up, down, left, right = opened
    path0, path1 = paths
    # Cells whose move up / right is an edge of a path (consecutive cells on it, see above).
    up0, up1 = path0 & (path0 >> 10) & up, path1 & (path1 >> 10) & up
    right0, right1 = path0 & (path0 >> 1) & right, path1 & (path1 >> 1) & right
    ups, rights = up0 | up1, right0 | right1
    todo_h = need_h & ((ups << 10) | (ups << 9))
    todo_v = need_v & ((rights << 1) | (rights >> 9))
    bad_h = bad_v = 0
    if not (todo_h or todo_v):
        return bad_h, bad_v
    pawn0, pawn1 = 1 << pawns[0], 1 << pawns[1]
    goal0, goal1 = goals
    while todo_h:    # a horizontal wall at p cuts the moves up from cells p - 10 and p - 9
        low = todo_h & -todo_h
        todo_h ^= low
        p = low.bit_length() - 1
        u, d = up & ~(3 << (p - 10)), down & ~(3 << p)
        a1, b1, a2, b2 = 1 << (p - 10), 1 << p, 1 << (p - 9), 1 << (p + 1)
        n1, n2 = _H_DETOURS[p]
        open1, open2 = around & n1 == n1, around & n2 == n2
        c1, c2 = up0 & a1, up0 & a2
        if ((c1 and not open1) or (c2 and not open2)) \
                and not _keeps_path(c1, c2, a1, b1, a2, b2, pawn0, goal0, u, d, left, right):
            bad_h |= low
            continue
        c1, c2 = up1 & a1, up1 & a2
        if ((c1 and not open1) or (c2 and not open2)) \
                and not _keeps_path(c1, c2, a1, b1, a2, b2, pawn1, goal1, u, d, left, right):
            bad_h |= low
    while todo_v:    # a vertical wall at p cuts the moves right from cells p - 1 and p + 9
        low = todo_v & -todo_v
        todo_v ^= low
        p = low.bit_length() - 1
        r, lf = right & ~(0x401 << (p - 1)), left & ~(0x401 << p)
        a1, b1, a2, b2 = 1 << (p - 1), 1 << p, 1 << (p + 9), 1 << (p + 10)
        n1, n2 = _V_DETOURS[p]
        open1, open2 = around & n1 == n1, around & n2 == n2
        c1, c2 = right0 & a1, right0 & a2
        if ((c1 and not open1) or (c2 and not open2)) \
                and not _keeps_path(c1, c2, a1, b1, a2, b2, pawn0, goal0, up, down, lf, r):
            bad_v |= low
            continue
        c1, c2 = right1 & a1, right1 & a2
        if ((c1 and not open1) or (c2 and not open2)) \
                and not _keeps_path(c1, c2, a1, b1, a2, b2, pawn1, goal1, up, down, lf, r):
            bad_v |= low
    return bad_h, bad_v


class Walls:
    """The walls of a position and what follows from them alone; immutable, shared by every position
    reached from it by pawn moves (``Position`` reads it, ``placed`` makes the next one).

    ``open`` holds the four open masks (the cells that may move up, down, left, right);
    ``around`` the same bits by cell, four per cell (bit ``4 * cell + direction``), so the moves
    of a pawn are one lookup; ``components`` the connected pieces of the wall graph as grid-point
    masks; ``need`` the free slots that close a cycle in it (``closing``), worked out when asked;
    ``sealed`` the slots a legal list found to shut a pawn in, for the pawns it was asked with.
    """

    __slots__ = ("ruleset", "walls_left", "h_walls", "v_walls", "free_h", "free_v", "open", "around",
                 "components", "need", "_parent_need", "sealed")

    ruleset: Ruleset
    walls_left: tuple[int, int]
    h_walls: int
    v_walls: int
    free_h: int
    free_v: int
    open: tuple[int, int, int, int]
    around: int
    components: tuple[int, ...]
    need: tuple[int, int] | None
    # The parent's ``need`` when it was known as this was placed: ``closing_slots`` then fills in
    # only the piece the new wall merged (``components[0]``), the others' slots being the parent's.
    _parent_need: tuple[int, int] | None
    #: ``(pawns, h, v)``: slots known to leave a pawn standing on ``pawns`` no path, or None. Set by a
    #: position's legal list and carried by ``placed``: more walls only close more, so they still do.
    sealed: tuple[tuple[int, int], int, int] | None

    @classmethod
    def start(cls, ruleset: Ruleset, walls_left: tuple[int, int] = (BLOCK_SUM, BLOCK_SUM)) -> Walls:
        """An empty board under ``ruleset``."""
        walls = _new(cls)
        walls.ruleset, walls.walls_left = ruleset, walls_left
        walls.h_walls = walls.v_walls = 0
        walls.free_h, walls.free_v = H_SLOTS, V_SLOTS
        walls.open, walls.around = LAYOUT.edge_open, _EDGE_AROUND  # type: ignore[assignment]
        walls.components, walls.need, walls._parent_need, walls.sealed = (BORDER_POINTS,), None, None, None
        return walls

    def placed(self, horizontal: bool, p: int, walls_left: tuple[int, int]) -> Walls:
        """These walls and one more at slot ``p`` (no legality check), with ``walls_left`` left."""
        walls = _new(Walls)
        walls.ruleset, walls.walls_left, walls.need, walls._parent_need = self.ruleset, walls_left, None, self.need
        walls.sealed = self.sealed
        up, down, left, right = self.open
        h_walls, v_walls, free_h, free_v = self.h_walls, self.v_walls, self.free_h, self.free_v
        if horizontal:
            keep_up, keep_down, keep_around, bit, keep_free, keep_crossing, points = _H_PLACED[p]
            walls.open = (up & keep_up, down & keep_down, left, right)
            walls.around = self.around & keep_around
            h_walls |= bit
            free_h &= keep_free
            if not self.ruleset.walls_may_cross:
                free_v &= keep_crossing
        else:
            keep_left, keep_right, keep_around, bit, keep_free, keep_crossing, points = _V_PLACED[p]
            walls.open = (up, down, left & keep_left, right & keep_right)
            walls.around = self.around & keep_around
            v_walls |= bit
            free_v &= keep_free
            if not self.ruleset.walls_may_cross:
                free_h &= keep_crossing
        walls.h_walls, walls.v_walls, walls.free_h, walls.free_v = h_walls, v_walls, free_h, free_v
        merged, rest = points, []
        for c in self.components:
            if c & points:
                merged |= c
            else:
                rest.append(c)
        walls.components = (merged, *rest)
        return walls

    def closing_slots(self) -> tuple[int, int]:
        """The free slots whose wall would close a cycle in the wall graph (``closing``), kept once worked out."""
        need = self.need
        if need is None:
            free_h, free_v = self.free_h, self.free_v
            parent = self._parent_need
            if parent is None:
                need = closing(self.components, free_h, free_v)
            else:
                c = self.components[0]
                b, d = c >> 1, c >> 2
                need_h = (c & b) | (c & d) | (b & d) | parent[0]
                b, d = c >> 10, c >> 20
                need_v = (c & b) | (c & d) | (b & d) | parent[1]
                need = (need_h & free_h, need_v & free_v)
            self.need = need
            self._parent_need = None
        return need


def _edge_around() -> int:
    """``Walls.around`` of an empty board."""
    around = 0
    for direction, mask in enumerate(LAYOUT.edge_open):
        for cell in range(100):
            if mask >> cell & 1:
                around |= 1 << (4 * cell + direction)
    return around


Mend = tuple[int, int, int, int, int]


def _mend(a: int, b: int, x: int, y: int, moves: tuple[int, int, int]) -> Mend | None:
    """``(a, b, x, y, around bits)`` of the way ``a``-``x``-``y``-``b`` whose moves go in directions ``moves``
    (indices of ``MOVE_SHIFTS``), or None when it leaves the board."""
    cells = (a, x, y)
    if min(cells) < 0:
        return None
    need = sum(1 << (4 * c + d) for c, d in zip(cells, moves))
    return (a, b, x, y, need) if _EDGE_AROUND & need == need else None


def _mend_tables() -> tuple[dict[int, tuple[Mend | None, Mend | None]], dict[int, tuple[Mend | None, Mend | None]]]:
    """For each slot, the ways round its wall's near ends for the two moves it cuts (``walled_path``)."""
    up, down, left, right = range(4)
    h_table = {p: (_mend(p - 10, p, p - 11, p - 1, (left, up, right)), _mend(p - 9, p + 1, p - 8, p + 2, (right, up, left)))
               for p in range(100) if H_SLOTS >> p & 1}
    v_table = {p: (_mend(p - 1, p, p - 11, p - 10, (down, right, up)), _mend(p + 9, p + 10, p + 19, p + 20, (up, right, down)))
               for p in range(100) if V_SLOTS >> p & 1}
    return h_table, v_table


_new = object.__new__
_EDGE_AROUND = _edge_around()
#: ``other - me`` when two cells are neighbours.
_NEXT_TO = frozenset(MOVE_SHIFTS)
#: The neighbours a pawn may move to, as a cell mask, by ``cell << 4 | open directions`` (like ``MOVE_CELLS``).
_NEIGHBOURS = [sum(1 << t for t in targets if t >= 0) for targets in MOVE_CELLS]
_H_MENDS, _V_MENDS = _mend_tables()
#: By slot, what ``Walls.placed`` clears and sets for a horizontal wall: the open masks it keeps (up, down),
#: the ``around`` bits it keeps, its bit, the free slots of its orientation it keeps and of the other
#: (where walls may not cross), its grid points.
_H_PLACED = [(~(3 << (p - 10)), ~(3 << p), ~((0x11 << 4 * (p - 10)) | (0x22 << 4 * p)), 1 << p,
              ~((H_POINTS << p) >> 1), ~(1 << (p - 9)), H_POINTS << p) if H_SLOTS >> p & 1 else None
             for p in range(100)]
#: The same for a vertical wall (the open masks left and right).
_V_PLACED = [(~(0x401 << p), ~(0x401 << (p - 1)), ~(((0x8 | 0x8 << 40) << 4 * (p - 1)) | ((0x4 | 0x4 << 40) << 4 * p)),
              1 << p, ~((V_POINTS << p) >> 10), ~(1 << (p + 9)), V_POINTS << p) if V_SLOTS >> p & 1 else None
             for p in range(100)]
#: By slot, the ``around`` bits of the way round the wall's near end for each of the two moves it cuts
#: (``sealing_walls``): open in the board without the wall, the cut costs the pawn no path (the wall
#: blocks none of those moves). -1, never open, where that way leaves the board.
_H_DETOURS, _V_DETOURS = ({p: tuple(-1 if m is None else m[4] for m in mends) for p, mends in table.items()}
                          for table in (_H_MENDS, _V_MENDS))

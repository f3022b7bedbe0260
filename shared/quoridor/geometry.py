"""Bit geometry of the Quoridor board, precomputed once: cells, wall slots and their masks.

* A **cell** ``(x, y)`` is bit ``(y - 1) * 10 + (x - 1)`` of a ``BitLayout(9, 9, CARTESIAN)``
  (stride 10: one guard bit per row).
* A **wall slot** is named by the grid point of its smaller end, ``(x, y)`` with x, y in 0..9,
  as bit ``y * 10 + x``; horizontal and vertical slots live in two separate masks.
  The legal horizontal slots have x in 0..7, y in 1..8; the vertical ones x in 1..8, y in 0..7
  (nothing on the outer border): 64 + 64 = 128 slots.
* **Grid points** use the same ``y * 10 + x`` numbering; walls that share a grid point touch.

With that numbering every wall effect is a shift of a small constant:
a horizontal wall at slot ``p`` blocks moving up from cells ``3 << (p - 10)`` and down from
``3 << p``; a vertical one blocks moving right from ``0x401 << (p - 1)`` and left from
``0x401 << p``.
"""

from __future__ import annotations

from ..grid import BitLayout, Orientation
from .types import SIZE, BlockBar, Location, Step

__all__ = [
    "LAYOUT", "CELLS", "GOAL_ROWS", "cell_index", "cell_location", "H_SLOTS", "V_SLOTS",
    "BORDER_POINTS", "wall_slot", "slot_wall", "H_POINTS", "V_POINTS", "MOVE_STEPS",
    "H_STEPS", "V_STEPS", "steps_of_mask", "CELL_LOCATIONS", "MOVE_SHIFTS", "MOVE_CELLS", "MOVE_LISTS",
    "CELL_INDEX_LIMIT",
]

LAYOUT = BitLayout(SIZE, SIZE, Orientation.CARTESIAN)
CELLS = LAYOUT.cells
#: Goal rows: player 0 aims for y = 9, player 1 for y = 1.
GOAL_ROWS = (LAYOUT.row_mask(SIZE - 1), LAYOUT.row_mask(0))

H_SLOTS = sum(1 << (y * 10 + x) for x in range(0, SIZE - 1) for y in range(1, SIZE))
V_SLOTS = sum(1 << (y * 10 + x) for x in range(1, SIZE) for y in range(0, SIZE - 1))
BORDER_POINTS = sum(1 << (y * 10 + x) for x in range(SIZE + 1) for y in range(SIZE + 1)
                    if x in (0, SIZE) or y in (0, SIZE))
#: Grid points covered by a wall at slot p: ``H_POINTS << p`` / ``V_POINTS << p``.
H_POINTS = 0b111
V_POINTS = 1 | 1 << 10 | 1 << 20


def cell_index(x: int, y: int) -> int:
    """Bit index of the cell ``(x, y)`` (which must be on the board)."""
    return (y - 1) * 10 + (x - 1)


def cell_location(index: int) -> Location:
    """The ``Location`` of a cell bit index."""
    return CELL_LOCATIONS[index]


CELL_LOCATIONS: dict[int, Location] = {
    cell_index(x, y): Location(x, y) for x in range(1, SIZE + 1) for y in range(1, SIZE + 1)}


def wall_slot(wall: BlockBar) -> tuple[bool, int] | None:
    """``(is_horizontal, slot)`` of a well-formed wall inside the grid, else ``None``.

    The slot may still lie on the border; check it against ``H_SLOTS``/``V_SLOTS``.
    """
    start, stop = wall.normalized()
    if not (0 <= start.x <= SIZE and 0 <= start.y <= SIZE and 0 <= stop.x <= SIZE and 0 <= stop.y <= SIZE):
        return None
    if wall.is_h():
        return True, start.y * 10 + start.x
    if wall.is_v():
        return False, start.y * 10 + start.x
    return None


def slot_wall(horizontal: bool, slot: int) -> BlockBar:
    """The normalised ``BlockBar`` of a slot."""
    y, x = divmod(slot, 10)
    if horizontal:
        return BlockBar(Location(x, y), Location(x + 2, y))
    return BlockBar(Location(x, y), Location(x, y + 2))


# Interned steps: the legal-step lists hand out these shared objects instead of new ones.
MOVE_STEPS: dict[int, Step] = {i: Step(loc) for i, loc in CELL_LOCATIONS.items()}
H_STEPS: dict[int, Step] = {p: Step(new_wall=slot_wall(True, p)) for p in range(100) if H_SLOTS >> p & 1}
V_STEPS: dict[int, Step] = {p: Step(new_wall=slot_wall(False, p)) for p in range(100) if V_SLOTS >> p & 1}


def _row_tables(steps: dict[int, Step], first_row: int, offset: int) -> tuple[tuple[tuple[Step, ...], ...], ...]:
    """For each of the 8 rows of slots (bits ``row * 10 + offset`` on), a table from the row's byte to its steps."""
    return tuple(
        tuple(tuple(steps[(first_row + r) * 10 + offset + b] for b in range(8) if byte >> b & 1) for byte in range(256))
        for r in range(8))


# Horizontal slots: rows y = 1..8 at bit y * 10 (x = 0..7); vertical slots: rows y = 0..7 at bit y * 10 + 1.
_H_ROWS = _row_tables(H_STEPS, 1, 0)
_V_ROWS = _row_tables(V_STEPS, 0, 1)
_ALL_H = tuple(H_STEPS[p] for p in sorted(H_STEPS))
_ALL_V = tuple(V_STEPS[p] for p in sorted(V_STEPS))


def steps_of_mask(h_mask: int, v_mask: int, head: tuple[Step, ...] | list[Step] = ()) -> list[Step]:
    """``head``, then the wall steps of two slot masks, horizontal first, each in slot order (a table per row)."""
    h1, h2, h3, h4, h5, h6, h7, h8 = _H_ROWS
    v0, v1, v2, v3, v4, v5, v6, v7 = _V_ROWS
    if h_mask == H_SLOTS:
        if v_mask == V_SLOTS:
            return [*head, *_ALL_H, *_ALL_V]
        hs: tuple[Step, ...] = _ALL_H
    else:
        hs = ()
    if hs:
        return [*head, *hs,
                *v0[v_mask >> 1 & 255], *v1[v_mask >> 11 & 255], *v2[v_mask >> 21 & 255], *v3[v_mask >> 31 & 255],
                *v4[v_mask >> 41 & 255], *v5[v_mask >> 51 & 255], *v6[v_mask >> 61 & 255], *v7[v_mask >> 71 & 255]]
    return [*head,
            *h1[h_mask >> 10 & 255], *h2[h_mask >> 20 & 255], *h3[h_mask >> 30 & 255], *h4[h_mask >> 40 & 255],
            *h5[h_mask >> 50 & 255], *h6[h_mask >> 60 & 255], *h7[h_mask >> 70 & 255], *h8[h_mask >> 80 & 255],
            *v0[v_mask >> 1 & 255], *v1[v_mask >> 11 & 255], *v2[v_mask >> 21 & 255], *v3[v_mask >> 31 & 255],
            *v4[v_mask >> 41 & 255], *v5[v_mask >> 51 & 255], *v6[v_mask >> 61 & 255], *v7[v_mask >> 71 & 255]]


#: Bit shift of a pawn move up, down, left, right (y grows upwards), and the bit of each in a move key.
MOVE_SHIFTS = (10, -10, -1, 1)


def _move_tables() -> tuple[list[tuple[int, ...]], list[tuple[Step, ...]]]:
    """For ``cell << 4 | key`` (key: bit i set when direction i of ``MOVE_SHIFTS`` is open), the target cells
    and their interned steps, in direction order: the moves when the other pawn is not next to ``cell``."""
    cells: list[tuple[int, ...]] = []
    steps: list[tuple[Step, ...]] = []
    for cell in range(CELL_INDEX_LIMIT):
        for key in range(16):
            targets = tuple(cell + s for i, s in enumerate(MOVE_SHIFTS) if key >> i & 1) if cell in MOVE_STEPS else ()
            cells.append(targets)
            steps.append(tuple(MOVE_STEPS[t] for t in targets if t in MOVE_STEPS))
    return cells, steps


#: One more than the highest cell bit index.
CELL_INDEX_LIMIT = max(CELL_LOCATIONS) + 1
MOVE_CELLS, MOVE_LISTS = _move_tables()

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
    "H_STEPS", "V_STEPS", "steps_of_mask", "CELL_LOCATIONS",
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


def _chunk_tables(steps: dict[int, Step]) -> list[tuple[tuple[Step, ...], ...]]:
    """For each byte of a slot mask, a table from the byte's value to the steps of its set bits."""
    tables = []
    for chunk in range(13):
        table = []
        for byte in range(256):
            table.append(tuple(steps[chunk * 8 + b] for b in range(8)
                               if byte >> b & 1 and chunk * 8 + b in steps))
        tables.append(tuple(table))
    return tables


_H_CHUNKS = _chunk_tables(H_STEPS)
_V_CHUNKS = _chunk_tables(V_STEPS)
_CHUNK_RANGE = range(13)


def steps_of_mask(h_mask: int, v_mask: int) -> list[Step]:
    """The wall steps of two slot masks, horizontal first, each in slot order (byte-table lookup)."""
    out: list[Step] = []
    extend = out.extend
    for k in _CHUNK_RANGE:
        byte = h_mask >> (8 * k) & 255
        if byte:
            extend(_H_CHUNKS[k][byte])
    for k in _CHUNK_RANGE:
        byte = v_mask >> (8 * k) & 255
        if byte:
            extend(_V_CHUNKS[k][byte])
    return out

"""Algebraic notation: columns ``a``-``i`` are x 1..9, rows ``1``-``9`` are y.

* a cell (and a pawn move) is its square: ``e2``;
* a wall is the square nearest ``a1`` of the four it touches, plus ``h`` or ``v``:
  ``((4,1),(6,1))`` is ``e1h`` and ``((5,0),(5,2))`` is ``e1v``;
* the empty step (a no-op) is ``-``.
"""

from __future__ import annotations

import re

from .types import SIZE, BlockBar, Location, Step

__all__ = ["NotationError", "square", "parse_square", "wall_name", "parse_wall", "step_name", "parse_step"]

COLUMNS = "abcdefghi"
_SQUARE = re.compile(r"([a-i])([1-9])")
_WALL = re.compile(r"([a-h])([1-8])([hv])")


class NotationError(ValueError):
    """Text that is not a square, a wall or a step in algebraic notation."""


def square(loc: Location) -> str:
    """The square name of an on-board cell, e.g. ``Location(5, 2)`` -> ``e2``."""
    if not loc.is_valid():
        raise NotationError(f"{loc} is not a cell of the board")
    return f"{COLUMNS[loc.x - 1]}{loc.y}"


def parse_square(text: str) -> Location:
    """The cell of a square name such as ``e2``."""
    match = _SQUARE.fullmatch(text.strip().lower())
    if not match:
        raise NotationError(f"not a square: {text!r} (expected a column a-i and a row 1-9, like e2)")
    return Location(COLUMNS.index(match[1]) + 1, int(match[2]))


def wall_name(wall: BlockBar) -> str:
    """The notation of a wall inside the board's border, e.g. ``((4,1),(6,1))`` -> ``e1h``."""
    start, stop = wall.normalized()
    if wall.is_h() and 0 <= start.x <= SIZE - 2 and 1 <= start.y <= SIZE - 1:
        return f"{COLUMNS[start.x]}{start.y}h"
    if wall.is_v() and 1 <= start.x <= SIZE - 1 and 0 <= start.y <= SIZE - 2:
        return f"{COLUMNS[start.x - 1]}{start.y + 1}v"
    raise NotationError(f"wall {wall} has no name: it is not a length-2 wall inside the border")


def parse_wall(text: str) -> BlockBar:
    """The wall of a name such as ``e1h`` (normalised: smaller end point first)."""
    match = _WALL.fullmatch(text.strip().lower())
    if not match:
        raise NotationError(f"not a wall: {text!r} (expected a column a-h, a row 1-8 and h or v, like e1h)")
    col, row = COLUMNS.index(match[1]) + 1, int(match[2])
    if match[3] == "h":
        return BlockBar(Location(col - 1, row), Location(col + 1, row))
    return BlockBar(Location(col, row - 1), Location(col, row + 1))


def step_name(step: Step) -> str:
    """The notation of a step: its target square, its wall, or ``-`` for the empty step."""
    if step.is_move():
        return square(step.new_loc)
    if step.is_nan():
        return "-"
    if step.new_loc.is_nan():
        return wall_name(step.new_wall)
    raise NotationError(f"step {step} has no name: its target is off the board")


def parse_step(text: str) -> Step:
    """The step of a notation: ``e2`` (move), ``e1h`` (wall) or ``-`` (empty)."""
    stripped = text.strip().lower()
    if stripped == "-":
        return Step()
    if len(stripped) == 3:
        return Step(new_wall=parse_wall(stripped))
    if len(stripped) == 2:
        return Step(parse_square(stripped))
    raise NotationError(f"not a step: {text!r} (expected a square like e2, a wall like e1h, or -)")

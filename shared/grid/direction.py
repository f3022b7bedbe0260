"""The four directions of a grid, with their letters and their deltas in both conventions.

Two coordinate conventions live in this project and each is named wherever it is used:

* **screen** - row-major text, row 0 at the top: ``UP`` decreases the row (``Pos``).
* **cartesian** - y grows upwards, as on the Quoridor board: ``UP`` increases y.
"""

from __future__ import annotations

from enum import Enum

__all__ = ["Direction", "DIRECTIONS"]


class Direction(Enum):
    """One of the four orthogonal directions; the value is its letter (``u d l r``)."""

    UP = "u"
    DOWN = "d"
    LEFT = "l"
    RIGHT = "r"

    @property
    def letter(self) -> str:
        """The lower-case letter of this direction (``u``, ``d``, ``l`` or ``r``)."""
        return self.value

    @property
    def screen_delta(self) -> tuple[int, int]:
        """``(d_row, d_col)`` in screen convention (row 0 at the top)."""
        return _SCREEN[self]

    @property
    def cartesian_delta(self) -> tuple[int, int]:
        """``(dx, dy)`` in cartesian convention (y grows upwards)."""
        return _CARTESIAN[self]

    @property
    def opposite(self) -> Direction:
        """The direction pointing the other way."""
        return _OPPOSITE[self]

    @property
    def is_vertical(self) -> bool:
        """True for ``UP`` and ``DOWN``."""
        return self in (Direction.UP, Direction.DOWN)

    def turn_right(self) -> Direction:
        """The direction a quarter turn clockwise (as seen on a screen or a map)."""
        return _CLOCKWISE[(_CLOCKWISE.index(self) + 1) % 4]

    def turn_left(self) -> Direction:
        """The direction a quarter turn anticlockwise."""
        return _CLOCKWISE[(_CLOCKWISE.index(self) + 3) % 4]

    @classmethod
    def from_letter(cls, letter: str) -> Direction:
        """Parse ``u d l r`` (either case); raise ``ValueError`` naming the bad letter."""
        try:
            return cls(letter.lower())
        except ValueError:
            raise ValueError(f"not a direction letter: {letter!r} (expected one of u, d, l, r)") from None


_SCREEN = {Direction.UP: (-1, 0), Direction.DOWN: (1, 0), Direction.LEFT: (0, -1), Direction.RIGHT: (0, 1)}
_CARTESIAN = {Direction.UP: (0, 1), Direction.DOWN: (0, -1), Direction.LEFT: (-1, 0), Direction.RIGHT: (1, 0)}
_OPPOSITE = {Direction.UP: Direction.DOWN, Direction.DOWN: Direction.UP,
             Direction.LEFT: Direction.RIGHT, Direction.RIGHT: Direction.LEFT}
_CLOCKWISE = (Direction.UP, Direction.RIGHT, Direction.DOWN, Direction.LEFT)

#: All four directions in a fixed order (up, down, left, right).
DIRECTIONS: tuple[Direction, ...] = (Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT)

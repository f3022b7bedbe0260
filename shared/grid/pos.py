"""``Pos``: a cell of a row-major text grid (screen convention: row 0 at the top, 0-based)."""

from __future__ import annotations

from typing import NamedTuple

from .direction import Direction

__all__ = ["Pos"]


class Pos(NamedTuple):
    """A cell ``(row, col)`` of a text grid; row 0 is the top line, col 0 the first character."""

    row: int
    col: int

    def step(self, direction: Direction, distance: int = 1) -> Pos:
        """The cell ``distance`` cells away in ``direction`` (screen convention)."""
        d_row, d_col = direction.screen_delta
        return Pos(self.row + d_row * distance, self.col + d_col * distance)

    def manhattan(self, other: Pos) -> int:
        """City-block distance to ``other``."""
        return abs(self.row - other.row) + abs(self.col - other.col)

    def direction_to(self, other: Pos) -> Direction:
        """The direction of an orthogonally adjacent ``other``; ``ValueError`` otherwise."""
        for direction in Direction:
            if self.step(direction) == other:
                return direction
        raise ValueError(f"{other} is not orthogonally adjacent to {self}")

"""``Grid``: a rectangular, row-major grid of cells with bounds, neighbours, parsing and rendering."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Generic, TypeVar

from .direction import DIRECTIONS, Direction
from .pos import Pos

__all__ = ["Grid", "GridShapeError"]

T = TypeVar("T")
U = TypeVar("U")


class GridShapeError(ValueError):
    """Rows of a grid that do not form a rectangle (or no rows at all)."""


class Grid(Generic[T]):
    """A ``height`` x ``width`` grid of values in screen convention (``Pos(row, col)``, row 0 on top).

    The grid is a mutable container (puzzles update cells in place); ``copy()`` makes an
    independent one. Cells are stored row-major in one flat list.
    """

    __slots__ = ("width", "height", "_cells")

    def __init__(self, width: int, height: int, fill: T) -> None:
        if width <= 0 or height <= 0:
            raise GridShapeError(f"a grid needs a positive size, got {width}x{height}")
        self.width = width
        self.height = height
        self._cells: list[T] = [fill] * (width * height)

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[T]]) -> Grid[T]:
        """Build a grid from equal-length rows; ``GridShapeError`` names the first ragged row."""
        if not rows or not rows[0]:
            raise GridShapeError("a grid needs at least one non-empty row")
        width = len(rows[0])
        for index, row in enumerate(rows):
            if len(row) != width:
                raise GridShapeError(f"row {index} has {len(row)} cells, expected {width}")
        grid: Grid[T] = cls.__new__(cls)
        grid.width, grid.height = width, len(rows)
        grid._cells = [cell for row in rows for cell in row]
        return grid

    @classmethod
    def parse(cls, text: str, *, pad: str | None = None) -> Grid[str]:
        """Parse a character grid, one line per row.

        Leading and trailing blank lines are dropped. With ``pad`` set, short rows are padded
        with it to the longest row; without it, a ragged grid raises ``GridShapeError``.
        """
        lines = text.split("\n")
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1].strip():
            lines.pop()
        lines = [line.rstrip("\r") for line in lines]
        if pad is not None and lines:
            width = max(len(line) for line in lines)
            lines = [line.ljust(width, pad) for line in lines]
        return Grid.from_rows([list(line) for line in lines])  # type: ignore[return-value]

    def copy(self) -> Grid[T]:
        """An independent copy of this grid."""
        grid: Grid[T] = Grid.__new__(Grid)
        grid.width, grid.height, grid._cells = self.width, self.height, list(self._cells)
        return grid

    def map(self, function: Callable[[T], U]) -> Grid[U]:
        """A new grid with ``function`` applied to every cell."""
        grid: Grid[U] = Grid.__new__(Grid)
        grid.width, grid.height = self.width, self.height
        grid._cells = [function(cell) for cell in self._cells]
        return grid

    # -- access -------------------------------------------------------------------------
    def in_bounds(self, pos: Pos) -> bool:
        """True when ``pos`` lies inside the grid."""
        return 0 <= pos.row < self.height and 0 <= pos.col < self.width

    def __getitem__(self, pos: Pos) -> T:
        if not self.in_bounds(pos):
            raise IndexError(f"{pos} is outside the {self.width}x{self.height} grid")
        return self._cells[pos.row * self.width + pos.col]

    def __setitem__(self, pos: Pos, value: T) -> None:
        if not self.in_bounds(pos):
            raise IndexError(f"{pos} is outside the {self.width}x{self.height} grid")
        self._cells[pos.row * self.width + pos.col] = value

    def get(self, pos: Pos, default: T | None = None) -> T | None:
        """The value at ``pos``, or ``default`` when ``pos`` is outside the grid."""
        return self._cells[pos.row * self.width + pos.col] if self.in_bounds(pos) else default

    def positions(self) -> Iterator[Pos]:
        """Every cell position, row by row from the top."""
        for row in range(self.height):
            for col in range(self.width):
                yield Pos(row, col)

    def items(self) -> Iterator[tuple[Pos, T]]:
        """``(pos, value)`` for every cell, row by row from the top."""
        for index, value in enumerate(self._cells):
            yield Pos(*divmod(index, self.width)), value

    def find(self, predicate: Callable[[T], bool]) -> list[Pos]:
        """Positions whose value satisfies ``predicate``, in reading order."""
        return [pos for pos, value in self.items() if predicate(value)]

    def rows(self) -> list[list[T]]:
        """The cells as a list of rows (copies)."""
        w = self.width
        return [self._cells[r * w:(r + 1) * w] for r in range(self.height)]

    def neighbours(self, pos: Pos, directions: Iterable[Direction] = DIRECTIONS) -> Iterator[tuple[Direction, Pos]]:
        """``(direction, neighbour)`` for each orthogonal neighbour of ``pos`` inside the grid."""
        for direction in directions:
            other = pos.step(direction)
            if self.in_bounds(other):
                yield direction, other

    # -- rendering ----------------------------------------------------------------------
    def render(self, to_char: Callable[[T], str] = str) -> str:
        """The grid as text, one line per row, each cell drawn by ``to_char``."""
        return "\n".join("".join(to_char(cell) for cell in row) for row in self.rows())

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Grid) and (self.width, self.height) == (other.width, other.height)
                and self._cells == other._cells)

    def __repr__(self) -> str:
        return f"Grid({self.width}x{self.height})"

    __hash__ = None  # type: ignore[assignment]  # mutable container

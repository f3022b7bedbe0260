"""``IceMaze``: a parsed, validated ice maze and its slide rule (screen order: ``Pos(row, col)``, row 0 on top).

Cells (the kata's notation): ``S`` start (slippery, exactly one), ``E`` end (not slippery,
exactly one), space = slippery ice, ``x`` = not slippery, ``#`` = obstacle. The border of the
rectangle acts as a wall.
"""

from __future__ import annotations

from collections.abc import Sequence

from shared.grid import Direction, Grid, Pos

__all__ = ["ICE", "STICKY", "OBSTACLE", "START", "END", "CELLS", "IceMaze", "IceMazeError", "parse_maze"]

ICE = " "        #: slippery ice
STICKY = "x"     #: not slippery: a slide stops on it
OBSTACLE = "#"   #: a slide stops before it
START = "S"      #: the start (slippery)
END = "E"        #: the end (not slippery)
#: Every character a maze may hold.
CELLS = frozenset(ICE + STICKY + OBSTACLE + START + END)

_EXPECTED = "one of ' ' (ice), 'x', '#', 'S', 'E'"


class IceMazeError(ValueError):
    """A text that is not a valid ice maze (ragged, an unknown character, not exactly one S and one E)."""


class IceMaze:
    """A valid ice maze: a rectangle of cells with exactly one start and one end. Immutable."""

    __slots__ = ("_grid", "start", "end", "_rows")

    def __init__(self, grid: Grid[str]) -> None:
        for pos, cell in grid.items():
            if cell not in CELLS:
                raise IceMazeError(f"invalid character {cell!r} at row {pos.row}, column {pos.col}; "
                                   f"expected {_EXPECTED}")
        starts = grid.find(lambda c: c == START)
        ends = grid.find(lambda c: c == END)
        for char, found in ((START, starts), (END, ends)):
            if len(found) != 1:
                where = f" (at {', '.join(f'row {p.row} col {p.col}' for p in found)})" if found else ""
                raise IceMazeError(f"the maze has {len(found)} {char!r} cells{where}; expected exactly one")
        self._grid = grid.copy()    # a private copy keeps the maze immutable
        self.start: Pos = starts[0]
        self.end: Pos = ends[0]
        self._rows = tuple("".join(row) for row in grid.rows())

    @property
    def width(self) -> int:
        """Number of columns."""
        return self._grid.width

    @property
    def height(self) -> int:
        """Number of rows."""
        return self._grid.height

    def __getitem__(self, pos: Pos) -> str:
        return self._grid[pos]

    def in_bounds(self, pos: Pos) -> bool:
        """True when ``pos`` lies inside the maze."""
        return self._grid.in_bounds(pos)

    def rows(self) -> list[str]:
        """The maze as a list of row strings, top row first."""
        return list(self._rows)

    def render(self) -> str:
        """The maze text, one line per row (the inverse of ``parse_maze``)."""
        return "\n".join(self._rows)

    def grid(self) -> Grid[str]:
        """A copy of the cells as a ``Grid``."""
        return self._grid.copy()

    def slide(self, pos: Pos, direction: Direction) -> tuple[Pos, int]:
        """Where a move from ``pos`` ends and how many cells it slid (0 when blocked at once).

        The player slides until the next cell is an obstacle or the border (stopping before it),
        or it enters a non-slippery cell (stopping on it: ``x`` or ``E``). On ``E`` it stays.
        """
        if self._grid[pos] == END:
            return pos, 0
        distance = 0
        while True:
            nxt = pos.step(direction)
            cell = self._grid.get(nxt, OBSTACLE)
            if cell == OBSTACLE:
                return pos, distance
            pos, distance = nxt, distance + 1
            if cell in (STICKY, END):
                return pos, distance

    def __eq__(self, other: object) -> bool:
        return isinstance(other, IceMaze) and self._rows == other._rows

    def __hash__(self) -> int:
        return hash(self._rows)

    def __repr__(self) -> str:
        return f"IceMaze({self.width}x{self.height}, start={tuple(self.start)}, end={tuple(self.end)})"


def parse_maze(text: str | Sequence[str]) -> IceMaze:
    """Parse a maze from its text (rows split by newlines) or a list of row strings.

    Spaces are cells, so nothing is stripped except ``\\r`` and one final newline. Raises
    ``IceMazeError`` for an empty or ragged maze, an unknown character, or not exactly one
    ``S`` and one ``E``.
    """
    if isinstance(text, str):
        lines = text.split("\n")
        if len(lines) > 1 and lines[-1] == "":
            lines.pop()       # the newline that ends the last row
    else:
        lines = list(text)
        for index, line in enumerate(lines):
            if not isinstance(line, str):
                raise IceMazeError(f"row {index} is {line!r}, expected a string of cells")
    lines = [line.rstrip("\r") for line in lines]
    if not lines or not any(lines):
        raise IceMazeError("the maze is empty; expected rows of ' ', 'x', '#', 'S' and 'E'")
    width = len(lines[0])
    for index, line in enumerate(lines):
        if len(line) != width:
            raise IceMazeError(f"the maze is not a rectangle: row {index} {line!r} has {len(line)} cells, "
                               f"expected {width} like row 0")
    return IceMaze(Grid.from_rows([list(line) for line in lines]))

"""``Circuit``: a grid of tiles with one source and one terminal; rotations, connection, text form.

Screen order: ``Pos(row, col)``, row 0 on top. The design note's "x" is our ``row`` and its
"y" our ``col`` (x grows downwards, y to the right), so its ``(x, y)`` is ``Pos(x, y)``.

Text form: one line per row, cells separated by blanks, each ``.`` (empty) or a kind letter
(``S`` source, ``T`` terminal, ``I`` straight, ``L`` corner) followed by its rotation in
degrees, e.g. ``S90  I0  L180``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from shared.grid import Grid, Pos, flood_fill

from .tiles import ROTATIONS, Tile, TileError, TileKind, clicks

__all__ = ["Circuit", "CircuitFormatError", "CircuitMoveError", "parse_circuit"]

_KINDS = {kind.value: kind for kind in TileKind if kind is not TileKind.EMPTY}


class CircuitFormatError(ValueError):
    """A text that is not a circuit (a bad token, ragged rows, not exactly one source and one terminal)."""


class CircuitMoveError(ValueError):
    """A rotation the circuit cannot take (outside the grid, not a movable tile, a bad rotation)."""


class Circuit:
    """An immutable grid of tiles with exactly one source and one terminal."""

    __slots__ = ("_grid", "source", "terminal")

    def __init__(self, grid: Grid[Tile]) -> None:
        sources = grid.find(lambda t: t.kind is TileKind.SOURCE)
        terminals = grid.find(lambda t: t.kind is TileKind.TERMINAL)
        for name, found in (("source (S)", sources), ("terminal (T)", terminals)):
            if len(found) != 1:
                raise CircuitFormatError(f"the circuit has {len(found)} {name} tiles; expected exactly one")
        self._grid = grid.copy()
        self.source: Pos = sources[0]
        self.terminal: Pos = terminals[0]

    # -- access -----------------------------------------------------------------------
    @property
    def width(self) -> int:
        """Number of columns (the note's y range)."""
        return self._grid.width

    @property
    def height(self) -> int:
        """Number of rows (the note's x range)."""
        return self._grid.height

    def __getitem__(self, pos: Pos) -> Tile:
        return self._grid[pos]

    def in_bounds(self, pos: Pos) -> bool:
        """True when ``pos`` lies inside the grid."""
        return self._grid.in_bounds(pos)

    def grid(self) -> Grid[Tile]:
        """A copy of the tiles as a ``Grid``."""
        return self._grid.copy()

    def movable(self) -> list[Pos]:
        """The cells of straight and corner tiles, in reading order (the order of rotation answers)."""
        return self._grid.find(lambda t: t.kind.movable)

    def rotations(self) -> list[int]:
        """The rotations of the movable tiles, in reading order."""
        return [self._grid[p].rotation for p in self.movable()]

    # -- changes ----------------------------------------------------------------------
    def rotate(self, pos: Pos, quarter_turns: int = 1) -> Circuit:
        """A copy with the tile at ``pos`` turned clockwise; ``CircuitMoveError`` if it cannot turn."""
        tile = self._movable_at(pos)
        return self._with({pos: tile.rotated(quarter_turns)})

    def with_rotations(self, rotations: Mapping[Pos, int] | Sequence[int]) -> Circuit:
        """A copy with tiles set to ``rotations``: a map cell -> rotation, or a list in reading order."""
        if isinstance(rotations, Mapping):
            items = list(rotations.items())
        else:
            cells = self.movable()
            if len(rotations) != len(cells):
                raise CircuitMoveError(f"{len(rotations)} rotations given for {len(cells)} movable tiles")
            items = list(zip(cells, rotations))
        changes = {}
        for pos, rotation in items:
            tile = self._movable_at(pos)
            if rotation not in ROTATIONS:
                raise CircuitMoveError(f"rotation {rotation!r} for row {pos.row}, column {pos.col} is not "
                                       "one of 0, 90, 180, 270")
            changes[pos] = Tile(tile.kind, rotation)
        return self._with(changes)

    def _movable_at(self, pos: Pos) -> Tile:
        if not self._grid.in_bounds(pos):
            raise CircuitMoveError(f"row {pos.row}, column {pos.col} is outside the {self.height}x{self.width} grid")
        tile = self._grid[pos]
        if not tile.kind.movable:
            raise CircuitMoveError(f"row {pos.row}, column {pos.col} holds a {tile.kind.name.lower()} tile, "
                                   "which does not turn")
        return tile

    def _with(self, changes: Mapping[Pos, Tile]) -> Circuit:
        grid = self._grid.copy()
        for pos, tile in changes.items():
            grid[pos] = tile
        return Circuit(grid)

    def clicks_to(self, other: Circuit) -> int:
        """Clockwise quarter turns that take this circuit's rotations to ``other``'s (same tiles)."""
        return sum(clicks(self._grid[p].rotation, other[p].rotation) for p in self.movable())

    # -- connection -------------------------------------------------------------------
    def linked(self, pos: Pos) -> list[Pos]:
        """The neighbours ``pos`` is wired to: both tiles open towards each other."""
        out = []
        for side in self._grid[pos].openings:
            other = pos.step(side)
            if self._grid.in_bounds(other) and side.opposite in self._grid[other].openings:
                out.append(other)
        return out

    def powered(self) -> set[Pos]:
        """The cells wired to the source (source included)."""
        return flood_fill(self.source, self.linked)

    @property
    def connected(self) -> bool:
        """True when the source and the terminal are wired together: the puzzle is solved."""
        return self.terminal in self.powered()

    # -- text -------------------------------------------------------------------------
    def rows(self) -> list[str]:
        """The text form, one string per row (cells padded to line up)."""
        return [" ".join(t.code.ljust(4) for t in row).rstrip() for row in self._grid.rows()]

    def render(self) -> str:
        """The text form (the inverse of ``parse_circuit``)."""
        return "\n".join(self.rows())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Circuit) and self._grid == other._grid

    def __hash__(self) -> int:
        return hash(tuple(self.rows()))

    def __repr__(self) -> str:
        return f"Circuit({self.height}x{self.width}, source={tuple(self.source)}, terminal={tuple(self.terminal)})"


def parse_circuit(text: str | Sequence[str]) -> Circuit:
    """Parse the text form (a string or a list of row strings); ``CircuitFormatError`` says what is wrong."""
    lines = text.splitlines() if isinstance(text, str) else list(text)
    rows: list[list[Tile]] = []
    for r, line in enumerate(lines):
        if not isinstance(line, str):
            raise CircuitFormatError(f"row {r} is {line!r}, expected a string of tiles")
        tokens = line.split()
        if not tokens:
            continue
        rows.append([_tile(token, len(rows), c) for c, token in enumerate(tokens)])
    if not rows:
        raise CircuitFormatError("the circuit is empty; expected rows of tiles such as 'S90 I0 L180'")
    for r, row in enumerate(rows):
        if len(row) != len(rows[0]):
            raise CircuitFormatError(f"the circuit is not a rectangle: row {r} has {len(row)} cells, "
                                     f"expected {len(rows[0])} like row 0")
    return Circuit(Grid.from_rows(rows))


def _tile(token: str, row: int, col: int) -> Tile:
    if token == ".":
        return Tile(TileKind.EMPTY, 0)
    kind = _KINDS.get(token[:1].upper())
    try:
        if kind is None:
            raise TileError
        return Tile(kind, int(token[1:]))
    except (TileError, ValueError):
        raise CircuitFormatError(f"row {row}, column {col}: {token!r} is not a tile; expected '.' or S, T, I or L "
                                 "followed by 0, 90, 180 or 270 (e.g. 'L90')") from None

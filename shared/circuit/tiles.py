"""Circuit tiles, their rotations and the sides they connect (the design note's table, screen order).

Compass sides map onto the grid library's directions: north = ``UP``, east = ``RIGHT``,
south = ``DOWN``, west = ``LEFT``. Rotations are degrees clockwise, one of 0, 90, 180, 270:

* straight: 0 and 180 connect west-east, 90 and 270 north-south (either of a pair is correct);
* corner: 0 north-east, 90 east-south, 180 south-west, 270 west-north;
* source and terminal: one fixed stub, 0 north, 90 east, 180 south, 270 west (never rotated).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from shared.grid import Direction

__all__ = ["TileKind", "Tile", "ROTATIONS", "TileError", "EMPTY", "corner_rotation", "straight_rotation",
           "stub_rotation", "clicks"]

#: The four rotations, in degrees clockwise.
ROTATIONS: tuple[int, ...] = (0, 90, 180, 270)

_N, _E, _S, _W = Direction.UP, Direction.RIGHT, Direction.DOWN, Direction.LEFT


class TileError(ValueError):
    """A tile that cannot exist (a rotation other than 0, 90, 180 or 270)."""


class TileKind(Enum):
    """What occupies a cell; the value is the letter of the text form."""

    EMPTY = "."
    SOURCE = "S"
    TERMINAL = "T"
    STRAIGHT = "I"
    CORNER = "L"

    @property
    def movable(self) -> bool:
        """True for the tiles a player turns (straight and corner)."""
        return self in (TileKind.STRAIGHT, TileKind.CORNER)


_OPENINGS: dict[tuple[TileKind, int], frozenset[Direction]] = {}
for _rot, _stub, _corner in zip(ROTATIONS, (_N, _E, _S, _W), ((_N, _E), (_E, _S), (_S, _W), (_W, _N))):
    _OPENINGS[TileKind.EMPTY, _rot] = frozenset()
    _OPENINGS[TileKind.SOURCE, _rot] = _OPENINGS[TileKind.TERMINAL, _rot] = frozenset({_stub})
    _OPENINGS[TileKind.STRAIGHT, _rot] = frozenset({_W, _E} if _rot in (0, 180) else {_N, _S})
    _OPENINGS[TileKind.CORNER, _rot] = frozenset(_corner)


@dataclass(frozen=True)
class Tile:
    """A tile of a kind turned to a rotation (empty cells are ``Tile(TileKind.EMPTY, 0)``)."""

    kind: TileKind
    rotation: int = 0

    def __post_init__(self) -> None:
        if self.rotation not in ROTATIONS:
            raise TileError(f"rotation {self.rotation!r} of a {self.kind.name.lower()} tile is not one of "
                            "0, 90, 180, 270")

    @property
    def openings(self) -> frozenset[Direction]:
        """The sides this tile connects to."""
        return _OPENINGS[self.kind, self.rotation]

    def rotated(self, quarter_turns: int = 1) -> Tile:
        """The tile turned clockwise by ``quarter_turns`` quarters."""
        return Tile(self.kind, (self.rotation + 90 * quarter_turns) % 360)

    def accepts(self, rotation: int) -> bool:
        """True when this tile turned to ``rotation`` connects the same sides as it does now."""
        return _OPENINGS[self.kind, rotation] == self.openings

    def accepted_rotations(self) -> tuple[int, ...]:
        """Every rotation equivalent to this one (two for a straight tile, one for a corner)."""
        return tuple(r for r in ROTATIONS if self.accepts(r))

    @property
    def code(self) -> str:
        """The text form: ``.`` or the kind's letter and the rotation, e.g. ``L90``."""
        return "." if self.kind is TileKind.EMPTY else f"{self.kind.value}{self.rotation}"


#: The empty cell.
EMPTY = Tile(TileKind.EMPTY, 0)


def corner_rotation(a: Direction, b: Direction) -> int:
    """The rotation of the corner connecting the perpendicular sides ``a`` and ``b``."""
    for rot in ROTATIONS:
        if _OPENINGS[TileKind.CORNER, rot] == {a, b}:
            return rot
    raise TileError(f"no corner connects {a.name.lower()} and {b.name.lower()}; they must be perpendicular")


def straight_rotation(side: Direction) -> int:
    """The canonical rotation (0 or 90) of the straight tile passing through ``side``."""
    return 90 if side.is_vertical else 0


def stub_rotation(side: Direction) -> int:
    """The rotation of a source or terminal whose stub points to ``side``."""
    return {_N: 0, _E: 90, _S: 180, _W: 270}[side]


def clicks(start: int, target: int) -> int:
    """Clockwise quarter turns from rotation ``start`` to rotation ``target`` (0 to 3)."""
    return ((target - start) // 90) % 4

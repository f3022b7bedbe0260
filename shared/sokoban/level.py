"""``Level``: one Sokoban map (walls, floor, boxes, goals, player) with its metadata and comments.

Cells are kept as the bits of Python ints in the ``BitLayout`` geometry (bit ``row * stride +
col``, ``stride = width + 1``, screen orientation), which makes building, validating and
searching a level a handful of big-int operations; the public accessors speak ``Pos``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cached_property, lru_cache
from itertools import repeat
from types import MappingProxyType

from shared.grid import BitLayout, Orientation, Pos, iter_bits
from shared.grid.runfill import RunFill

from .errors import (BoxGoalMismatchError, MoreThanOnePlayerError, NoBoxError, NoMapError, NoPlayerError,
                     OpenLevelError)

__all__ = ["Level", "level_from_block", "level_from_rows"]

# Byte tables turning an XSB row string into a '0'/'1' string per layer (then int(..., 2)).
_NO = ord("0")


def _table(ones: str) -> bytes:
    table = bytearray([_NO]) * 256
    for char in ones:
        table[ord(char)] = ord("1")
    return bytes(table)


_BOX_T = _table("$*")
_GOAL_T = _table(".*+")
_OPEN_T = _table(" \t-_$.@*+")   # a tab can only be a blank beside a row
# Single bytes as ints: ``in``, ``find`` and ``count`` then skip the buffer protocol (several times faster).
_TAB, _CR, _AT, _PLUS = b"\t\r@+"
_COLUMN_0 = re.compile(rb"\n[^ \t\n]")


class Level:
    """An immutable Sokoban level. Build it with ``parse_level``, ``Collection`` or ``from_solution``.

    The constructor takes the masks as given, unchecked: call it directly only for positions
    derived from a valid level (e.g. the boxes and player of a game in progress).
    """

    __slots__ = ("width", "height", "stride", "walls", "floor", "boxes", "goals", "player", "metadata",
                 "comments", "__dict__")

    width: int
    height: int
    #: Bits per row (``width + 1``: one guard bit keeps row ends apart).
    stride: int
    #: Bit masks of wall cells, of floor cells (reachable from the player, boxes ignored), of boxes, of goals.
    walls: int
    floor: int
    boxes: int
    goals: int
    #: Bit index of the player.
    player: int
    #: Metadata, keys in lower case (``title``, ``author``, ...).
    metadata: Mapping[str, str]
    #: The level's comment lines (``;`` lines, ``comment:`` blocks and text before the map).
    comments: tuple[str, ...]

    def __init__(self, *, width: int, height: int, walls: int, floor: int, boxes: int, goals: int, player: int,
                 metadata: Mapping[str, str] | None = None, comments: Sequence[str] = ()) -> None:
        self.width, self.height, self.stride = width, height, width + 1
        self.walls, self.floor, self.boxes, self.goals, self.player = walls, floor, boxes, goals, player
        self.metadata = MappingProxyType(dict(metadata or {}))
        self.comments = tuple(comments)

    # -- geometry ---------------------------------------------------------------------
    @cached_property
    def layout(self) -> BitLayout:
        """The ``BitLayout`` (screen orientation) whose bit numbering the masks use."""
        return BitLayout(self.width, self.height, Orientation.SCREEN)

    def index(self, pos: Pos) -> int:
        """Bit index of ``pos``; ``IndexError`` outside the map."""
        return self.layout.index(pos.col, pos.row)

    def pos(self, index: int) -> Pos:
        """``Pos`` of a bit index."""
        row, col = divmod(index, self.stride)
        return Pos(row, col)

    def positions(self, mask: int) -> list[Pos]:
        """The cells of ``mask`` in reading order."""
        stride = self.stride
        return [Pos(*divmod(i, stride)) for i in iter_bits(mask)]

    # -- public views -----------------------------------------------------------------
    @property
    def player_pos(self) -> Pos:
        """Where the player starts."""
        return self.pos(self.player)

    @property
    def box_positions(self) -> frozenset[Pos]:
        """Where the boxes start."""
        return frozenset(self.positions(self.boxes))

    @property
    def goal_positions(self) -> frozenset[Pos]:
        """The goals."""
        return frozenset(self.positions(self.goals))

    @property
    def box_count(self) -> int:
        """Number of boxes (= number of goals)."""
        return self.boxes.bit_count()

    @property
    def title(self) -> str | None:
        """The ``Title`` metadata, if any."""
        return self.metadata.get("title")

    @property
    def author(self) -> str | None:
        """The ``Author`` metadata, if any."""
        return self.metadata.get("author")

    def is_wall(self, pos: Pos) -> bool:
        """True for a wall (cells outside the map count as walls)."""
        if not (0 <= pos.row < self.height and 0 <= pos.col < self.width):
            return True
        return bool(self.walls >> self.index(pos) & 1)

    def is_floor(self, pos: Pos) -> bool:
        """True for a cell the player can ever stand on (boxes aside)."""
        if not (0 <= pos.row < self.height and 0 <= pos.col < self.width):
            return False
        return bool(self.floor >> self.index(pos) & 1)

    @cached_property
    def fill(self) -> RunFill:
        """A flood fill over the floor (for reachability with boxes removed from the region)."""
        return RunFill(self.floor, self.stride, self.width)

    # -- text -------------------------------------------------------------------------
    def render(self, player: int | None = None, boxes: int | None = None) -> str:
        """The map as XSB rows (trailing blanks trimmed), optionally with another player and boxes."""
        player = self.player if player is None else player
        boxes = self.boxes if boxes is None else boxes
        walls, goals, stride = self.walls, self.goals, self.stride
        lines = []
        for row in range(self.height):
            chars = []
            for col in range(self.width):
                bit = 1 << (row * stride + col)
                if walls & bit:
                    chars.append("#")
                elif row * stride + col == player:
                    chars.append("+" if goals & bit else "@")
                elif boxes & bit:
                    chars.append("*" if goals & bit else "$")
                else:
                    chars.append("." if goals & bit else " ")
            lines.append("".join(chars).rstrip())
        return "\n".join(lines)

    def to_xsb(self) -> str:
        """The level as XSB text: the map, then ``Key: value`` lines and the comments as ``;`` lines."""
        parts = [self.render()]
        parts += [f"{key.title()}: {value}" for key, value in self.metadata.items()]
        parts += [f"; {line}".rstrip() for line in self.comments]
        return "\n".join(parts) + "\n"

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        title = f" {self.title!r}" if self.title else ""
        return f"<Level{title} {self.width}x{self.height}, {self.box_count} boxes>"

    def _key(self) -> tuple[int, ...]:
        return (self.width, self.height, self.walls, self.floor, self.boxes, self.goals, self.player)

    def same_map(self, other: Level) -> bool:
        """True when both levels have the same map (metadata and comments aside)."""
        return self._key() == other._key()

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Level) and self._key() == other._key()
                and dict(self.metadata) == dict(other.metadata) and self.comments == other.comments)

    def __hash__(self) -> int:
        return hash(self._key())


def level_from_rows(rows: Sequence[str], metadata: Mapping[str, str] | None = None,
                    comments: Sequence[str] = ()) -> Level:
    """Build and validate a level from decoded map rows (XSB symbols only, any indentation).

    Trims trailing blanks and the common indentation, then checks player, boxes, goals and that
    the walls enclose the floor found by flood fill from the player.
    """
    return level_from_block("\n".join(rows), metadata, comments)


def level_from_block(block: str, metadata: Mapping[str, str] | None = None, comments: Sequence[str] = ()) -> Level:
    """``level_from_rows`` on the rows joined by newlines (the text of a map, as a parser finds it)."""
    return _level_from_data(block.encode("ascii"), dict(metadata or {}), tuple(comments))


def _level_from_data(data: bytes, metadata: dict[str, str], comments: tuple[str, ...]) -> Level:
    """``level_from_block`` on the ASCII bytes of the block; the level keeps ``metadata`` (not copied)."""
    lines = list(map(bytes.rstrip, data.split(b"\n")))
    # Only a map whose first line starts with a blank, or that loses empty lines, can be indented.
    may_indent = data.startswith((b" ", b"\t"))
    if b"" in lines:
        lines = [row for row in lines if row]
        if not lines:
            raise NoMapError("no map rows; expected rows of XSB symbols (# @ + $ * . space - _)")
        may_indent = True
    height = len(lines)
    width = max(map(len, lines))
    # A line of ``data`` that starts at column 0 is a row that does: then there is no common indentation.
    if may_indent and _COLUMN_0.search(data) is None:
        indent = min(map(int.__sub__, map(len, lines), map(len, map(bytes.lstrip, lines))))
        if indent:
            width -= indent
            lines = [row[indent:] for row in lines]
    stride = width + 1
    cells, border = _frame(width, height)
    # One byte per cell, rows padded to the width and ended by a guard byte: byte i is bit i. Rows ended by
    # tabs expand to just that (a tab stop every ``stride`` bytes) in one C pass, unless they hold a tab
    # (or a carriage return, which expandtabs reads as a line end: not a map symbol, but kept in place).
    if _TAB in data or _CR in data:
        flat = b"\n".join(map(bytes.ljust, lines, repeat(width)))
    else:
        flat = (b"\t".join(lines) + b"\t").expandtabs(stride)    # guard bytes are blanks: masked by ``cells``
    player = flat.find(_AT)
    if player >= 0:
        another = flat.find(_AT, player + 1) >= 0 or _PLUS in flat
    else:
        player = flat.find(_PLUS)
        if player < 0:
            raise NoPlayerError("the map has no player; expected one '@' (or '+' for a player on a goal)")
        another = flat.find(_PLUS, player + 1) >= 0
    if another:
        players = [divmod(i, stride) for i, c in enumerate(flat) if c in b"@+"]
        raise MoreThanOnePlayerError(f"the map has {len(players)} players, at (row, col) "
                                     f"{', '.join(map(str, players))}; expected one '@' or '+'")
    # int(text, 2) reads the first character as the highest bit: reverse once so bit i is flat[i].
    backwards = flat[::-1]
    boxes = int(backwards.translate(_BOX_T), 2)
    goals = int(backwards.translate(_GOAL_T), 2)
    if boxes.bit_count() != goals.bit_count():
        raise BoxGoalMismatchError(boxes.bit_count(), goals.bit_count())
    if not boxes:
        raise NoBoxError("the map has no box and no goal; expected at least one of each")
    passable = int(backwards.translate(_OPEN_T), 2) & cells
    floor = _flood(passable, stride, 1 << player)
    if floor & border:
        leak = next(i for i in iter_bits(floor) if _on_border(i, width, height))
        row, col = divmod(leak, stride)
        raise OpenLevelError(f"the walls do not enclose the player: it can walk off the map at (row {row}, col {col})")
    # Every cell is a wall or open (padding is open floor, guard bytes are neither).
    level = _new_level(Level)
    level.width, level.height, level.stride = width, height, stride
    level.walls, level.floor, level.boxes, level.goals, level.player = cells & ~passable, floor, boxes, goals, player
    level.metadata = MappingProxyType(metadata) if metadata else _NO_METADATA
    level.comments = comments
    return level


def _flood(passable: int, stride: int, seed: int) -> int:
    """The cells of ``passable`` connected to ``seed`` (a cell of it), in the four directions.

    Each round runs right to the end of every run the region touches (the carry of one addition
    runs along a run of set bits), then steps up to two rows up and down and up to two cells left.
    The maps are small, so every int operation costs about the same few tens of nanoseconds and
    only their number counts: this mix needs ~4.5 rounds of ~22 operations on the bundled levels,
    against ~11.5 rounds of 12 for one step per round and ~7 rounds of ~22 plus setup for
    ``RunFill``'s whole runs both ways (2.7 us against 3.1 and 5.1 us per level, measured). Stepping
    up and down before left saves a few rounds (~3%); more or longer steps per round cost more than
    the rounds they save, and so does a second carry.
    """
    two = 2 * stride
    left2 = passable & (passable >> 1)          # cells whose right neighbour is open too
    up2 = passable & (passable >> stride)       # ... whose lower neighbour is open too
    down2 = passable & (passable << stride)     # ... whose upper neighbour is open too
    region = seed
    while True:
        grown = ((passable + region) & passable) ^ passable | region
        grown |= ((grown << stride) | (grown >> stride)) & passable
        grown |= (down2 & (grown << two)) | (up2 & (grown >> two))
        grown |= passable & (grown >> 1)
        grown |= left2 & (grown >> 2)
        if grown == region:
            return region
        region = grown


_new_level = object.__new__
_NO_METADATA: Mapping[str, str] = MappingProxyType({})     # shared by the levels without metadata (read-only)


@lru_cache(maxsize=512)
def _frame(width: int, height: int) -> tuple[int, int]:
    """The cells of a ``width`` x ``height`` map (guard bits clear) and those of its outer ring."""
    stride = width + 1
    first_col = ((1 << (stride * height)) - 1) // ((1 << stride) - 1)
    top = (1 << width) - 1
    return top * first_col, first_col | (first_col << (width - 1)) | top | (top << (stride * (height - 1)))


def _on_border(index: int, width: int, height: int) -> bool:
    row, col = divmod(index, width + 1)
    return row in (0, height - 1) or col in (0, width - 1)

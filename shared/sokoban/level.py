"""``Level``: one Sokoban map (walls, floor, boxes, goals, player) with its metadata and comments.

Cells are kept as the bits of Python ints in the ``BitLayout`` geometry (bit ``row * stride +
col``, ``stride = width + 1``, screen orientation), which makes building, validating and
searching a level a handful of big-int operations; the public accessors speak ``Pos``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property, lru_cache
from itertools import repeat
from types import MappingProxyType

from shared.grid import BitLayout, Orientation, Pos, iter_bits
from shared.grid.runfill import RunFill

from .errors import BoxGoalMismatchError, MoreThanOnePlayerError, NoBoxError, NoPlayerError, OpenLevelError

__all__ = ["Level", "level_from_rows"]

# Byte tables turning an XSB row string into a '0'/'1' string per layer (then int(..., 2)).
_NO = ord("0")


def _table(ones: str) -> bytes:
    table = bytearray([_NO]) * 256
    for char in ones:
        table[ord(char)] = ord("1")
    return bytes(table)


_WALL_T = _table("#")
_BOX_T = _table("$*")
_GOAL_T = _table(".*+")
_OPEN_T = _table(" \t-_$.@*+")   # a tab can only be a blank beside a row


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
    rows = [row for row in map(str.rstrip, rows) if row]
    lengths = list(map(len, rows))
    indent = min(map(int.__sub__, lengths, map(len, map(str.lstrip, rows))))
    width = max(lengths) - indent
    if indent:
        rows = [row[indent:] for row in rows]
    height = len(rows)
    stride = width + 1
    flat = "\n".join(map(str.ljust, rows, repeat(width)))
    player = flat.find("@")
    if player < 0:
        player = flat.find("+")
    if player < 0:
        raise NoPlayerError("the map has no player; expected one '@' (or '+' for a player on a goal)")
    if flat.count("@") + flat.count("+") > 1:
        cells = [divmod(i, stride) for i, c in enumerate(flat) if c in "@+"]
        raise MoreThanOnePlayerError(f"the map has {len(cells)} players, at (row, col) {', '.join(map(str, cells))}; "
                                     "expected one '@' or '+'")
    # int(text, 2) reads the first character as the highest bit: reverse once so bit i is flat[i].
    backwards = flat.encode("ascii")[::-1]
    boxes = int(backwards.translate(_BOX_T), 2)
    goals = int(backwards.translate(_GOAL_T), 2)
    if boxes.bit_count() != goals.bit_count():
        raise BoxGoalMismatchError(boxes.bit_count(), goals.bit_count())
    if not boxes:
        raise NoBoxError("the map has no box and no goal; expected at least one of each")
    passable = int(backwards.translate(_OPEN_T), 2)
    floor = RunFill(passable, stride, width).fill(1 << player)
    if floor & _border(width, height):
        leak = next(i for i in iter_bits(floor) if _on_border(i, width, height))
        row, col = divmod(leak, stride)
        raise OpenLevelError(f"the walls do not enclose the player: it can walk off the map at (row {row}, col {col})")
    return Level(width=width, height=height, walls=int(backwards.translate(_WALL_T), 2), floor=floor, boxes=boxes,
                 goals=goals, player=player, metadata=metadata, comments=comments)


@lru_cache(maxsize=512)
def _border(width: int, height: int) -> int:
    stride = width + 1
    first_col = ((1 << (stride * height)) - 1) // ((1 << stride) - 1)
    top = (1 << width) - 1
    return first_col | (first_col << (width - 1)) | top | (top << (stride * (height - 1)))


def _on_border(index: int, width: int, height: int) -> bool:
    row, col = divmod(index, width + 1)
    return row in (0, height - 1) or col in (0, width - 1)

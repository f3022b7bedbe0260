"""The handout's data types and constants (``quoridor-rules.md``), as frozen, hashable values.

Names follow Python conventions (``is_nan`` for ``isNan``, ``new_loc`` for ``myNewLoc``);
coordinates are the board's own: cells ``(x, y)`` 1..9 with y growing upwards, wall end
points on grid points 0..9.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

__all__ = [
    "SIZE", "BLOCK_SUM", "BLOCK_LEN", "PLAYER0_LOC", "PLAYER1_LOC", "GameStatus", "Location",
    "BlockBar", "Step", "ChessboardChange", "NO_LOCATION", "NO_WALL",
]

SIZE = 9
"""Cells per side of the board."""
BLOCK_SUM = 10
"""Walls each player starts with."""
BLOCK_LEN = 2
"""Length of a wall in cells."""
VIOLATIONS_TO_LOSE = 3
"""The violation that loses a game (handout rules 2 and 8): the 3rd."""
STEP_CAP = 100
"""Steps each player may make in a game (handout); violations count."""


class GameStatus(IntEnum):
    """The status codes of the rules page, with their exact wire values."""

    OK = 0
    WIN = 1
    LOST = 2
    TIMEOUT = 3
    ENEMY_CLOSED = 4
    RULES_BREAKER = 5
    INSUFFICIENT_BLOCK = 6
    INVALID_STEP = 7
    NONE = 2000

    @property
    def is_violation(self) -> bool:
        """True for the statuses that count as a violation (Timeout, InsufficientBlock, InvalidStep)."""
        return self in (GameStatus.TIMEOUT, GameStatus.INSUFFICIENT_BLOCK, GameStatus.INVALID_STEP)


class Location(NamedTuple):
    """A cell ``(x, y)``; ``(-1, -1)`` (the default) means no cell."""

    x: int = -1
    y: int = -1

    def is_valid(self) -> bool:
        """True when the cell lies on the 9x9 board."""
        return 1 <= self.x <= SIZE and 1 <= self.y <= SIZE

    def is_nan(self) -> bool:
        """True for the empty location ``(-1, -1)``."""
        return self.x == -1 and self.y == -1

    def distance(self, other: Location) -> int:
        """City-block distance to ``other`` (the handout's ``distance()``)."""
        return abs(self.x - other.x) + abs(self.y - other.y)

    def __str__(self) -> str:
        return f"({self.x},{self.y})"


NO_LOCATION = Location()


class BlockBar(NamedTuple):
    """A wall given by its two end points on the grid lines; ``((-1,-1),(-1,-1))`` means no wall."""

    start: Location = NO_LOCATION
    stop: Location = NO_LOCATION

    @classmethod
    def of(cls, x1: int, y1: int, x2: int, y2: int) -> BlockBar:
        """A wall from plain coordinates, e.g. ``BlockBar.of(4, 1, 6, 1)``."""
        return cls(Location(x1, y1), Location(x2, y2))

    def is_h(self) -> bool:
        """True for a horizontal wall of the right length (same y, x 2 apart)."""
        return self.start.y == self.stop.y and abs(self.start.x - self.stop.x) == BLOCK_LEN

    def is_v(self) -> bool:
        """True for a vertical wall of the right length (same x, y 2 apart)."""
        return self.start.x == self.stop.x and abs(self.start.y - self.stop.y) == BLOCK_LEN

    def is_nan(self) -> bool:
        """True when this is not a well-formed wall (neither horizontal nor vertical of length 2)."""
        return not (self.is_h() or self.is_v())

    def is_none(self) -> bool:
        """True for the empty wall (all coordinates -1), as sent when there is no wall."""
        return self.start.is_nan() and self.stop.is_nan()

    def normalized(self) -> BlockBar:
        """The same wall with the smaller end point first (the handout's ``normalization()``)."""
        return self if self.start <= self.stop else BlockBar(self.stop, self.start)

    def __str__(self) -> str:
        return f"({self.start},{self.stop})"


NO_WALL = BlockBar()


class Step(NamedTuple):
    """One player's answer for a turn: a target cell, or a wall, (both: a move), or neither."""

    new_loc: Location = NO_LOCATION
    new_wall: BlockBar = NO_WALL

    @classmethod
    def move(cls, x: int, y: int) -> Step:
        """A pawn move to ``(x, y)``."""
        return cls(Location(x, y), NO_WALL)

    @classmethod
    def wall(cls, x1: int, y1: int, x2: int, y2: int) -> Step:
        """A wall from ``(x1, y1)`` to ``(x2, y2)``."""
        return cls(NO_LOCATION, BlockBar.of(x1, y1, x2, y2))

    def is_move(self) -> bool:
        """True when the target cell is on the board: the step counts as a move (rule 5)."""
        return self.new_loc.is_valid()

    def is_nan(self) -> bool:
        """True when the step carries neither a cell nor a wall (a no-op, a violation)."""
        return self.new_loc.is_nan() and self.new_wall.is_none()

    def __str__(self) -> str:
        if self.is_move():
            return f"move to {self.new_loc}"
        if not self.new_wall.is_none():
            return f"wall {self.new_wall}"
        return "empty step" if self.is_nan() else f"move to {self.new_loc}"


class ChessboardChange(NamedTuple):
    """What a player is told each turn: its previous step's status, both pawns, the opponent's new wall."""

    status: GameStatus = GameStatus.OK
    my_loc: Location = NO_LOCATION
    enemy_loc: Location = NO_LOCATION
    new_enemy_wall: BlockBar = NO_WALL

    def is_finish(self) -> bool:
        """True when the game is over for the receiver (won or lost)."""
        return self.is_win() or self.is_lost()

    def is_win(self) -> bool:
        """True for Win or EnemyClosed."""
        return self.status in (GameStatus.WIN, GameStatus.ENEMY_CLOSED)

    def is_lost(self) -> bool:
        """True for Lost or RulesBreaker."""
        return self.status in (GameStatus.LOST, GameStatus.RULES_BREAKER)


PLAYER0_LOC = Location(5, 1)
"""Where player 0 starts (it moves first and aims for y = 9)."""
PLAYER1_LOC = Location(5, 9)
"""Where player 1 starts (it aims for y = 1)."""

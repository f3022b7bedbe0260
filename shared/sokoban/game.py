"""Playing a level: moves and pushes, undo and redo, counters, LURD text.

Standard Sokoban pushes one box: a box with another box (or a wall) behind it does not move.
``Game(level, push_rows=True)`` is the variant of the ECS tutorial (seed ``001``), where the
player pushes a whole row of boxes when the cell after the row is free.
"""

from __future__ import annotations

from typing import NamedTuple

from shared.grid import Direction, Pos

from .errors import LurdError
from .level import Level

__all__ = ["Game", "Step", "parse_lurd", "LURD_LETTERS"]

#: The letters of LURD text: moves in lower case, pushes in upper case.
LURD_LETTERS = frozenset("lurdLURD")


class Step(NamedTuple):
    """One played step: its direction and how many boxes it pushed (0 for a plain move)."""

    direction: Direction
    pushed: int = 0

    @property
    def letter(self) -> str:
        """The LURD letter: upper case for a push."""
        letter = self.direction.letter
        return letter.upper() if self.pushed else letter


def parse_lurd(text: str) -> list[tuple[Direction, bool]]:
    """``(direction, is_push)`` for each letter of LURD text (blanks ignored); ``LurdError`` names a bad letter."""
    steps = []
    for index, char in enumerate("".join(text.split())):
        if char not in LURD_LETTERS:
            raise LurdError(f"{char!r} at position {index} of the answer is not a LURD letter; "
                            "expected l u r d for moves and L U R D for pushes")
        steps.append((Direction(char.lower()), char.isupper()))
    return steps


class Game:
    """A level in play: the player's cell, the boxes, the steps played and the steps undone."""

    def __init__(self, level: Level, *, push_rows: bool = False) -> None:
        self.level = level
        self.push_rows = push_rows
        self._offsets = {Direction.UP: -level.stride, Direction.DOWN: level.stride,
                         Direction.LEFT: -1, Direction.RIGHT: 1}
        self.reset()

    def reset(self) -> None:
        """Back to the level's start; clears the history (and what was undone)."""
        self.player = self.level.player
        self.boxes = self.level.boxes
        self.history: list[Step] = []
        self.undone: list[Step] = []

    # -- playing ----------------------------------------------------------------------
    def can_move(self, direction: Direction) -> int | None:
        """How many boxes a step in ``direction`` would push (0 for a move), or ``None`` when blocked."""
        offset = self._offsets[direction]
        floor, boxes = self.level.floor, self.boxes
        cell = self.player + offset
        if not floor >> cell & 1:
            return None
        pushed = 0
        while boxes >> cell & 1:
            pushed += 1
            cell += offset
            if not floor >> cell & 1 or (boxes >> cell & 1 and not self.push_rows):
                return None
        return pushed

    def move(self, direction: Direction) -> Step | None:
        """Step (pushing when a box is in the way); returns the step, or ``None`` when blocked (nothing changes)."""
        pushed = self.can_move(direction)
        if pushed is None:
            return None
        step = Step(direction, pushed)
        self._apply(step)
        self.history.append(step)
        self.undone.clear()
        return step

    def _apply(self, step: Step) -> None:
        offset = self._offsets[step.direction]
        self.player += offset
        if step.pushed:
            # The row of boxes from the player's new cell shifts by one: the first leaves, one past the last arrives.
            self.boxes ^= (1 << self.player) | (1 << (self.player + offset * step.pushed))

    def undo(self) -> Step | None:
        """Take back the last step (pulling back what it pushed); ``None`` when there is nothing to undo."""
        if not self.history:
            return None
        step = self.history.pop()
        offset = self._offsets[step.direction]
        if step.pushed:
            self.boxes ^= (1 << self.player) | (1 << (self.player + offset * step.pushed))
        self.player -= offset
        self.undone.append(step)
        return step

    def redo(self) -> Step | None:
        """Play again the last undone step; ``None`` when there is nothing to redo."""
        if not self.undone:
            return None
        step = self.undone.pop()
        self._apply(step)
        self.history.append(step)
        return step

    # -- state ------------------------------------------------------------------------
    @property
    def moves(self) -> int:
        """Steps played (pushes included)."""
        return len(self.history)

    @property
    def pushes(self) -> int:
        """Steps that pushed a box."""
        return sum(1 for step in self.history if step.pushed)

    @property
    def solved(self) -> bool:
        """True when every box stands on a goal."""
        return self.boxes == self.level.goals

    @property
    def lurd(self) -> str:
        """The steps played, as LURD text."""
        return "".join(step.letter for step in self.history)

    @property
    def player_pos(self) -> Pos:
        """The player's cell."""
        return self.level.pos(self.player)

    @property
    def box_positions(self) -> frozenset[Pos]:
        """The boxes' cells."""
        return frozenset(self.level.positions(self.boxes))

    def render(self) -> str:
        """The current position as XSB rows."""
        return self.level.render(self.player, self.boxes)

    def __repr__(self) -> str:
        return f"<Game moves={self.moves} pushes={self.pushes} solved={self.solved}>"

"""The verdict on a step: ``Cause`` (a stable code per reason), ``Judgement`` and ``StepVerdict``.

``Position.judge`` returns a ``Judgement``: the status a step earns, a reason for people and,
for an illegal step, its ``Cause``: one stable, machine-readable code per distinct reason (the
reason's text may be reworded, the code never is). The referee adds the one cause the rules
cannot see, ``late``, and tells each player the verdict on its previous violating step as a
``StepVerdict`` (the wire's ``judgement``, ``docs/protocol.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from .types import GameStatus

__all__ = ["Cause", "Judgement", "StepVerdict"]


class Cause(StrEnum):
    """Why a step was a violation: a stable code (the values are the protocol's and the logs')."""

    # -- a move (InvalidStep)
    NOT_REACHABLE = "not_reachable"              #: the cell is not one step (or a straight jump) away
    OWN_CELL = "own_cell"                        #: the pawn already stands on the cell
    OCCUPIED = "occupied"                        #: the other pawn stands on the cell
    WALL_BLOCKS_MOVE = "wall_blocks_move"        #: a wall lies between the pawn and the adjacent cell
    DIAGONAL_NOT_ALLOWED = "diagonal_not_allowed"  #: a diagonal side-step, which the ruleset forbids
    CANNOT_JUMP = "cannot_jump"                  #: a jump over the other pawn that a wall or the edge blocks
    OFF_BOARD = "off_board"                      #: the target cell is not on the board (and no wall was given)
    EMPTY_STEP = "empty_step"                    #: neither a move nor a wall
    # -- a wall (InvalidStep, or InsufficientBlock)
    WALL_SHAPE = "wall_shape"                    #: not a straight wall of length 2
    WALL_OFF_BOARD = "wall_off_board"            #: the wall lies outside the board
    WALL_ON_BORDER = "wall_on_border"            #: the wall lies on the board's border
    WALL_EXISTS = "wall_exists"                  #: exactly this wall is already placed
    WALL_OVERLAPS = "wall_overlaps"              #: it overlaps a placed wall of the same orientation
    WALL_CROSSES = "wall_crosses"                #: it crosses a placed wall, which the ruleset forbids
    WALL_SEALS_PAWN = "wall_seals_pawn"          #: it leaves a pawn no path to its goal row
    NO_WALLS_LEFT = "no_walls_left"              #: the player has placed all its walls (InsufficientBlock)
    # -- the referee's own (Timeout)
    LATE = "late"                                #: the answer came at or after the time limit, or never


class Judgement(NamedTuple):
    """The rules' verdict on a step: its status (Ok, InvalidStep, InsufficientBlock), a reason for
    people and the ``Cause`` of an illegal step (``None`` when the step is legal)."""

    status: GameStatus
    reason: str = ""
    cause: Cause | None = None

    @property
    def ok(self) -> bool:
        """True when the step is legal."""
        return self.status is GameStatus.OK


@dataclass(frozen=True, slots=True)
class StepVerdict:
    """How the referee judged a player's step that did not stand: what the player is told next.

    ``status`` is the violation's GameStatus (Timeout, InsufficientBlock or InvalidStep, also for
    the 3rd violation that the log records as RulesBreaker), ``cause`` its stable code, ``reason``
    the sentence for people (for a late step: how late) and ``thinking_ms`` the thinking time the
    referee charged for it. Read from a newer server, ``cause`` may be a code this version does
    not know: it is then the plain string.
    """

    status: GameStatus
    cause: Cause | str
    reason: str
    thinking_ms: int

    @property
    def late(self) -> bool:
        """True when the step was a timeout (it came at or after the time limit, or never)."""
        return self.cause == Cause.LATE

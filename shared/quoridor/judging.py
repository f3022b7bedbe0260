"""Judging a step: the status and reason it earns in a position (``Position.judge``), and why a wall
cannot stand on a board (``wall_shape_problem``, also ``Position.setup``'s check)."""

from __future__ import annotations

from typing import Protocol

from .geometry import GOAL_ROWS, H_SLOTS, V_SLOTS, cell_index, slot_wall, wall_slot
from .judgement import Cause, Judgement
from .notation import square, wall_name
from .rulesets import Ruleset
from .types import BLOCK_SUM, BlockBar, GameStatus, Location, Step
from .walls import closing, reaches

__all__ = ["Judged", "judge_step", "wall_shape_problem"]


class Judged(Protocol):
    """What judging reads of a position: ``Position`` (not imported here, which imports this module)."""

    turn: int
    pawns: tuple[int, int]
    ruleset: Ruleset
    walls_left: tuple[int, int]
    h_walls: int
    v_walls: int
    free_h: int
    free_v: int
    components: tuple[int, ...]
    open: tuple[int, int, int, int]

    def pawn(self, player: int) -> Location:
        """Where ``player``'s pawn stands."""

    def move_targets(self) -> list[int]:
        """The cells the side to move may move its pawn to."""


_OK = Judgement(GameStatus.OK, "")


def _invalid(cause: Cause, reason: str) -> Judgement:
    """An InvalidStep judgement."""
    return Judgement(GameStatus.INVALID_STEP, reason, cause)


def judge_step(pos: Judged, step: Step) -> Judgement:
    """The status ``step`` earns for the side to move: Ok, InvalidStep or InsufficientBlock, with a
    reason for people and, when it is illegal, the ``Cause`` (one stable code per reason)."""
    if step.is_move():
        return _judge_move(pos, step.new_loc)
    if not step.new_wall.is_none():
        return _judge_wall(pos, step.new_wall)
    if step.is_nan():
        return Judgement(GameStatus.INVALID_STEP, "empty step: neither a move nor a wall", Cause.EMPTY_STEP)
    return Judgement(GameStatus.INVALID_STEP, f"move target {step.new_loc} is off the board", Cause.OFF_BOARD)


def _judge_move(pos: Judged, loc: Location) -> Judgement:
    """``judge_step`` for a move to ``loc``."""
    target = cell_index(*loc)
    if target in pos.move_targets():
        return _OK
    me, other = pos.pawn(pos.turn), pos.pawn(1 - pos.turn)
    name = square(loc)
    if loc == me:
        reason, cause = f"your pawn already stands on {name}", Cause.OWN_CELL
    elif loc == other:
        reason, cause = f"{name} is occupied by the other pawn", Cause.OCCUPIED
    elif me.distance(loc) == 1:
        reason, cause = f"a wall blocks the move from {square(me)} to {name}", Cause.WALL_BLOCKS_MOVE
    elif abs(me.x - loc.x) == 1 and abs(me.y - loc.y) == 1 and not pos.ruleset.diagonal_moves:
        reason = f"diagonal moves are not allowed in the {pos.ruleset.name} rules ({square(me)} to {name})"
        cause = Cause.DIAGONAL_NOT_ALLOWED
    elif other.distance(loc) == 1 and me.distance(other) == 1:
        reason = f"cannot jump from {square(me)} to {name} over the pawn on {square(other)}"
        cause = Cause.CANNOT_JUMP
    else:
        reason, cause = f"{name} is not reachable in one step from {square(me)}", Cause.NOT_REACHABLE
    return Judgement(GameStatus.INVALID_STEP, reason, cause)


def wall_shape_problem(pos: Judged, wall: BlockBar) -> Judgement | None:
    """Why ``wall`` cannot stand on this board (shape, bounds, overlap, crossing), or ``None``."""
    if wall.is_nan():
        return _invalid(Cause.WALL_SHAPE, f"wall {wall} is not a straight wall of length 2")
    slot = wall_slot(wall)
    if slot is None:
        return _invalid(Cause.WALL_OFF_BOARD, f"wall {wall} lies outside the board")
    horizontal, p = slot
    if not (H_SLOTS if horizontal else V_SLOTS) >> p & 1:
        return _invalid(Cause.WALL_ON_BORDER, f"wall {wall} lies on the board's border")
    if (pos.free_h if horizontal else pos.free_v) >> p & 1:
        return None
    name = wall_name(wall)
    mine = pos.h_walls if horizontal else pos.v_walls
    for q in (p, p - 1, p + 1) if horizontal else (p, p - 10, p + 10):
        if q >= 0 and mine >> q & 1:
            if q == p:
                return _invalid(Cause.WALL_EXISTS, f"wall {name} is already placed")
            return _invalid(Cause.WALL_OVERLAPS, f"wall {name} overlaps {wall_name(slot_wall(horizontal, q))}")
    crossing = slot_wall(not horizontal, p - 9 if horizontal else p + 9)
    return _invalid(Cause.WALL_CROSSES, f"wall {name} crosses {wall_name(crossing)} "
                                        f"(not allowed in the {pos.ruleset.name} rules)")


def _judge_wall(pos: Judged, wall: BlockBar) -> Judgement:
    """``judge_step`` for a wall."""
    if not pos.walls_left[pos.turn]:
        return Judgement(GameStatus.INSUFFICIENT_BLOCK, f"no walls left (each player has {BLOCK_SUM})",
                         Cause.NO_WALLS_LEFT)
    problem = wall_shape_problem(pos, wall)
    if problem is not None:
        return problem
    horizontal, p = wall_slot(wall)  # type: ignore[misc]
    need_h, need_v = closing(pos.components, 1 << p if horizontal else 0, 0 if horizontal else 1 << p)
    if not (need_h or need_v):
        return _OK
    up, down, left, right = pos.open
    if horizontal:
        up, down = up & ~(3 << (p - 10)), down & ~(3 << p)
    else:
        right, left = right & ~(0x401 << (p - 1)), left & ~(0x401 << p)
    for player in (0, 1):
        if not reaches(1 << pos.pawns[player], GOAL_ROWS[player], up, down, left, right):
            who = "your pawn" if player == pos.turn else "the other pawn"
            return _invalid(Cause.WALL_SEALS_PAWN,
                            f"wall {wall_name(wall)} leaves {who} (player {player}) no path to its goal row")
    return _OK

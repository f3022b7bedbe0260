"""Every reason ``Position.judge`` gives has its own stable ``Cause`` code, and ``Judgement`` keeps its old shape."""

import pytest

from shared.quoridor import (
    STANDARD, BlockBar, Cause, GameStatus, Judgement, Location, Position, Step, StepVerdict, parse_position,
    parse_step,
)

SEALED = Position.setup((Location(5, 1), Location(1, 9)), [BlockBar.of(2, 7, 2, 9)], walls_left=(9, 10))

#: One illegal step per cause: the position (one-line form, or a Position), the step, the reason it earns.
CASES = {
    Cause.NOT_REACHABLE: ("e1 e9 0 10 10 -", "a5", "a5 is not reachable in one step from e1"),
    Cause.OWN_CELL: ("e1 e9 0 10 10 -", "e1", "your pawn already stands on e1"),
    Cause.OCCUPIED: ("e1 e2 0 10 10 -", "e2", "e2 is occupied by the other pawn"),
    Cause.WALL_BLOCKS_MOVE: ("e1 e9 0 10 9 e1h", "e2", "a wall blocks the move from e1 to e2"),
    Cause.DIAGONAL_NOT_ALLOWED: ("e1 e9 0 10 10 -", "d2",
                                 "diagonal moves are not allowed in the course rules (e1 to d2)"),
    Cause.CANNOT_JUMP: ("e1 e2 0 10 9 e2h", "e3", "cannot jump from e1 to e3 over the pawn on e2"),
    Cause.OFF_BOARD: ("e1 e9 0 10 10 -", Step(Location(10, 5)), "move target (10,5) is off the board"),
    Cause.EMPTY_STEP: ("e1 e9 0 10 10 -", Step(), "empty step: neither a move nor a wall"),
    Cause.WALL_SHAPE: ("e1 e9 0 10 10 -", Step.wall(0, 1, 3, 1),
                       "wall ((0,1),(3,1)) is not a straight wall of length 2"),
    Cause.WALL_OFF_BOARD: ("e1 e9 0 10 10 -", Step.wall(-1, 1, 1, 1), "wall ((-1,1),(1,1)) lies outside the board"),
    Cause.WALL_ON_BORDER: ("e1 e9 0 10 10 -", Step.wall(0, 0, 2, 0), "wall ((0,0),(2,0)) lies on the board's border"),
    Cause.WALL_EXISTS: ("e1 e9 0 10 9 e4h", "e4h", "wall e4h is already placed"),
    Cause.WALL_OVERLAPS: ("e1 e9 0 10 9 d4h", "e4h", "wall e4h overlaps d4h"),
    Cause.WALL_CROSSES: ("e1 e9 0 10 9 e4h standard", "e4v",
                         "wall e4v crosses e4h (not allowed in the standard rules)"),
    Cause.WALL_SEALS_PAWN: (SEALED, Step.wall(0, 8, 2, 8),
                            "wall a8h leaves the other pawn (player 1) no path to its goal row"),
    Cause.NO_WALLS_LEFT: ("e1 e9 0 0 10 -", "e4h", "no walls left (each player has 10)"),
}


def test_every_cause_but_late_is_one_the_rules_give():
    assert set(CASES) == set(Cause) - {Cause.LATE}
    assert len({cause.value for cause in Cause}) == len(Cause)


@pytest.mark.parametrize("cause", list(CASES), ids=str)
def test_each_reason_has_its_cause(cause):
    where, step, reason = CASES[cause]
    pos = where if isinstance(where, Position) else parse_position(where)
    judgement = pos.judge(parse_step(step) if isinstance(step, str) else step)
    expected = GameStatus.INSUFFICIENT_BLOCK if cause is Cause.NO_WALLS_LEFT else GameStatus.INVALID_STEP
    assert judgement == Judgement(expected, reason, cause)
    assert not judgement.ok


def test_a_legal_step_has_no_cause():
    assert Position.initial().judge(parse_step("e2")) == Judgement(GameStatus.OK, "", None)


def test_judgement_keeps_status_and_reason_first():
    status, reason, cause = Judgement(GameStatus.INVALID_STEP, "why")
    assert (status, reason, cause) == (GameStatus.INVALID_STEP, "why", None)
    assert Judgement(GameStatus.OK).ok and Position.initial().judge(Step()).reason.startswith("empty step")


def test_cause_values_are_the_wire_codes():
    assert Cause.NOT_REACHABLE == "not_reachable" and str(Cause.LATE) == "late"
    assert Cause("wall_seals_pawn") is Cause.WALL_SEALS_PAWN


def test_a_step_verdict_knows_a_late_step():
    late = StepVerdict(GameStatus.TIMEOUT, Cause.LATE, "answered after 1,203 ms; the limit is 1,000 ms", 1203)
    assert late.late and not StepVerdict(GameStatus.INVALID_STEP, Cause.EMPTY_STEP, "", 5).late
    assert StepVerdict(GameStatus.TIMEOUT, "late", "", 5).late        # a code read from the wire as a string

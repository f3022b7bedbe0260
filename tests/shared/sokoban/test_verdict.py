"""Verdicts: replaying LURD answers from the start, with where and why an answer fails."""

from __future__ import annotations

import pytest

from shared.sokoban import LurdError, judge, parse_level

LEVEL = parse_level("#######\n#@ $ .#\n#######")


def test_a_solving_answer():
    verdict = judge(LEVEL, "rRR")
    assert (verdict.valid, verdict.solved, verdict.moves, verdict.pushes) == (True, True, 3, 2)
    assert verdict.failed_at is None and verdict.reason is None


def test_a_valid_answer_that_does_not_solve():
    verdict = judge(LEVEL, "rR")
    assert verdict.valid and not verdict.solved and verdict.reason == "1 of 1 boxes are not on a goal at the end"


def test_walking_into_a_wall_fails_at_that_step():
    verdict = judge(LEVEL, "rRRR")
    assert not verdict.valid and verdict.failed_at == 3 and "wall" in verdict.reason
    assert (verdict.moves, verdict.pushes) == (3, 2)


def test_letter_case_must_match_what_happens():
    assert judge(LEVEL, "rr").failed_at == 1          # a move into a box must be written R
    assert "walks into a box" in judge(LEVEL, "rr").reason
    assert judge(LEVEL, "R").failed_at == 0           # a push with nothing to push
    assert "should push" in judge(LEVEL, "R").reason


def test_a_box_that_cannot_move():
    level = parse_level("########\n#@$$ ..#\n########")
    verdict = judge(level, "R")
    assert verdict.failed_at == 0 and "cannot move" in verdict.reason


def test_blanks_are_ignored_and_other_letters_raise():
    assert judge(LEVEL, " r R\nR ").solved
    with pytest.raises(LurdError):
        judge(LEVEL, "rRX")


def test_the_empty_answer_is_valid_but_unsolved():
    verdict = judge(LEVEL, "")
    assert verdict.valid and not verdict.solved and verdict.moves == 0

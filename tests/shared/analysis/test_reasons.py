"""The plain reason beside a labelled step (``step_reason``): facts of the board a student can check."""

from __future__ import annotations

import pytest

from shared.analysis.reasons import step_reason
from shared.quoridor import parse_position, parse_step


def reason(position: str, played: str, best: str | None, chances: tuple[float, float] = (0.1, -0.3)) -> str:
    pos, step = parse_position(position), parse_step(played)
    return step_reason(pos, step, pos.apply(step), parse_step(best) if best else None, chances)


@pytest.mark.parametrize("position, played, best, expected", [
    ("e8 e2 0 10 10 -", "d8", "e9", "e9 reached the goal row at once; this step did not"),
    # B has no walls left: A, to move, wins the pure race 2 against 2 and a sideways step hands it over.
    ("e7 a3 0 10 0 -", "d7", "e8", "the race was won in 2; this step walked away"),
    # A decided race (3 against 4, A to move) no longer decided after a sideways step.
    ("e6 a5 0 10 0 -", "d6", "e7", "the race was won in 3; this step walked away"),
    ("e1 e9 0 10 10 -", "a8h", "e2", "this wall lengthened neither path"),
    ("e1 e9 0 10 10 -", "e8h", "e2", "this wall lengthened both paths by 1 step"),
    ("e1 a9 0 10 10 -", "a8h", "e2",
     "after this wall the opponent's path grew by 2 steps, at the cost of a wall (9 left against the opponent's 10)"),
    ("e1 a9 0 10 10 -", "e2", "a8h", "the wall a8h would have lengthened the opponent's path by 2 steps"),
    ("e5 e3 0 10 10 -", "d5", "e6", "this move did not shorten its own path (4 steps to go)"),
    ("e5 e3 0 10 10 -", "e4", "e6", "this move lengthened its own path from 4 to 5 steps"),
    ("e5 e2 0 0 10 -", "e6", "e4h", "after this step the opponent reaches its goal row with its next step"),
])
def test_reasons(position: str, played: str, best: str, expected: str) -> None:
    assert reason(position, played, best) == expected


def test_a_step_the_board_does_not_explain_gets_the_engines_step_and_both_chances() -> None:
    # e5 shortens A's path and e8h, above B, lengthens nothing: no fact of the board tells them apart.
    assert reason("e4 e7 0 10 10 -", "e5", "e8h", (0.2, -0.05)) == \
        "the engine's step e8h kept a winning chance of +0.20; after this step it is -0.05"

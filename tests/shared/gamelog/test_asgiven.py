"""Drawing a row as the log gives it (the old viewer's way): what is drawn, what is listed, what cannot be drawn."""

import re

import pytest

from shared.gamelog import DRAWN, Undrawable, draw_as_given
from shared.quoridor import BlockBar, GameStatus, Location, Position, Step, parse_wall

S = GameStatus
START = Position.initial()


@pytest.mark.parametrize("status", sorted(DRAWN))
def test_drawn_statuses_put_the_step_on_the_board_unchecked(status):
    # e1 to e5 is no legal move, and it is not even seat 0's turn: drawn anyway.
    after = draw_as_given(START.pass_turn(), 0, Step.move(5, 5), status)
    assert after.pawn(0) == Location(5, 5) and after.pawn(1) == Location(5, 9) and after.turn == 1


@pytest.mark.parametrize("status", [S.TIMEOUT, S.INVALID_STEP, S.INSUFFICIENT_BLOCK, S.RULES_BREAKER])
def test_violations_are_listed_without_changing_the_board(status):
    after = draw_as_given(START, 0, Step.move(5, 2), status)
    assert after.pawns == START.pawns and after.walls == [] and after.turn == 1


def test_walls_are_drawn_even_where_the_rules_refuse_them():
    one = draw_as_given(START, 1, Step.wall(4, 7, 6, 7), S.OK)
    assert one.walls == [parse_wall("e7h")] and one.walls_left == (10, 9) and one.turn == 0
    overlapping = draw_as_given(one, 0, Step.wall(5, 7, 7, 7), S.OK)      # overlaps e7h: the rules refuse it
    assert len(overlapping.walls) == 2 and overlapping.walls_left == (9, 9)
    again = draw_as_given(overlapping, 1, Step.wall(6, 7, 4, 7), S.OK)     # e7h once more: nothing changes
    assert again.walls == overlapping.walls and again.walls_left == (9, 9) and again.turn == 0
    both = draw_as_given(START, 0, Step(Location(5, 2), BlockBar.of(4, 1, 6, 1)), S.OK)   # a cell and a wall: the move
    assert both.pawn(0) == Location(5, 2) and both.walls == []


def test_an_empty_step_changes_nothing():
    after = draw_as_given(START, 0, Step(), S.OK)
    assert after.pawns == START.pawns and after.turn == 1


@pytest.mark.parametrize("step, reason", [
    (Step.move(0, 12), "move target (0,12) is off the board"),
    (Step.wall(4, 7, 7, 7), "not a straight wall of length 2"),
    (Step.wall(8, 1, 10, 1), "outside the board"),
    (Step.move(5, 9), "where the other pawn stands"),
])
def test_rows_that_cannot_be_drawn_say_why(step, reason):
    with pytest.raises(Undrawable, match=re.escape(reason)):
        draw_as_given(START, 0, step, S.OK)

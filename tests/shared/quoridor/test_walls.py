"""Wall rules of quoridor-rules.md, one test per rule or example."""

import pytest

from shared.quoridor import (
    COURSE, STANDARD, BlockBar, GameStatus, IllegalStepError, Location, Position, Step, parse_step,
)


def wall(x1: int, y1: int, x2: int, y2: int) -> Step:
    return Step.wall(x1, y1, x2, y2)


def test_example_horizontal_wall_lies_above_and_below_the_named_cells():
    pos = Position.initial().play(wall(4, 1, 6, 1))
    for x in (5, 6):
        assert not pos.can_move(Location(x, 1), Location(x, 2))
        assert not pos.can_move(Location(x, 2), Location(x, 1))
    assert pos.can_move(Location(4, 1), Location(4, 2))
    assert pos.can_move(Location(7, 1), Location(7, 2))


def test_example_vertical_wall_lies_between_columns_5_and_6_beside_rows_1_and_2():
    pos = Position.initial().play(wall(5, 0, 5, 2))
    for y in (1, 2):
        assert not pos.can_move(Location(5, y), Location(6, y))
        assert not pos.can_move(Location(6, y), Location(5, y))
    assert pos.can_move(Location(5, 3), Location(6, 3))


@pytest.mark.parametrize("bad", [(0, 0, 2, 0), (3, 9, 5, 9), (0, 0, 0, 2), (9, 3, 9, 5)])
def test_walls_on_the_border_are_illegal(bad):
    judgement = Position.initial().judge(wall(*bad))
    assert judgement.status is GameStatus.INVALID_STEP
    assert "border" in judgement.reason


@pytest.mark.parametrize("bad", [(8, 1, 10, 1), (-1, 1, 1, 1), (1, 8, 1, 10)])
def test_walls_outside_the_board_are_illegal(bad):
    assert Position.initial().judge(wall(*bad)).status is GameStatus.INVALID_STEP


@pytest.mark.parametrize("bad", [(4, 1, 5, 1), (4, 1, 7, 1), (4, 1, 6, 3), (4, 1, 4, 1)])
def test_walls_of_the_wrong_shape_are_illegal(bad):
    judgement = Position.initial().judge(wall(*bad))
    assert judgement.status is GameStatus.INVALID_STEP
    assert "length 2" in judgement.reason


def test_reversed_end_points_are_accepted_and_normalised():
    forward = Position.initial().play(wall(4, 1, 6, 1))
    backward = Position.initial().play(wall(6, 1, 4, 1))
    assert forward == backward
    assert backward.walls == [BlockBar.of(4, 1, 6, 1)]


@pytest.mark.parametrize("other", [(3, 1, 5, 1), (5, 1, 7, 1), (4, 1, 6, 1), (6, 1, 4, 1)])
def test_overlapping_walls_are_illegal(other):
    pos = Position.initial().play(wall(4, 1, 6, 1)).play(parse_step("e8"))
    judgement = pos.judge(wall(*other))
    assert judgement.status is GameStatus.INVALID_STEP
    assert "e1h" in judgement.reason


def test_overlap_reason_names_the_wall_in_notation():
    pos = Position.initial().play(parse_step("e3h")).play(parse_step("e8"))
    assert pos.judge(parse_step("d3h")).reason == "wall d3h overlaps e3h"
    assert pos.judge(parse_step("e3h")).reason == "wall e3h is already placed"


def test_walls_touching_end_to_end_are_legal():
    pos = Position.initial().play(wall(4, 1, 6, 1)).play(parse_step("e8"))
    assert pos.judge(wall(6, 1, 8, 1)).ok
    assert pos.judge(wall(2, 1, 4, 1)).ok


def test_crossing_walls_are_legal_in_course_rules():
    pos = Position.initial(COURSE).play(wall(4, 1, 6, 1)).play(parse_step("e8"))
    assert pos.judge(wall(5, 0, 5, 2)).ok


def test_crossing_walls_are_illegal_in_standard_rules():
    pos = Position.initial(STANDARD).play(wall(4, 1, 6, 1)).play(parse_step("e8"))
    judgement = pos.judge(wall(5, 0, 5, 2))
    assert judgement.status is GameStatus.INVALID_STEP
    assert "crosses e1h" in judgement.reason
    # A vertical wall beside the horizontal one (sharing no mid point) stays legal.
    assert pos.judge(wall(6, 0, 6, 2)).ok


def test_the_eleventh_wall_is_refused_with_insufficient_block():
    pos = Position.initial()
    rows = [1, 3, 5, 7]
    walls = [(x, y, x + 2, y) for y in rows for x in (0, 3, 6)][:10]   # ten walls for player 0
    for w in walls:
        pos = pos.play(wall(*w))
        pos = pos.play(parse_step("e8") if pos.pawn(1) == Location(5, 9) else parse_step("e9"))
    assert pos.walls_left == (0, 10)
    judgement = pos.judge(wall(0, 8, 2, 8))
    assert judgement.status is GameStatus.INSUFFICIENT_BLOCK
    assert all(step.is_move() for step in pos.legal_steps())
    assert pos.legal_walls() == []


def test_a_wall_sealing_the_opponent_is_illegal():
    # Player 1 on a9 with a wall right of b9 and b8 (b8v): a wall under a9 and b9 (a8h) seals it in.
    pos = Position.setup((Location(5, 1), Location(1, 9)), [BlockBar.of(2, 7, 2, 9)], walls_left=(9, 10))
    assert pos.judge(parse_step("a3v")).ok   # a harmless wall far away
    judgement = pos.judge(Step(new_wall=BlockBar.of(0, 8, 2, 8)))
    assert judgement.status is GameStatus.INVALID_STEP
    assert "the other pawn (player 1) no path" in judgement.reason


def test_a_wall_sealing_the_movers_own_pawn_is_illegal():
    pos = Position.setup((Location(1, 1), Location(5, 9)), [BlockBar.of(2, 0, 2, 2)], walls_left=(9, 10))
    judgement = pos.judge(Step(new_wall=BlockBar.of(0, 2, 2, 2)))
    assert judgement.status is GameStatus.INVALID_STEP
    assert "your pawn (player 0) no path" in judgement.reason
    assert BlockBar.of(0, 2, 2, 2) not in pos.legal_walls()


def test_pawns_do_not_block_paths():
    # Player 0 on e8 stands in the only gap of a row of walls; player 1's path runs through it.
    walls = [BlockBar.of(0, 7, 2, 7), BlockBar.of(2, 7, 4, 7), BlockBar.of(5, 7, 7, 7), BlockBar.of(7, 7, 9, 7)]
    pos = Position.setup((Location(5, 8), Location(5, 9)), walls, walls_left=(8, 8), turn=1)
    assert pos.distance(1) == 8
    assert pos.judge(parse_step("a3h")).ok


def test_illegal_step_error_carries_the_judgement():
    pos = Position.initial()
    with pytest.raises(IllegalStepError) as info:
        pos.play(wall(0, 0, 2, 0))
    assert info.value.judgement.status is GameStatus.INVALID_STEP
    assert isinstance(info.value, ValueError)

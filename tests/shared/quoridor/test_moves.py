"""Pawn-move rules of quoridor-rules.md: steps, straight jumps, diagonals per ruleset, the turn order."""

import pytest

from shared.quoridor import COURSE, STANDARD, BlockBar, GameStatus, Location, Position, Step, parse_square


def squares(pos: Position) -> set[str]:
    from shared.quoridor import square
    return {square(loc) for loc in pos.legal_moves()}


def at(p0: str, p1: str, walls=(), turn=0, ruleset=COURSE) -> Position:
    return Position.setup((parse_square(p0), parse_square(p1)), walls, turn=turn, ruleset=ruleset)


def test_start_position():
    pos = Position.initial()
    assert pos.pawn(0) == Location(5, 1) and pos.pawn(1) == Location(5, 9)
    assert pos.turn == 0 and pos.walls_left == (10, 10)
    assert squares(pos) == {"d1", "f1", "e2"}


def test_player_1_moves_second_from_e9():
    pos = Position.initial().play(Step.move(5, 2))
    assert pos.turn == 1
    assert squares(pos) == {"d9", "f9", "e8"}


def test_a_move_goes_one_cell_not_two_and_not_diagonally_when_free():
    pos = Position.initial()
    assert pos.judge(Step.move(5, 3)).status is GameStatus.INVALID_STEP
    assert pos.judge(Step.move(6, 2)).status is GameStatus.INVALID_STEP
    assert "diagonal" in pos.judge(Step.move(6, 2)).reason


def test_a_move_may_not_cross_a_wall():
    pos = at("e1", "e9", [BlockBar.of(4, 1, 6, 1)])
    assert "e2" not in squares(pos)
    assert "a wall blocks" in pos.judge(Step.move(5, 2)).reason


def test_a_move_may_not_land_on_the_other_pawn_or_stay():
    pos = at("e4", "e5", [BlockBar.of(4, 5, 6, 5)])    # wall behind e5: no jump
    assert "e5" not in squares(pos)
    assert "occupied" in pos.judge(Step.move(5, 5)).reason
    assert "already stands" in pos.judge(Step.move(5, 4)).reason


def test_straight_jump_over_an_adjacent_pawn():
    assert squares(at("e4", "e5")) == {"d4", "f4", "e3", "e6"}
    assert squares(at("e5", "e4", turn=1)) == {"d4", "f4", "e3", "e6"}   # player 1 on e4 jumps up
    assert squares(at("d5", "e5")) == {"d4", "d6", "c5", "f5"}


def test_no_jump_over_a_wall_between_the_pawns():
    assert squares(at("e4", "e5", [BlockBar.of(4, 4, 6, 4)])) == {"d4", "f4", "e3"}


def test_no_jump_when_a_wall_is_behind_the_other_pawn():
    assert squares(at("e4", "e5", [BlockBar.of(4, 5, 6, 5)])) == {"d4", "f4", "e3"}


def test_no_jump_off_the_board():
    assert squares(at("e8", "e9")) == {"d8", "f8", "e7"}
    assert squares(at("b5", "a5")) == {"b4", "b6", "c5"}


def test_no_diagonal_side_steps_in_course_rules():
    pos = at("e4", "e5", [BlockBar.of(4, 5, 6, 5)], ruleset=COURSE)
    assert "d5" not in squares(pos) and "f5" not in squares(pos)
    assert "diagonal" in pos.judge(Step.move(4, 5)).reason


def test_diagonal_side_steps_in_standard_rules_when_a_wall_is_behind():
    pos = at("e4", "e5", [BlockBar.of(4, 5, 6, 5)], ruleset=STANDARD)
    assert squares(pos) == {"d4", "f4", "e3", "d5", "f5"}


def test_diagonal_side_steps_in_standard_rules_when_the_edge_is_behind():
    assert squares(at("e8", "e9", ruleset=STANDARD)) == {"d8", "f8", "e7", "d9", "f9"}


def test_no_diagonal_side_steps_in_standard_rules_when_the_jump_is_free():
    assert squares(at("e4", "e5", ruleset=STANDARD)) == {"d4", "f4", "e3", "e6"}


def test_diagonal_side_step_blocked_by_a_wall_beside_the_other_pawn():
    walls = [BlockBar.of(4, 5, 6, 5), BlockBar.of(4, 4, 4, 6)]   # behind e5, and left of e5 and e6
    assert squares(at("e4", "e5", walls, ruleset=STANDARD)) == {"d4", "f4", "e3", "f5"}


def test_a_pawn_on_its_goal_row_wins():
    pos = at("e8", "a5").play(Step.move(5, 9))
    assert pos.winner() == 0 and pos.is_over()
    pos = at("a8", "e2", turn=1).play(Step.move(5, 1))
    assert pos.winner() == 1


@pytest.mark.parametrize("target", [(0, 1), (10, 5), (5, 0)])
def test_an_off_board_target_is_invalid(target):
    judgement = Position.initial().judge(Step(Location(*target)))
    assert judgement.status is GameStatus.INVALID_STEP
    assert "off the board" in judgement.reason


def test_a_step_with_both_a_cell_and_a_wall_counts_as_a_move():
    step = Step(Location(5, 2), BlockBar.of(0, 8, 2, 8))
    pos = Position.initial().play(step)
    assert pos.pawn(0) == Location(5, 2)
    assert pos.walls == [] and pos.walls_left == (10, 10)


def test_the_empty_step_is_a_violation():
    judgement = Position.initial().judge(Step())
    assert judgement.status is GameStatus.INVALID_STEP
    assert "empty step" in judgement.reason


def test_pass_turn_keeps_the_board_and_passes_the_turn():
    pos = Position.initial()
    passed = pos.pass_turn()
    assert passed.turn == 1 and passed.pawns == pos.pawns and passed.walls_left == pos.walls_left


def test_distance_and_shortest_path():
    pos = Position.initial()
    assert pos.distance(0) == 8 and pos.distance(1) == 8
    path = pos.shortest_path(0)
    assert path[0] == Location(5, 1) and path[-1].y == 9 and len(path) == 9
    walled = at("e1", "e9", [BlockBar.of(4, 1, 6, 1), BlockBar.of(5, 0, 5, 2)])
    assert walled.distance(0) == 9


def test_setup_rejects_impossible_positions():
    with pytest.raises(ValueError, match="both pawns"):
        Position.setup((Location(5, 5), Location(5, 5)))
    with pytest.raises(ValueError, match="not on the board"):
        Position.setup((Location(0, 5), Location(5, 5)))
    with pytest.raises(ValueError, match="overlaps"):
        Position.setup(walls=[BlockBar.of(4, 1, 6, 1), BlockBar.of(5, 1, 7, 1)])
    with pytest.raises(ValueError, match="no path"):
        Position.setup((Location(1, 1), Location(5, 9)), [BlockBar.of(2, 0, 2, 2), BlockBar.of(0, 2, 2, 2)])
    with pytest.raises(ValueError, match="walls left"):
        Position.setup(walls_left=(11, 0))

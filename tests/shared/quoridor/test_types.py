"""The handout's value types and constants, with API parity."""

import pytest

from shared.quoridor import (
    BLOCK_LEN, BLOCK_SUM, PLAYER0_LOC, PLAYER1_LOC, SIZE, BlockBar, ChessboardChange, GameStatus, Location, Step,
)


def test_constants():
    assert (SIZE, BLOCK_SUM, BLOCK_LEN) == (9, 10, 2)
    assert PLAYER0_LOC == Location(5, 1) and PLAYER1_LOC == Location(5, 9)


def test_status_codes_have_the_exact_values():
    assert {s.name: int(s) for s in GameStatus} == {
        "OK": 0, "WIN": 1, "LOST": 2, "TIMEOUT": 3, "ENEMY_CLOSED": 4, "RULES_BREAKER": 5,
        "INSUFFICIENT_BLOCK": 6, "INVALID_STEP": 7, "NONE": 2000}
    assert {s for s in GameStatus if s.is_violation} == {
        GameStatus.TIMEOUT, GameStatus.INSUFFICIENT_BLOCK, GameStatus.INVALID_STEP}


def test_location_defaults_to_empty_and_measures_city_block_distance():
    assert Location() == Location(-1, -1) and Location().is_nan() and not Location().is_valid()
    assert Location(1, 1).distance(Location(4, 5)) == 7
    assert Location(9, 9).is_valid() and not Location(10, 9).is_valid()


@pytest.mark.parametrize("bar, h, v, nan", [
    (BlockBar.of(4, 1, 6, 1), True, False, False),
    (BlockBar.of(5, 0, 5, 2), False, True, False),
    (BlockBar.of(6, 1, 4, 1), True, False, False),
    (BlockBar.of(4, 1, 5, 1), False, False, True),
    (BlockBar.of(4, 1, 6, 2), False, False, True),
    (BlockBar(), False, False, True),
])
def test_blockbar_shape(bar, h, v, nan):
    assert (bar.is_h(), bar.is_v(), bar.is_nan()) == (h, v, nan)


def test_blockbar_normalization_puts_the_smaller_point_first():
    assert BlockBar.of(6, 1, 4, 1).normalized() == BlockBar.of(4, 1, 6, 1)
    assert BlockBar.of(5, 2, 5, 0).normalized() == BlockBar.of(5, 0, 5, 2)
    assert BlockBar.of(4, 1, 6, 1).normalized() == BlockBar.of(4, 1, 6, 1)


def test_step_is_move_and_is_nan():
    assert Step.move(5, 2).is_move() and not Step.move(5, 2).is_nan()
    assert not Step.wall(4, 1, 6, 1).is_move() and not Step.wall(4, 1, 6, 1).is_nan()
    assert Step().is_nan() and not Step().is_move()
    assert not Step(Location(0, 3)).is_move()


def test_chessboard_change_outcomes():
    def change(status):
        return ChessboardChange(status, PLAYER0_LOC, PLAYER1_LOC)
    assert change(GameStatus.WIN).is_win() and change(GameStatus.ENEMY_CLOSED).is_win()
    assert change(GameStatus.LOST).is_lost() and change(GameStatus.RULES_BREAKER).is_lost()
    for status in (GameStatus.OK, GameStatus.TIMEOUT, GameStatus.INVALID_STEP, GameStatus.INSUFFICIENT_BLOCK):
        assert not change(status).is_finish()
    assert change(GameStatus.LOST).is_finish()
    assert ChessboardChange().new_enemy_wall.is_none()


def test_values_are_frozen_and_hashable():
    assert len({Location(1, 2), Location(1, 2), Step.move(1, 2), Step.move(1, 2)}) == 2
    with pytest.raises(AttributeError):
        Location(1, 2).x = 3  # type: ignore[misc]

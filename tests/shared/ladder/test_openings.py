from shared.ladder import pawn_opening
from shared.quoridor import Position


def test_an_opening_is_pawn_moves_repeated_by_its_seed():
    opening = pawn_opening(7, 3, 4)
    assert len(opening) == 4 and all(step.is_move() for step in opening)
    assert opening == pawn_opening(7, 3, 4)                            # repeated by seed and number
    assert len({pawn_opening(7, n, 4) for n in range(10)}) > 1          # and different from pair to pair
    position = Position.initial()
    for step in opening:
        position = position.play(step)          # every ply legal
    assert position.winner() is None


def test_zero_plies_is_no_opening():
    assert pawn_opening(1, 1, 0) == ()

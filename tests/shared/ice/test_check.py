"""Checking answers: valid moves, reaching E, optimal or not."""

from shared.grid import Direction
from shared.ice import check_answer, parse_maze, replay

KATA = parse_maze("    x \n  #   \n   E  \n #    \n    # \nS    #")


def test_the_optimal_answer_is_optimal():
    verdict = check_answer(KATA, ["u", "r", "d", "l", "u", "r"])
    assert (verdict.valid, verdict.reached, verdict.optimal) == (True, True, True)
    assert (verdict.moves, verdict.distance, verdict.best) == (6, 16, (6, 16))
    assert check_answer(KATA, "URDLUR").optimal           # a string of letters, either case
    assert check_answer(KATA, [Direction.UP, Direction.RIGHT, Direction.DOWN, Direction.LEFT,
                               Direction.UP, Direction.RIGHT]).optimal


def test_a_longer_route_reaches_but_is_not_optimal():
    verdict = check_answer(KATA, "urdlulr")
    assert verdict.valid and verdict.reached and not verdict.optimal
    assert (verdict.moves, verdict.distance) == (7, 20)
    stops, distance, failed_at, _ = replay(KATA, "urdlulr")
    assert failed_at is None and len(stops) == 8 and stops[-1] == KATA.end and distance == 20


def test_bad_moves_are_located():
    bad_letter = check_answer(KATA, ["u", "z"])
    assert not bad_letter.valid and bad_letter.failed_at == 1 and "'z'" in bad_letter.reason
    blocked = check_answer(KATA, ["u", "u"])
    assert not blocked.valid and blocked.failed_at == 1 and "goes nowhere" in blocked.reason
    extra = check_answer(KATA, "urdluru")
    assert not extra.valid and extra.failed_at == 6 and "after the end" in extra.reason
    assert check_answer(KATA, [3]).failed_at == 0


def test_a_route_that_stops_short_is_valid_but_not_solved():
    verdict = check_answer(KATA, "ur")
    assert verdict.valid and not verdict.reached and not verdict.optimal
    assert "not on the end" in verdict.reason and verdict.moves == 2


def test_unsolvable_mazes_have_no_best():
    verdict = check_answer(parse_maze("S#E"), "")
    assert verdict.best is None and not verdict.reached

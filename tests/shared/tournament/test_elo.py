"""Elo difference and error margin from a score, checked against cutechess-cli's formula by hand."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.tournament import GameResult, Standings, elo_difference, expected_score, ratings


def by_hand(wins, losses, draws):
    """cutechess-cli's Elo class, written out step by step."""
    n = wins + losses + draws
    mu = (wins + draws / 2) / n
    dev = wins * (1 - mu) ** 2 + losses * (0 - mu) ** 2 + draws * (0.5 - mu) ** 2
    stdev = math.sqrt(dev) / math.sqrt(n)
    lo, hi = mu - 1.959964 * stdev / math.sqrt(n), mu + 1.959964 * stdev / math.sqrt(n)
    diff = lambda p: -400 * math.log10(1 / p - 1)  # noqa: E731
    return diff(mu), (diff(hi) - diff(lo)) / 2


def test_equal_score_is_zero():
    for score in [(1, 1, 0), (0, 0, 4), (10, 10, 5)]:
        diff, _ = elo_difference(*score)
        assert diff == 0.0 and math.copysign(1, diff) == 1


def test_known_values():
    diff, error = elo_difference(75, 25, 0)
    assert diff == pytest.approx(190.85, abs=0.01)  # -400 log10(1/0.75 - 1) = 400 log10 3
    assert diff == pytest.approx(400 * math.log10(3))
    assert error == pytest.approx(81.15, abs=0.01)
    # cutechess-cli printed "Elo difference: 2.3 +/- 31.8" for 99 - 97 - 104.
    diff, error = elo_difference(99, 97, 104)
    assert diff == pytest.approx(2.3, abs=0.05) and error == pytest.approx(31.85, abs=0.05)


@settings(deadline=None, max_examples=100)
@given(st.integers(1, 500), st.integers(1, 500), st.integers(0, 500))
def test_matches_the_formula_and_is_symmetric(wins, losses, draws):
    diff, error = elo_difference(wins, losses, draws)
    mirrored, mirrored_error = elo_difference(losses, wins, draws)
    assert diff == pytest.approx(-mirrored, abs=1e-9)
    assert (error is None) == (mirrored_error is None)
    if error is not None:
        want_diff, want_error = by_hand(wins, losses, draws)
        assert diff == pytest.approx(want_diff) and error == pytest.approx(want_error)
        assert error == pytest.approx(mirrored_error)
        assert error > 0
    assert expected_score(diff) == pytest.approx((wins + draws / 2) / (wins + losses + draws))


def test_error_shrinks_with_more_games():
    errors = [elo_difference(6 * k, 4 * k, 2 * k)[1] for k in (1, 4, 16, 64)]
    assert all(a > b for a, b in zip(errors, errors[1:]))
    assert errors[-1] < errors[0] / 4


def test_degenerate_scores():
    assert elo_difference(0, 0, 0) is None
    assert elo_difference(3, 0, 0) == (math.inf, None)
    assert elo_difference(0, 2, 0) == (-math.inf, None)
    # One win, one loss: the 95% interval of the score leaves (0, 1), so no margin.
    assert elo_difference(1, 1, 0) == (0.0, None)


@pytest.mark.parametrize("args", [(-1, 0, 0), (1.5, 0, 0), (0, True, 0), (0, 0, "2")])
def test_rejects_bad_counts(args):
    with pytest.raises(ValueError, match="non-negative integer"):
        elo_difference(*args)


def test_ratings_against_the_pool():
    s = Standings(["a", "b", "c", "idle"])
    for _ in range(10):
        s.add(GameResult("a", "b", 0, "goal"))
        s.add(GameResult("b", "c", None, "step_cap"))
        s.add(GameResult("c", "a", 0, "goal"))
        s.add(GameResult("a", "c", 0, "goal"))
    result = ratings(s)
    assert set(result) == {"a", "b", "c"}
    assert result["a"] == elo_difference(20, 10, 0)
    assert result["b"] == elo_difference(0, 10, 10)
    assert result["c"] == elo_difference(10, 10, 10)
    assert result["c"][0] == 0.0 and result["a"][0] > 0 > result["b"][0]
    rows = {r.player: r for r in s.rows()}
    # The table's column is the finite Bradley-Terry fit (test_field_ratings), which orders them alike.
    assert rows["a"].elo > rows["c"].elo > rows["b"].elo

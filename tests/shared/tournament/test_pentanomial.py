"""Pentanomial pair counts and their Elo: by hand for small tables, and fastchess's own test values."""

import math

import pytest

from shared.tournament.pentanomial import PAIR_SCORES, Pentanomial, pentanomial_elo, score_to_elo


@pytest.mark.parametrize("first, second, cls", [
    (1, 1, "ww"), (1, 0.5, "wd"), (0.5, 1, "wd"), (1, 0, "wl"), (0, 1, "wl"), (0.5, 0.5, "dd"),
    (0.5, 0, "ld"), (0, 0.5, "ld"), (0, 0, "ll"),
])
def test_a_pair_falls_into_one_class_whatever_the_order_of_its_games(first, second, cls):
    assert Pentanomial.of_pair(first, second) == Pentanomial(**{cls: 1})


def test_counts_merge_wl_and_dd_as_fastchess_prints_them_and_inverting_swaps_the_sides():
    p = Pentanomial(ll=1, ld=2, wl=3, dd=4, wd=5, ww=6)
    assert p.counts == (1, 2, 7, 5, 6) and p.pairs == 21
    assert p.inverted() == Pentanomial(ll=6, ld=5, wl=3, dd=4, wd=2, ww=1)
    assert p + p.inverted() == Pentanomial(ll=7, ld=7, wl=6, dd=8, wd=7, ww=7)
    assert Pentanomial.from_counts((1, 2, 7, 5, 6)).counts == p.counts
    assert PAIR_SCORES == (0.0, 0.25, 0.5, 0.75, 1.0)


def test_bad_counts_and_scores_are_refused():
    with pytest.raises(ValueError, match="LL must be a non-negative integer, got -1"):
        Pentanomial(ll=-1)
    with pytest.raises(ValueError, match="0, 0.5 or 1, got 0.25"):
        Pentanomial.of_pair(0.25, 1)
    with pytest.raises(ValueError, match="at least one pair"):
        pentanomial_elo(Pentanomial())


def test_score_variance_and_elo_of_two_pairs_by_hand():
    # One drawn pair (DD, 1/2 per game) and one won-and-drawn pair (WD, 3/4 per game):
    #   score    = (0.5 + 0.75) / 2                          = 0.625
    #   variance = ((0.5 - 0.625)^2 + (0.75 - 0.625)^2) / 2   = 0.015625 per pair
    #   stdev of the mean = sqrt(0.015625 / 2)               = 0.0883883
    #   95% interval = 0.625 -+ 1.959964 * 0.0883883         = 0.451762 .. 0.798238
    #   Elo = -400 log10(1 / 0.625 - 1) = -400 log10(0.6)    = 88.7395
    #   error = (Elo(0.798238) - Elo(0.451762)) / 2          = (238.917 - (-33.624)) / 2 = 136.270
    #   nElo = (0.625 - 0.5) / sqrt(2 * 0.015625) * 800 / ln 10 = 0.125 / 0.176777 * 347.436 = 245.674
    #   LOS = (1 - erf(-0.125 / sqrt(2 * 0.0078125))) / 2 = (1 - erf(-1)) / 2 = (1 + 0.842701) / 2 = 0.921350
    p = Pentanomial(dd=1, wd=1)
    assert p.score == 0.625 and p.variance == pytest.approx(0.015625)
    elo = pentanomial_elo(p)
    assert (elo.score_low, elo.score_high) == pytest.approx((0.451762, 0.798238), abs=1e-6)
    assert elo.elo == pytest.approx(88.7395, abs=1e-4)
    assert elo.error == pytest.approx(136.270, abs=1e-3)
    assert elo.nelo == pytest.approx(245.674, abs=1e-3)
    assert elo.los == pytest.approx(0.921350, abs=1e-6)


def test_an_interval_that_leaves_zero_to_one_has_no_elo_error_and_a_sweep_is_infinite():
    one_pair = pentanomial_elo(Pentanomial(ww=1, ll=1))     # 0.5 -+ 1.96 * sqrt(0.25 / 2) leaves 0..1
    assert one_pair.error is None and math.isfinite(one_pair.elo)
    sweep = pentanomial_elo(Pentanomial(ww=3))
    assert sweep.elo == math.inf and sweep.error is None and sweep.nelo is None and sweep.los == 1.0
    even = pentanomial_elo(Pentanomial(wl=5))
    assert even.elo == 0.0 and even.los == 0.5 and even.error == 0.0
    assert score_to_elo(0.0) == -math.inf and score_to_elo(0.5) == 0.0


# fastchess app/tests/elo_test.cpp, "EloPentanomial 1-3": Stats(LL, LD, WL, DD, WD, WW) and the values it
# checks to 1% (doctest::Approx(...).epsilon(0.01)).
@pytest.mark.parametrize("counts, nelo, nelo_error, elo, error, los, score", [
    ((34, 54, 31, 32, 64, 75), 57.94, 28.28, 55.58, 27.65, "100.00 %", 0.579),
    ((332, 433, 457, 41, 333, 334), -9.17, 10.96, -8.64, 10.33, "5.05 %", 0.488),
    ((7895, 8757, 5485, 200, 568, 9999), -19.01, 2.65, -21.04, 2.95, "0.00 %", 0.470),
])
def test_fastchess_pentanomial_elo_examples(counts, nelo, nelo_error, elo, error, los, score):
    ll, ld, wl, dd, wd, ww = counts
    result = pentanomial_elo(Pentanomial(ll=ll, ld=ld, wl=wl, dd=dd, wd=wd, ww=ww))
    assert result.nelo == pytest.approx(nelo, abs=0.005)
    assert result.nelo_error == pytest.approx(nelo_error, abs=0.005)
    assert result.elo == pytest.approx(elo, abs=0.005)
    assert result.error == pytest.approx(error, abs=0.005)
    assert f"{result.los * 100:.2f} %" == los
    assert result.score == pytest.approx(score, abs=0.0005)

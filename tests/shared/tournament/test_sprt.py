"""The GSPRT on pair results: bounds and likelihood ratios by hand for small tables, and fastchess's own values."""

import math

import pytest

from shared.tournament.pentanomial import Pentanomial
from shared.tournament.sprt import (
    Sprt, SprtModel, SprtVerdict, llr_logistic, llr_normalized, logistic_score, mle_with_mean, mle_with_normalized_elo,
)


def test_wald_bounds_by_hand():
    test = Sprt(0, 10)                                      # alpha = beta = 0.05
    assert test.lower == pytest.approx(math.log(0.05 / 0.95)) == pytest.approx(-2.944439, abs=1e-6)
    assert test.upper == pytest.approx(math.log(0.95 / 0.05)) == pytest.approx(2.944439, abs=1e-6)
    skewed = Sprt(0, 10, alpha=0.05, beta=0.1)
    assert skewed.lower == pytest.approx(math.log(0.1 / 0.95)) == pytest.approx(-2.251292, abs=1e-6)
    assert skewed.upper == pytest.approx(math.log(0.9 / 0.05)) == pytest.approx(2.890372, abs=1e-6)


def test_the_verdict_and_the_fraction_of_the_way_to_a_bound():
    test = Sprt(0, 10)
    assert test.verdict(2.95) is SprtVerdict.H1 and test.verdict(-2.95) is SprtVerdict.H0
    assert test.verdict(test.upper) is SprtVerdict.H1 and test.verdict(0.0) is SprtVerdict.CONTINUE
    assert test.fraction(test.upper / 2) == pytest.approx(0.5) and test.fraction(test.lower / 4) == pytest.approx(0.25)
    assert test.llr(Pentanomial()) == 0.0


@pytest.mark.parametrize("kwargs, message", [
    ({"elo0": 5, "elo1": 5}, "elo0 must be less than elo1, got elo0=5 and elo1=5"),
    ({"elo0": 0, "elo1": 5, "alpha": 0}, "alpha must be between 0 and 1"),
    ({"elo0": 0, "elo1": 5, "beta": 1.5}, "beta must be between 0 and 1"),
    ({"elo0": 0, "elo1": 5, "alpha": 0.5, "beta": 0.5}, "alpha \\+ beta must be less than 1"),
])
def test_bad_settings_are_refused_as_fastchess_refuses_them(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Sprt(**kwargs)
    with pytest.raises(ValueError):
        Sprt(0, 5, model="bayesian")


def test_the_logistic_curve():
    assert logistic_score(0) == 0.5
    assert logistic_score(400) == pytest.approx(10 / 11)      # 10:1 odds at 400 Elo
    assert logistic_score(-400) == pytest.approx(1 / 11)


def test_with_two_outcomes_the_constraint_alone_decides_the_distribution():
    # Outcomes scoring 0 and 1 with probabilities (1 - m, m) have mean m: the mean fixes them.
    assert mle_with_mean([0.0, 1.0], [0.5, 0.5], 0.75) == pytest.approx([0.25, 0.75])
    # ... and (m - 1/2) / sqrt(m (1 - m)) = t fixes them too: m = 0.8 gives 0.3 / 0.4 = 0.75.
    assert mle_with_normalized_elo([0.0, 1.0], [0.3, 0.7], 0.75) == pytest.approx([0.2, 0.8], abs=1e-8)


def test_when_the_data_already_satisfy_the_hypothesis_the_empirical_distribution_is_its_best_fit():
    probs = [0.2, 0.3, 0.5]                                   # over scores 0, 1/2, 1: mean 0.15 + 0.5 = 0.65
    assert mle_with_mean([0.0, 0.5, 1.0], probs, 0.65) == pytest.approx(probs)
    fitted = mle_with_mean([0.0, 0.5, 1.0], probs, 0.55)
    assert sum(fitted) == pytest.approx(1.0) and sum(a * p for a, p in zip([0.0, 0.5, 1.0], fitted)) == pytest.approx(0.55)


def test_a_log_likelihood_ratio_by_hand():
    # 3 losses and 7 wins; H0 score 0.5, H1 score 0.6; two outcomes, so p0 = (0.5, 0.5), p1 = (0.4, 0.6):
    #   LLR = 3 ln(0.4 / 0.5) + 7 ln(0.6 / 0.5) = 3 (-0.2231436) + 7 (0.1823216) = -0.6694307 + 1.2762509 = 0.6068202
    assert llr_logistic([0.0, 1.0], [3, 7], 0.5, 0.6) == pytest.approx(0.6068202, abs=1e-7)
    # Normalised: t = 0 is m = 0.5; t = 0.75 is m = 0.8 (above): 3 ln(0.2 / 0.5) + 7 ln(0.8 / 0.5)
    #   = 3 (-0.9162907) + 7 (0.4700036) = -2.7488722 + 3.2900254 = 0.5411532
    assert llr_normalized([0.0, 1.0], [3, 7], 0.0, 0.75) == pytest.approx(0.5411532, abs=1e-7)


def test_swapping_the_bots_and_mirroring_the_hypotheses_negates_the_ratio():
    p = Pentanomial(ll=3, ld=10, wl=9, dd=12, wd=14, ww=5)
    for model in SprtModel:
        forward = Sprt(-5, 20, model=model).llr(p)
        assert Sprt(-20, 5, model=model).llr(p.inverted()) == pytest.approx(-forward, abs=1e-9)


# fastchess app/tests/sprt_test.cpp, the pentanomial cases: Stats(LL, LD, WL, DD, WD, WW), SPRT(alpha, beta, elo0,
# elo1, model) and the LLR it checks to 1%.
@pytest.mark.parametrize("counts, elo0, elo1, model, llr", [
    ((365, 16618, 36029, 200, 16974, 390), 0, 2, "normalized", 2.25),
    ((127, 4883, 10311, 401, 5150, 104), -1.75, 0.25, "normalized", 3.01),
    ((0, 0, 0, 0, 0, 5550), 0, 5, "normalized", 111.82),
    ((223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, "logistic", -3.07),
    ((871, 26175, 55003, 980, 26678, 821), 0, 2, "logistic", -4.98),
])
def test_fastchess_pentanomial_sprt_examples(counts, elo0, elo1, model, llr):
    ll, ld, wl, dd, wd, ww = counts
    result = Sprt(elo0, elo1, 0.05, 0.05, SprtModel(model)).llr(Pentanomial(ll=ll, ld=ld, wl=wl, dd=dd, wd=wd, ww=ww))
    assert result == pytest.approx(llr, rel=0.01)

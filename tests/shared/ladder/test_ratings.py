"""Live ratings against the Plackett-Luce update worked out by hand (Weng and Lin 2011, algorithm 4)."""

import math

import pytest

from shared.ladder import LiveRatings, Skill

MU, SIGMA = 25.0, 25.0 / 3
BETA, TAU = SIGMA / 2, MU / 300


def hand_update(winner_mu, winner_sigma, loser_mu, loser_sigma):
    """Two players, a win: c^2 = s1^2 + s2^2 + 2 beta^2 (after tau widens each sigma)."""
    s1, s2 = math.hypot(winner_sigma, TAU), math.hypot(loser_sigma, TAU)
    c = math.sqrt(s1 ** 2 + s2 ** 2 + 2 * BETA ** 2)
    p1 = math.exp(winner_mu / c) / (math.exp(winner_mu / c) + math.exp(loser_mu / c))
    p2 = 1 - p1
    mu1 = winner_mu + s1 ** 2 / c * (1 - p1)
    mu2 = loser_mu - s2 ** 2 / c * p2
    sig1 = s1 * math.sqrt(max(1 - (s1 ** 2 / c ** 2) * (s1 / c) * p1 * p2, 1e-4))
    sig2 = s2 * math.sqrt(max(1 - (s2 ** 2 / c ** 2) * (s2 / c) * p1 * p2, 1e-4))
    return (mu1, sig1), (mu2, sig2)


def test_a_newcomer_starts_at_25_with_ordinal_0():
    skill = LiveRatings().initial()
    assert (skill.mu, skill.sigma) == (MU, SIGMA)
    assert skill.ordinal == pytest.approx(0.0)


def test_two_newcomers_after_a_win_match_the_hand_computed_update():
    ratings = LiveRatings()
    a, b = ratings.after_game(ratings.initial(), ratings.initial(), winner=0)
    (mu1, sig1), (mu2, sig2) = hand_update(MU, SIGMA, MU, SIGMA)
    assert (a.mu, a.sigma, b.mu, b.sigma) == pytest.approx((mu1, sig1, mu2, sig2), abs=1e-9)
    assert a.mu == pytest.approx(27.6354, abs=1e-4)      # 25 + 69.45/13.18 * 0.5


def test_an_upset_moves_ratings_more_than_the_expected_result():
    ratings = LiveRatings()
    strong, weak = Skill(30.0, 4.0), Skill(20.0, 4.0)
    expected, _ = ratings.after_game(strong, weak, winner=0)
    _, upset = ratings.after_game(strong, weak, winner=1)
    (mu1, sig1), _ = hand_update(30.0, 4.0, 20.0, 4.0)
    assert expected.mu == pytest.approx(mu1, abs=1e-9)
    assert upset.mu - weak.mu > expected.mu - strong.mu > 0


def test_a_draw_counts_it_pulls_ratings_together_and_shrinks_uncertainty():
    ratings = LiveRatings()
    a, b = ratings.after_game(Skill(30.0, 5.0), Skill(20.0, 5.0), winner=None)
    assert a.mu < 30.0 and b.mu > 20.0
    assert a.sigma < 5.0 and b.sigma < 5.0

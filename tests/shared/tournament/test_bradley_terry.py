"""The Bradley-Terry rating and its bootstrap intervals, against tables worked out by hand."""

import math
import random

import pytest

from shared.tournament.bradley_terry import Encounter, Rating, fit_ratings, rate, rating_intervals


def games(first, second, wins, losses, draws=0):
    """Single-game encounters: ``first`` wins ``wins``, loses ``losses`` and draws ``draws`` against ``second``."""
    return ([Encounter(first, second, 1, 1.0)] * wins + [Encounter(first, second, 1, 0.0)] * losses
            + [Encounter(first, second, 1, 0.5)] * draws)


def test_two_players_rate_apart_by_the_logistic_gap_of_their_score():
    # A scores 3 of 4: pi_A / pi_B = 3, so A is 400 log10(3) = 190.849 above B.
    assert fit_ratings(["B", "A"], games("A", "B", 3, 1), prior_draws=0) == pytest.approx({"B": 0.0, "A": 190.849},
                                                                                          abs=1e-3)
    # One virtual draw adds half a point each: 3.5 to 1.5, 400 log10(7/3) = 147.19.
    assert fit_ratings(["B", "A"], games("A", "B", 3, 1))["A"] == pytest.approx(147.19, abs=0.01)
    # A draw is half a win for each: 2 wins and 2 draws against 0 and 2 draws is 3 to 1 again.
    assert fit_ratings(["B", "A"], games("A", "B", 2, 0, 2), prior_draws=0)["A"] == pytest.approx(190.849, abs=1e-3)


def test_a_table_that_fits_the_model_exactly_gives_its_strengths_back():
    # Strengths 4 : 2 : 1 predict A-B 2/3, B-C 2/3, A-C 4/5; these scores are the likelihood equations' solution.
    # In Elo: A = 400 log10(4) = 240.824, B = 400 log10(2) = 120.412 above C.
    table = games("A", "B", 2, 1) + games("B", "C", 2, 1) + games("A", "C", 4, 1)
    assert fit_ratings("CBA", table, prior_draws=0) == pytest.approx({"C": 0.0, "B": 120.412, "A": 240.824}, abs=1e-3)
    assert fit_ratings("CBA", table, anchor="A", prior_draws=0) == pytest.approx(
        {"C": -240.824, "B": -120.412, "A": 0.0}, abs=1e-3)


def test_a_gauntlet_rates_the_others_through_the_one_they_all_met():
    # X beats B 1:1 (even) and C 1:3; B and C never meet: C is 400 log10(3) = 190.849 above B all the same.
    table = games("X", "B", 2, 2) + games("X", "C", 1, 3)
    ratings = fit_ratings(["X", "B", "C"], table, prior_draws=0)
    assert ratings["B"] == pytest.approx(0.0, abs=1e-6) and ratings["C"] == pytest.approx(190.849, abs=1e-3)


def test_a_cycle_of_equal_results_rates_everyone_alike():
    table = games("A", "B", 2, 1) + games("B", "C", 2, 1) + games("C", "A", 2, 1)
    assert fit_ratings("ABC", table, prior_draws=0) == pytest.approx({"A": 0.0, "B": 0.0, "C": 0.0}, abs=1e-6)


def test_a_perfect_score_needs_the_prior_and_players_without_a_link_get_no_rating():
    sweep = games("A", "B", 4, 0)
    with pytest.raises(ValueError, match="diverge"):
        fit_ratings("BA", sweep, prior_draws=0)
    # 4 wins and a virtual draw: 4.5 to 0.5, 400 log10(9) = 381.697.
    assert fit_ratings("BA", sweep)["A"] == pytest.approx(381.697, abs=1e-3)
    ratings = fit_ratings("ABCD", sweep + games("C", "D", 1, 1))
    assert ratings["C"] is None and ratings["D"] is None
    assert fit_ratings("ABE", sweep)["E"] is None


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="two different players"):
        Encounter("A", "A", 1, 1.0)
    with pytest.raises(ValueError, match="cannot score 2.5 points in 2 games"):
        Encounter("A", "B", 2, 2.5)
    with pytest.raises(ValueError, match="cannot score 0.3"):
        Encounter("A", "B", 1, 0.3)
    with pytest.raises(ValueError, match="anchor 'Z' is not among"):
        fit_ratings("AB", [], anchor="Z")
    with pytest.raises(ValueError, match="'Q', who is not among the players"):
        fit_ratings("AB", [Encounter("A", "Q", 1, 1.0)])


@pytest.mark.parametrize("method", ["simulate", "resample"])
def test_bootstrap_intervals_are_seeded_and_contain_the_fit(method):
    table = games("A", "B", 6, 3, 1) + games("B", "C", 5, 5) + games("A", "C", 7, 2, 1)
    first = rating_intervals("ABC", table, random.Random(7), samples=200, method=method)
    assert first == rating_intervals("ABC", table, random.Random(7), samples=200, method=method)
    assert first["A"] == (0.0, 0.0)
    fitted = fit_ratings("ABC", table)
    for name in "BC":
        low, high = first[name]
        assert low < fitted[name] < high


def test_only_simulating_sees_the_uncertainty_of_a_pairing_whose_games_all_went_alike():
    pairs = [Encounter("A", "B", 2, 1.5)] * 5                 # every redraw is the same table
    gap = fit_ratings("AB", pairs)["B"]
    assert rating_intervals("AB", pairs, random.Random(1), samples=50, method="resample")["B"] == \
        pytest.approx((gap, gap), abs=1e-4)
    low, high = rating_intervals("AB", pairs, random.Random(1), samples=200)["B"]
    assert low < gap - 100 and high > gap + 50
    sweep = rating_intervals("AB", [Encounter("A", "B", 2, 2.0)] * 5, random.Random(1), samples=200)["B"]
    assert sweep[0] < sweep[1] <= 0.0
    with pytest.raises(ValueError, match="method must be"):
        rating_intervals("AB", pairs, random.Random(1), method="jackknife")


def test_rate_gives_one_rating_per_player_in_order():
    table = games("A", "B", 3, 1)
    ratings = rate(["A", "B", "C"], table, random.Random(0), samples=20)
    assert [r.player for r in ratings] == ["A", "B", "C"]
    assert ratings[0] == Rating("A", 0.0, 0.0, 0.0)
    assert ratings[1].rating is not None and ratings[1].low <= ratings[1].rating <= ratings[1].high
    assert ratings[2] == Rating("C", None, None, None)
    assert not math.isnan(ratings[1].rating)

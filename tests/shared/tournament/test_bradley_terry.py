"""The Bradley-Terry rating and its likelihood intervals, against tables worked out by hand."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.tournament import bradley_terry
from shared.tournament.bradley_terry import Encounter, Rating, fit_ratings, rate, rating_intervals


def games(first, second, wins, losses, draws=0):
    """Single-game encounters: ``first`` wins ``wins``, loses ``losses`` and draws ``draws`` against ``second``."""
    return ([Encounter(first, second, 1, 1.0)] * wins + [Encounter(first, second, 1, 0.0)] * losses
            + [Encounter(first, second, 1, 0.5)] * draws)


def test_two_players_rate_apart_by_the_logistic_gap_of_their_score():
    # A scores 3 of 4: pi_A / pi_B = 3, so A is 400 log10(3) = 190.849 above B.
    assert fit_ratings(["B", "A"], games("A", "B", 3, 1), penalised=False) == pytest.approx({"B": 0.0, "A": 190.849},
                                                                                          abs=1e-3)
    # One virtual draw adds half a point each: 3.5 to 1.5, 400 log10(7/3) = 147.19.
    assert fit_ratings(["B", "A"], games("A", "B", 3, 1))["A"] == pytest.approx(147.19, abs=0.01)
    # A draw is half a win for each: 2 wins and 2 draws against 0 and 2 draws is 3 to 1 again.
    assert fit_ratings(["B", "A"], games("A", "B", 2, 0, 2), penalised=False)["A"] == pytest.approx(190.849, abs=1e-3)


def test_a_table_that_fits_the_model_exactly_gives_its_strengths_back():
    # Strengths 4 : 2 : 1 predict A-B 2/3, B-C 2/3, A-C 4/5; these scores are the likelihood equations' solution.
    # In Elo: A = 400 log10(4) = 240.824, B = 400 log10(2) = 120.412 above C.
    table = games("A", "B", 2, 1) + games("B", "C", 2, 1) + games("A", "C", 4, 1)
    assert fit_ratings("CBA", table, penalised=False) == pytest.approx({"C": 0.0, "B": 120.412, "A": 240.824}, abs=1e-3)
    assert fit_ratings("CBA", table, anchor="A", penalised=False) == pytest.approx(
        {"C": -240.824, "B": -120.412, "A": 0.0}, abs=1e-3)


def test_a_gauntlet_rates_the_others_through_the_one_they_all_met():
    # X beats B 1:1 (even) and C 1:3; B and C never meet: C is 400 log10(3) = 190.849 above B all the same.
    table = games("X", "B", 2, 2) + games("X", "C", 1, 3)
    ratings = fit_ratings(["X", "B", "C"], table, penalised=False)
    assert ratings["B"] == pytest.approx(0.0, abs=1e-6) and ratings["C"] == pytest.approx(190.849, abs=1e-3)


def test_a_cycle_of_equal_results_rates_everyone_alike():
    table = games("A", "B", 2, 1) + games("B", "C", 2, 1) + games("C", "A", 2, 1)
    assert fit_ratings("ABC", table, penalised=False) == pytest.approx({"A": 0.0, "B": 0.0, "C": 0.0}, abs=1e-6)


def test_a_perfect_score_needs_the_prior_and_players_without_a_link_get_no_rating():
    sweep = games("A", "B", 4, 0)
    with pytest.raises(ValueError, match="diverge"):
        fit_ratings("BA", sweep, penalised=False)
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


def two_player_interval(wins, games, z=1.959964):
    """The 95% interval of a gap between two players, worked out alone: with the penalty, the likelihood of
    ``wins + 1/2`` points in ``games + 1`` (one virtual draw), cut ``z^2 / 2`` below its top; in Elo."""
    points, total = wins + 0.5, games + 1

    def loglik(theta):
        return points * theta - total * math.log1p(math.exp(theta))

    top = math.log(points / (total - points))
    floor = loglik(top) - z * z / 2

    def cut(inside, outside):                   # bisection: loglik(inside) > floor > loglik(outside)
        for _ in range(200):
            middle = (inside + outside) / 2
            inside, outside = (middle, outside) if loglik(middle) > floor else (inside, middle)
        return inside
    scale = 400 / math.log(10)
    return scale * cut(top, top - 30), scale * top, scale * cut(top, top + 30)


@pytest.mark.parametrize("wins, losses", [(3, 1), (4, 0), (0, 4), (10, 10), (1, 0), (19, 1)])
def test_between_two_players_the_interval_is_the_one_virtual_draw_likelihood_interval(wins, losses):
    low, rating, high = two_player_interval(wins, wins + losses)
    [anchor, player] = rate(["B", "A"], games("A", "B", wins, losses))
    assert anchor == Rating("B", 0.0, 0.0, 0.0)
    assert (player.low, player.rating, player.high) == pytest.approx((low, rating, high), abs=0.05)
    # Centred, each is half the gap from the middle, with half the interval.
    [b, a] = rate(["B", "A"], games("A", "B", wins, losses), centred=True)
    assert (a.low, a.rating, a.high) == pytest.approx((low / 2, rating / 2, high / 2), abs=0.05)
    assert (b.low, b.rating, b.high) == pytest.approx((-high / 2, -rating / 2, -low / 2), abs=0.05)


def test_a_sweep_has_a_long_upper_side_and_a_level_widens_the_interval():
    low, rating, high = two_player_interval(4, 4)
    assert high - rating > 2 * (rating - low)           # 4 wins say "A is better", not by how much
    [_, narrow] = rate(["B", "A"], games("A", "B", 4, 0), level=0.5)
    [_, wide] = rate(["B", "A"], games("A", "B", 4, 0), level=0.99)
    assert wide.low < low < narrow.low <= narrow.rating <= narrow.high < high < wide.high
    with pytest.raises(ValueError, match="level must be between 0 and 1"):
        rate(["B", "A"], games("A", "B", 4, 0), level=1.0)


def test_in_a_gauntlet_each_gap_is_a_two_player_problem():
    # X meets B and C, who never meet: the information splits, so each interval is its pairing's alone.
    table = games("X", "B", 7, 3) + games("X", "C", 1, 9)
    intervals = rating_intervals(["X", "B", "C"], table)
    low_b, _, high_b = two_player_interval(3, 10)
    low_c, _, high_c = two_player_interval(9, 10)
    assert intervals["X"] == (0.0, 0.0)
    assert intervals["B"] == pytest.approx((low_b, high_b), abs=0.05)
    assert intervals["C"] == pytest.approx((low_c, high_c), abs=0.05)


def test_the_issues_sweep_is_inside_its_own_interval():
    # quoridor-match random runner defender my_first_bot -g 20: defender won all 60 of its games and the
    # bootstrap printed "defender +1170 (+761..+1166)"; every rating lies in its interval now.
    pairs = ([Encounter("random", other, 2, 0.0) for other in ("runner", "defender", "mybot") for _ in range(10)]
             + [Encounter("defender", other, 2, 2.0) for other in ("runner", "mybot") for _ in range(10)]
             + [Encounter("runner", "mybot", 2, points) for points in [2.0] * 5 + [1.0] * 4 + [0.0]])
    ratings = {r.player: r for r in rate(["random", "runner", "defender", "mybot"], pairs, anchor="random")}
    for r in ratings.values():
        assert r.low <= r.rating <= r.high
    defender = ratings["defender"]
    assert defender.rating > ratings["runner"].rating > ratings["mybot"].rating > 0
    assert defender.high - defender.rating > defender.rating - defender.low > 200     # a sweep's long upper side


def test_a_cycle_of_equal_results_has_equal_symmetric_intervals():
    table = games("A", "B", 2, 1) + games("B", "C", 2, 1) + games("C", "A", 2, 1)
    ratings = rate("ABC", table, centred=True)
    assert [r.rating for r in ratings] == pytest.approx([0.0, 0.0, 0.0], abs=1e-6)
    assert all(r.low == pytest.approx(-r.high, abs=0.05) and r.high > 50 for r in ratings)
    assert ratings[0].high == pytest.approx(ratings[1].high, abs=0.05) == ratings[2].high


def test_the_bracketed_search_finds_the_same_ends_when_the_fast_one_gives_up(monkeypatch):
    table = games("A", "B", 6, 3, 1) + games("B", "C", 5, 5) + games("A", "C", 7, 2, 1) + games("C", "D", 9, 0)
    fast = rate("ABCD", table)
    monkeypatch.setattr(bradley_terry._Model, "_end", lambda *args: None)
    slow = rate("ABCD", table)
    for a, b in zip(fast, slow):
        assert (a.low, a.rating, a.high) == pytest.approx((b.low, b.rating, b.high), abs=0.5)


def test_rate_gives_one_rating_per_player_in_order():
    table = games("A", "B", 3, 1)
    ratings = rate(["A", "B", "C"], table)
    assert [r.player for r in ratings] == ["A", "B", "C"]
    assert ratings[0] == Rating("A", 0.0, 0.0, 0.0)
    assert ratings[1].rating is not None and ratings[1].low <= ratings[1].rating <= ratings[1].high
    assert ratings[1].margin == max(ratings[1].high - ratings[1].rating, ratings[1].rating - ratings[1].low)
    assert ratings[2] == Rating("C", None, None, None) and ratings[2].margin is None


@st.composite
def tournaments(draw):
    """2 to 6 players and up to 30 encounters between them, of 1 or 2 games each, any results."""
    count = draw(st.integers(2, 6))
    players = [f"p{i}" for i in range(count)]
    encounters = []
    for _ in range(draw(st.integers(1, 30))):
        first, second = draw(st.lists(st.sampled_from(players), min_size=2, max_size=2, unique=True))
        n = draw(st.integers(1, 2))
        encounters.append(Encounter(first, second, n, draw(st.integers(0, 2 * n)) / 2))
    return players, encounters, draw(st.booleans()), draw(st.sampled_from([0.5, 0.9, 0.95, 0.99]))


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_every_interval_contains_its_own_estimate(case):
    players, encounters, centred, level = case
    for r in rate(players, encounters, level=level, centred=centred):
        if r.rating is None:
            assert r.low is None and r.high is None
        else:
            assert r.low <= r.rating <= r.high and math.isfinite(r.low) and math.isfinite(r.high)

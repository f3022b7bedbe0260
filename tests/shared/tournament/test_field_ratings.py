"""The standings' ratings are finite, with intervals, for any number of players and games."""

import math

import pytest

from shared.tournament import GameResult, Standings
from shared.tournament.bradley_terry import Encounter, rate
from shared.tournament.field_ratings import FIT_PLAYERS, PROFILE_PLAYERS, field_ratings


def test_a_perfect_score_gets_a_finite_rating_and_interval():
    s = Standings(["a", "b"])
    s.add(GameResult("a", "b", 0, "goal"))
    a, b = s.rows()
    assert math.isfinite(a.elo) and math.isfinite(b.elo) and a.elo > 0 > b.elo
    assert a.elo == -b.elo                           # centred: the field's mean is 0
    assert a.elo_error is not None and math.isfinite(a.elo_error) and a.elo_error > 0


def test_a_six_player_event_rates_everyone_finitely_in_the_order_of_strength():
    players = ["p1", "p2", "p3", "p4", "p5", "p6"]
    s = Standings(players)
    for i, white in enumerate(players):
        for black in players[i + 1:]:
            s.add(GameResult(white, black, 0, "goal"))     # the earlier name always wins
            s.add(GameResult(black, white, 1, "goal"))
    rows = {r.player: r for r in s.rows()}
    values = [rows[p].elo for p in players]
    assert all(math.isfinite(v) for v in values) and values == sorted(values, reverse=True)
    assert all(rows[p].elo_error is not None and 0 < rows[p].elo_error < 1000 for p in players)
    assert abs(sum(values)) < 1e-6


def test_random_is_the_anchor_when_it_plays():
    s = Standings(["strong", "random"])
    for _ in range(3):
        s.add(GameResult("strong", "random", 0, "goal"))
        s.add(GameResult("random", "strong", None, "step_cap"))
    rows = {r.player: r for r in s.rows()}
    assert rows["random"].elo == 0.0 and rows["strong"].elo > 0


def test_a_player_without_games_has_no_rating_and_a_big_field_stays_finite():
    s = Standings(["a", "b", "idle"])
    s.add(GameResult("a", "b", None, "step_cap"))
    assert {r.player: r.elo for r in s.rows()}["idle"] is None
    many = [f"p{i}" for i in range(FIT_PLAYERS + 1)]
    rated = field_ratings(many, [(many[0], many[1], 1.0)])
    assert set(rated) == {"p0", "p1"} and rated["p0"].rating > 0 > rated["p1"].rating


def test_every_rating_lies_in_its_interval_and_the_margin_reaches_both_ends():
    s = Standings(["a", "b", "c", "d"])
    for _ in range(5):
        s.add(GameResult("a", "b", 0, "goal"))
        s.add(GameResult("a", "c", 0, "goal"))
        s.add(GameResult("b", "c", 0, "goal"))
        s.add(GameResult("c", "d", None, "step_cap"))
    for row in s.rows():
        assert row.elo_low <= row.elo <= row.elo_high
        assert row.elo_error == pytest.approx(max(row.elo_high - row.elo, row.elo - row.elo_low))
    a = next(r for r in s.rows() if r.player == "a")
    assert a.elo_high - a.elo > a.elo - a.elo_low            # a perfect score: the long side is above


def test_centred_ratings_start_from_the_first_player_who_played():
    rated = field_ratings(["idle", "a", "b"], [("a", "b", 1.0), ("b", "a", 0.5)])
    assert set(rated) == {"a", "b"} and rated["a"].rating == pytest.approx(-rated["b"].rating)


def test_a_class_of_forty_is_rated_finitely_with_intervals_even_in_a_perfect_order():
    players = [f"p{i:02d}" for i in range(40)]
    s = Standings(players)
    for i, white in enumerate(players):
        for black in players[i + 1:]:
            s.add(GameResult(white, black, 0, "goal"))      # the earlier name always wins
    rows = {r.player: r for r in s.rows()}
    assert all(math.isfinite(rows[p].elo) and rows[p].elo_error is not None and math.isfinite(rows[p].elo_error)
               and rows[p].elo_low <= rows[p].elo <= rows[p].elo_high for p in players)
    ratings = [rows[p].elo for p in players]
    assert ratings == sorted(ratings, reverse=True) and len(set(ratings)) == len(players)
    assert all(rows[p].elo_low <= rows[p].elo <= rows[p].elo_high for p in players)


def test_a_field_too_big_to_profile_is_still_one_fit_with_intervals_that_hold_their_estimates():
    players = [f"p{i:02d}" for i in range(PROFILE_PLAYERS + 10)]
    games = []
    for i, white in enumerate(players):
        for j, black in enumerate(players[i + 1:], i + 1):
            games.append((white, black, 1.0 if (i + 2 * j) % 5 else 0.5))     # mostly the earlier name wins
            games.append((black, white, 0.0 if (i + j) % 7 else 1.0))
    rated = field_ratings(players, games)
    fit = {r.player: r for r in rate(players, [Encounter(w, b, 1, p) for w, b, p in games], anchor=players[0],
                                     centred=True, profile=False)}
    for name in players:                         # whom each scored against counts: the fit's, not a performance
        assert rated[name].rating == pytest.approx(fit[name].rating)
        assert rated[name].low < rated[name].rating < rated[name].high
        assert rated[name].high - rated[name].rating == pytest.approx(rated[name].rating - rated[name].low)

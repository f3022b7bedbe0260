"""The ladder's matchmaking rules, one test per rule."""

from shared.ladder import Candidate, MatchmakingRules, Pairing, pair_key, pick_pairings


def bots(*specs):
    return [Candidate(name, rating, waiting) for name, rating, waiting in specs]


def test_close_ratings_are_preferred():
    pairs = pick_pairings(bots(("a", 10, 5), ("b", 30, 4), ("c", 11, 3), ("d", 29, 2)))
    assert set(pairs) == {Pairing("a", "c"), Pairing("b", "d")}


def test_pairs_that_met_least_come_first():
    field = bots(("a", 10, 5), ("b", 10, 4), ("c", 10, 3), ("d", 10, 2))
    pairs = pick_pairings(field, meetings={pair_key("a", "b"): 3, pair_key("a", "c"): 3})
    assert pairs[0] == Pairing("a", "d")


def test_the_longest_waiting_bot_picks_first():
    # "far" waited longest: it is paired even though its rating is far from everyone's.
    field = bots(("far", 100, 500), ("a", 10, 1), ("b", 11, 1))
    pairs = pick_pairings(field, MatchmakingRules(window=1))
    assert pairs[0].first == "far"


def test_a_starving_bot_looks_beyond_its_rating_neighbours():
    # far's only neighbour in the window (b) is capped; a is further away.
    rules = MatchmakingRules(window=1, starving_s=60, pair_games_per_hour=4)
    capped = {pair_key("far", "b"): 4}
    patient = bots(("far", 100, 30), ("a", 10, 1), ("b", 11, 1))
    assert all("far" not in (p.first, p.second) for p in pick_pairings(patient, rules, recent=capped))
    starving = bots(("far", 100, 61), ("a", 10, 1), ("b", 11, 1))
    assert pick_pairings(starving, rules, recent=capped)[0] == Pairing("far", "a")


def test_a_pair_never_exceeds_its_hourly_cap():
    rules = MatchmakingRules(pair_games_per_hour=4)
    field = bots(("a", 10, 5), ("b", 10, 4))
    assert pick_pairings(field, rules, recent={pair_key("a", "b"): 3}) == []
    assert pick_pairings(field, rules, recent={pair_key("a", "b"): 2}) == [Pairing("a", "b")]


def test_a_bot_plays_as_many_pairings_as_its_free_slots_but_never_one_pair_twice():
    field = [Candidate("many", 10, 9, slots=3), Candidate("x", 10, 1), Candidate("y", 10, 1)]
    pairs = pick_pairings(field)
    assert sorted(pairs, key=lambda p: p.second) == [Pairing("many", "x"), Pairing("many", "y")]


def test_an_odd_bot_waits_and_a_lone_bot_plays_nobody():
    assert len(pick_pairings(bots(("a", 1, 1), ("b", 1, 1), ("c", 1, 1)))) == 1
    assert pick_pairings(bots(("a", 1, 1))) == []


def test_the_decision_is_deterministic():
    field = bots(*[(f"bot{i}", (i * 7) % 13, (i * 5) % 11) for i in range(40)])
    assert pick_pairings(field) == pick_pairings(list(reversed(field)))

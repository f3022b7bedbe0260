"""The ladder's matchmaking rules, one test per rule."""

from shared.ladder import Candidate, MatchmakingRules, Pairing, idle_reason, pair_key, pick_pairings


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


def test_a_bot_waits_for_a_closer_busy_partner_until_it_starves():
    # far's only neighbour in the window (b) is capped; a is further away; near, close to far, is busy.
    rules = MatchmakingRules(window=1, starving_s=60, pair_games_per_hour=4)
    capped = {pair_key("far", "b"): 4}
    near = [Candidate("near", 95, 0, slots=0)]
    patient = bots(("far", 100, 30), ("a", 10, 1), ("b", 11, 1))
    assert all("far" not in (p.first, p.second) for p in pick_pairings(patient, rules, recent=capped, busy=near))
    starving = bots(("far", 100, 61), ("a", 10, 1), ("b", 11, 1))
    assert pick_pairings(starving, rules, recent=capped, busy=near)[0] == Pairing("far", "a")


def test_a_bot_with_no_closer_partner_connected_does_not_wait():
    # nobody is within max_gap of far, free or busy: waiting would only keep the ladder idle
    rules = MatchmakingRules(starving_s=60)
    field = bots(("far", 100, 1), ("a", 10, 1))
    assert pick_pairings(field, rules) == [Pairing("a", "far")]
    assert pick_pairings(field, rules, busy=[Candidate("busy", 50, 0, slots=0)]) == [Pairing("a", "far")]
    both = [Candidate("near_far", 90, 0, slots=0), Candidate("near_a", 15, 0, slots=0)]
    assert pick_pairings(field, rules, busy=both) == []            # each waits for its closer, busy partner


def test_a_pair_never_exceeds_its_hourly_cap_while_another_partner_is_under_it():
    rules = MatchmakingRules(pair_games_per_hour=4)
    field = bots(("a", 10, 5), ("b", 10, 4))
    busy = [Candidate("c", 10, 0, slots=0)]
    assert pick_pairings(field, rules, recent={pair_key("a", "b"): 3}, busy=busy) == []
    assert pick_pairings(field, rules, recent={pair_key("a", "b"): 2}, busy=busy) == [Pairing("a", "b")]


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


def test_an_uncertain_rating_is_tried_against_a_wider_band():
    # me is well known; "guess" is 8 points away but its rating is a guess (sigma 12), "known" is 4 away.
    # gap / sqrt(scale^2 + u^2 + u'^2): guess 8 / 13 = 0.62 beats known 4 / 5 = 0.8; with no uncertainty 8 / 5 loses.
    field = [Candidate("me", 10, 9), Candidate("known", 14, 1), Candidate("guess", 18, 1, uncertainty=12)]
    assert pick_pairings(field)[0] == Pairing("me", "guess")
    exact = [Candidate("me", 10, 9), Candidate("known", 14, 1), Candidate("guess", 18, 1)]
    assert pick_pairings(exact)[0] == Pairing("me", "known")


def test_the_pairs_own_uncertainty_counts_too():
    # The same gap costs less when the bot choosing is the uncertain one.
    rules = MatchmakingRules(max_gap=100)
    sure = [Candidate("me", 0, 9), Candidate("near", 5, 1), Candidate("far", 12, 1)]
    unsure = [Candidate("me", 0, 9, uncertainty=20), Candidate("near", 5, 1), Candidate("far", 12, 1)]
    assert pick_pairings(sure, rules, meetings={pair_key("me", "near"): 2})[0] == Pairing("me", "near")
    assert pick_pairings(unsure, rules, meetings={pair_key("me", "near"): 2})[0] == Pairing("me", "far")


def test_each_further_meeting_costs_less_than_the_one_before():
    # A pair that met 100 times still beats a partner 15 points away (0.2 + 0.5 ln 101 = 2.5 < 15 / 5 = 3),
    # where a cost per meeting would send the bot across the table; after 1000 (0.2 + 3.5) it no longer does.
    field = bots(("a", 10, 5), ("b", 11, 1), ("c", 25, 1))
    rules = MatchmakingRules(max_gap=100)
    assert pick_pairings(field, rules, meetings={pair_key("a", "b"): 100})[0] == Pairing("a", "b")
    assert pick_pairings(field, rules, meetings={pair_key("a", "b"): 1000})[0] == Pairing("a", "c")


def test_a_negative_uncertainty_or_meeting_weight_is_refused():
    import pytest

    with pytest.raises(ValueError, match="uncertainty"):
        pick_pairings([Candidate("a", 1, 1, uncertainty=-1), Candidate("b", 1, 1)])
    with pytest.raises(ValueError, match="meeting_weight"):
        MatchmakingRules(meeting_weight=-0.5)


def test_the_cap_holds_while_a_bot_has_a_partner_under_it_then_orders_the_pairs():
    rules = MatchmakingRules(pair_games_per_hour=4)
    free = bots(("a", 10, 5), ("b", 10, 4))
    # c is busy and under the cap with both: a and b wait for it rather than meet a fifth time this hour
    busy = [Candidate("c", 10, 0, slots=0)]
    assert pick_pairings(free, rules, recent={pair_key("a", "b"): 4}, busy=busy) == []
    # every pair capped (a small ladder after a busy hour): it keeps playing, the pair that played least first
    field = bots(("a", 10, 5), ("b", 10, 4), ("c", 10, 3), ("d", 10, 2))
    recent = {pair_key(x, y): 6 for x in "abcd" for y in "abcd" if x < y} | {pair_key("a", "d"): 4}
    assert pick_pairings(field, rules, recent=recent)[0] == Pairing("a", "d")
    assert len(pick_pairings(field, rules, recent=recent)) == 2


def test_a_barred_pair_is_never_paired():
    field = bots(("a", 10, 5), ("b", 10, 4))
    assert pick_pairings(field, barred={pair_key("a", "b")}) == []


def test_idle_says_why_and_when_play_resumes():
    assert idle_reason([], []).reason.startswith("no bot is connected")
    lone = idle_reason(bots(("a", 10, 5)), ["a"], paused=["b"])
    assert lone.reason.startswith("only a is connected") and "paused: b" in lone.reason and lone.resumes_in_s is None
    ready = idle_reason(bots(("a", 0, 20)), ["a", "b"])
    assert ready.reason.startswith("1 bot(s) are getting ready") and ready.resumes_in_s == 1.0

"""The final that settles: its rounds, when it stops, its table; and the interval of a rating difference."""

import math
import random
from collections import Counter
from itertools import combinations

import pytest

from shared.tournament import Final, FinalStandings, GameResult, TournamentError, default_final_games
from shared.tournament.bradley_terry import Encounter, rating_differences, rating_intervals
from shared.tournament.elo import expected_score
from shared.tournament.final import final_ranks, look_level, separations

PLAYERS = ["ann", "bob", "cy", "dee"]


def play_round(final, outcome, results=None):
    """Record every game of the final's current round, ``outcome(white, black)`` giving the winner (None: a draw)."""
    for game in final.current_round():
        result = GameResult(game.white, game.black, outcome(game.white, game.black), "goal")
        final.record(result)
        if results is not None:
            results.append((final.round, result))


def run(final, outcome, results=None, most=100):
    for _ in range(most):
        play_round(final, outcome, results)
        if not final.advance():
            return final
    raise AssertionError("the final did not stop")


def by_strength(strength):
    """The stronger player always wins."""
    return lambda white, black: 0 if strength[white] > strength[black] else 1


def test_each_round_is_every_pair_colour_swapped_with_pairings_numbered_through_the_final():
    final = Final(PLAYERS, 2, seed=7)
    first = final.current_round()
    assert len(first) == 6 * 2 and final.games_total is None
    pairs = Counter(frozenset((g.white, g.black)) for g in first)
    assert set(pairs) == {frozenset(p) for p in combinations(PLAYERS, 2)} and set(pairs.values()) == {2}
    seats = Counter((g.white, g.black) for g in first)
    assert all(seats[(a, b)] == 1 and seats[(b, a)] == 1 for a, b in combinations(PLAYERS, 2))   # colour-neutral
    assert sorted({g.pairing for g in first}) == list(range(6))
    play_round(final, lambda w, b: None)
    assert final.advance()
    second = final.current_round()
    assert {g.round for g in second} == {1} and sorted({g.pairing for g in second}) == list(range(6, 12))


def test_the_rounds_follow_from_the_seed():
    def rounds(seed):
        final, seen = Final(PLAYERS, 2, seed=seed, max_games=36), []
        for _ in range(3):
            seen.append(final.current_round())
            play_round(final, lambda w, b: None)
            final.advance()
        return seen
    assert rounds(3) == rounds(3)
    assert rounds(3) != rounds(4)


def test_a_decisive_field_settles_in_its_true_order():
    strength = {"ann": 1, "bob": 4, "cy": 2, "dee": 3}
    final = run(Final(PLAYERS, 2, seed=1), by_strength(strength))
    assert final.finished and final.settled
    assert final.order == ["bob", "dee", "cy", "ann"]
    assert final.separated == [True, True, True, None]
    assert final.games_total == (final.round + 1) * 12 < default_final_games(4, 2)
    assert final.current_round() == [] and not final.advance()


def test_a_field_of_equals_stops_at_the_budget_unsettled():
    final = run(Final(PLAYERS, 2, seed=1, max_games=50), lambda w, b: None)   # 12 games a round: 4 rounds fit, not 5
    assert final.finished and not final.settled
    assert final.round == 3 and final.games_total == 48 and final.max_rounds == 4
    assert final.separated == [False, False, False, None]


def test_each_look_is_made_at_the_level_that_keeps_the_whole_final_at_95_percent():
    assert Final(PLAYERS, 2, max_games=120).level == pytest.approx(1 - 0.05 / 10)
    assert look_level(1) == pytest.approx(0.95)
    assert default_final_games(8, 2) == 20 * 28 * 2


def test_a_final_rebuilt_from_its_stored_results_plays_the_same_rounds_and_stops_at_the_same_one():
    rng = random.Random(5)
    strength = {"ann": 0, "bob": 300, "cy": 150, "dee": 450}

    def outcome(white, black):
        return 0 if rng.random() < expected_score(strength[white] - strength[black]) else 1
    played = []
    first = run(Final(PLAYERS, 2, seed=9, max_games=600), outcome, played)
    again = Final(PLAYERS, 2, seed=9, max_games=600)
    by_round = [[r for n, r in played if n == k] for k in range(first.round + 1)]
    for k, results in enumerate(by_round):
        assert again.round == k
        assert {(g.white, g.black) for g in again.current_round()} == {(r.white, r.black) for r in results}
        for result in reversed(results):            # in any order
            again.record(result)
        again.advance()
    assert again.finished and again.order == first.order and again.separated == first.separated
    assert again.games_total == first.games_total == len(played)


@pytest.mark.parametrize("games, budget, why", [(1, None, "even number"), (3, None, "even number"),
                                                 (2, 11, "at least one round")])
def test_bad_settings_are_refused_in_one_line(games, budget, why):
    with pytest.raises(TournamentError, match=why):
        Final(PLAYERS, games, max_games=budget)


def test_a_game_that_is_not_this_rounds_or_one_too_many_is_refused():
    final = Final(PLAYERS, 2)
    with pytest.raises(TournamentError, match="not finished"):
        final.advance()
    final.record(GameResult("ann", "bob", 0, "goal"))
    with pytest.raises(TournamentError, match="already recorded"):
        final.record(GameResult("ann", "bob", 0, "goal"))
    with pytest.raises(TournamentError, match="not a pairing"):
        final.record(GameResult("ann", "zed", 0, "goal"))


def test_the_table_ranks_by_rating_and_neighbours_not_separated_share_a_rank():
    # ann beats everyone, bob and cy are even, dee loses to everyone: 1, 2, 2, 4.
    strength = {"ann": 3, "bob": 2, "cy": 2, "dee": 1}
    standings = FinalStandings(PLAYERS, 0.95)
    for _ in range(10):
        for a, b in combinations(PLAYERS, 2):
            for white, black in ((a, b), (b, a)):
                winner = None if strength[white] == strength[black] else 0 if strength[white] > strength[black] else 1
                standings.add(GameResult(white, black, winner, "goal"))
    rows = standings.rows()
    assert [r.player for r in rows][0] == "ann" and rows[-1].player == "dee"
    assert [r.rank for r in rows] == [1, 2, 2, 4]
    assert [r.separated for r in rows] == [True, False, True, None]
    assert rows[0].elo_low <= rows[0].elo <= rows[0].elo_high          # the rating with its interval


def test_players_without_a_counted_game_come_last_and_separated_from_nobody():
    results = [GameResult("ann", "bob", 0, "goal"), GameResult("cy", "dee", None, "forfeit")]   # a double forfeit
    order, flags = separations(PLAYERS, results, 0.95)
    assert order[2:] == ["cy", "dee"] and flags == [False, False, False, None]


# -- the interval of a difference -------------------------------------------------------------------------
ELO = 400 / math.log(10)


def penalised(theta, table):
    """Brute force: the Jeffreys-penalised log-likelihood of 3 players, theta = (0, b, c) natural units."""
    names = "ABC"
    value = 0.0
    info = [[0.0, 0.0], [0.0, 0.0]]                  # over the free players B, C
    for e in table:
        i, j = names.index(e.first), names.index(e.second)
        d = theta[i] - theta[j]
        p = 1 / (1 + math.exp(-d))
        value += e.points * math.log(p) + (e.games - e.points) * math.log(1 - p)
        w = e.games * p * (1 - p)
        for x, y, sign in ((i, i, 1), (j, j, 1), (i, j, -1), (j, i, -1)):
            if x and y:
                info[x - 1][y - 1] += sign * w
    return value + 0.5 * math.log(info[0][0] * info[1][1] - info[0][1] * info[1][0])


def profile(d, table):
    """max over c of the penalised likelihood with b - c = d (golden-section search)."""
    lo, hi = -10.0, 10.0
    g = (math.sqrt(5) - 1) / 2
    for _ in range(200):
        x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
        if penalised((0, x1 + d, x1), table) < penalised((0, x2 + d, x2), table):
            lo = x1
        else:
            hi = x2
    return penalised((0, lo + d, lo), table)


def test_the_difference_interval_agrees_with_a_brute_force_profile_likelihood():
    table = ([Encounter("B", "C", 1, 1.0)] * 5 + [Encounter("B", "C", 1, 0.0)] * 2 + [Encounter("A", "B", 1, 1.0)] * 3
             + [Encounter("A", "B", 1, 0.0)] * 4 + [Encounter("A", "C", 1, 1.0)] * 6 + [Encounter("A", "C", 1, 0.0)])
    found = rating_differences("ABC", table, [("B", "C")], level=0.9)[("B", "C")]
    z = 1.6448536269514722
    top = max(profile(d / ELO, table) for d in [found.estimate + k * 0.01 for k in range(-50, 51)])

    def end(inside, outside):
        for _ in range(60):
            middle = (inside + outside) / 2
            if 2 * (top - profile(middle / ELO, table)) < z * z:
                inside = middle
            else:
                outside = middle
        return inside
    assert found.low == pytest.approx(end(found.estimate, found.estimate - 2000), abs=0.5)
    assert found.high == pytest.approx(end(found.estimate, found.estimate + 2000), abs=0.5)
    assert 0 < found.low < found.estimate < found.high and found.separated


def test_a_difference_to_the_anchor_is_that_rating_with_its_interval():
    table = [Encounter("A", "B", 1, 1.0)] * 6 + [Encounter("A", "B", 1, 0.0)] * 2 + [Encounter("B", "C", 1, 0.5)] * 4
    found = rating_differences("ABC", table, [("A", "B"), ("C", "B")])
    assert (found[("A", "B")].low, found[("A", "B")].high) == pytest.approx(
        rating_intervals("ABC", table, anchor="B")["A"], abs=1e-6)
    assert found[("C", "B")].low < 0 < found[("C", "B")].high


def test_players_not_linked_by_games_have_no_difference():
    table = [Encounter("A", "B", 1, 1.0)]
    assert rating_differences("ABC", table, [("A", "C")]) == {("A", "C"): None}


def test_after_a_look_the_table_is_that_looks_until_the_next_game():
    standings = FinalStandings(PLAYERS, 0.95)
    for a, b in combinations(PLAYERS, 2):
        standings.add(GameResult(a, b, 0, "goal"))
    order = [r.player for r in standings.rows()]
    standings.looked(order, [True, False, True, None], [1, 2, 2, 4])     # a look at its own level says otherwise
    assert [(r.rank, r.separated) for r in standings.rows()] == [(1, True), (2, False), (2, True), (4, None)]
    standings.add(GameResult("ann", "dee", 0, "goal"))         # a game after the look: worked out again
    fresh = FinalStandings(PLAYERS, 0.95)
    for result in standings.results:
        fresh.add(result)
    assert standings.rows() == fresh.rows()
    assert [r.separated for r in fresh.rows()] == [False, False, False, None]


def test_the_quadratic_difference_interval_is_near_the_profile_one_with_many_games():
    rng = random.Random(3)
    table = [Encounter(a, b, 1, float(rng.random() < expected_score(100 * ("ABCD".index(b) - "ABCD".index(a)))))
             for _ in range(60) for a, b in combinations("ABCD", 2)]
    pairs = [("A", "B"), ("B", "C"), ("C", "D")]
    profiled = rating_differences("ABCD", table, pairs)
    quadratic = rating_differences("ABCD", table, pairs, profile=False)
    for pair in pairs:
        assert quadratic[pair].estimate == pytest.approx(profiled[pair].estimate)
        assert quadratic[pair].low == pytest.approx(profiled[pair].low, abs=5)
        assert quadratic[pair].high == pytest.approx(profiled[pair].high, abs=5)


# -- one pairing at a time, and ranks that do not chain ------------------------------------------------------


@pytest.mark.parametrize("players", [4, 5, 8])
def test_a_rounds_slates_seat_nobody_twice_and_make_up_the_round(players):
    names = [f"p{k}" for k in range(players)]
    final = Final(names, 2, seed=5)
    for _ in range(2):
        slates = final.current_slates()
        assert len(slates) == (players - 1 if players % 2 == 0 else players)
        for slate in slates:
            seated = Counter(name for pairing in {(g.pairing, frozenset((g.white, g.black))) for g in slate}
                             for name in pairing[1])
            assert set(seated.values()) == {1}                  # one pairing each: a connected bot plays one game
        assert [g for slate in slates for g in slate] == final.current_round()
        play_round(final, lambda w, b: None)
        final.advance()


def test_ties_between_neighbours_do_not_chain_a_rank_down_the_table():
    # Five bots 100 Elo apart, each pair's games as the ratings expect: neighbours are too close to separate, but the
    # ends are far apart; a rank shared with the row above would give everyone rank 1.
    names = ["a", "b", "c", "d", "e"]
    results = []
    for (i, x), (j, y) in combinations(enumerate(names), 2):
        share = expected_score(100 * (j - i))
        wins = round(12 * share)
        results += [GameResult(x, y, 0, "goal")] * wins + [GameResult(y, x, 0, "goal")] * (12 - wins)
    order, flags = separations(names, results, 0.95)
    assert order == names and not any(flags[:-1])              # no neighbours separated
    ranks = final_ranks(names, results, order, 0.95)
    assert ranks[0] == 1 and ranks[-1] > 1                     # yet the last was shown worse than the first
    assert ranks == sorted(ranks)
    standings = FinalStandings(names, 0.95)
    for result in results:
        standings.add(result)
    assert [r.rank for r in standings.rows()] == final_ranks(names, results, order, 0.95, profile=False)

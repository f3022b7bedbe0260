"""Round-robin schedules and knockouts: who meets whom, seats, byes, tie-breaks, reproducibility."""

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shared.tournament as tournament
from shared.tournament import GameResult, Knockout, ScheduledGame, decide_pairing, round_robin


def names(n):
    return [f"p{i}" for i in range(n)]


def check_round_robin(players, r, rounds):
    """Every invariant a round-robin schedule must hold."""
    n = len(players)
    assert len(rounds) == (n if n % 2 else n - 1)
    pairings: dict[int, list[ScheduledGame]] = {}
    for number, games in enumerate(rounds):
        in_round = Counter()
        for game in games:
            assert game.round == number
            assert game.white != game.black and {game.white, game.black} <= set(players)
            pairings.setdefault(game.pairing, []).append(game)
        for games_of_pairing in (g for g in pairings.values() if g[0].round == number):
            for name in {games_of_pairing[0].white, games_of_pairing[0].black}:
                in_round[name] += 1
        assert all(count == 1 for count in in_round.values()), "a player has two pairings in one round"
        # Everybody plays each round, except exactly one bye when the count is odd.
        assert len(in_round) == n - n % 2
    assert sorted(pairings) == list(range(n * (n - 1) // 2))
    met = Counter()
    for games in pairings.values():
        assert [g.game_in_pairing for g in games] == list(range(r))
        assert len({g.round for g in games}) == 1
        first, second = games[0].white, games[0].black
        for g in games:
            assert (g.white, g.black) == ((first, second) if g.game_in_pairing % 2 == 0 else (second, first))
        met[frozenset((first, second))] += 1
        seat0 = Counter(g.white for g in games)
        if r % 2 == 0:
            assert seat0[first] == seat0[second] == r // 2
    assert set(met) == {frozenset(p) for p in itertools.combinations(players, 2)}
    assert set(met.values()) == {1}


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8])
@pytest.mark.parametrize("r", [1, 2, 3])
def test_round_robin_invariants(n, r):
    players = names(n)
    check_round_robin(players, r, round_robin(players, r))


@settings(deadline=None, max_examples=60)
@given(n=st.integers(2, 12), r=st.integers(1, 4), seed=st.none() | st.integers(0, 2**32))
def test_round_robin_property(n, r, seed):
    players = names(n)
    check_round_robin(players, r, round_robin(players, r, seed=seed))


def test_without_seed_the_given_order_is_used():
    first = round_robin(["a", "b", "c", "d"], 1)[0]
    assert [(g.white, g.black) for g in first] == [("a", "d"), ("b", "c")]


def test_seed_is_reproducible_and_matters():
    players = names(8)
    assert round_robin(players, 2, seed=7) == round_robin(players, 2, seed=7)
    schedules = {str(round_robin(players, 2, seed=s)) for s in range(5)}
    assert len(schedules) > 1
    assert round_robin(players, 2, seed=7) != round_robin(players, 2)


def test_odd_round_count_keeps_seat_0_roughly_balanced():
    rounds = round_robin(names(6), 1)
    seat0 = Counter(g.white for games in rounds for g in games)
    assert all(abs(seat0[p] - 2.5) <= 1.5 for p in names(6))


@pytest.mark.parametrize("players, r, message", [
    (["a"], 1, "at least 2"),
    ([], 1, "at least 2"),
    (["a", "a"], 1, "distinct"),
    (["a", ""], 1, "non-empty"),
    ("ab", 1, "sequence"),
    (["a", "b"], 0, "games per pairing"),
    (["a", "b"], 1.5, "games per pairing"),
])
def test_round_robin_rejects_bad_input(players, r, message):
    with pytest.raises(ValueError, match=message):
        round_robin(players, r)


# --- knockout -----------------------------------------------------------------------------------

def play_round(ko, winner_of=None, *, winner_seat=0, reason="goal"):
    """Record every game of the current round; ``winner_of(game)`` gives the winning name or None."""
    for game in ko.current_round():
        if winner_of is None:
            winner = winner_seat
        else:
            name = winner_of(game)
            winner = None if name is None else (game.white, game.black).index(name)
        ko.record(GameResult(game.white, game.black, winner, reason if winner is not None else "step_cap"))


def run(ko, winner_of=None, limit=20):
    for _ in range(limit):
        play_round(ko, winner_of)
        if not ko.advance():
            return
    raise AssertionError("the knockout did not finish")


@pytest.mark.parametrize("n", [2, 3, 5, 8, 13])
@pytest.mark.parametrize("seed", [None, 1, 2])
def test_knockout_reaches_one_champion(n, seed):
    players = names(n)
    ko = Knockout(players, 2, seed=seed)
    strongest = lambda game: min(game.white, game.black, key=lambda p: int(p[1:]))  # noqa: E731
    run(ko, strongest)
    assert ko.champion == "p0"
    assert sorted(ko.eliminated) == sorted(players[1:])
    assert ko.current_round() == [] and ko.advance() is False
    # One bye per round with an odd count of players left.
    left, expected_byes = n, 0
    while left > 1:
        expected_byes += left % 2
        left = (left + 1) // 2
    assert len(ko.byes) == expected_byes


def test_knockout_bye_is_recorded_and_advances():
    ko = Knockout(["a", "b", "c"], 2)
    games = ko.current_round()
    assert ko.byes == ["c"]
    assert {g.white for g in games} | {g.black for g in games} == {"a", "b"}
    assert [(g.white, g.black) for g in games] == [("a", "b"), ("b", "a")]
    play_round(ko, lambda g: "b")
    assert ko.advance() is True
    assert ko.eliminated == ["a"] and ko.remaining == ["b", "c"] and ko.round == 1
    second = ko.current_round()
    assert {g.round for g in second} == {1} and {g.pairing for g in second} == {1}
    play_round(ko, lambda g: "c")
    assert ko.advance() is False
    assert ko.champion == "c" and ko.eliminated == ["a", "b"]


def test_nobody_gets_a_second_bye_while_others_had_none():
    ko = Knockout(names(7), 1, seed=3)
    run(ko, lambda g: g.white)
    assert len(ko.byes) == len(set(ko.byes))


def test_two_player_knockout_with_two_draws_ends_on_thinking_time():
    ko = Knockout(["slow", "fast"], 2)
    for game in ko.current_round():
        thinking = tuple(9000 if name == "slow" else 4000 for name in (game.white, game.black))
        ko.record(GameResult(game.white, game.black, None, "step_cap", thinking_ms=thinking))
    assert ko.advance() is False
    assert ko.champion == "fast" and ko.eliminated == ["slow"]


def test_knockout_is_reproducible_with_a_seed():
    def first_round(seed):
        return Knockout(names(8), 1, seed=seed).current_round()
    assert first_round(5) == first_round(5)
    assert len({str(first_round(s)) for s in range(6)}) > 1


def test_knockout_rejects_bad_records_and_early_advance():
    ko = Knockout(["a", "b", "c", "d"], 2)
    with pytest.raises(ValueError, match="not finished: 0 of 4"):
        ko.advance()
    with pytest.raises(ValueError, match="not a pairing"):
        ko.record(GameResult("a", "c", 0, "goal"))
    ko.record(GameResult("a", "b", 0, "goal"))
    with pytest.raises(ValueError, match="already recorded"):
        ko.record(GameResult("a", "b", 1, "goal"))
    ko.record(GameResult("b", "a", 1, "goal"))  # the other seat order is still open
    assert not ko.round_complete


def test_knockout_accepts_games_of_a_pairing_in_any_order():
    ko = Knockout(["a", "b"], 3)
    for white, black in [("b", "a"), ("a", "b"), ("a", "b")]:
        ko.record(GameResult(white, black, 0, "goal"))
    assert ko.round_complete and ko.advance() is False
    assert ko.champion == "a"  # two wins as seat 0 against one for b
    with pytest.raises(ValueError, match="over"):
        ko.record(GameResult("a", "b", 0, "goal"))


@pytest.mark.parametrize("results, expected", [
    ([GameResult("a", "b", 1, "goal"), GameResult("b", "a", 0, "goal")], "b"),  # more wins
    ([GameResult("a", "b", 0, "goal"), GameResult("b", "a", 0, "goal", thinking_ms=(5, 7))], "b"),  # split: time
    ([GameResult("a", "b", None, "step_cap", (10, 10), (2, 1))], "b"),  # equal time: fewer violations
    ([GameResult("a", "b", None, "step_cap", (10, 10), (1, 1))], "a"),  # all equal: first-listed
    ([], "a"),
])
def test_decide_pairing(results, expected):
    assert decide_pairing("a", "b", results) == expected


def test_decide_pairing_rejects_foreign_games():
    with pytest.raises(ValueError, match="'c'"):
        decide_pairing("a", "b", [GameResult("a", "c", 0, "goal")])


def test_exports_resolve():
    assert all(hasattr(tournament, name) for name in tournament.__all__)


# --- seeded knockout (pairing numbers from the ladder: --seed-from-ladder) --------------------------

def test_bracket_order_meets_the_top_seeds_last():
    assert tournament.bracket_order(1) == [1]
    assert tournament.bracket_order(2) == [1, 2]
    assert tournament.bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    for size in (4, 8, 16, 32):
        order = tournament.bracket_order(size)
        assert sorted(order) == list(range(1, size + 1))
        # round 1: seed k meets seed size + 1 - k; the two halves hold 1 and 2, the quarters 1 to 4
        assert all(a + b == size + 1 for a, b in zip(order[::2], order[1::2]))
        assert 1 in order[:size // 2] and 2 in order[size // 2:]
        quarters = [order[i:i + size // 4] for i in range(0, size, size // 4)]
        assert sorted(min(q) for q in quarters) == [1, 2, 3, 4]
    with pytest.raises(tournament.TournamentError, match="power of 2"):
        tournament.bracket_order(6)


def seeded(n):
    """``n`` players whose names do not sort as their seeds: ``s1`` is seed 1 but listed last."""
    return [f"s{k}" for k in range(n, 0, -1)], [f"s{k}" for k in range(1, n + 1)]


def pairs_of(ko):
    return sorted({(g.white, g.black) if g.game_in_pairing % 2 == 0 else (g.black, g.white)
                   for g in ko.current_round()})


def test_seeded_knockout_of_8_is_the_standard_bracket():
    players, seeds = seeded(8)
    ko = Knockout(players, 2, seed=99, seeds=seeds)
    assert pairs_of(ko) == sorted([("s1", "s8"), ("s4", "s5"), ("s2", "s7"), ("s3", "s6")])
    assert ko.byes == []
    upset = {frozenset(("s4", "s5")): "s5"}          # seed 5 beats seed 4; else the better seed wins
    winner = lambda g: upset.get(frozenset((g.white, g.black)), min(g.white, g.black, key=seeds.index))  # noqa: E731
    play_round(ko, winner)
    assert ko.advance()
    assert pairs_of(ko) == sorted([("s1", "s5"), ("s2", "s3")])      # bracket neighbours, the better seed first
    play_round(ko, winner)
    assert ko.advance()
    assert pairs_of(ko) == [("s1", "s2")]                            # the top two meet in the final
    play_round(ko, winner)
    assert not ko.advance() and ko.champion == "s1"


@pytest.mark.parametrize("n, byes, first_round", [
    (5, ["s1", "s2", "s3"], [("s4", "s5")]),
    (6, ["s1", "s2"], [("s3", "s6"), ("s4", "s5")]),
    (3, ["s1"], [("s2", "s3")]),
    (2, [], [("s1", "s2")]),
])
def test_seeded_knockout_gives_the_byes_to_the_top_seeds(n, byes, first_round):
    players, seeds = seeded(n)
    ko = Knockout(players, 1, seeds=seeds)
    assert sorted(ko.byes) == byes
    assert pairs_of(ko) == first_round
    run(ko, lambda g: min(g.white, g.black, key=seeds.index))
    assert ko.champion == "s1" and sorted(ko.eliminated) == sorted(seeds[1:])
    assert sorted(ko.byes) == byes                                   # round 1's only: the bracket is full after it


def test_seeded_knockout_ignores_the_seed_and_is_the_same_when_rebuilt():
    players, seeds = seeded(7)
    rounds = []
    for seed in (1, 2):
        ko = Knockout(players, 2, seed=seed, seeds=seeds)
        played = []
        for _ in range(5):
            played.append(pairs_of(ko))
            play_round(ko, lambda g: max(g.white, g.black))          # upsets by name: a bracket that is not by seed
            if not ko.advance():
                break
        rounds.append((played, ko.champion))
    assert rounds[0] == rounds[1]


def test_knockout_without_seeds_is_unchanged():
    ko = Knockout(names(6), 1, seed=5)
    assert ko.current_round() == Knockout(names(6), 1, seed=5, seeds=None).current_round()
    assert [(g.white, g.black) for g in Knockout(names(4), 1).current_round()] == [("p0", "p1"), ("p2", "p3")]


@pytest.mark.parametrize("seeds, message", [
    (["s1", "s2"], "missing"),
    (["s1", "s2", "s3", "s3"], "exactly once"),
    (["s1", "s2", "s3", "x"], "not players"),
])
def test_seeds_must_order_exactly_the_players(seeds, message):
    players, _ = seeded(3)
    with pytest.raises(tournament.TournamentError, match=message):
        Knockout(players, 1, seeds=seeds)


def test_seeding_order_puts_the_rated_first_and_shuffles_the_unrated_by_the_seed():
    ratings = {"ann": 120.0, "bob": None, "cy": 800.0, "dee": 120.0, "eve": -30.0}
    players = ["ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal"]      # fay, gus, hal: not on the ladder
    order = tournament.seeding_order(players, ratings, seed=1)
    assert order[:4] == ["cy", "ann", "dee", "eve"]                        # best first, equal ratings by name
    assert sorted(order[4:]) == ["bob", "fay", "gus", "hal"]
    assert tournament.seeding_order(list(reversed(players)), ratings, seed=1) == order      # not the given order
    shuffles = {tuple(tournament.seeding_order(players, ratings, seed=s)[4:]) for s in range(20)}
    assert len(shuffles) > 1                                               # the seed orders the unrated

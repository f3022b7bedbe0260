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

import pytest

from shared.ladder import published_table


def test_the_published_table_is_anchored_at_random_and_ordered_best_first():
    games = [("strong", "random", 1.0), ("random", "strong", 0.0), ("mid", "random", 1.0), ("strong", "mid", 1.0),
             ("mid", "strong", 0.5), ("random", "mid", 0.5)]
    rows = published_table(["random", "mid", "strong", "newcomer"], games, anchor="random")
    assert [r.track for r in rows] == ["strong", "mid", "random", "newcomer"]
    random_row = next(r for r in rows if r.track == "random")
    assert (random_row.rating, random_row.low, random_row.high) == (0.0, 0.0, 0.0)
    assert rows[0].rating > rows[1].rating > 0 and rows[0].low <= rows[0].rating <= rows[0].high
    assert rows[-1].rating is None and rows[-1].games == 0
    assert (rows[0].games, rows[0].score, rows[0].wins, rows[0].losses, rows[0].draws) == (4, 3.5, 3, 0, 1)


def test_pair_encounters_sum_each_pairs_games_whoever_had_white():
    from shared.ladder import pair_encounters
    from shared.tournament.bradley_terry import Encounter

    games = [("b", "a", 1.0), ("a", "b", 1.0), ("a", "b", 0.5), ("c", "a", 0.0)]
    assert sorted(pair_encounters(games), key=lambda e: e.second) == [Encounter("a", "b", 3, 1.5),
                                                                       Encounter("a", "c", 1, 1.0)]


def test_ladder_ratings_are_the_published_tables_ratings_without_the_intervals():
    from shared.ladder import ladder_ratings

    games = [("strong", "random", 1.0), ("random", "strong", 0.0), ("mid", "random", 1.0), ("strong", "mid", 1.0),
             ("mid", "strong", 0.5), ("random", "mid", 0.5)]
    tracks = ["random", "mid", "strong", "newcomer"]
    rows = published_table(tracks, games, anchor="random")
    assert ladder_ratings(tracks, games, anchor="random") == {r.track: r.rating for r in rows}
    assert ladder_ratings(tracks, games, anchor="random")["random"] == 0.0
    assert ladder_ratings([], []) == {}


def test_without_random_the_table_is_centred_and_nobody_has_an_interval_of_no_width():
    # A ladder of connected bots only: the first track sat at 0 with the interval "0 ... 0" on the page.
    games = [("alice", "bob", 1.0), ("bob", "alice", 1.0), ("carol", "alice", 0.5), ("bob", "carol", 0.0),
             ("carol", "bob", 1.0), ("alice", "carol", 1.0)]
    tracks = ["newcomer", "alice", "bob", "carol"]
    rows = {r.track: r for r in published_table(tracks, games, anchor="random")}
    rated = [rows[name] for name in ("alice", "bob", "carol")]
    assert sum(r.rating for r in rated) == pytest.approx(0.0, abs=1e-6)
    assert all(r.low < r.rating < r.high for r in rated)
    assert rows["newcomer"].rating is None
    from shared.ladder import ladder_ratings
    assert ladder_ratings(tracks, games) == {name: row.rating for name, row in rows.items()}


def test_a_sweeping_bots_interval_holds_its_rating():
    # Every game won by the stronger: --report table printed "strong@... +906 [+377, +838]" (the bootstrap).
    won = {("strong", "random"): 12, ("strong", "mid"): 8, ("strong", "weak"): 14, ("mid", "random"): 14,
           ("weak", "random"): 9, ("mid", "weak"): 3}
    games = [(winner, loser, 1.0) if k % 2 else (loser, winner, 0.0)
             for (winner, loser), n in won.items() for k in range(n)]
    rows = published_table(["random", "weak", "mid", "strong"], games, anchor="random")
    assert [r.track for r in rows] == ["strong", "mid", "weak", "random"]
    for row in rows:
        assert row.low <= row.rating <= row.high
        assert row.margin == max(row.high - row.rating, row.rating - row.low)
    assert rows[0].high - rows[0].rating > rows[0].rating - rows[0].low     # a perfect score's long side

"""Standings: points, seats, tie-break order, ranks, crosstable and result validation."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.tournament import GameResult, Standings, round_robin


def test_points_wins_losses_draws_and_seats():
    s = Standings(["a", "b", "c"])
    s.add(GameResult("a", "b", 0, "goal", thinking_ms=(1500, 2500), violations=(1, 2)))
    s.add(GameResult("b", "a", None, "step_cap", thinking_ms=(100, 100)))
    s.add(GameResult("c", "a", 1, "violations", violations=(3, 0)))
    assert s.games_done == 3 and len(s.results) == 3
    rows = {row.player: row for row in s.rows()}
    a, b, c = rows["a"], rows["b"], rows["c"]
    assert (a.points, a.games, a.wins, a.losses, a.draws) == (2.5, 3, 2, 0, 1)
    assert a.white == (1, 0, 0) and a.black == (1, 0, 1)
    assert b.white == (0, 0, 1) and b.black == (0, 1, 0) and b.points == 0.5
    assert c.white == (0, 1, 0) and c.points == 0
    assert (a.violations, b.violations, c.violations) == (1, 2, 3)
    assert (a.thinking_ms, b.thinking_ms) == (1600, 2600)
    assert [row.player for row in s.rows()] == ["a", "b", "c"]
    assert [row.rank for row in s.rows()] == [1, 2, 3]


def test_no_games_everybody_shares_rank_one_in_name_order():
    rows = Standings(["zed", "amy", "kim"]).rows()
    assert [r.player for r in rows] == ["amy", "kim", "zed"]
    assert [r.rank for r in rows] == [1, 1, 1]
    assert all(r.elo is None and r.elo_error is None and r.games == 0 for r in rows)


def test_more_wins_beat_equal_points_from_draws():
    s = Standings(["drawer", "winner", "x", "y"])
    s.add(GameResult("drawer", "x", None, "step_cap"))
    s.add(GameResult("drawer", "y", None, "step_cap"))
    s.add(GameResult("winner", "x", 0, "goal"))
    s.add(GameResult("winner", "y", 1, "goal"))
    rows = {r.player: r for r in s.rows()}
    assert rows["winner"].points == rows["drawer"].points == 1.0
    assert rows["winner"].rank < rows["drawer"].rank


def test_sonneborn_berger_breaks_ties():
    # a, b and weak end on 1 point each; a's win came against strong (2 points), b's and weak's
    # against 1-point players.
    s = Standings(["b", "a", "strong", "weak"])
    s.add(GameResult("a", "strong", 0, "goal"))
    s.add(GameResult("b", "weak", 0, "goal"))
    s.add(GameResult("strong", "weak", 0, "goal"))
    s.add(GameResult("weak", "a", 0, "goal"))
    s.add(GameResult("b", "strong", 1, "goal"))
    rows = s.rows()
    assert [(r.rank, r.player, r.points, r.sonneborn_berger) for r in rows] == [
        (1, "strong", 2, 2.0), (2, "a", 1, 2.0), (3, "b", 1, 1.0), (3, "weak", 1, 1.0)]


def test_violations_then_thinking_time_then_name():
    s = Standings(["a", "b", "c", "d"])
    s.add(GameResult("a", "b", None, "step_cap", thinking_ms=(10, 10), violations=(1, 0)))
    s.add(GameResult("c", "d", None, "step_cap", thinking_ms=(50, 20)))
    assert [r.player for r in s.rows()] == ["b", "d", "c", "a"]
    assert [r.rank for r in s.rows()] == [1, 2, 3, 4]


def test_exact_ties_share_a_rank():
    s = Standings(["b", "a", "c"])
    s.add(GameResult("a", "c", 0, "goal"))
    s.add(GameResult("b", "c", 0, "goal"))
    rows = s.rows()
    assert [(r.rank, r.player) for r in rows] == [(1, "a"), (1, "b"), (3, "c")]


def test_crosstable():
    s = Standings(["a", "b", "c"])
    s.add(GameResult("a", "b", 0, "goal"))
    s.add(GameResult("b", "a", None, "step_cap"))
    table = s.crosstable()
    assert table["a"] == {"b": (1.5, 2), "c": (0.0, 0)}
    assert table["b"]["a"] == (0.5, 2)
    assert "a" not in table["a"]


def test_elo_in_rows():
    s = Standings(["a", "b"])
    for _ in range(3):
        s.add(GameResult("a", "b", 0, "goal"))
        s.add(GameResult("b", "a", 0, "goal"))
    a, b = s.rows()
    assert a.elo == b.elo == 0.0 and a.elo_error == b.elo_error and a.elo_error > 0


@settings(deadline=None, max_examples=40)
@given(n=st.integers(2, 8), outcomes=st.lists(st.sampled_from([0, 1, None]), min_size=28, max_size=28))
def test_points_add_up_over_a_round_robin(n, outcomes):
    players = [f"p{i}" for i in range(n)]
    s = Standings(players)
    games = [g for rnd in round_robin(players, 1) for g in rnd]
    for game, winner in zip(games, outcomes):
        s.add(GameResult(game.white, game.black, winner, "goal" if winner is not None else "step_cap"))
    rows = s.rows()
    assert sum(r.points for r in rows) == len(games)
    assert sum(r.games for r in rows) == 2 * len(games) == 2 * s.games_done
    assert all(r.white[0] + r.black[0] == r.wins for r in rows)
    keys = [(-r.points, -r.wins, -r.sonneborn_berger) for r in rows]
    assert keys == sorted(keys)
    cross = s.crosstable()
    assert all(cross[a][b][0] + cross[b][a][0] == cross[a][b][1] for a in players for b in players if a != b)


def test_unknown_player_is_rejected():
    s = Standings(["a", "b"])
    with pytest.raises(ValueError, match="'z' is not in these standings"):
        s.add(GameResult("a", "z", 0, "goal"))
    assert s.games_done == 0


@pytest.mark.parametrize("kwargs, message", [
    (dict(white="a", black="a", winner=0, reason="goal"), "two different"),
    (dict(white="a", black="b", winner=2, reason="goal"), "winner must be 0, 1 or None"),
    (dict(white="a", black="b", winner=True, reason="goal"), "winner"),
    (dict(white="a", black="b", winner=0, reason="resign"), "'resign'"),
    (dict(white="a", black="b", winner=0, reason="goal", thinking_ms=(1, -1)), "thinking_ms"),
    (dict(white="a", black="b", winner=0, reason="goal", violations=(1,)), "violations"),
    (dict(white="", black="b", winner=0, reason="goal"), "non-empty"),
])
def test_game_result_validation(kwargs, message):
    with pytest.raises(ValueError, match=message):
        GameResult(**kwargs)


def test_standings_rejects_duplicate_players():
    with pytest.raises(ValueError, match="distinct"):
        Standings(["a", "b", "a"])

"""What the server shows: the rich dashboard and the plain line-per-event report."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from server.live import LiveReporter, PlainReporter, Snapshot, describe_result, render_dashboard
from shared.quoridor import Step
from shared.referee import GameReferee, StepJudged
from shared.tournament import GameResult, Standings


def console() -> Console:
    return Console(width=100, color_system=None, file=io.StringIO())


def judged_step() -> StepJudged:
    """A real judged step: seat 0 plays e2 after 123 ms."""
    referee = GameReferee(("alice", "bob"))
    referee.start()
    referee.clock_started(0, 10.0)
    return next(e for e in referee.receive_step(0, 0, Step.move(5, 2), 10.123) if isinstance(e, StepJudged))


def three_players() -> Standings:
    standings = Standings(["alice", "bob", "carol"])
    standings.add(GameResult("alice", "bob", 0, "goal", (1500, 2500)))
    return standings


def test_the_dashboard_shows_progress_games_in_progress_and_standings():
    out = console()
    reporter = LiveReporter(out)
    reporter.tournament_started("cup", ["alice", "bob", "carol"], 3)
    reporter.game_started("g1", "alice", "bob")
    reporter.game_started("g2", "carol", "alice")
    reporter.game_step("g2", judged_step())
    reporter.game_finished("g1", "alice", "bob", GameResult("alice", "bob", 0, "goal", (1500, 2500)))
    reporter.standings(three_players())
    screen = console()
    screen.print(render_dashboard(reporter.snap))
    text = screen.file.getvalue()
    assert "Quoridor Arena · cup" in text and "1/3 games" in text
    lines = text.splitlines()
    assert "━" in lines[1] and "games in progress" not in lines[1]          # the bar has a line of its own
    assert "games in progress" in text and "carol" in text and "e2" in text and "0.1 / 0.0" in text
    assert "g1" not in text.split("games in progress")[1].split("standings")[0]   # finished: not in progress
    assert "standings" in text and "alice" in text.split("standings")[1]
    assert "g1: alice 1-0 bob (goal)" in text                                      # recent events
    reporter.stop()


def test_the_dashboard_without_a_known_total_and_with_many_games():
    snap = Snapshot(name="ko", total=None, done=2)
    for i in range(15):
        render = LiveReporter(console())
        render.snap = snap
        render.game_started(f"g{i}", f"p{i}", f"q{i}")
    screen = console()
    screen.print(render_dashboard(snap, max_games=4))
    text = screen.file.getvalue()
    assert "2/? games" in text and "… and 11 more" in text and "g3 " in text and "g4 " not in text


def test_plain_lines_one_per_finished_game_then_the_final_standings(tmp_path):
    out = io.StringIO()
    reporter = PlainReporter(out)
    reporter.tournament_started("cup", ["alice", "bob", "carol"], 3)
    reporter.game_started("g1", "alice", "bob")
    reporter.game_step("g1", judged_step())
    reporter.game_finished("g1", "alice", "bob", GameResult("alice", "bob", 0, "goal"))
    reporter.game_finished("g2", "bob", "carol", GameResult("bob", "carol", None, "step_cap"))
    reporter.standings(three_players())
    reporter.tournament_finished(three_players(), [tmp_path / "results.json"])
    lines = out.getvalue().splitlines()
    assert lines[0] == "tournament cup: 3 players (alice, bob, carol), 3 games"
    assert [line for line in lines if line.startswith("[")] == [
        "[1/3] g1: alice 1-0 bob (goal)", "[2/3] g2: bob ½-½ carol (step cap)"]
    final = lines.index("final standings:")
    assert any("alice" in line for line in lines[final:]) and lines[-1] == f"results written to {tmp_path / 'results.json'}"


def test_describe_result():
    assert describe_result("a", "b", GameResult("a", "b", 1, "violations")) == "a 0-1 b (violations)"


def test_the_live_reporter_prints_messages_before_it_starts_and_files_at_the_end(tmp_path):
    out = console()
    reporter = LiveReporter(out)
    reporter.message("listening on ws://127.0.0.1:1/")
    reporter.tournament_started("cup", ["alice", "bob"], 1)
    reporter.message("alice joined")                       # shown in the dashboard's recent events
    reporter.tournament_finished(three_players(), [Path(tmp_path / "results.json")])
    text = out.file.getvalue()
    assert text.startswith("listening on ws://127.0.0.1:1/") and "alice joined" in text
    assert f"results written to {tmp_path / 'results.json'}" in text


def test_a_big_table_shows_its_top_and_is_worked_out_once_per_game(monkeypatch):
    players = [f"p{i:03d}" for i in range(60)]
    standings = Standings(players)
    standings.add(GameResult("p000", "p001", 0, "goal", (1000, 2000)))
    snap = Snapshot(name="big", total=30, done=1, standings=standings)
    worked = []
    real_rows = Standings.rows
    monkeypatch.setattr(Standings, "rows", lambda self: worked.append(1) or real_rows(self))
    for _ in range(3):
        screen = console()
        screen.print(render_dashboard(snap, max_rows=10))
    text = screen.file.getvalue()
    assert "p000" in text and "… and 50 more" in text and "p059" not in text
    assert len(worked) == 1                                   # three redraws, one table
    standings.add(GameResult("p002", "p003", 1, "goal", (1000, 2000)))
    render_dashboard(snap)
    assert len(worked) == 2                                   # a finished game: worked out again


def test_games_ending_together_do_not_each_redraw_the_screen():
    reporter = LiveReporter(console(), fps=1.0)
    reporter.tournament_started("cup", [f"p{i}" for i in range(20)], 10)
    draws = []
    reporter.live.update = lambda *args, **kwargs: draws.append(1)   # type: ignore[method-assign]
    for i in range(10):
        reporter.game_started(f"g{i}", f"p{2 * i}", f"p{2 * i + 1}")
    for i in range(10):
        reporter.game_finished(f"g{i}", f"p{2 * i}", f"p{2 * i + 1}",
                               GameResult(f"p{2 * i}", f"p{2 * i + 1}", 0, "goal", (1, 2)))
    assert len(draws) <= 1                                    # at most fps draws a second, not one per game
    reporter.stop()

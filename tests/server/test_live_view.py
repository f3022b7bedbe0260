"""What the server shows: the rich dashboard and the plain line-per-event report."""

from __future__ import annotations

import io
from itertools import combinations
from pathlib import Path

from rich.console import Console

from server.views.dashboard import (
    LiveReporter, PlainReporter, Snapshot, describe_result, render_dashboard, replay_command, replay_hint,
)
from shared.quoridor import Step
from shared.referee import GameReferee, StepJudged
from shared.tournament import FinalStandings, GameResult, Standings


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


# -- the seats filling ---------------------------------------------------------------------------

def test_the_dashboard_is_up_as_soon_as_the_server_listens_and_counts_the_seats():
    out = console()
    reporter = LiveReporter(out)
    reporter.message("listening on ws://127.0.0.1:1/ — waiting for 4 players")
    reporter.players_waiting([], 4, None)                  # the first frame, before anybody joins
    assert reporter.live.is_started
    first = console()
    first.print(reporter.live.renderable)                   # what is on the screen now
    assert "0 of 4 joined" in first.file.getvalue() and "nobody has joined yet" in first.file.getvalue()
    reporter.players_waiting(["alice"], 4, "alice joined from 127.0.0.1")
    reporter.players_waiting(["alice", "bob"], 4, "bob joined from 127.0.0.1")
    screen = console()
    screen.print(render_dashboard(reporter.snap))
    text = screen.file.getvalue()
    assert "waiting for players" in text and "2 of 4 joined" in text and "joined: alice, bob" in text
    assert "bob joined from 127.0.0.1" in text
    reporter.tournament_started("cup", ["alice", "bob", "carol", "dave"], 6)
    screen = console()
    screen.print(render_dashboard(reporter.snap))
    assert "joined:" not in screen.file.getvalue() and "0/6 games" in screen.file.getvalue()
    reporter.stop()


def test_plain_lines_say_how_many_have_joined_as_players_join():
    out = io.StringIO()
    reporter = PlainReporter(out)
    reporter.players_waiting([], 4, None)                  # the "listening … waiting for 4 players" line said it
    reporter.players_waiting(["alice"], 4, "alice joined from 127.0.0.1")
    reporter.players_waiting(["alice", "bob"], 4, "bob joined from 127.0.0.1")
    reporter.players_waiting(["bob"], 4, "alice left")
    assert out.getvalue().splitlines() == [
        "alice joined from 127.0.0.1 — 1 of 4 joined", "bob joined from 127.0.0.1 — 2 of 4 joined",
        "alice left — 1 of 4 joined"]


# -- a small terminal ------------------------------------------------------------------------------

def demo_snapshot() -> Snapshot:
    """The demo's tournament part-way: 4 players, 8 games done, 2 in progress, 8 lines of news."""
    players = ["strong", "defender", "runner", "random"]
    reporter = LiveReporter(console())
    reporter.tournament_started("demo-20260101-120000", players, 12)
    standings = Standings(players)
    for n in range(8):
        white, black = players[n % 4], players[(n + 1 + n // 4) % 4]
        result = GameResult(white, black, n % 2, "goal", (1200, 3400))
        reporter.game_started(f"t1-r{n // 2 + 1}-p{n % 2 + 1}-g1", white, black)
        reporter.game_finished(f"t1-r{n // 2 + 1}-p{n % 2 + 1}-g1", white, black, result)
        standings.add(result)
    reporter.standings(standings)
    reporter.game_started("t1-r5-p1-g1", "strong", "random")
    reporter.game_started("t1-r5-p2-g1", "defender", "runner")
    reporter.game_step("t1-r5-p1-g1", judged_step())
    return reporter.snap


def screen_of(renderable, width: int = 80, height: int = 24) -> list[str]:
    out = Console(width=width, height=height, color_system=None, file=io.StringIO())
    out.print(renderable)
    return out.file.getvalue().splitlines()


def test_the_demo_fits_80x24_in_the_compact_layout():
    snap = demo_snapshot()
    full = screen_of(render_dashboard(snap), width=80)
    assert len(full) > 24                                   # the full layout would be cut off with "..."
    lines = screen_of(render_dashboard(snap, height=24, width=80))
    assert len(lines) <= 23 and all(len(line) <= 80 for line in lines)    # one line spare for the cursor
    assert lines[0].startswith("Quoridor Arena · demo-20260101-120000") and lines[0].endswith("8/12 games")
    text = "\n".join(lines)
    assert "t1-r5-p1-g1" in text and "t1-r5-p2-g1" in text and "e2" in text        # the games in progress
    for player in ("strong", "defender", "runner", "random"):                         # every player's row
        assert any(line.split()[1:2] == [player] for line in lines if line[:1].isdigit()), player
    assert "t1-r4-p2-g1: random 0-1 defender (goal)" in text                           # the latest news
    assert "..." not in text and "╭" not in text and "┏" not in text                  # nothing cut, no borders


def test_the_compact_layout_cuts_long_lists_and_says_by_how_much():
    players = [f"team-{i:02d}-with-a-long-name" for i in range(12)]
    reporter = LiveReporter(console())
    reporter.tournament_started("spring", players, 66)
    standings = Standings(players)
    for i in range(10):
        standings.add(GameResult(players[i], players[i + 1], 0, "goal", (1000, 2000)))
    reporter.standings(standings)
    for i in range(6):
        reporter.game_started(f"t1-r2-p{i + 1}-g1", players[2 * i], players[2 * i + 1])
    for height in (24, 15, 10):
        lines = screen_of(render_dashboard(reporter.snap, height=height, width=80), height=height)
        assert len(lines) <= height - 1 and all(len(line) <= 80 for line in lines), height
    lines = screen_of(render_dashboard(reporter.snap, height=15, width=80), height=15)
    assert any(line.startswith("… and ") and "more games in progress" in line for line in lines)
    assert any(line.startswith("… and ") and "more players (all of them at the end)" in line for line in lines)


def test_a_tall_wide_terminal_keeps_the_full_layout():
    lines = screen_of(render_dashboard(demo_snapshot(), height=60, width=120), width=120, height=60)
    assert any("games in progress" in line for line in lines) and any("╭─ recent" in line for line in lines)


def test_the_live_reporter_draws_for_its_terminals_size():
    out = Console(width=80, height=24, color_system=None, file=io.StringIO())
    reporter = LiveReporter(out)
    reporter.tournament_started("demo", ["strong", "defender", "runner", "random"], 12)
    reporter.snap = demo_snapshot()
    reporter.stop()                                          # leaves the last frame in the output
    frame = out.file.getvalue().splitlines()
    assert len(frame) <= 23 and frame[0].startswith("Quoridor Arena · demo")
    assert all(line.strip() != "..." for line in frame)      # what Live shows in place of what does not fit


# -- the end screen ---------------------------------------------------------------------------------

def test_the_end_screen_says_how_to_replay_a_game_as_the_demo_does(tmp_path):
    from client.commands import installed_command            # the demo's rule for naming the command

    log = tmp_path / "cup" / "t1-r1-p1-g1_alice_vs_bob.csv"
    assert replay_command() == installed_command("quoridor-replay")
    out = io.StringIO()
    PlainReporter(out).tournament_finished(three_players(), [tmp_path / "results.json"], [log])
    assert out.getvalue().splitlines()[-2:] == [f"replay a game:  {replay_command()} {log}",
                                                f"pick a game:    {replay_command()} {log.parent}/"]
    live = console()
    reporter = LiveReporter(live)
    reporter.tournament_started("cup", ["alice", "bob"], 1)
    reporter.tournament_finished(three_players(), [tmp_path / "results.json"], [log])
    assert f"replay a game:  {replay_command()} {log}\n" in live.file.getvalue()
    assert "replay" not in "".join(replay_hint([]))         # a tournament without a log offers nothing


def test_the_ladder_dashboard_names_the_ladder_shows_its_table_and_says_why_it_is_idle():
    from shared.ladder import Idle, PublishedRow
    reporter = LiveReporter(console())
    for n in range(3):
        reporter.game_started(f"L{n}-g1", "alice", "bob")
        reporter.game_finished(f"L{n}-g1", "alice", "bob", GameResult("alice", "bob", 0, "goal", (1, 1)))
    reporter.game_started("L9-g1", "carol", "alice")
    reporter.ladder_table([PublishedRow("alice@1a2b", 6, 4.0, 4, 2, 0, 120.0, 40.0, 210.0),
                           PublishedRow("random@7a2d", 6, 2.0, 2, 4, 0, 0.0, 0.0, 0.0)])
    reporter.ladder_status(3, 1, None)
    lines = screen_of(render_dashboard(reporter.snap, height=24, width=80))
    assert lines[0].startswith("Quoridor Arena · practice ladder") and lines[0].endswith("3 games played · 3 bots connected")
    text = "\n".join(lines)
    assert "playing 1 game" in text and "L9-g1" in text and "/?" not in text
    assert any(line.split()[:2] == ["1", "alice@1a2b"] and "+120" in line and "[+40, +210]" in line for line in lines)
    reporter.game_finished("L9-g1", "carol", "alice", GameResult("carol", "alice", 0, "goal", (1, 1)))
    reporter.ladder_status(1, 0, Idle("only carol is connected: play starts when a second bot connects"))
    text = "\n".join(screen_of(render_dashboard(reporter.snap, height=24, width=80)))
    assert "idle: only carol is connected: play starts when a second bot connects" in text
    reporter.ladder_status(2, 0, Idle("the free bots' ratings are far apart", 40.0))
    resumes_at = reporter.snap.ladder.resumes_at
    for waited, left in ((0.0, 40), (15.0, 25)):          # the countdown runs on the drawing's clock
        text = "\n".join(screen_of(render_dashboard(reporter.snap, height=24, width=80, now=resumes_at - 40 + waited)))
        assert f"idle: the free bots' ratings are far apart · play resumes in {left} s" in text


def test_plain_lines_say_when_the_ladder_falls_idle_and_plays_again():
    from shared.ladder import Idle
    out = io.StringIO()
    reporter = PlainReporter(out)
    reporter.ladder_status(2, 1, None)
    for _ in range(3):
        reporter.ladder_status(1, 0, Idle("only carol is connected: play starts when a second bot connects"))
    reporter.ladder_status(2, 1, None)
    assert out.getvalue().splitlines() == [
        "ladder idle: only carol is connected: play starts when a second bot connects", "ladder: playing again"]


def test_a_finals_note_under_its_table_is_counted_when_the_dashboard_fits_the_terminal():
    strength = {"ann": 3, "bob": 2, "cy": 2, "dee": 1}
    standings = FinalStandings(list(strength), 0.95)
    for a, b in combinations(strength, 2):
        for white, black in ((a, b), (b, a)):
            even = strength[white] == strength[black]
            standings.add(GameResult(white, black, None if even else 0 if strength[white] > strength[black] else 1,
                                     "goal"))
    reporter = LiveReporter(Console(width=140, color_system=None, file=io.StringIO()))
    reporter.tournament_started("final", list(strength), None)
    reporter.standings(standings)

    def lines(height):
        screen = Console(width=140, color_system=None, file=io.StringIO())
        screen.print(render_dashboard(reporter.snap, height=height, width=140))
        return screen.file.getvalue().splitlines()
    full = lines(None)
    assert any("1 + the bots shown better" in line for line in full)
    assert len(lines(len(full))) <= len(full) - 1          # a line short: the compact layout, which fits
    reporter.stop()

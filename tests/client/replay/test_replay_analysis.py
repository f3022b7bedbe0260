"""quoridor-replay GAME --analyse: the text report, the JSON and the interactive screen, on a log with a blunder."""

from __future__ import annotations

import json
import threading

import pytest

from client.replay import LogFileSource, load_game
from client.replay.analysed import analyse_log_file, analysis_path
from client.replay.app import ReplayApp
from client.replay.cli import main
from shared.analysis import GameAnalysis, analyse_game
from tests.client.replay.analysis_helpers import BLUNDER_PLY, blunder_log, write_blunder_log

SIZE = (120, 40)


def test_print_reports_the_blunder_its_reason_and_the_best_step(tmp_path, capsys):
    log = write_blunder_log(tmp_path)
    assert main([str(log), "--analyse", "--print"]) == 0
    out = capsys.readouterr().out
    assert "alice (seat 0): accuracy" in out and "bob (seat 1): accuracy" in out
    assert "worst steps of alice:" in out
    line = next(line for line in out.splitlines() if line.startswith(f"  step  {BLUNDER_PLY} "))
    assert "alice played a7h (best e9) ?? blunder" in line and "e9 reached the goal row at once" in line
    assert "every labelled step" in out
    assert not analysis_path(log).exists()      # the report reads and writes nothing beside the log


def test_print_at_a_step_shows_its_board_and_what_the_analysis_says(tmp_path, capsys):
    log = write_blunder_log(tmp_path)
    assert main([str(log), "--analyse", "--print", "--step", str(BLUNDER_PLY)]) == 0
    out = capsys.readouterr().out
    assert f"step {BLUNDER_PLY}/18" in out and "?? blunder (drop 2.00)" in out and "best e9" in out


def test_json_is_the_analysis_and_the_same_twice(tmp_path, capsys):
    log = write_blunder_log(tmp_path)
    assert main([str(log), "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    ply = GameAnalysis.from_json(first).plies[BLUNDER_PLY - 1]
    assert (ply.played, ply.best, ply.label) == ("a7h", "e9", "blunder")
    assert main([str(log), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == first == analyse_game(blunder_log()).to_json()


def test_a_kept_analysis_is_read_and_a_stale_one_is_not(tmp_path, capsys):
    log = write_blunder_log(tmp_path)
    made = analyse_log_file(log, store=True)
    assert not made.reused and analysis_path(log).exists()
    assert analyse_log_file(log).reused
    assert not analyse_log_file(log, nodes=made.analysis.nodes + 1).reused       # another budget: made again
    kept = json.loads(analysis_path(log).read_text())
    analysis_path(log).write_text(json.dumps(kept | {"key": "another log"}))
    assert not analyse_log_file(log).reused


@pytest.mark.parametrize("argv, message", [
    (["{folder}", "--analyse"], "quoridor-analyse FOLDER"),
    (["{log}", "--json", "--html", "x.html"], "--json writes the analysis to stdout: without --svg or --html"),
    (["--live", "ws://127.0.0.1:1/", "--analyse"], "--analyse takes a game log, not --live"),
    (["{log}", "--nodes", "10"], "--nodes takes a number of 1 or more and goes with --analyse"),
])
def test_analyse_usage_errors(tmp_path, capsys, argv, message):
    log = write_blunder_log(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        main([a.format(folder=tmp_path, log=log) for a in argv])
    assert exit_.value.code == 2 and message in capsys.readouterr().err


def test_a_bad_log_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_text("not,a,log\n")
    assert main([str(bad), "--analyse", "--print"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("quoridor-replay: ") and err.count("\n") == 1


def _text(app: ReplayApp, widget: str) -> str:
    return str(app.query_one(widget).content)


async def test_the_screen_shows_progress_then_the_graph_and_the_labels(tmp_path):
    log = write_blunder_log(tmp_path)
    go = threading.Event()

    def analyser(progress):
        progress(1, 18)
        assert go.wait(10), "the test never let the analysis finish"
        return analyse_log_file(log, progress=progress).analysis

    app = ReplayApp(LogFileSource(log), analyser=analyser)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(200):            # bounded: the worker's first progress reaches the screen
            if "analysing: 1/18 steps" in _text(app, "#graph"):
                break
            await pilot.pause(0.01)
        assert "analysing: 1/18 steps" in _text(app, "#graph")
        await pilot.press("n")          # the screen answers while the analysis runs
        assert app.controller.index == 1 and app.analysis is None
        go.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.analysis is not None
        graph = _text(app, "#graph")
        assert "▲" in graph and "█" in graph
        await pilot.press("g", *str(BLUNDER_PLY), "enter")
        assert app.controller.index == BLUNDER_PLY
        steps = _text(app, "#steps")
        line = next(line for line in steps.splitlines() if line.lstrip().startswith(f"{BLUNDER_PLY} "))
        assert "a7h" in line and "??" in line and "best e9" in line
        assert "?? blunder (drop 2.00): e9 reached the goal row at once" in _text(app, "#info")
        marker = graph.splitlines()[-1].index("▲")
        assert _text(app, "#graph").splitlines()[-1].index("▲") > marker     # the mark follows the step shown
        await pilot.press("q")
    assert app.return_code == 0


async def test_quitting_stops_an_analysis_under_way(tmp_path):
    log = write_blunder_log(tmp_path)
    calls = []

    def analyser(progress):
        for done in range(1, 1000):
            calls.append(done)
            progress(done, 1000)        # raises once the screen is closing
        raise AssertionError("the analysis was not stopped")

    app = ReplayApp(LogFileSource(log), analyser=analyser)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(200):
            if calls:
                break
            await pilot.pause(0.01)
        await pilot.press("q")
    assert app.return_code == 0 and len(calls) < 999


@pytest.mark.parametrize("name", ["server_0_DEFENSIVE_VS_BASELINE.csv", "client_example.csv"])
def test_the_old_servers_and_the_old_clients_logs_are_analysed(name, capsys):
    from tests.client.replay.helpers import legacy

    assert main([str(legacy(name)), "--analyse", "--print", "--nodes", "50"]) == 0
    out = capsys.readouterr().out
    assert "analysis: engine" in out and "50 nodes per position" in out and "accuracy" in out
    assert main([str(legacy(name)), "--json", "--nodes", "50"]) == 0
    analysis = GameAnalysis.from_json(json.loads(capsys.readouterr().out))
    assert analysis.nodes == 50 and len(analysis.plies) == len(load_game(legacy(name)).frames) - 1


def test_analyse_with_html_makes_the_analysis_the_page_carries(tmp_path, capsys):
    log = write_blunder_log(tmp_path)
    page = tmp_path / "g.html"
    assert main([str(log), "--html", str(page)]) == 0
    assert 'title="blunder"' not in page.read_text()          # nothing kept beside the log: the page as before
    assert main([str(log), "--analyse", "--html", str(page)]) == 0
    assert 'title="blunder"' in page.read_text() and not analysis_path(log).exists()

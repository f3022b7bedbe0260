"""quoridor-match --analyse: each bot's accuracy and the worst steps of its lost games, in the JSON and printed."""

from __future__ import annotations

import json

import pytest

from client.match_cli import main
from shared.analysis import analyse_game
from shared.tournament.bot_analysis import AnalysedGame, bot_analyses
from tests.client.replay.analysis_helpers import BLUNDER_PLY, blunder_log


def test_the_worst_steps_of_a_bots_lost_games_are_its_own_labelled_ones_linked_to_their_log():
    analysis = analyse_game(blunder_log(("a", "b")))
    game = AnalysedGame("g1", ("bot-a", "bot-b"), 1, analysis, log="replays/g1.csv")
    found = bot_analyses([game], ["bot-a", "bot-b", "idle"])
    loser, winner = found["bot-a"], found["bot-b"]
    assert loser.games == 1 and loser.lost == 1 and loser.accuracy == analysis.players[0].accuracy
    worst = loser.worst_lost[0]
    assert (worst.game, worst.ply, worst.played, worst.best, worst.label, worst.log) == \
        ("g1", BLUNDER_PLY, "a7h", "e9", "blunder", "replays/g1.csv")
    assert worst.reason and worst.page is None
    assert winner.lost == 0 and winner.worst_lost == ()       # the winner's steps are not among them
    assert found["idle"].games == 0 and found["idle"].accuracy is None


def test_match_analyse_adds_each_bots_analysis_to_the_json(tmp_path, capsys):
    out = tmp_path / "run.json"
    assert main(["random", "strong", "-g", "2", "--analyse", "--json", str(out), "--log-dir", str(tmp_path / "logs"),
                 "-t", "0"]) == 0
    printed = capsys.readouterr().out
    assert "random: accuracy" in printed and "strong: accuracy" in printed
    bots = {entry["bot"]: entry for entry in json.loads(out.read_text())["bots"]}
    for entry in bots.values():
        assert entry["analysis"]["games_analysed"] == 2 and 0 <= entry["analysis"]["accuracy"] <= 100
    loser = min(bots.values(), key=lambda entry: entry["wins"])
    assert loser["analysis"]["lost_games_analysed"] == loser["losses"]
    for step in loser["analysis"]["worst_lost_steps"]:
        assert (tmp_path / "logs" / step["game"]).is_file() and step["log"].endswith(step["game"]) and step["ply"] >= 1
        assert f"--analyse --step {step['ply']}" in printed
    assert len(list((tmp_path / "logs").glob("*.csv.analysis.json"))) == 2


def test_match_without_analyse_has_no_analysis_and_analyse_needs_the_logs(tmp_path, capsys):
    out = tmp_path / "run.json"
    assert main(["random", "random", "-g", "2", "--json", str(out), "--log-dir", str(tmp_path), "-t", "0"]) == 0
    assert all("analysis" not in entry for entry in json.loads(out.read_text())["bots"])
    with pytest.raises(SystemExit) as exit_:
        main(["random", "strong", "--analyse", "--log-dir", "none"])
    assert exit_.value.code == 2 and "--analyse reads the games' logs" in capsys.readouterr().err

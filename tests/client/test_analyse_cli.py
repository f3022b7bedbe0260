"""quoridor-analyse FOLDER -j N: every log analysed beside itself, a bad one in one line, up-to-date ones reused."""

from __future__ import annotations

import json

import pytest

from client.analyse_cli import find_logs, main
from shared.analysis import GameAnalysis
from shared.gamelog import format_log
from tests.client.replay.analysis_helpers import BLUNDER_PLY, blunder_log


def _folder(tmp_path):
    root = tmp_path / "replays"
    (root / "t1").mkdir(parents=True)
    (root / ".hidden").mkdir()
    logs = [root / "g1_alice_vs_bob.csv", root / "t1" / "g2_carol_vs_alice.csv"]
    logs[0].write_text(format_log(blunder_log(("alice", "bob"))), encoding="utf-8")
    logs[1].write_text(format_log(blunder_log(("carol", "alice"))), encoding="utf-8")
    (root / "t1" / "bad.csv").write_text("this is no game log\n", encoding="utf-8")
    (root / "t1" / "results.csv").write_text("rank,player\n", encoding="utf-8")          # a table, not a game
    (root / "t1" / "g3_x_vs_y.csv.part").write_text("unfinished", encoding="utf-8")
    (root / ".hidden" / "g4_x_vs_y.csv").write_text("hidden", encoding="utf-8")
    return root, logs


def test_find_logs_follows_the_log_name_rule_and_leaves_unfinished_and_hidden_ones(tmp_path):
    root, logs = _folder(tmp_path)
    found, unfinished = find_logs(root)
    assert found == sorted([*logs, root / "t1" / "bad.csv"]) and unfinished == 1


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_folder_is_analysed_a_bad_log_is_one_line_and_a_second_run_reuses_the_analyses(tmp_path, capsys, jobs):
    root, logs = _folder(tmp_path)
    assert main([str(root), "-j", jobs]) == 1
    captured = capsys.readouterr()
    assert captured.err.count("quoridor-analyse: ") == 1 and "bad.csv, line 1" in captured.err
    assert len(captured.err.strip().splitlines()) == 1
    out = " ".join(captured.out.split())
    assert "2 games analysed in" in out and "2 analysed now, 0 up to date already, 1 could not be" in out
    assert "1 unfinished (.csv.part) skipped" in out
    assert "alice 2" in out and "bob 1" in out and "carol 1" in out       # player, games
    kept = [log.with_name(log.name + ".analysis.json") for log in logs]
    first = [json.loads(path.read_text()) for path in kept]
    assert GameAnalysis.from_json(first[0]).plies[BLUNDER_PLY - 1].label == "blunder" and first[0]["key"]
    stamps = [path.stat().st_mtime_ns for path in kept]

    assert main([str(root), "-j", jobs]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "0 analysed now, 2 up to date already" in out and "alice 2" in out
    assert [path.stat().st_mtime_ns for path in kept] == stamps

    logs[0].write_text(format_log(blunder_log(("alice", "dave"))), encoding="utf-8")     # the log changed
    assert main([str(root), "-j", jobs]) == 1
    assert "1 analysed now, 1 up to date already" in " ".join(capsys.readouterr().out.split())


def test_usage_errors(tmp_path, capsys):
    log = tmp_path / "g.csv"
    log.write_text(format_log(blunder_log()), encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        main([str(log)])
    assert exit_.value.code == 2 and "is not a folder (give the folder of a log" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main([str(tmp_path), "-j", "0"])
    assert exit_.value.code == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main([str(empty)]) == 0 and "no game logs in" in capsys.readouterr().out

"""Listing a folder of games: from a tournament's results.json, or by reading each log."""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest

from client.replay import FolderError, list_folder
from client.replay.cli import main
from server.tournament.export import export_documents
from server.tournament.rows import GameRow, TournamentRow
from shared.gamelog import GameOutcome, format_log
from tests.client.replay.helpers import LEGACY, small_log, write_small_log


def tournament_folder(tmp_path):
    """A tournament folder as the server writes it: two logs and results.json (log paths from another cwd)."""
    folder = tmp_path / "t1"
    folder.mkdir()
    write_small_log(folder, "r01-p01-g1_alice_vs_bob.csv", outcome=GameOutcome(0, "violations", (215, 1400), (1, 1)))
    write_small_log(folder, "r02-p01-g1_bob_vs_carol.csv.part")
    tournament = TournamentRow(1, "t1", "round-robin", 1, None, ("alice", "bob", "carol"), {}, "2024-05-01T14:00:00Z",
                               None, None)
    games = [
        GameRow(0, 0, 0, "alice", "bob", "finished", "t1-r1-p1-g1", 0, "violations", (215, 1400), (1, 1),
                "replays/t1/r01-p01-g1_alice_vs_bob.csv", None, None, 6),
        GameRow(1, 0, 0, "carol", "alice", "finished", "t1-r2-p1-g1", None, "forfeit", (0, 0), (0, 0), None,
                None, None, 0),
        GameRow(2, 0, 0, "bob", "carol", "running", "t1-r3-p1-g1", None, None, (0, 0), (0, 0), None, None, None, 0),
    ]
    json_text, _ = export_documents(tournament, games)
    (folder / "results.json").write_text(json_text, encoding="utf-8")
    return folder


def test_a_tournament_is_listed_from_results_json(tmp_path):
    entries = list_folder(tournament_folder(tmp_path))
    assert [(e.game, e.white, e.black, e.score, e.result) for e in entries] == [
        ("t1-r1-p1-g1", "alice", "bob", "1-0", "violations"),
        ("t1-r2-p1-g1", "carol", "alice", "0-0", "forfeit"),            # neither came: a double forfeit
        ("t1-r3-p1-g1", "bob", "carol", "*", "running"),
        ("r02-p01-g1_bob_vs_carol", "alice", "bob", "*", "unfinished"),    # a .part log results.json does not know
    ]
    assert entries[0].path == tmp_path / "t1" / "r01-p01-g1_alice_vs_bob.csv" and entries[0].steps == 6
    assert not entries[1].openable and entries[1].note == "forfeit: no log"
    assert entries[3].openable and entries[3].path.name.endswith(".csv.part")


def test_a_folder_without_results_json_is_listed_from_its_logs(tmp_path):
    for log in LEGACY.glob("*.csv"):
        shutil.copy(log, tmp_path)
    (tmp_path / "notes.csv").write_text("hello,world\n")
    (tmp_path / "results.csv").write_text("round,pairing\n")         # the server's table, not a game
    entries = list_folder(tmp_path)
    assert [(e.game, e.score, e.result) for e in entries] == [
        ("client_example", "0-1", "goal, unverified"),
        ("notes", "?", "not a game log"),
        ("server_0_DEFENSIVE_VS_BASELINE", "1-0", "goal"),
        ("server_1_DEFENSIVE_VS_BASELINE", "0-1", "goal"),
    ]
    assert entries[0].note == "disagrees with the rules at line 4" and entries[0].openable
    assert not entries[1].openable and "line 1: missing column(s)" in entries[1].note
    assert (entries[2].white, entries[2].black, entries[2].steps) == ("193304BASELINE", "193304DEFENSIVE", 87)


def test_a_folder_of_tournaments_lists_each(tmp_path):
    tournament_folder(tmp_path)
    other = tmp_path / "t2"
    other.mkdir()
    write_small_log(other)
    games = [e.game for e in list_folder(tmp_path)]
    assert games[:1] == ["t1/t1-r1-p1-g1"] and games[-1] == "t2/g7"


def test_folders_without_games_are_refused(tmp_path, capsys):
    with pytest.raises(FolderError, match="no game logs here"):
        list_folder(tmp_path)
    assert main([str(tmp_path)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("quoridor-replay: ") and "no game logs here" in err[0]


def test_listing_is_printed_when_not_on_a_terminal(tmp_path, capsys):
    folder = tournament_folder(tmp_path)
    assert main([str(folder), "--print"]) == 0
    out = capsys.readouterr().out
    assert f"4 games in {folder}" in out and "t1-r1-p1-g1" in out and "forfeit: no log" in out


def test_broken_results_json_falls_back_to_the_logs(tmp_path):
    folder = tournament_folder(tmp_path)
    (folder / "results.json").write_text("{not json")
    assert sorted(e.game for e in list_folder(folder)) == ["r01-p01-g1_alice_vs_bob", "r02-p01-g1_bob_vs_carol"]


def test_long_names_stay_whole_in_a_pipe(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")                  # a pipe's width
    white, black = "193304DEFENSIVE_WITH_A_LONG_NAME", "193304BASELINE_WITH_A_LONGER_NAME"
    log = small_log()
    log = replace(log, header=replace(log.header, players=(white, black)),
                  steps=[replace(s, player=white if s.player == "alice" else black) for s in log.steps])
    game = "r01-p01-g1_193304DEFENSIVE_WITH_A_LONG_NAME_vs_193304BASELINE_WITH_A_LONGER_NAME"
    (tmp_path / f"{game}.csv").write_text(format_log(log), encoding="utf-8")
    assert main([str(tmp_path), "--print"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if "r01-p01" in line)
    assert row.split()[:4] == ["1", game, white, black] and out.count("r01-p01") == 1


def test_the_old_servers_tables_beside_the_logs_are_not_listed_as_games(tmp_path):
    write_small_log(tmp_path, "t1-r1-p1-g1_alice_vs_bob.csv")
    (tmp_path / "result.csv").write_text("time, player_name, score\n2024-05-01 12:00:00,bob,1\n")
    (tmp_path / "player_list.csv").write_text("id, name, mac, ip, port\n0,alice,,,\n1,bob,,,\n")
    entries = list_folder(tmp_path)
    assert [e.game for e in entries] == ["t1-r1-p1-g1_alice_vs_bob"]

"""Exporting a tournament from the results store: results.json and results.csv, parsed back."""

import csv
import json
import os
from pathlib import Path

import pytest

from server.tournament.store import ResultStore, StoreError
from server.logs.logfile import write_text_atomic
from server.tournament.export import CSV_COLUMNS, EXPORT_VERSION
from shared.tournament import GameResult, ScheduledGame

GAMES = [ScheduledGame(0, 0, 0, "ann", "bo"), ScheduledGame(0, 0, 1, "bo", "ann"),
         ScheduledGame(1, 1, 0, "ann", "cy, \"the third\""), ScheduledGame(1, 1, 1, "cy, \"the third\"", "ann")]
OUTCOMES = [(0, "goal"), (0, "violations"), (None, "step_cap")]  # the last game stays pending


def filled_store(path: Path) -> tuple[ResultStore, int]:
    store = ResultStore(path)
    tid = store.create_tournament("spring", "knockout", 2, 99, ["ann", "bo", "cy, \"the third\""],
                                  {"think_ms": 1000})
    store.schedule(tid, GAMES)
    for i, (game, (winner, reason)) in enumerate(zip(GAMES, OUTCOMES)):
        result = GameResult(game.white, game.black, winner, reason, (100 * i, 200 * i), (i, 0))
        store.record_result(tid, (game.round, game.pairing, game.game_in_pairing), result,
                            log_path=f"spring/g{i}.csv", game_id=f"g{i}", started_at=f"s{i}", ended_at=f"e{i}",
                            steps=10 + i)
    return store, tid


def test_export_json_holds_tournament_players_and_every_game(tmp_path):
    store, tid = filled_store(tmp_path / "arena.db")
    with store:
        json_path, csv_path = store.export(tid, tmp_path / "out")
    assert (json_path, csv_path) == (tmp_path / "out" / "results.json", tmp_path / "out" / "results.csv")
    doc = json.loads(json_path.read_text(encoding="utf-8"))
    assert doc["export_version"] == EXPORT_VERSION
    t = doc["tournament"]
    assert (t["id"], t["name"], t["format"], t["games_per_pairing"], t["seed"]) == (tid, "spring", "knockout", 2, 99)
    assert t["settings"] == {"think_ms": 1000} and t["finished"] is False and t["finished_at"] is None
    assert doc["players"] == ["ann", "bo", "cy, \"the third\""]
    assert doc["standings"] is None
    games = doc["games"]
    assert [(g["round"], g["pairing"], g["game_in_pairing"]) for g in games] == [(0, 0, 0), (0, 0, 1), (1, 1, 0),
                                                                                  (1, 1, 1)]
    assert [g["result"] for g in games] == ["1-0", "1-0", "1/2-1/2", None]
    assert [g["winner"] for g in games] == ["ann", "bo", None, None]
    assert [g["status"] for g in games] == ["finished", "finished", "finished", "pending"]
    assert games[1] == {
        "round": 0, "pairing": 0, "game_in_pairing": 1, "game_id": "g1", "white": "bo", "black": "ann",
        "status": "finished", "result": "1-0", "winner": "bo", "reason": "violations", "thinking_ms": [100, 200],
        "violations": [1, 0], "steps": 11, "log_path": "spring/g1.csv", "started_at": "s1", "ended_at": "e1",
    }


def test_export_csv_has_a_header_and_one_row_per_game(tmp_path):
    store, tid = filled_store(tmp_path / "arena.db")
    with store:
        _, csv_path = store.export(tid, tmp_path / "out")
    with csv_path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert tuple(rows[0]) == CSV_COLUMNS
    table = [dict(zip(rows[0], row)) for row in rows[1:]]
    assert len(table) == len(GAMES)
    assert table[0]["result"] == "1-0" and table[0]["winner"] == "ann" and table[0]["reason"] == "goal"
    assert table[2]["black"] == "cy, \"the third\"" and table[2]["result"] == "1/2-1/2" and table[2]["winner"] == ""
    assert (table[2]["white_thinking_ms"], table[2]["black_thinking_ms"]) == ("200", "400")
    assert (table[2]["white_violations"], table[2]["steps"], table[2]["log_path"]) == ("2", "12", "spring/g2.csv")
    assert table[3]["status"] == "pending" and table[3]["result"] == "" and table[3]["game_id"] == ""


def test_export_after_finishing_includes_standings_and_replaces_files(tmp_path):
    store, tid = filled_store(tmp_path / "arena.db")
    folder = tmp_path / "out"
    with store:
        store.export(tid, folder)
        store.finish_tournament(tid, [{"rank": 1, "player": "ann", "points": 2.5, "elo": float("inf")}])
        json_path, _ = store.export(tid, folder)
    doc = json.loads(json_path.read_text(encoding="utf-8"))
    assert doc["tournament"]["finished"] is True and doc["tournament"]["finished_at"]
    assert doc["standings"] == [{"rank": 1, "player": "ann", "points": 2.5, "elo": None}]
    assert sorted(p.name for p in folder.iterdir()) == ["player_list.csv", "result.csv",   # the old server's files
                                                        "results.csv", "results.json"]  # no temporary files left


def test_export_of_an_unknown_tournament_writes_nothing(tmp_path):
    with ResultStore(tmp_path / "arena.db") as store:
        with pytest.raises(KeyError):
            store.export(3, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_export_to_an_unwritable_place_is_a_store_error(tmp_path):
    store, tid = filled_store(tmp_path / "arena.db")
    (tmp_path / "out").write_text("a file where the folder should be")
    with store, pytest.raises(StoreError, match="cannot write the results of tournament"):
        store.export(tid, tmp_path / "out")


def test_atomic_write_keeps_the_old_file_when_writing_fails(tmp_path, monkeypatch):
    target = tmp_path / "results.json"
    target.write_text("old", encoding="utf-8")

    def broken_fsync(fd):
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError, match="disk full"):
        write_text_atomic(target, "new")
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["results.json"]

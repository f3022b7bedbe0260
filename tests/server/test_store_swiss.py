"""The store and the Swiss: a version-2 database is upgraded to admit it, and results.json gives its tie-breaks."""

import json
import sqlite3

import pytest

from server.tournament.store import SCHEMA_VERSION, ResultStore, StoreUsageError
from shared.tournament import GameResult, Swiss, SwissStandings, swiss_tie_breaks

PLAYERS = ["carol", "alice", "bob"]

#: The tournaments table as schema version 2 made it: no 'swiss' in its CHECK.
VERSION_2_TOURNAMENTS = """CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,
        format TEXT NOT NULL CHECK (format IN ('round-robin', 'knockout')),
        games_per_pairing INTEGER NOT NULL CHECK (games_per_pairing >= 1), seed INTEGER,
        settings TEXT NOT NULL, created_at TEXT NOT NULL, finished_at TEXT, standings TEXT)"""


def make_version_2(path):
    """Turn the database at ``path`` into what version 2 wrote (same data, the old CHECK)."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = OFF")
    conn.execute("BEGIN")
    conn.execute(VERSION_2_TOURNAMENTS.replace("TABLE tournaments", "TABLE tournaments_v2"))
    conn.execute("INSERT INTO tournaments_v2 SELECT * FROM tournaments")
    conn.execute("DROP TABLE tournaments")
    conn.execute("ALTER TABLE tournaments_v2 RENAME TO tournaments")
    conn.execute("CREATE INDEX tournaments_unfinished ON tournaments (finished_at, id)")
    for column in ("key", "version"):      # version 4's
        conn.execute(f"ALTER TABLE players DROP COLUMN {column}")
    conn.execute("PRAGMA user_version = 2")
    conn.execute("COMMIT")
    conn.close()


def test_the_store_admits_the_swiss_format(tmp_path):
    with ResultStore(tmp_path / "arena.db") as store:
        tid = store.create_tournament("ladder", "swiss", 1, 7, PLAYERS, {"format": "swiss", "swiss_rounds": 2})
        assert store.tournament(tid).format == "swiss"
        with pytest.raises(StoreUsageError, match="unknown tournament format 'monrad'"):
            store.create_tournament("x", "monrad", 1, 7, PLAYERS, {})


def test_a_version_2_database_is_upgraded_and_keeps_its_results(tmp_path):
    db = tmp_path / "arena.db"
    with ResultStore(db) as store:
        old = store.create_tournament("cup", "knockout", 1, 3, PLAYERS, {"format": "knockout"})
        store.schedule(old, Swiss(PLAYERS, 1, 3).current_round())
        (game,) = store.games(old)
        store.record_result(old, game.key, GameResult(game.white, game.black, 1, "goal"), log_path="g.csv",
                            game_id="t1-r1-p1-g1", started_at="2025-01-01T10:00:00", ended_at="2025-01-01T10:01:00",
                            steps=9)
    make_version_2(db)
    conn = sqlite3.connect(db)
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):      # what version 2 refuses
        conn.execute("INSERT INTO tournaments (name, format, games_per_pairing, settings, created_at) "
                     "VALUES ('x', 'swiss', 1, '{}', 'now')")
    conn.close()
    with ResultStore(db) as store:
        (kept,) = store.results(old)
        assert (kept.winner, kept.reason, kept.game_id, kept.steps) == (1, "goal", "t1-r1-p1-g1", 9)
        assert store.tournament(old).players == tuple(PLAYERS) and store.tournament(old).format == "knockout"
        new = store.create_tournament("ladder", "swiss", 2, None, PLAYERS, {})
        assert new > old
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    schema = dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall())
    assert "'swiss'" in schema["tournaments"] and "'final'" in schema["tournaments"] and "tournaments_v" not in "".join(schema.values())
    conn.execute("PRAGMA foreign_keys = ON")                        # the players still point at their tournament
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        conn.execute("INSERT INTO players (tournament_id, seat_order, name) VALUES (99, 0, 'zed')")
    assert conn.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'tournaments_unfinished'"
                        ).fetchall() == [("tournaments_unfinished",)]
    conn.close()


def test_results_json_gives_a_swiss_its_tie_breaks(tmp_path):
    with ResultStore(tmp_path / "arena.db") as store:
        tid = store.create_tournament("ladder", "swiss", 1, 5, PLAYERS, {"format": "swiss"})
        swiss, standings = Swiss(PLAYERS, 1, 5), SwissStandings(PLAYERS)
        while True:
            games = swiss.current_round()
            store.schedule(tid, games)
            standings.add_bye(swiss.bye)
            for game in games:
                result = GameResult(game.white, game.black, 0, "goal")
                store.record_result(tid, (game.round, game.pairing, game.game_in_pairing), result, log_path=None,
                                    game_id=f"g{game.pairing}", started_at=None, ended_at="2025-01-01T10:00:00",
                                    steps=15)
                swiss.record(result)
                standings.add(result)
            if not swiss.advance():
                break
        store.finish_tournament(tid, [{"rank": r.rank, "player": r.player, "points": r.points}
                                      for r in standings.rows()])
        json_path, _ = store.export(tid, tmp_path / "ladder")
    document = json.loads(json_path.read_text())
    ties = swiss_tie_breaks(PLAYERS, standings.results, swiss.byes)
    assert [(r["player"], r["points"], r["buchholz"], r["sonneborn_berger"]) for r in document["standings"]] == [
        (r.player, *ties[r.player].key) for r in standings.rows()]
    assert sum(r["points"] for r in document["standings"]) == 2 + 2     # two games, two byes


def test_other_formats_get_no_tie_break_columns(tmp_path):
    with ResultStore(tmp_path / "arena.db") as store:
        tid = store.create_tournament("cup", "round-robin", 1, 5, PLAYERS, {})
        store.finish_tournament(tid, [{"rank": 1, "player": p, "points": 0.0} for p in PLAYERS])
        json_path, _ = store.export(tid, tmp_path / "cup")
    rows = json.loads(json_path.read_text())["standings"]
    assert all(set(row) == {"rank", "player", "points"} for row in rows)

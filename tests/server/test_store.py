"""The results store: create, reopen and resume, idempotent writes, durability, sharing, clear errors."""

import sqlite3
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import pytest

from server.tournament.rows import Entrant
from server.tournament.store import (
    SCHEMA_VERSION, NotFoundError, ResultStore, StoreError, StoreUsageError,
)
from shared.tournament import GameResult, ScheduledGame, Standings, round_robin

PLAYERS = ["carol", "alice", "bob"]
SETTINGS = {"format": "round-robin", "limits": {"think_ms": 2000}, "data_dir": "replays"}


def new_tournament(store: ResultStore, name: str = "cup") -> int:
    return store.create_tournament(name, "round-robin", 2, 42, PLAYERS, SETTINGS)


def plan() -> list[ScheduledGame]:
    return [g for r in round_robin(PLAYERS, 2, 42) for g in r]


def key(game) -> tuple[int, int, int]:
    return game.round, game.pairing, game.game_in_pairing


def record(store: ResultStore, tid: int, game: ScheduledGame, winner: int | None = 0, reason: str = "goal",
           *, ended_at: str = "2025-01-01T10:01:00") -> GameResult:
    result = GameResult(game.white, game.black, winner, reason, (1500, 2500), (0, 1))
    store.record_result(tid, key(game), result, log_path=f"logs/{key(game)}.csv", game_id=f"g{key(game)}",
                        started_at="2025-01-01T10:00:00", ended_at=ended_at, steps=37)
    return result


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "data" / "arena.db"


# -- create, reopen, resume ---------------------------------------------------------------------------
def test_a_new_tournament_reads_back(db):
    with ResultStore(db) as store:
        tid = new_tournament(store)
        row = store.tournament(tid)
    assert (row.id, row.name, row.format, row.games_per_pairing, row.seed) == (tid, "cup", "round-robin", 2, 42)
    assert row.players == tuple(PLAYERS)  # seat order as given, not sorted
    assert row.settings == SETTINGS
    assert not row.finished and row.standings is None and row.created_at


def test_resume_after_closing_unfinished(db):
    games = plan()
    with ResultStore(db) as store:
        tid = new_tournament(store)
        store.schedule(tid, games)
        record(store, tid, games[0], winner=1)
        store.mark_started(tid, key(games[2]), "g-running", "2025-01-01T10:05:00")
        store.mark_started(tid, key(games[3]), "g-running-2", "2025-01-01T10:05:01")
    with ResultStore(db) as store:
        row = store.latest_unfinished()
        assert row is not None and row.id == tid and row.seed == 42 and row.players == tuple(PLAYERS)
        assert [g.key for g in store.games(tid, "running")] == [key(games[2]), key(games[3])]
        assert store.reset_unfinished(tid) == 2
        assert store.reset_unfinished(tid) == 0
        assert store.games(tid, "running") == []
        pending = store.games(tid, "pending")
        assert len(pending) == len(games) - 1
        assert all(g.game_id is None and g.started_at is None for g in pending)
        (kept,) = store.results(tid)
    assert kept.key == key(games[0]) and kept.status == "finished"
    assert (kept.white, kept.black, kept.winner, kept.reason) == (games[0].white, games[0].black, 1, "goal")
    assert (kept.thinking_ms, kept.violations, kept.steps) == ((1500, 2500), (0, 1), 37)
    assert (kept.log_path, kept.game_id, kept.ended_at) == (f"logs/{key(games[0])}.csv", f"g{key(games[0])}",
                                                             "2025-01-01T10:01:00")


def test_latest_unfinished_skips_finished_tournaments(db):
    with ResultStore(db) as store:
        assert store.latest_unfinished() is None
        first = new_tournament(store, "first")
        second = new_tournament(store, "second")
        assert store.latest_unfinished().id == second
        store.finish_tournament(second, [])
        assert store.latest_unfinished().id == first
        store.finish_tournament(first, [])
        assert store.latest_unfinished() is None
        assert store.tournament(first).finished


def test_games_are_ordered_by_key_and_filtered_by_status(db):
    games = plan()
    with ResultStore(db) as store:
        tid = new_tournament(store)
        store.schedule(tid, reversed(games))
        record(store, tid, games[1])
        rows = store.games(tid)
        assert [g.key for g in rows] == sorted(key(g) for g in games)
        assert [(g.white, g.black) for g in rows] == [(g.white, g.black) for g in sorted(games, key=key)]
        assert [g.key for g in store.games(tid, "finished")] == [key(games[1])]
        assert len(store.games(tid, "pending")) == len(games) - 1
        with pytest.raises(StoreUsageError, match="unknown game status 'done'"):
            store.games(tid, "done")


def test_game_rows_feed_standings_like_game_results(db):
    games = plan()
    with ResultStore(db) as store:
        tid = new_tournament(store)
        store.schedule(tid, games)
        expected = Standings(PLAYERS)
        for game, winner in zip(games, [0, None, 1, 0]):
            expected.add(record(store, tid, game, winner))
        from_rows = Standings(PLAYERS)
        for row in store.results(tid):
            from_rows.add(row)
    assert from_rows.rows() == expected.rows()


def test_finish_tournament_stores_standings_as_json(db):
    standings = [{"rank": 1, "player": "alice", "points": 2.0, "elo": float("inf"), "white": (1, 0, 0)},
                 {"rank": 2, "player": "bob", "points": 0.0, "elo": float("-inf"), "white": (0, 1, 0)}]
    with ResultStore(db) as store:
        tid = new_tournament(store)
        store.finish_tournament(tid, standings)
        first = store.tournament(tid).finished_at
        store.finish_tournament(tid, standings[:1])
        row = store.tournament(tid)
    assert row.finished and row.finished_at == first
    # JSON has no infinity: a perfect score's Elo is kept as null, tuples as lists.
    assert row.standings == ({"rank": 1, "player": "alice", "points": 2.0, "elo": None, "white": [1, 0, 0]},)


# -- idempotent writes --------------------------------------------------------------------------------
def test_schedule_is_idempotent_and_keeps_existing_rows(db):
    games = plan()
    with ResultStore(db) as store:
        tid = new_tournament(store)
        store.schedule(tid, games)
        record(store, tid, games[0])
        store.mark_started(tid, key(games[1]), "g1", "2025-01-01T11:00:00")
        store.schedule(tid, games)
        store.schedule(tid, games[:2])
        rows = store.games(tid)
    assert len(rows) == len(games)
    assert [r.status for r in rows[:3]] == ["finished", "running", "pending"]
    assert rows[1].game_id == "g1"


def test_schedule_refuses_other_players_for_a_stored_key_and_adds_nothing(db):
    games = plan()
    with ResultStore(db) as store:
        tid = new_tournament(store)
        store.schedule(tid, games[:1])
        swapped = ScheduledGame(games[0].round, games[0].pairing, games[0].game_in_pairing,
                                games[0].black, games[0].white)
        with pytest.raises(StoreUsageError, match="stored players, order and seed"):
            store.schedule(tid, [games[1], swapped])
        with pytest.raises(StoreUsageError, match="different players of tournament"):
            store.schedule(tid, [games[2], ScheduledGame(9, 9, 0, "alice", "mallory")])
        with pytest.raises(StoreUsageError, match="different players"):
            store.schedule(tid, [ScheduledGame(9, 9, 0, "alice", "alice")])
        assert [r.key for r in store.games(tid)] == [key(games[0])]


def test_record_result_is_idempotent_for_the_same_outcome(db):
    game = plan()[0]
    with ResultStore(db) as store:
        tid = new_tournament(store)
        store.schedule(tid, [game])
        record(store, tid, game, ended_at="first")
        record(store, tid, game, ended_at="second")  # e.g. a retried call: no error, first record stays
        (row,) = store.games(tid)
        assert row.ended_at == "first" and row.winner == 0
        with pytest.raises(StoreUsageError, match="already has a different result"):
            record(store, tid, game, winner=None, reason="step_cap")
        with pytest.raises(StoreUsageError, match="already finished"):
            store.mark_started(tid, key(game), "again", "later")
        assert store.games(tid)[0].status == "finished"


def test_record_result_accepts_duck_typed_results_and_forfeits(db):
    game = plan()[0]
    with ResultStore(db) as store:
        tid = new_tournament(store)
        store.schedule(tid, [SimpleNamespace(round=game.round, pairing=game.pairing,
                                             game_in_pairing=game.game_in_pairing, white=game.white,
                                             black=game.black)])
        result = SimpleNamespace(white=game.white, black=game.black, winner=None, reason="forfeit",
                                 thinking_ms=(0, 0), violations=(0, 0))
        store.record_result(tid, key(game), result, log_path=None, game_id="g", started_at=None,
                            ended_at="2025-01-01T12:00:00", steps=0)
        (row,) = store.results(tid)
    assert (row.winner, row.reason, row.log_path, row.started_at) == (None, "forfeit", None, None)


def test_writes_check_game_keys_and_players(db):
    game = plan()[0]
    with ResultStore(db) as store:
        tid = new_tournament(store)
        with pytest.raises(NotFoundError, match="not scheduled; call schedule"):
            record(store, tid, game)
        with pytest.raises(KeyError):  # NotFoundError is a KeyError too
            store.mark_started(tid, key(game), "g", "now")
        store.schedule(tid, [game])
        wrong = GameResult(game.black, game.white, 0, "goal")
        with pytest.raises(StoreUsageError, match="got a result for"):
            store.record_result(tid, key(game), wrong, log_path=None, game_id="g", started_at=None,
                                ended_at="x", steps=0)
        with pytest.raises(StoreUsageError, match="game key"):
            store.mark_started(tid, (0, 0), "g", "now")
        assert store.games(tid)[0].status == "pending"


def test_unknown_tournament_is_a_key_error_with_a_readable_message(db):
    with ResultStore(db) as store:
        for call in (store.tournament, store.reset_unfinished, store.games, store.results):
            with pytest.raises(NotFoundError) as info:
                call(7)
            assert isinstance(info.value, KeyError) and isinstance(info.value, StoreError)
            assert str(info.value).startswith("no tournament with id 7")


@pytest.mark.parametrize("args, message", [
    (("", "round-robin", 1, None, PLAYERS, {}), "name"),
    (("t", "monrad", 1, None, PLAYERS, {}), "unknown tournament format 'monrad'"),
    (("t", "knockout", 0, None, PLAYERS, {}), "games per pairing"),
    (("t", "knockout", 1, 2 ** 70, PLAYERS, {}), "seed"),
    (("t", "knockout", 1, None, ["a", "a"], {}), "distinct"),
    (("t", "knockout", 1, None, ["a"], {}), "at least two"),
    (("t", "knockout", 1, None, PLAYERS, {"x": object()}), "settings must be JSON"),
])
def test_create_tournament_rejects_bad_arguments(db, args, message):
    with ResultStore(db) as store:
        with pytest.raises(StoreUsageError, match=message):
            store.create_tournament(*args)
        assert store.latest_unfinished() is None


# -- durability and sharing ---------------------------------------------------------------------------
CRASHING_WRITER = """
import os, sys
from server.tournament.store import ResultStore
from shared.tournament import GameResult, ScheduledGame
store = ResultStore(sys.argv[1])
tid = store.create_tournament("crash", "knockout", 1, 5, ["a", "b"], {})
store.schedule(tid, [ScheduledGame(0, 0, 0, "a", "b"), ScheduledGame(0, 0, 1, "b", "a")])
store.record_result(tid, (0, 0, 0), GameResult("a", "b", 0, "goal"), log_path=None, game_id="g",
                    started_at=None, ended_at="t", steps=3)
store.mark_started(tid, (0, 0, 1), "g2", "t2")
os._exit(0)  # killed: no close(), no commit() call
"""


def test_results_survive_a_killed_process(db):
    db.parent.mkdir()
    done = subprocess.run([sys.executable, "-c", CRASHING_WRITER, str(db)], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    with ResultStore(db) as store:
        row = store.latest_unfinished()
        assert row is not None and row.name == "crash"
        assert [(g.status, g.winner) for g in store.games(row.id)] == [("finished", 0), ("running", None)]
        assert store.reset_unfinished(row.id) == 1


def test_two_stores_on_one_file_see_each_others_writes(db):
    game = plan()[0]
    with ResultStore(db) as one, ResultStore(db) as two:
        tid = new_tournament(one)
        assert two.tournament(tid).players == tuple(PLAYERS)
        two.schedule(tid, [game])
        assert [g.status for g in one.games(tid)] == ["pending"]
        one.mark_started(tid, key(game), "g", "now")
        assert two.games(tid, "running")[0].game_id == "g"
        record(two, tid, game)
        assert one.results(tid)[0].winner == 0


def test_a_batch_commits_its_writes_together_and_a_failing_one_alone_is_undone(db):
    first, second = plan()[:2]
    with ResultStore(db) as store, ResultStore(db) as reader:
        tid = new_tournament(store)
        store.schedule(tid, [first, second])
        with store.batch():
            store.mark_started(tid, key(first), "g1", "now")
            with pytest.raises(NotFoundError):
                store.mark_started(tid, (9, 9, 9), "gx", "now")      # not scheduled: undone alone
            record(store, tid, second)
            with pytest.raises(StoreUsageError):                      # a different result for it: undone alone
                record(store, tid, second, winner=1)
            assert [g.status for g in reader.games(tid)] == ["pending", "pending"]   # nothing committed yet
        assert [(g.status, g.game_id) for g in reader.games(tid)] == [("running", "g1"), ("finished", f"g{key(second)}")]
        assert reader.results(tid)[0].winner == 0


def test_a_batch_that_fails_as_a_whole_commits_nothing(db):
    game = plan()[0]
    with ResultStore(db) as store:
        tid = new_tournament(store)
        store.schedule(tid, [game])
        with pytest.raises(KeyboardInterrupt), store.batch():
            store.mark_started(tid, key(game), "g1", "now")
            raise KeyboardInterrupt
        assert [g.status for g in store.games(tid)] == ["pending"]
        store.mark_started(tid, key(game), "g1", "now")              # the store works on after it
        assert store.games(tid)[0].status == "running"


def test_store_is_usable_from_a_worker_thread(db):
    store = ResultStore(db)  # created on this thread, used on another, as the server does
    with ThreadPoolExecutor(max_workers=1) as worker:
        tid = worker.submit(new_tournament, store).result()
        assert worker.submit(store.tournament, tid).result().name == "cup"
        worker.submit(store.close).result()


def test_concurrent_openers_of_a_new_file_both_succeed(db):
    barrier, errors, stores = threading.Barrier(4), [], []

    def open_it():
        barrier.wait()
        try:
            stores.append(ResultStore(db))
        except Exception as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=open_it) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(stores) == 4
    tid = new_tournament(stores[0])
    assert all(s.tournament(tid).name == "cup" for s in stores)
    for s in stores:
        s.close()


def test_database_is_in_wal_mode_with_our_schema_version(db):
    ResultStore(db).close()
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        indexes = {r[0] for r in conn.execute("SELECT sql FROM sqlite_master WHERE type = 'index'") if r[0]}
        assert any("games (tournament_id, status)" in sql for sql in indexes)
    finally:
        conn.close()


def test_closed_store_says_so_and_close_is_idempotent(db):
    store = ResultStore(db)
    store.close()
    store.close()
    with pytest.raises(StoreError, match="is closed; open a new ResultStore"):
        store.latest_unfinished()


# -- files that are not results databases -------------------------------------------------------------
def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    path = tmp_path / "arena.db"
    path.write_bytes(b"name,score\nalice,1\n" * 200)
    with pytest.raises(StoreError, match=r"is not a Quoridor Arena results database .*pass another --data-dir"):
        ResultStore(path)
    assert path.read_bytes() == b"name,score\nalice,1\n" * 200


def test_a_foreign_sqlite_database_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "arena.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match=r"not a Quoridor Arena results database \(no 'tournaments' table\)"):
        ResultStore(path)
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # not switched to WAL
        assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["notes"]
    finally:
        conn.close()


def test_a_foreign_database_with_a_tournaments_table_is_refused(tmp_path):
    path = tmp_path / "arena.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE tournaments (id INTEGER PRIMARY KEY)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="not a Quoridor Arena results database .application id 0x0"):
        ResultStore(path)


def test_a_newer_schema_is_refused(db):
    ResultStore(db).close()
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match=f"schema version {SCHEMA_VERSION + 1}.*upgrade Quoridor Arena"):
        ResultStore(db)


def test_timeouts_and_removals_are_kept_per_player(db):
    with ResultStore(db) as store:
        tid = new_tournament(store)
        assert store.record_timeout(tid, "bob") == 1
        assert store.record_timeout(tid, "bob", kicked=True) == 2
        assert store.record_timeout(tid, "bob") == 3                   # a late one does not un-remove it
        with pytest.raises(NotFoundError, match="no player 'zed'"):
            store.record_timeout(tid, "zed")
    with ResultStore(db) as store:
        assert store.player_states(tid) == {"carol": (0, False), "alice": (0, False), "bob": (3, True)}


def test_a_version_1_database_is_upgraded_and_keeps_its_results(db):
    game = plan()[0]
    with ResultStore(db) as store:
        tid = new_tournament(store)
        store.schedule(tid, [game])
        record(store, tid, game)
    conn = sqlite3.connect(db)                     # make it what version 1 wrote: no timeout or entrant columns
    for column in ("timeouts", "kicked_at", "key", "version"):
        conn.execute(f"ALTER TABLE players DROP COLUMN {column}")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    with ResultStore(db) as store:
        assert store.results(tid)[0].winner == 0
        assert store.player_states(tid)["bob"] == (0, False)
        store.record_timeout(tid, "bob", kicked=True)
        assert store.player_states(tid)["bob"] == (1, True)
        assert store.tournament(tid).entrants == {}
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()


def test_a_tournament_keeps_each_players_key_and_handed_in_version(db):
    with ResultStore(db) as store:
        tid = store.create_tournament("t", "final", 2, 7, ["alice", "bob"], {},
                                      {"alice": Entrant("k-alice", "3f2a9c1d0b7e"), "bob": Entrant("k-bob", None)})
        row = store.tournament(tid)
    assert row.format == "final"
    assert row.entrants == {"alice": Entrant("k-alice", "3f2a9c1d0b7e"), "bob": Entrant("k-bob", None)}


def test_an_unusable_path_gives_a_store_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError, match="cannot open database"):
        ResultStore(blocker / "arena.db")


# -- out of file descriptors --------------------------------------------------------------------------
DESCRIPTORS_RUN_OUT = """
import os, resource, sys
from pathlib import Path
from server.tournament.store import ResultStore, StoreError
from shared.tournament import GameResult, ScheduledGame
resource.setrlimit(resource.RLIMIT_NOFILE, (64, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
folder = Path(sys.argv[1])
store = ResultStore(folder / "arena.db")
taken = []
try:
    while True:                                  # a server full of sockets: every other descriptor is taken
        taken.append(os.open(os.devnull, os.O_RDONLY))
except OSError:
    pass
tid = store.create_tournament("cup", "knockout", 1, 5, ["a", "b"], {})
store.schedule(tid, [ScheduledGame(0, 0, 0, "a", "b")])
store.record_result(tid, (0, 0, 0), GameResult("a", "b", 0, "goal"), log_path=None, game_id="g",
                    started_at=None, ended_at="t", steps=3)
print(len(store.results(tid)))
try:
    ResultStore(folder / "other.db")
except StoreError as exc:
    print(exc)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="file descriptor limits are POSIX")
def test_an_open_store_records_with_every_descriptor_taken_and_a_new_one_says_what_ran_out(tmp_path):
    done = subprocess.run([sys.executable, "-c", DESCRIPTORS_RUN_OUT, str(tmp_path)], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], timeout=60)
    assert done.returncode == 0, done.stderr
    recorded, refused = done.stdout.splitlines()
    assert recorded == "1"
    assert refused.startswith(f"cannot open database {tmp_path / 'other.db'}: out of file descriptors (ulimit -n 64)")

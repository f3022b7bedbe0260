"""Every database error is one line (which file, what is wrong, what to do), and the WAL stays bounded: the four
stores open through server.disk.sqlite_files and run on server.disk.store_thread."""

from __future__ import annotations

import asyncio
import errno
import sqlite3
from pathlib import Path

import pytest

from server.cli import main
from server.disk import store_thread
from server.disk.sqlite_files import WAL_LIMIT_BYTES, DatabaseFileError
from server.rooms.leaderboard import Entry, Record
from server.ladder.store import LadderStore
from server.rooms.leaderboard_store import LeaderboardRecords, LeaderboardStore
from server.submissions.store import SubmissionStore
from server.tournament.results import Results
from server.tournament.store import ResultStore
from shared.ladder import LiveRatings

PLAIN = ["-p", "0", "--view", "plain"]


async def _settled(results: Results) -> None:
    """Once the store's one thread has finished what it was doing (a quiet time's checkpoint included)."""
    await asyncio.get_running_loop().run_in_executor(results._thread._executor, lambda: None)


def _damaged(path: Path) -> None:
    """A real file of that store, more rows, then a page of them overwritten: malformed, though its header is fine."""
    makers = {"arena.db": ResultStore, "ladder.db": LadderStore, "puzzles.db": LeaderboardStore,
              "submissions.db": lambda _: SubmissionStore(path.parent)}
    makers[path.name](path).close()
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x TEXT)")
    conn.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 200)
    conn.commit()
    conn.close()
    with path.open("r+b") as handle:
        handle.seek(4096 * 3)
        handle.write(b"\xff" * 4096)


@pytest.mark.parametrize("name, extra", [("submissions.db", []), ("puzzles.db", []), ("ladder.db", ["--ladder"]),
                                         ("arena.db", [])])
@pytest.mark.parametrize("how", ["garbage", "damaged"])
def test_a_corrupt_database_stops_the_server_with_one_line_naming_it(capsys, tmp_path, monkeypatch, name, extra, how):
    from server import app

    async def played(*args):       # a server that opened its files plays nothing here: main returns at once
        return None
    monkeypatch.setattr(app.ArenaServer, "run_tournament", played)
    monkeypatch.setattr(app.LadderRunner, "run", played)
    path = tmp_path / name
    if how == "garbage":
        path.write_bytes(b"not a database at all, " * 400)
    else:
        _damaged(path)
    assert main([*PLAIN, "--data-dir", str(tmp_path), *extra]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in err[0]
    assert str(path) in err[0]
    assert ("not" in err[0] and "database" in err[0]) if how == "garbage" else "damaged" in err[0]
    assert "move it aside" in err[0] or "another --data-dir" in err[0]


async def test_a_full_disk_during_a_save_is_one_line_naming_the_file(tmp_path, monkeypatch):
    records = await LeaderboardRecords.open(tmp_path / "puzzles.db")
    entry = Record("sokoban", "1", Entry("alice", (10,), "", "2026-11-27T10:00:00+00:00"))
    await records.save([entry])
    conn = records._thread.store._db

    class Full:                 # the connection as a full disk leaves it: every write refused
        def __getattr__(self, name):
            return getattr(conn, name)

        def executemany(self, *args):
            raise sqlite3.OperationalError("database or disk is full")
    records._thread.store._db = Full()
    with pytest.raises(DatabaseFileError) as caught:
        await records.save([entry])
    records._thread.store._db = conn
    text = str(caught.value)
    assert "\n" not in text and str(tmp_path / "puzzles.db") in text and "disk is full" in text
    assert "free space" in text
    await records.close()


async def test_the_wal_is_emptied_at_quiet_times_and_stays_bounded_under_load(tmp_path, monkeypatch):
    monkeypatch.setattr(store_thread, "QUIET_CHECKPOINT_BATCHES", 4)
    results = await Results.open(tmp_path / "arena.db")
    wal = tmp_path / "arena.db-wal"
    tid = await results.create_tournament("cup", "round-robin", 1, 1, ["a", "b"], {})
    for _ in range(2):
        await results.record_timeout(tid, "a")
    await _settled(results)
    assert wal.stat().st_size > 0                          # three batches: not yet
    await results.record_timeout(tid, "a")                 # the fourth, then nothing queued: emptied
    await _settled(results)
    assert wal.stat().st_size == 0
    # Never quiet: 600 writes queued at once still leave the WAL cut back to its limit after SQLite's checkpoints.
    monkeypatch.setattr(store_thread, "QUIET_CHECKPOINT_BATCHES", 10 ** 9)
    big = {"notes": "x" * 3000}
    for n in range(600):
        await results.create_tournament(f"cup{n}", "round-robin", 1, 1, ["a", "b"], big)
    assert wal.stat().st_size <= WAL_LIMIT_BYTES + 64 * 4096
    await results.close()
    assert not wal.exists() or wal.stat().st_size == 0      # closed: everything is in arena.db


def test_a_full_disk_ending_the_server_is_one_line(capsys, tmp_path, monkeypatch):
    from server import app

    async def full(self):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(app.ArenaServer, "run_tournament", full)
    assert main([*PLAIN, "--data-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"the disk holding {tmp_path} is full" in err[0] and "free space" in err[0]


def _wrote(name: str, folder: Path):
    """The store of ``name`` in ``folder`` after one write of its own."""
    if name == "arena.db":
        store = ResultStore(folder / name)
        store.create_tournament("cup", "round-robin", 1, 1, ["a", "b"], {})
    elif name == "ladder.db":
        store = LadderStore(folder / name)
        store.track("bot", "v1", LiveRatings().initial())
    elif name == "puzzles.db":
        store = LeaderboardStore(folder / name)
        store.save([Record("sokoban", "1", Entry("alice", (10,), "", "2026-11-27T10:00:00+00:00"))])
    else:
        store = SubmissionStore(folder)
        store._conn.execute("INSERT INTO versions VALUES ('k', 'd', 'bot.py', 't', 't', 1, 'ok', '', 1.0, 1, 1)")
    return store


@pytest.mark.parametrize("name", ["arena.db", "ladder.db", "puzzles.db", "submissions.db"])
def test_each_store_empties_its_wal_when_its_thread_is_quiet(tmp_path, name):
    store = _wrote(name, tmp_path)
    wal = tmp_path / f"{name}-wal"
    assert wal.stat().st_size > 0
    assert store.checkpoint() is True and wal.stat().st_size == 0
    store.close()

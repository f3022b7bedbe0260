"""The puzzle rooms' leaderboard on disk: ``LeaderboardStore`` (synchronous SQLite, its one table) and
``LeaderboardRecords``, the typed ``async`` facade the server reaches it through.

The table is the one the rooms have always written (``puzzles.db``): ``leaderboard (room, level,
player, score, answer, at)``, one row per player and level (the score a JSON list, ``at`` an ISO
8601 UTC time to the second, as ``stamp`` makes it), in WAL mode; a file made by an earlier server is
read as it is. ``LeaderboardRecords`` owns the one worker thread the store runs on (a
``server.disk.store_thread.StoreThread``, as every store's facade): calls run in the order they are
made, and a ``save`` has committed (on disk) when it returns. The board the rooms read and write is
``server.rooms.leaderboard.Leaderboard``, in memory.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from server.disk.sqlite_files import checkpoint, connect, database_error, transaction
from server.disk.store_thread import StoreClosedError, StoreFacade, StoreThread
from server.rooms.leaderboard import Entry, Record

__all__ = ["LeaderboardStore", "LeaderboardRecords", "THREAD_NAME", "stamp"]

#: The name (prefix) of the leaderboard store's worker thread.
THREAD_NAME = "quoridor-leaderboard-db"

_TABLE = ("CREATE TABLE IF NOT EXISTS leaderboard (room TEXT, level TEXT, player TEXT, score TEXT, answer TEXT, "
          "at TEXT, PRIMARY KEY (room, level, player))")


def stamp() -> str:
    """The time now as the table's ``at`` holds it: UTC to the second (``2026-11-24T08:30:00+00:00``)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


class LeaderboardStore:
    """The ``leaderboard`` table in the SQLite file ``path`` (made with its folder if missing); ``None``: in memory."""

    def __init__(self, path: Path | None) -> None:
        """Open (or make) the file and its table; ``DatabaseFileError`` (one line) if it cannot be."""
        self.path = path
        # A file as every store opens one (WAL, each save synced before its rank is heard, checked); one line if not.
        self._db = (sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False) if path is None
                    else connect(path))
        try:
            self._db.execute(_TABLE)
        except sqlite3.Error as exc:
            self._db.close()
            raise database_error(exc, path or Path(":memory:"), "opening the puzzles' leaderboard") from None
        except BaseException:
            self._db.close()
            raise

    def entries(self) -> list[Record]:
        """Every stored entry."""
        return [Record(room, level, Entry(player, tuple(json.loads(score)), answer, at))
                for room, level, player, score, answer, at in self._db.execute(
                    "SELECT room, level, player, score, answer, at FROM leaderboard")]

    def save(self, records: Sequence[Record]) -> None:
        """Store ``records`` in one transaction, each replacing its player's row for that level."""
        with transaction(self._db):
            self._db.executemany("INSERT OR REPLACE INTO leaderboard (room, level, player, score, answer, at) "
                                 "VALUES (?, ?, ?, ?, ?, ?)",
                                 [(r.room, r.level, r.entry.player, json.dumps(list(r.entry.score)), r.entry.answer,
                                   r.entry.at) for r in records])

    def checkpoint(self) -> bool:
        """Empty the WAL into the file (at a quiet time: ``StoreThread``); False when a reader held part of it."""
        return self.path is None or checkpoint(self._db)

    def close(self) -> None:
        """Close the database."""
        self._db.close()


class LeaderboardRecords(StoreFacade[LeaderboardStore]):
    """The stored leaderboard: ``await LeaderboardRecords.open(path)``, then one ``async`` method per call.

    Every method raises what ``LeaderboardStore`` raises for it (``DatabaseFileError``, one line); after
    ``close()`` every call raises ``StoreClosedError``.
    """

    @classmethod
    async def open(cls, path: Path | None) -> LeaderboardRecords:
        """Open (making it and its folder if missing) the leaderboard's file ``path`` on a new thread.

        ``path=None`` keeps the entries in memory only, nothing on disk. What opening raises is raised
        here; no thread is left behind.
        """
        path = None if path is None else Path(path)
        return cls(await StoreThread.open(THREAD_NAME, lambda: LeaderboardStore(path), closed=lambda: StoreClosedError(
            f"the leaderboard's store {path or '(in memory)'} is closed; open it again with LeaderboardRecords.open")))

    async def entries(self) -> list[Record]:
        """Every stored entry (to seed the board at start)."""
        return await self._thread.call(LeaderboardStore.entries)

    async def save(self, records: Sequence[Record]) -> None:
        """Store ``records`` (one transaction), each replacing its player's entry for that level; on disk on return."""
        rows = tuple(records)
        await self._thread.call(lambda store: store.save(rows))

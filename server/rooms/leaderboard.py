"""``Leaderboard``: the best verified solutions per room and level, kept in SQLite.

Scores are tuples compared ascending (Sokoban: ``(moves, pushes)``; ice: ``(moves, distance)``;
circuit: ``(rotations,)``); each player keeps only its best entry per level. Reads are served
from memory; writes go to the database at once (one small transaction).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

__all__ = ["Leaderboard", "Entry"]


@dataclass(frozen=True)
class Entry:
    """One player's best verified solution of one level."""

    player: str
    score: tuple[int, ...]
    answer: str
    at: str


class Leaderboard:
    """Best solutions per ``(room, level)``; ``path=None`` keeps them in memory only."""

    def __init__(self, path: Path | None = None) -> None:
        self._lock = threading.Lock()
        self._boards: dict[tuple[str, str], dict[str, Entry]] = {}
        self._db: sqlite3.Connection | None = None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS leaderboard (room TEXT, level TEXT, player TEXT, "
                             "score TEXT, answer TEXT, at TEXT, PRIMARY KEY (room, level, player))")
            for room, level, player, score, answer, at in self._db.execute("SELECT * FROM leaderboard"):
                board = self._boards.setdefault((room, level), {})
                board[player] = Entry(player, tuple(json.loads(score)), answer, at)

    def record(self, room: str, level: str, player: str, score: tuple[int, ...], answer: str) -> int:
        """Offer a verified solution; returns the player's rank on that level afterwards (1 = best)."""
        with self._lock:
            board = self._boards.setdefault((room, level), {})
            old = board.get(player)
            if old is None or score < old.score:
                entry = Entry(player, tuple(score), answer, datetime.now(UTC).isoformat(timespec="seconds"))
                board[player] = entry
                if self._db is not None:
                    self._db.execute("INSERT OR REPLACE INTO leaderboard VALUES (?, ?, ?, ?, ?, ?)",
                                     (room, level, player, json.dumps(list(entry.score)), answer, entry.at))
            ranking = sorted(board.values(), key=lambda e: (e.score, e.at))
            return next(i for i, e in enumerate(ranking, 1) if e.player == player)

    def top(self, room: str, level: str, n: int = 10) -> list[Entry]:
        """The best ``n`` entries of a level, best first."""
        with self._lock:
            board = self._boards.get((room, level), {})
            return sorted(board.values(), key=lambda e: (e.score, e.at))[:n]

    def close(self) -> None:
        """Close the database."""
        if self._db is not None:
            self._db.close()
            self._db = None

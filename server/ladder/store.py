"""``LadderStore``: the practice ladder's SQLite file (``ladder.db``): tracks, games and live ratings.

A separate file from the tournaments' ``arena.db``: the ladder runs for weeks beside many
tournaments, and its tables change on their own schedule (``PRAGMA user_version``, upgraded in
place and chained like ``server.tournament.store``). A game and the two ratings it moved are written in one
transaction, before the players hear the result, so a server killed at any moment (``kill -9``
included) restarts with every finished game and rating, and never with half of one.

Synchronous: the server reaches it on its own worker thread, through ``server.ladder.records.LadderRecords``.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

from shared.ladder import BotReport, GameFact, PublishedRow, Skill, build_report, pair_key, published_table
from shared.organiser import LadderActivity, PlayedGame

from server.disk.sqlite_files import FileSchema, checkpoint, open_store, transaction
from server.timestamps import utc_now

__all__ = ["LadderStore", "Track", "LadderGame", "LADDER_SCHEMA_VERSION", "LADDER_APPLICATION_ID"]

LADDER_SCHEMA_VERSION = 1
LADDER_APPLICATION_ID = 0x51554C44  # "QULD"

_SCHEMA = (
    """CREATE TABLE tracks (
        id INTEGER PRIMARY KEY AUTOINCREMENT, bot TEXT NOT NULL, version TEXT NOT NULL, created_at TEXT NOT NULL,
        mu REAL NOT NULL, sigma REAL NOT NULL, games INTEGER NOT NULL DEFAULT 0, UNIQUE (bot, version))""",
    """CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT, game_id TEXT NOT NULL UNIQUE, pairing INTEGER NOT NULL,
        white INTEGER NOT NULL REFERENCES tracks(id), black INTEGER NOT NULL REFERENCES tracks(id),
        winner INTEGER CHECK (winner IN (0, 1)), reason TEXT NOT NULL, opening TEXT NOT NULL, log_path TEXT,
        started_at TEXT NOT NULL, ended_at TEXT NOT NULL, thinking_ms TEXT NOT NULL, violations TEXT NOT NULL,
        step_ms TEXT NOT NULL, causes TEXT NOT NULL, ratings_after TEXT NOT NULL)""",
    "CREATE INDEX games_by_end ON games (ended_at)",
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
)
#: version -> statements that bring a file of that version to the next (none yet; chained as in server.tournament.store).
_UPGRADES: dict[int, tuple[str, ...]] = {}


_FILE = FileSchema("ladder", LADDER_APPLICATION_ID, LADDER_SCHEMA_VERSION, _SCHEMA, _UPGRADES)


@dataclass(frozen=True)
class Track:
    """One version of one bot: its own rating track."""

    id: int
    bot: str
    version: str
    skill: Skill
    games: int
    created_at: str

    @property
    def label(self) -> str:
        """How tables name it: ``bot@version`` (the version cut to 8 characters), or the bot alone without one."""
        return f"{self.bot}@{self.version[:8]}" if self.version else self.bot


@dataclass(frozen=True)
class LadderGame:
    """A finished game as the ladder records it (tracks by label, seat 0 first)."""

    game_id: str
    pairing: int
    white: Track
    black: Track
    winner: int | None
    reason: str
    opening: str
    log_path: str | None
    started_at: str
    thinking_ms: tuple[int, int]
    violations: tuple[int, int]
    step_ms: tuple[Sequence[int], Sequence[int]]
    causes: tuple[Sequence[str], Sequence[str]]
    after: tuple[Skill, Skill]


class LadderStore:
    """The ladder's database file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn = open_store(path, _FILE, foreign_keys=True)          # a game heard of is on disk

    def _transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        return transaction(self._conn)

    def checkpoint(self) -> bool:
        """Empty the WAL into the file (at a quiet time: ``StoreThread``); False when a reader held part of it."""
        return checkpoint(self._conn)

    def close(self) -> None:
        """Close the database."""
        self._conn.close()

    # -- tracks -------------------------------------------------------------------------------
    @staticmethod
    def _track(row: sqlite3.Row) -> Track:
        return Track(row["id"], row["bot"], row["version"], Skill(row["mu"], row["sigma"]), row["games"],
                     row["created_at"])

    def track(self, bot: str, version: str, initial: Skill) -> Track:
        """The track of ``bot`` at ``version``, created (at ``initial``) the first time it plays."""
        with self._transaction() as conn:
            conn.execute("INSERT OR IGNORE INTO tracks (bot, version, created_at, mu, sigma) VALUES (?, ?, ?, ?, ?)",
                         (bot, version, utc_now(), initial.mu, initial.sigma))
            row = conn.execute("SELECT * FROM tracks WHERE bot = ? AND version = ?", (bot, version)).fetchone()
        return self._track(row)

    def tracks(self) -> list[Track]:
        """Every track, oldest first."""
        return [self._track(r) for r in self._conn.execute("SELECT * FROM tracks ORDER BY id")]

    def current_tracks(self) -> list[Track]:
        """The newest track of each bot (its current version)."""
        return [self._track(r) for r in self._conn.execute(
            "SELECT * FROM tracks WHERE id IN (SELECT max(id) FROM tracks GROUP BY bot) ORDER BY id")]

    # -- games --------------------------------------------------------------------------------
    def record(self, game: LadderGame) -> None:
        """Store a finished game and the two ratings it produced, in one transaction."""
        with self._transaction() as conn:
            conn.execute(
                "INSERT INTO games (game_id, pairing, white, black, winner, reason, opening, log_path, started_at, "
                "ended_at, thinking_ms, violations, step_ms, causes, ratings_after) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game.game_id, game.pairing, game.white.id, game.black.id, game.winner, game.reason, game.opening,
                 game.log_path, game.started_at, utc_now(), json.dumps(list(game.thinking_ms)),
                 json.dumps(list(game.violations)), json.dumps([list(s) for s in game.step_ms]),
                 json.dumps([list(c) for c in game.causes]),
                 json.dumps([[s.mu, s.sigma] for s in game.after])))
            for track, skill in zip((game.white, game.black), game.after):
                conn.execute("UPDATE tracks SET mu = ?, sigma = ?, games = games + 1 WHERE id = ?",
                             (skill.mu, skill.sigma, track.id))
            conn.execute("INSERT INTO meta (key, value) VALUES ('last_pairing', ?) ON CONFLICT (key) DO UPDATE "
                         "SET value = max(CAST(value AS INTEGER), excluded.value)", (str(game.pairing),))

    def last_pairing(self) -> int:
        """The highest pairing number recorded (pairings are numbered on from it after a restart)."""
        row = self._conn.execute("SELECT value FROM meta WHERE key = 'last_pairing'").fetchone()
        return int(row[0]) if row else 0

    def meetings(self, since: str | None = None) -> Counter[tuple[str, str]]:
        """Games per pair of bots (by name: a new version keeps its bot's meetings), ended since ``since``."""
        sql = ("SELECT w.bot, b.bot, count(*) FROM games g JOIN tracks w ON w.id = g.white "
               "JOIN tracks b ON b.id = g.black")
        rows = self._conn.execute(sql + (" WHERE g.ended_at >= ?" if since else "") + " GROUP BY w.bot, b.bot",
                                  (since,) if since else ())
        counts: Counter[tuple[str, str]] = Counter()
        for white, black, n in rows:
            counts[pair_key(white, black)] += n
        return counts

    def facts(self, track_ids: Sequence[int] | None = None) -> list[GameFact]:
        """Games (all, or those involving ``track_ids``) as ``GameFact``s named by track label, in play order."""
        labels = {t.id: t.label for t in self.tracks()}
        sql = "SELECT * FROM games"
        args: tuple[int, ...] = ()
        if track_ids is not None:
            marks = ",".join("?" * len(track_ids))
            sql += f" WHERE white IN ({marks}) OR black IN ({marks})"
            args = (*track_ids, *track_ids)
        result = []
        for row in self._conn.execute(sql + " ORDER BY id", args):
            after = json.loads(row["ratings_after"])
            step_ms = json.loads(row["step_ms"])
            causes = json.loads(row["causes"])
            result.append(GameFact(row["game_id"], labels[row["white"]], labels[row["black"]], row["winner"],
                                   row["reason"], (tuple(step_ms[0]), tuple(step_ms[1])),
                                   (tuple(causes[0]), tuple(causes[1])),
                                   tuple(mu - 3 * sigma for mu, sigma in after)))  # type: ignore[arg-type]
        return result

    def activity(self, bots: Sequence[str]) -> dict[str, LadderActivity]:
        """What each of ``bots`` (by name) did on the ladder: its newest track with that track's games (in play order,
        each with when it ended, its steps still JSON: parsed where the rows are built, off this thread), and when its
        last game of any track ended.
        Bots that never had a track are left out."""
        wanted = set(bots)
        current = {t.bot: t for t in self.current_tracks() if t.bot in wanted}
        if not current:
            return {}
        marks = ",".join("?" * len(current))
        last = dict(self._conn.execute(
            f"SELECT t.bot, max(g.ended_at) FROM games g JOIN tracks t ON t.id IN (g.white, g.black) "
            f"WHERE t.bot IN ({marks}) GROUP BY t.bot", tuple(current)).fetchall())
        labels = {t.id: t.label for t in self.tracks()}
        ids = [t.id for t in current.values()]
        id_marks = ",".join("?" * len(ids))
        games: dict[str, list[PlayedGame]] = {bot: [] for bot in current}
        by_id = {t.id: bot for bot, t in current.items()}
        rows = self._conn.execute(f"SELECT game_id, white, black, winner, reason, step_ms, causes, ended_at FROM games "
                                  f"WHERE white IN ({id_marks}) OR black IN ({id_marks}) ORDER BY id", (*ids, *ids))
        for game_id, white, black, winner, reason, step_ms, causes, ended_at in rows:
            game = PlayedGame(game_id, labels[white], labels[black], winner, reason, step_ms, causes, ended_at)
            for seat in {white, black}:
                if seat in by_id:
                    games[by_id[seat]].append(game)
        return {bot: LadderActivity(track.label, track.created_at, games[bot], last.get(bot))
                for bot, track in current.items()}

    def game_log(self, game_id: str) -> str | None:
        """The log of the ladder game ``game_id`` as its path in the data directory (``ladder.db``'s folder), as the
        game page asks for it; None for no such game, a game without a log, or a log elsewhere."""
        row = self._conn.execute("SELECT log_path FROM games WHERE game_id = ?", (game_id,)).fetchone()
        if row is None or not row[0]:
            return None
        try:
            return Path(row[0]).resolve().relative_to(self.path.resolve().parent).as_posix()
        except ValueError:
            return None

    def results_between(self, track_ids: Sequence[int]) -> list[tuple[int, int, float]]:
        """``(white id, black id, white's points)`` of every game between the given tracks."""
        marks = ",".join("?" * len(track_ids))
        rows = self._conn.execute(f"SELECT white, black, winner FROM games WHERE white IN ({marks}) "
                                  f"AND black IN ({marks})", (*track_ids, *track_ids))
        return [(w, b, 0.5 if winner is None else float(winner == 0)) for w, b, winner in rows]

    def published(self) -> tuple[list[PublishedRow], dict[str, Track]]:
        """The published table of the current tracks (``random`` = 0 when it plays), with those tracks by label."""
        current = self.current_tracks()
        ids = [t.id for t in current]
        labels = {t.id: t.label for t in current}
        games = [(labels[w], labels[b], p) for w, b, p in self.results_between(ids)] if ids else []
        anchor = next((t.label for t in current if t.bot == "random"), None)
        return published_table([labels[i] for i in ids], games, anchor=anchor), {t.label: t for t in current}

    def report(self, wanted: str, limit_ms: int) -> tuple[Track, BotReport] | None:
        """The report of the version ``wanted`` (its label or ``bot@version``) from its games, with its track; None
        when no track is called so (``limit_ms``: the time limit its steps are measured against)."""
        track = next((t for t in self.tracks() if wanted in (t.label, f"{t.bot}@{t.version}")), None)
        if track is None:
            return None
        return track, build_report(track.label, self.facts([track.id]), limit_ms)

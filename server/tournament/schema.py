"""The results database's schema: the tables ``ResultStore`` creates, and the chain of in-place upgrades.

A file carries ``PRAGMA application_id`` (ours: ``APPLICATION_ID``) and ``PRAGMA user_version`` (the
schema it was written with). ``check_schema`` tells ours from any other file; ``create_or_upgrade``
brings an empty or older file to ``SCHEMA_VERSION`` one version at a time, inside the caller's
transaction. Nothing here opens a file or commits.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "SchemaError", "check_schema", "create_or_upgrade"]

SCHEMA_VERSION = 4
"""The schema this code writes, kept in ``PRAGMA user_version``; older ones are upgraded, newer refused.

Version 2 added ``players.timeouts`` and ``players.kicked_at`` (``--kick-after-timeouts`` survives a resume);
version 3 admits the ``swiss`` format; version 4 admits the ``final`` format and adds ``players.key`` and
``players.version`` (who each seat is, and which handed-in version played: the grades export reads them)."""
APPLICATION_ID = 0x51554F52  # "QUOR"
"""``PRAGMA application_id`` of a results database: tells ours from any other SQLite file."""

_TOURNAMENTS = """CREATE TABLE {name} (
        id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,
        format TEXT NOT NULL CHECK (format IN ({formats})),
        games_per_pairing INTEGER NOT NULL CHECK (games_per_pairing >= 1), seed INTEGER,
        settings TEXT NOT NULL, created_at TEXT NOT NULL, finished_at TEXT, standings TEXT)"""
_FORMATS_V3 = "'round-robin', 'knockout', 'swiss'"
_FORMATS = "'round-robin', 'knockout', 'swiss', 'final'"
_SCHEMA = (
    _TOURNAMENTS.format(name="tournaments", formats=_FORMATS),
    """CREATE TABLE players (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id), seat_order INTEGER NOT NULL,
        name TEXT NOT NULL, timeouts INTEGER NOT NULL DEFAULT 0, kicked_at TEXT, key TEXT, version TEXT,
        PRIMARY KEY (tournament_id, seat_order), UNIQUE (tournament_id, name))""",
    """CREATE TABLE games (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        round INTEGER NOT NULL, pairing INTEGER NOT NULL, game_in_pairing INTEGER NOT NULL,
        white TEXT NOT NULL, black TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'finished')),
        game_id TEXT, winner INTEGER CHECK (winner IN (0, 1)), reason TEXT,
        white_thinking_ms INTEGER NOT NULL DEFAULT 0, black_thinking_ms INTEGER NOT NULL DEFAULT 0,
        white_violations INTEGER NOT NULL DEFAULT 0, black_violations INTEGER NOT NULL DEFAULT 0,
        log_path TEXT, started_at TEXT, ended_at TEXT, steps INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (tournament_id, round, pairing, game_in_pairing),
        FOREIGN KEY (tournament_id, white) REFERENCES players(tournament_id, name),
        FOREIGN KEY (tournament_id, black) REFERENCES players(tournament_id, name))""",
    "CREATE INDEX games_by_status ON games (tournament_id, status)",
    "CREATE INDEX tournaments_unfinished ON tournaments (finished_at, id)",
)


def _copy_tournaments(version: int, formats: str) -> tuple[str, ...]:
    """The statements that copy ``tournaments`` into a table of ``version``'s CHECK on ``formats``.

    SQLite cannot alter a CHECK: the table is copied into one with the new CHECK, its documented way
    (foreign keys are off while upgrading, so the players' and games' references outlive the swap).
    """
    table = f"tournaments_v{version}"
    return (_TOURNAMENTS.format(name=table, formats=formats),
            (f"INSERT INTO {table} (id, name, format, games_per_pairing, seed, settings, created_at, finished_at, "
             "standings) SELECT id, name, format, games_per_pairing, seed, settings, created_at, finished_at, "
             "standings FROM tournaments"),
            "DROP TABLE tournaments",
            f"ALTER TABLE {table} RENAME TO tournaments",
            "CREATE INDEX tournaments_unfinished ON tournaments (finished_at, id)")


#: From each older version to the next.
_UPGRADES = {
    1: ("ALTER TABLE players ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE players ADD COLUMN kicked_at TEXT"),
    2: _copy_tournaments(3, _FORMATS_V3),
    3: (*_copy_tournaments(4, _FORMATS),
        "ALTER TABLE players ADD COLUMN key TEXT",
        "ALTER TABLE players ADD COLUMN version TEXT"),
}


class SchemaError(Exception):
    """The file is not a results database, or one newer than this code; the message says which and what to do."""


def check_schema(conn: sqlite3.Connection, path: Path) -> int:
    """The schema version of our file at ``path`` (0: an empty file, to create); SchemaError for anything else."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    if app_id == APPLICATION_ID:
        if version > SCHEMA_VERSION:
            raise SchemaError(f"database {path} has results schema version {version}, but this server "
                              f"reads up to version {SCHEMA_VERSION}; upgrade Quoridor Arena or pass another "
                              "--data-dir")
        if version in _UPGRADES or version == SCHEMA_VERSION:
            return version
    elif app_id == 0 and version == 0 and not tables:
        return 0
    why = ("no 'tournaments' table" if "tournaments" not in tables
           else f"application id {app_id:#x}, schema version {version}")
    raise SchemaError(f"database {path} is not a Quoridor Arena results database ({why}); "
                      "pass another --data-dir")


def create_or_upgrade(conn: sqlite3.Connection, version: int) -> None:
    """Bring a file of schema ``version`` (0: empty) to ``SCHEMA_VERSION``, in the caller's transaction.

    Foreign keys must be off: an upgrade may copy a referenced table.
    """
    if version == 0:
        for statement in _SCHEMA:
            conn.execute(statement)
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    while 0 < version < SCHEMA_VERSION:
        for statement in _UPGRADES[version]:
            conn.execute(statement)
        version += 1
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

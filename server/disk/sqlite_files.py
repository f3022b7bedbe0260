"""How our own SQLite files (the ladder's, the handed-in bots') are opened and written.

``open_store`` makes a new file with its schema and marks (SQLite's ``application_id`` and
``user_version``), tells another kind of file apart in one line, and upgrades an older one in
place; ``transaction`` is one write transaction. Every commit is on disk before it returns
(``synchronous = FULL``): what a client was told survives a crash.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

__all__ = ["FileSchema", "open_store", "transaction"]


@dataclass(frozen=True)
class FileSchema:
    """What one kind of our SQLite files holds: its name in errors, its marks, its tables and their upgrades."""

    kind: str
    application_id: int
    version: int
    statements: Sequence[str]
    #: version -> statements that bring a file of that version to the next.
    upgrades: Mapping[int, Sequence[str]]


def open_store(path: Path, schema: FileSchema, *, foreign_keys: bool = False) -> sqlite3.Connection:
    """Open the SQLite file ``path`` (made with its folder if new) for one thread at a time, every commit on disk.

    A new file gets ``schema``'s tables and marks; an older one is upgraded in place, one version at a
    time; ``ValueError`` in one line for another kind of file or a newer schema.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, timeout=10.0, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")     # what a client heard of is on disk
    if foreign_keys:
        conn.execute("PRAGMA foreign_keys = ON")
    try:
        with transaction(conn):
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if version == 0 and tables == 0:
                for statement in schema.statements:
                    conn.execute(statement)
                conn.execute(f"PRAGMA application_id = {schema.application_id}")
                version = schema.version
            elif app_id != schema.application_id:
                raise ValueError(f"{path} is not a {schema.kind} database (application id {app_id:#x})")
            elif version > schema.version:
                raise ValueError(f"{path} has {schema.kind} schema version {version}; this server reads up to "
                                 f"{schema.version}: upgrade Quoridor Arena")
            while version < schema.version:
                for statement in schema.upgrades[version]:
                    conn.execute(statement)
                version += 1
            conn.execute(f"PRAGMA user_version = {schema.version}")
    except BaseException:
        conn.close()
        raise
    return conn


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction on ``conn`` (taken at once: ``BEGIN IMMEDIATE``), committed, or rolled back on error."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")

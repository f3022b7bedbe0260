"""How our own SQLite files (the results', the ladder's, the handed-in bots', the puzzles') are opened and written.

``connect`` opens one the same way for every store: WAL, every commit on disk before it returns
(``synchronous = FULL``: what a client was told survives a crash), the WAL kept bounded (an
automatic checkpoint every ``AUTOCHECKPOINT_PAGES`` pages, the file cut back to
``WAL_LIMIT_BYTES`` after it; ``checkpoint`` empties it at quiet times), and the file checked
(``PRAGMA quick_check``): a damaged one is refused. ``database_error`` says any SQLite or disk error
of a file in one line: which file, what is wrong, what to do (``DatabaseFileError``).
``open_store`` makes a new file with its schema and marks (SQLite's ``application_id`` and
``user_version``), tells another kind of file apart in one line, and upgrades an older one in
place; ``transaction`` is one write transaction.
"""

from __future__ import annotations

import errno
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

__all__ = ["FileSchema", "DatabaseFileError", "AUTOCHECKPOINT_PAGES", "WAL_LIMIT_BYTES", "connect", "checkpoint",
           "database_error", "open_store", "transaction"]

AUTOCHECKPOINT_PAGES = 256
"""A commit that leaves the WAL this many pages long (1 MiB of 4 KiB pages) copies it into the file (SQLite's
default is 1000): less to lose when a ``-wal`` file is lost, less to read back after a crash."""
WAL_LIMIT_BYTES = 1 << 20
"""After a checkpoint the ``-wal`` file is cut back to this size (SQLite keeps it at its largest otherwise)."""
BUSY_TIMEOUT_S = 10.0
"""How long a statement waits for another connection's lock before it fails."""


class DatabaseFileError(ValueError):
    """One of our SQLite files cannot be opened, read or written: the message says which file, what is wrong and
    what to do, in one line."""


def database_error(error: BaseException, path: Path, doing: str) -> DatabaseFileError:
    """``error`` (an ``sqlite3.Error`` or ``OSError``) met while ``doing`` something to the file ``path``, in one line."""
    text = " ".join((str(error) if not isinstance(error, OSError) else (error.strerror or str(error))).split())
    lower = text.lower()
    code = getattr(error, "sqlite_errorcode", None)
    if "not a database" in lower or "file is encrypted" in lower:
        return DatabaseFileError(f"{path} is not an SQLite database ({text}): it was overwritten or is another "
                                 "file; move it aside (or restore it from a backup) and start again, or pass another "
                                 "--data-dir")
    if "malformed" in lower or "corrupt" in lower or code == getattr(sqlite3, "SQLITE_CORRUPT", 11):
        return DatabaseFileError(f"{path} is damaged ({text}): restore it from a backup (copied with its -wal and "
                                 "-shm files, or with sqlite3's .backup), or move it aside to start a new one")
    if "full" in lower or getattr(error, "errno", None) == errno.ENOSPC:
        return DatabaseFileError(f"{doing} {path} failed: the disk is full ({text}); free space on it, then start "
                                 "again (what was stored before is kept)")
    if "locked" in lower or "busy" in lower:
        return DatabaseFileError(f"{doing} {path} failed: another process held it for over {BUSY_TIMEOUT_S:g} s "
                                 f"({text}); stop the other server, or retry")
    if "readonly" in lower or "read-only" in lower or "permission" in lower or "unable to open" in lower:
        return DatabaseFileError(f"{doing} {path} failed ({text}): check that the folder and the file exist and "
                                 "are writable by this user, or pass another --data-dir")
    return DatabaseFileError(f"{doing} {path} failed: {text}; check the disk and the file, or pass another --data-dir")


def connect(path: Path, *, check: bool = True) -> sqlite3.Connection:
    """Open the SQLite file ``path`` (made with its folder if new) as every store does: WAL, every commit synced,
    the WAL bounded; ``check``: refused if ``PRAGMA quick_check`` finds it damaged. ``DatabaseFileError``, one line,
    for anything that goes wrong."""
    conn: sqlite3.Connection | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        if check:
            problems = [row[0] for row in conn.execute("PRAGMA quick_check(3)")]
            if problems != ["ok"]:
                raise sqlite3.DatabaseError("database disk image is malformed: " + "; ".join(problems))
        if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")     # what a client heard of is on disk
        conn.execute(f"PRAGMA wal_autocheckpoint = {AUTOCHECKPOINT_PAGES}")
        conn.execute(f"PRAGMA journal_size_limit = {WAL_LIMIT_BYTES}")
    except (sqlite3.Error, OSError) as exc:
        if conn is not None:
            conn.close()
        raise database_error(exc, path, "opening") from None
    except BaseException:
        if conn is not None:
            conn.close()
        raise
    return conn


def checkpoint(conn: sqlite3.Connection) -> bool:
    """Copy the whole WAL into the file and empty it (``wal_checkpoint(TRUNCATE)``), at a quiet time; False when a
    reader held part of it back (it is tried again later). Errors are the caller's (``database_error``)."""
    busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
    return not busy


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
    time; ``DatabaseFileError`` (a ``ValueError``) in one line for another kind of file, a newer schema, a damaged
    file or any error of the disk.
    """
    conn = connect(path)
    try:
        if foreign_keys:
            conn.execute("PRAGMA foreign_keys = ON")
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
                raise DatabaseFileError(f"{path} is not a {schema.kind} database (application id {app_id:#x})")
            elif version > schema.version:
                raise DatabaseFileError(f"{path} has {schema.kind} schema version {version}; this server reads up "
                                        f"to {schema.version}: upgrade Quoridor Arena")
            while version < schema.version:
                for statement in schema.upgrades[version]:
                    conn.execute(statement)
                version += 1
            conn.execute(f"PRAGMA user_version = {schema.version}")
    except sqlite3.Error as exc:
        conn.close()
        raise database_error(exc, path, f"opening the {schema.kind} database") from None
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

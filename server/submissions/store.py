"""``SubmissionStore``: the bots handed in as files, by content hash, and each key's versions with their validation.

Under the data directory, ``submissions/`` holds one read-only folder per content digest (the
files and the entry: ``server.submissions.files.content_digest``), written once and shared by every
key that hands in the same bot; ``submissions.db`` (SQLite, its own file like ``ladder.db``) holds
each key's versions: when, the entry, the files' count and size, and the validation's result. The
same files handed in again by the same key are the same version (one row, its result updated
when it is validated again). Every write is committed before the call returns, so a submitter
hears only of what is stored.

Synchronous: the server reaches it on its own worker thread, through ``server.submissions.records.SubmissionRecords``.
"""

from __future__ import annotations

import secrets
import shutil
import sqlite3
from collections.abc import Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path

from server.disk.sqlite_files import FileSchema, checkpoint, open_store, transaction
from server.submissions.files import ArchiveLimits, content_digest, executable_entry, find_entry, read_archive, write_tree
from server.timestamps import utc_now_seconds

__all__ = ["SubmissionStore", "StoredVersion", "Received", "VERSION_CHARS", "SUBMISSIONS_SCHEMA_VERSION",
           "SUBMISSIONS_APPLICATION_ID"]

VERSION_CHARS = 12
"""Hex digits of the content digest that make a version id."""
SUBMISSIONS_SCHEMA_VERSION = 1
"""The schema version of ``submissions.db`` this code writes (``PRAGMA user_version``)."""
SUBMISSIONS_APPLICATION_ID = 0x51555342  # "QUSB"
"""The ``PRAGMA application_id`` that marks a submissions database."""

_SCHEMA = (
    """CREATE TABLE versions (
        key TEXT NOT NULL, digest TEXT NOT NULL, entry TEXT NOT NULL, submitted_at TEXT NOT NULL,
        validated_at TEXT NOT NULL, accepted INTEGER NOT NULL CHECK (accepted IN (0, 1)), cause TEXT NOT NULL,
        reason TEXT NOT NULL, seconds REAL NOT NULL, files INTEGER NOT NULL, bytes INTEGER NOT NULL,
        PRIMARY KEY (key, digest))""",
    "CREATE INDEX versions_by_time ON versions (key, submitted_at)",
)
#: version -> statements that bring a file of that version to the next (none yet; chained as in server.tournament.store).
_UPGRADES: dict[int, tuple[str, ...]] = {}
_FILE = FileSchema("submissions", SUBMISSIONS_APPLICATION_ID, SUBMISSIONS_SCHEMA_VERSION, _SCHEMA, _UPGRADES)


@dataclass(frozen=True)
class StoredVersion:
    """One version of one key's bot: its files (by digest), the entry, and how its validation went."""

    key: str
    digest: str
    entry: str
    submitted_at: str
    accepted: bool
    cause: str
    reason: str
    seconds: float
    files: int
    bytes: int
    #: When the server stored its validation's result (``submitted_at``: when it was handed in); None until read
    #: back from the file. Not part of the version's equality: validating the same files again changes only the time.
    validated_at: str | None = field(default=None, compare=False)

    @property
    def version(self) -> str:
        """The version id: the digest's first ``VERSION_CHARS`` hex digits."""
        return self.digest[:VERSION_CHARS]


@dataclass(frozen=True)
class Received:
    """A handed-in archive, read, checked and its files stored: what to validate, and the key's earlier version of them."""

    digest: str
    entry: str
    files: int
    bytes: int
    folder: Path
    #: The version of the same key with the same files, if it handed them in before.
    before: StoredVersion | None


class SubmissionStore:
    """The submissions of one data directory: the files under ``submissions/``, the versions in ``submissions.db``."""

    def __init__(self, data_dir: Path) -> None:
        self.root = data_dir / "submissions"          # made with the first bot: a data dir's folders are tournaments
        data_dir.mkdir(parents=True, exist_ok=True)
        self.path = data_dir / "submissions.db"
        self._conn = open_store(self.path, _FILE)          # a result heard of is on disk

    def _transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        return transaction(self._conn)

    def checkpoint(self) -> bool:
        """Empty the WAL into the file (at a quiet time: ``StoreThread``); False when a reader held part of it."""
        return checkpoint(self._conn)

    def close(self) -> None:
        """Close the database."""
        self._conn.close()

    # -- files --------------------------------------------------------------------------------
    def folder(self, digest: str) -> Path:
        """Where the files of ``digest`` are (or go)."""
        if len(digest) != 64 or any(char not in "0123456789abcdef" for char in digest):
            raise ValueError(f"not a content digest: {digest!r}")
        return self.root / digest

    def put_files(self, digest: str, files: Mapping[str, bytes], *, executable: str | None = None) -> Path:
        """Store ``files`` as ``digest`` (once: a digest already stored is kept as it is); their folder (``executable``:
        the bot's own program among them, written executable).

        The files are written, read-only, in a new folder beside the final one (``.incoming-*``, in
        the same parent) and renamed in place whole, so a folder that exists is complete. The rename
        stays in one parent: moving a folder to another parent changes its ``..``, which Linux
        allows only with write access to the folder itself, and a read-only folder has none (root
        skips that check, any other server's user does not).
        """
        target = self.folder(digest)
        if target.is_dir():
            return target
        self.root.mkdir(exist_ok=True)
        staging = self.root / f".incoming-{secrets.token_hex(8)}"
        try:
            write_tree(staging, files, executable=executable)
            try:
                staging.rename(target)
            except OSError:
                if not target.is_dir():         # not another writer's identical folder: a real failure
                    raise
        finally:
            _remove(staging)
        return target

    def receive(self, key: str, text: str, entry: str | None, limits: ArchiveLimits) -> Received:
        """Read and check the base64 zip ``text`` (``SubmissionError`` when it is refused), store its files, and find
        ``key``'s earlier version of them."""
        files = read_archive(text, limits)
        entry = find_entry(files, entry)
        digest = content_digest(files, entry)
        folder = self.put_files(digest, files, executable=executable_entry(entry))
        return Received(digest, entry, len(files), sum(map(len, files.values())), folder, self.find(key, digest))

    # -- versions -----------------------------------------------------------------------------
    def find(self, key: str, digest: str) -> StoredVersion | None:
        """The version of ``key`` with these files, if it handed them in before."""
        row = self._conn.execute("SELECT * FROM versions WHERE key = ? AND digest = ?", (key, digest)).fetchone()
        return None if row is None else _version(row)

    def record(self, version: StoredVersion) -> StoredVersion:
        """Store a validated version (a new one, or the same files of the same key validated again)."""
        with self._transaction() as conn:
            conn.execute(
                "INSERT INTO versions (key, digest, entry, submitted_at, validated_at, accepted, cause, reason, "
                "seconds, files, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key, digest) DO UPDATE "
                "SET submitted_at = excluded.submitted_at, validated_at = excluded.validated_at, "
                "accepted = excluded.accepted, cause = excluded.cause, reason = excluded.reason, "
                "seconds = excluded.seconds",
                (version.key, version.digest, version.entry, version.submitted_at, utc_now_seconds(), int(version.accepted),
                 version.cause, version.reason, version.seconds, version.files, version.bytes))
        return version

    def every_version(self) -> dict[str, list[StoredVersion]]:
        """Every key's versions (newest first), by key in key order."""
        rows = self._conn.execute("SELECT * FROM versions ORDER BY key, submitted_at DESC, rowid DESC").fetchall()
        versions: dict[str, list[StoredVersion]] = {}
        for row in rows:
            versions.setdefault(row["key"], []).append(_version(row))
        return versions

    def versions(self, key: str) -> list[StoredVersion]:
        """The versions of ``key``, newest first."""
        rows = self._conn.execute("SELECT * FROM versions WHERE key = ? ORDER BY submitted_at DESC, rowid DESC",
                                  (key,)).fetchall()
        return [_version(row) for row in rows]

    def latest_accepted(self, cutoff: str | None = None) -> dict[str, StoredVersion]:
        """Each key's newest accepted version (keys without one left out), by key; with a ``cutoff`` (as
        ``submitted_at`` is written), of the versions handed in at or before it."""
        rows = self._conn.execute("SELECT * FROM versions WHERE accepted = 1 AND submitted_at <= ? ORDER BY key, "
                                  "submitted_at DESC, rowid DESC", ("9999" if cutoff is None else cutoff,)).fetchall()
        latest: dict[str, StoredVersion] = {}
        for row in rows:
            latest.setdefault(row["key"], _version(row))
        return latest


def _version(row: sqlite3.Row) -> StoredVersion:
    return StoredVersion(row["key"], row["digest"], row["entry"], row["submitted_at"], bool(row["accepted"]),
                         row["cause"], row["reason"], row["seconds"], row["files"], row["bytes"], row["validated_at"])


def _remove(path: Path) -> None:
    """Remove a staging folder, read-only folders included (a folder's mode decides what may leave it)."""
    if path.exists():
        for here in [path, *path.rglob("*")]:
            if here.is_dir() and not here.is_symlink():
                here.chmod(0o755)
        shutil.rmtree(path, ignore_errors=True)

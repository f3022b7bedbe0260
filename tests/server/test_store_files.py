"""``open_store``: the ladder's and the submissions' SQLite files are made, told apart and upgraded the same way."""

from __future__ import annotations

import sqlite3

import pytest

from server.ladder.store import LadderStore
from server.disk.sqlite_files import FileSchema, open_store, transaction
from server.submissions.store import SubmissionStore

V1 = FileSchema("notes", 0x4E4F5445, 1, ("CREATE TABLE notes (text TEXT NOT NULL)",), {})
V2 = FileSchema("notes", 0x4E4F5445, 2, V1.statements, {1: ("ALTER TABLE notes ADD COLUMN author TEXT",)})


def test_a_new_file_is_made_and_an_older_one_upgraded_in_place(tmp_path):
    path = tmp_path / "deep" / "notes.db"
    conn = open_store(path, V1)
    with transaction(conn):
        conn.execute("INSERT INTO notes VALUES ('kept')")
    conn.close()
    conn = open_store(path, V2)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 2
    assert [tuple(row) for row in conn.execute("SELECT text, author FROM notes")] == [("kept", None)]
    conn.close()
    with pytest.raises(ValueError, match=r"notes\.db has notes schema version 2; this server reads up to 1: upgrade"):
        open_store(path, V1)


def test_a_write_that_fails_leaves_nothing(tmp_path):
    conn = open_store(tmp_path / "notes.db", V1)
    with pytest.raises(sqlite3.IntegrityError), transaction(conn):
        conn.execute("INSERT INTO notes VALUES ('gone')")
        conn.execute("INSERT INTO notes VALUES (NULL)")
    assert conn.execute("SELECT count(*) FROM notes").fetchone()[0] == 0


def test_the_ladders_file_is_not_taken_for_the_submissions(tmp_path):
    LadderStore(tmp_path / "submissions.db").close()
    with pytest.raises(ValueError, match=r"submissions\.db is not a submissions database \(application id 0x51554c44\)"):
        SubmissionStore(tmp_path)
    SubmissionStore(tmp_path / "fresh").close()
    LadderStore(tmp_path / "fresh" / "ladder.db").close()

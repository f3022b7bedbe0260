"""Handed-in bots' archives are read safely, stored read-only by content, and versioned per key."""

from __future__ import annotations

import base64
import io
import os
import sqlite3
import stat
import zipfile
from pathlib import Path

import pytest

from server.submissions.files import (
    ArchiveLimits, SubmissionError, content_digest, find_entry, read_archive, safe_name, write_tree,
)
from server.settings import ServerSettings
from server.submissions.seats import pairing_limits
from server.submissions.store import StoredVersion, SubmissionStore

LIMITS = ArchiveLimits(max_archive_bytes=64 * 1024, max_files=5, max_unpacked_bytes=256 * 1024)
BOT = (b"from client.player import Player\n\n\nclass Mine(Player):\n"
       b"    def next_step(self, change):\n        return None\n")


def zipped(*members: tuple[str, bytes] | zipfile.ZipInfo, contents: bytes = b"") -> str:
    """The base64 of a zip of ``members``: (name, bytes) pairs, or ZipInfo entries holding ``contents``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for member in members:
            if isinstance(member, zipfile.ZipInfo):
                archive.writestr(member, contents)
            else:
                archive.writestr(*member)
    return base64.b64encode(buffer.getvalue()).decode()


def refusal(text: str, limits: ArchiveLimits = LIMITS) -> SubmissionError:
    with pytest.raises(SubmissionError) as info:
        read_archive(text, limits)
    return info.value


# --- reading an archive ---

def test_a_zip_of_modules_is_read_with_its_folders():
    files = read_archive(zipped(("bot.py", BOT), ("lib/__init__.py", b""), ("lib/paths.py", b"X = 1\n"),
                                ("data/book.txt", b"e2 e8")), LIMITS)
    assert files == {"bot.py": BOT, "lib/__init__.py": b"", "lib/paths.py": b"X = 1\n", "data/book.txt": b"e2 e8"}


@pytest.mark.parametrize("name", ["../evil.py", "a/../../evil.py", "/etc/evil.py", "C:/evil.py", "a\\..\\evil.py",
                                  "./bot.py", "a//bot.py", "bad\x07name.py"])
def test_a_path_that_could_leave_the_folder_is_refused(name):
    info = zipfile.ZipInfo("placeholder.py")
    info.filename = name            # as a hostile archiver writes it: ZipInfo would clean some of these up
    assert refusal(zipped(("bot.py", BOT), info, contents=b"x")).code == "unsafe_path"


@pytest.mark.parametrize("kind", [stat.S_IFLNK, stat.S_IFCHR, stat.S_IFIFO])
def test_links_and_devices_are_refused(kind):
    info = zipfile.ZipInfo("lib.py")
    info.external_attr = (kind | 0o777) << 16
    error = refusal(zipped(("bot.py", BOT), info, contents=b"/etc/shadow"))
    assert error.code == "unsafe_path" and "lib.py" in error.message


def test_an_archive_over_the_size_limit_is_refused_before_it_is_decoded():
    big = base64.b64encode(os.urandom(LIMITS.max_archive_bytes + 1)).decode()
    assert refusal(big).code == "submission_too_large"


def test_a_zip_bomb_is_stopped_at_the_unpacked_limit():
    error = refusal(zipped(("bot.py", BOT), ("zeros.txt", bytes(LIMITS.max_unpacked_bytes))))
    assert error.code == "submission_too_large" and "unpack" in error.message


def test_too_many_files_are_refused():
    members = [(f"m{i}.py", b"") for i in range(LIMITS.max_files + 1)]
    assert refusal(zipped(*members)).code == "too_many_files"


def test_an_archive_without_a_bot_is_refused():
    with pytest.raises(SubmissionError) as info:
        find_entry(read_archive(zipped(("README.md", b"hi")), LIMITS), None)
    assert info.value.code == "no_python" and "MyPlayer.cpp" in info.value.message


@pytest.mark.parametrize("text", ["not base64!", base64.b64encode(b"PK\x03\x04 not really a zip").decode()])
def test_what_is_not_a_zip_is_refused(text):
    assert refusal(text).code == "bad_zip"


def test_the_same_name_twice_or_a_file_that_is_also_a_folder_is_refused():
    with pytest.warns(UserWarning):      # zipfile warns of a duplicate name; a hostile archiver would not
        twice = zipped(("bot.py", BOT), ("bot.py", b"other"))
    assert refusal(twice).code == "bad_zip"
    assert refusal(zipped(("bot.py", BOT), ("lib", b"x"), ("lib/a.py", b""))).code == "bad_zip"


@pytest.mark.parametrize("name", ["bot.py", "pkg/mod.py", "a-b/c d.py", "Ünï.py"])
def test_plain_relative_names_are_safe(name):
    assert safe_name(name) == name


# --- the entry and the version ---

def test_the_entry_defaults_to_the_only_python_file_and_names_one_of_several():
    assert find_entry({"bot.py": BOT, "book.txt": b""}, None) == "bot.py"
    assert find_entry({"bot.py": BOT, "lib.py": b""}, "bot.py:Mine") == "bot.py:Mine"
    assert find_entry({"pkg/mod.py": BOT}, "./pkg/mod.py") == "pkg/mod.py"
    with pytest.raises(SubmissionError, match="2 .py files") as several:
        find_entry({"bot.py": BOT, "lib.py": b""}, None)
    assert several.value.code == "bad_entry"
    for bad in ("other.py", "bot.py:not a class", "bot", "book.txt"):
        with pytest.raises(SubmissionError) as info:
            find_entry({"bot.py": BOT, "book.txt": b""}, bad)
        assert info.value.code == "bad_entry"


def test_the_digest_is_of_the_files_and_the_entry_not_of_their_order():
    files = {"bot.py": BOT, "lib.py": b"X = 1\n"}
    assert content_digest(files, "bot.py") == content_digest(dict(reversed(files.items())), "bot.py")
    assert content_digest(files, "bot.py") != content_digest(files, "bot.py:Mine")
    assert content_digest(files, "bot.py") != content_digest({**files, "lib.py": b"X = 2\n"}, "bot.py")
    # a name's bytes cannot pass for content: the lengths are in the digest
    assert content_digest({"a.py": b"bc"}, "a.py") != content_digest({"a.pyb": b"c"}, "a.py")


# --- files on disk ---

def test_the_tree_is_written_read_only(tmp_path):
    write_tree(tmp_path / "bot", {"bot.py": BOT, "lib/paths.py": b"X = 1\n"})
    assert (tmp_path / "bot" / "lib" / "paths.py").read_bytes() == b"X = 1\n"
    for path in (tmp_path / "bot", tmp_path / "bot" / "lib", tmp_path / "bot" / "bot.py"):
        assert stat.S_IMODE(path.stat().st_mode) & 0o222 == 0, path
    with pytest.raises(FileExistsError):
        write_tree(tmp_path / "bot", {"x.py": b""})


def version(key: str, digest: str, *, at: str, accepted: bool = True, cause: str = "ok") -> StoredVersion:
    return StoredVersion(key, digest, "bot.py", at, accepted, cause, "" if accepted else "bot.py:3: invalid syntax",
                         1.25, 1, len(BOT))


def test_files_are_stored_once_by_their_digest(tmp_path):
    store = SubmissionStore(tmp_path)
    digest = content_digest({"bot.py": BOT}, "bot.py")
    folder = store.put_files(digest, {"bot.py": BOT})
    assert folder == tmp_path / "submissions" / digest and (folder / "bot.py").read_bytes() == BOT
    assert store.put_files(digest, {"bot.py": BOT}) == folder          # the same bot again: kept as it is
    assert sorted(p.name for p in (tmp_path / "submissions").iterdir()) == [digest]   # no staging left behind
    with pytest.raises(ValueError):
        store.folder("../../etc")
    store.close()


def test_versions_per_key_newest_first_and_the_same_files_are_the_same_version(tmp_path):
    store = SubmissionStore(tmp_path)
    first, second = "a" * 64, "b" * 64
    store.record(version("alice", first, at="2026-11-24T08:00:00Z", accepted=False, cause="syntax_error"))
    store.record(version("alice", second, at="2026-11-24T08:05:00Z"))
    store.record(version("bob", first, at="2026-11-24T08:06:00Z"))
    assert [v.version for v in store.versions("alice")] == ["b" * 12, "a" * 12]
    assert store.find("alice", first).cause == "syntax_error" and store.find("carol", first) is None
    # alice hands the first files in again and this time they pass: still one version, now the newest
    store.record(version("alice", first, at="2026-11-24T08:10:00Z"))
    assert [(v.version, v.accepted) for v in store.versions("alice")] == [("a" * 12, True), ("b" * 12, True)]
    assert {key: v.digest for key, v in store.latest_accepted().items()} == {"alice": first, "bob": first}
    store.close()
    reopened = SubmissionStore(tmp_path)        # everything was committed
    assert len(reopened.versions("alice")) == 2
    reopened.close()


def test_a_file_that_is_not_a_submissions_database_is_refused(tmp_path):
    conn = sqlite3.connect(tmp_path / "submissions.db")
    conn.execute("CREATE TABLE other (x)")
    conn.close()
    with pytest.raises(ValueError, match="not a submissions database"):
        SubmissionStore(tmp_path)


def test_the_store_works_under_a_data_dir_that_does_not_exist_yet(tmp_path: Path):
    store = SubmissionStore(tmp_path / "new" / "replays")
    assert store.versions("anyone") == []
    store.close()


def test_a_bot_process_gets_cpu_time_for_one_pairing_not_for_the_whole_tournament():
    settings = ServerSettings(players=8, games_per_pairing=2, time_limit_ms=1000, step_cap=200)
    assert pairing_limits(settings).cpu_seconds == 2 * 200        # 2 games of 200 steps of 1 s, whatever -n is
    assert pairing_limits(settings.model_copy(update={"players": 64})).cpu_seconds == 2 * 200
    assert pairing_limits(settings).address_space_mb == settings.sandbox.address_space_mb
    quick = ServerSettings(players=2, time_limit_ms=10)
    assert pairing_limits(quick).cpu_seconds == quick.sandbox.cpu_seconds    # never below the sandbox's own


def test_the_server_command_line_sets_the_submission_options():
    from server.cli import build_parser, settings_from_args

    settings = settings_from_args(build_parser().parse_args(
        ["-n", "4", "--players-from-submissions", "--max-submission-bytes", "2048"]))
    assert (settings.players_from_submissions, settings.max_submission_bytes) == (True, 2048)
    defaults = settings_from_args(build_parser().parse_args([]))
    assert (defaults.players_from_submissions, defaults.max_submission_bytes) == (False, 1024 * 1024)
    for argv, words in ((["--ladder", "--players-from-submissions"], "not with --ladder"),
                        (["--max-submission-bytes", "10"], "--max-submission-bytes: Input should be greater")):
        with pytest.raises(ValueError, match=words):
            settings_from_args(build_parser().parse_args(argv))

"""Finishing logs together: their data is synced at once (one syncfs per folder on Linux, else each file's
fsync) before any is renamed, their folder after; a file whose sync fails is written again from memory."""

import os
import sys

import pytest

from server.logs import filesync

from server.logs import logfile
from server.logs.logfile import LiveLogWriter, finish_logs, part_path, read_log
from shared.gamelog import format_log
from tests.server.test_logfile import HEADER, LOG, OUTCOME, ROWS


def played(folder, count):
    """``count`` games of ROWS, their .part files open, waiting to be finished."""
    writers = [LiveLogWriter(folder / f"g{n}.csv", HEADER) for n in range(count)]
    for writer in writers:
        writer.append_many(ROWS)
    return writers


def test_the_data_of_logs_finished_together_is_synced_at_once_before_any_rename(tmp_path, monkeypatch):
    events = []
    monkeypatch.setattr(filesync, "_SYNCFS", lambda fd: events.append("syncfs") or 0)
    real_fsync, real_link = os.fsync, os.link
    monkeypatch.setattr(filesync.os, "fsync", lambda fd: events.append("fsync") or real_fsync(fd))
    monkeypatch.setattr(logfile.os, "link", lambda a, b: events.append("rename") or real_link(a, b))
    monkeypatch.setattr(logfile, "_fsync_dir", lambda folder: events.append("folder"))
    writers = played(tmp_path, 5)
    outcomes = finish_logs([(writer, OUTCOME) for writer in writers])
    assert outcomes == [(True, LOG)] * 5
    assert events == ["syncfs"] + ["rename"] * 5 + ["folder"]       # no file synced one by one
    assert all(read_log(w.path) == LOG and not w.part.exists() for w in writers)


def test_without_syncfs_each_file_is_synced_before_any_rename(tmp_path, monkeypatch):
    events = []
    monkeypatch.setattr(filesync, "_SYNCFS", None)
    real_fsync, real_link = os.fsync, os.link
    monkeypatch.setattr(filesync.os, "fsync", lambda fd: events.append("fsync") or real_fsync(fd))
    monkeypatch.setattr(logfile.os, "link", lambda a, b: events.append("rename") or real_link(a, b))
    writers = played(tmp_path, 3)
    assert [ok for ok, _ in finish_logs([(writer, OUTCOME) for writer in writers])] == [True] * 3
    assert events[:3] == ["fsync"] * 3 and events[3:6] == ["rename"] * 3
    assert all(read_log(w.path) == LOG for w in writers)


def test_a_log_whose_sync_fails_is_cut_back_and_written_from_memory(tmp_path, monkeypatch):
    monkeypatch.setattr(filesync, "_SYNCFS", None)
    writers = played(tmp_path, 2)
    inodes = [os.stat(part_path(w.path)).st_ino for w in writers]
    real_fsync, failed = os.fsync, []

    def fsync(fd):
        if not failed:                      # the first file's sync: the disk said no
            failed.append(fd)
            raise OSError(5, "Input/output error")
        real_fsync(fd)
    monkeypatch.setattr(filesync.os, "fsync", fsync)
    monkeypatch.setattr(filesync, "SYNC_THREADS", 1)
    monkeypatch.setattr(filesync, "_threads", None)             # one thread: the first file synced is the first
    outcomes = finish_logs([(writer, OUTCOME) for writer in writers])
    assert outcomes == [(True, LOG)] * 2
    assert os.stat(writers[0].path).st_ino != inodes[0]         # the first one was written anew
    assert os.stat(writers[1].path).st_ino == inodes[1]         # the second one is its .part, renamed
    assert all(w.path.read_text(encoding="utf-8") == format_log(LOG) and not w.part.exists() for w in writers)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="syncfs is Linux's")
def test_syncfs_is_found_on_linux_and_syncs_a_folder(tmp_path):
    assert filesync._SYNCFS is not None and filesync.syncfs(tmp_path)
    assert filesync.syncfs(tmp_path / "missing") is False       # cannot be opened: nothing synced, said so
    assert filesync.sync_files(tmp_path, []) == []

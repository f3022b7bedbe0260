"""The client's log files: a free name per game, and an atomic write that a crash cannot leave half done."""

from __future__ import annotations

import os

import pytest

from client import logfiles
from client.logfiles import log_path, write_log_atomic
from shared.gamelog import GameHeader, GameLog, GameOutcome, StepRecord, format_log, parse_log
from shared.quoridor import GameStatus, Step

HEADER = GameHeader(("Smith, John", "bot/two"), game="g 1", started="2024-05-01T12:00:00+00:00")
ROWS = [
    StepRecord("Smith, John", Step.move(5, 2), GameStatus.OK, None, 0),
    StepRecord("bot/two", Step.wall(3, 2, 5, 2), GameStatus.OK, None, 1),
]
LOG = GameLog(HEADER, ROWS, GameOutcome(0, "disconnect", (10, 20), (0, 0)))


class Crash(Exception):
    """Stands for the process dying at that point."""


def test_write_and_read_back_leaving_no_temporary_file(tmp_path):
    path = tmp_path / "game.csv"
    write_log_atomic(path, LOG)
    assert path.read_text(encoding="utf-8") == format_log(LOG)
    assert parse_log(path.read_text(encoding="utf-8")).steps == ROWS
    assert [p.name for p in tmp_path.iterdir()] == ["game.csv"]


def test_a_crash_before_the_rename_leaves_the_old_file_and_no_debris(tmp_path, monkeypatch):
    path = tmp_path / "game.csv"
    old = GameLog(HEADER, ROWS[:1])
    write_log_atomic(path, old)

    def crash(*args: object) -> None:
        raise Crash
    monkeypatch.setattr(logfiles.os, "replace", crash)
    with pytest.raises(Crash):
        write_log_atomic(path, LOG)
    assert path.read_text(encoding="utf-8") == format_log(old)
    assert [p.name for p in tmp_path.iterdir()] == ["game.csv"]


def test_the_file_is_synced_before_the_rename_and_the_folder_after(tmp_path, monkeypatch):
    events = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(logfiles.os, "fsync", lambda fd: (events.append("fsync"), real_fsync(fd)))
    monkeypatch.setattr(logfiles.os, "replace", lambda a, b: (events.append("replace"), real_replace(a, b)))
    write_log_atomic(tmp_path / "game.csv", LOG)
    assert events == (["fsync", "replace", "fsync"] if hasattr(os, "O_DIRECTORY") else ["fsync", "replace"])


def test_a_log_is_named_by_its_start_game_and_players_in_characters_safe_everywhere(tmp_path):
    path = log_path(tmp_path / "new", LOG)
    assert path.parent == tmp_path / "new" and path.parent.is_dir()           # the folder is made
    stamp, game, first, rest = path.stem.split("_", 3)
    assert len(stamp) == len("20240501-120000") and (game, first, rest) == ("g-1", "Smith-John", "vs_bot-two")


def test_a_taken_name_gets_a_number(tmp_path):
    first = log_path(tmp_path, LOG)
    first.write_text("")
    second = log_path(tmp_path, LOG)
    assert second.name == first.stem + "-2.csv"
    assert log_path(tmp_path, LOG, taken=[second]).name == first.stem + "-3.csv"    # being written


def test_runs_started_in_the_same_second_get_folders_of_their_own(tmp_path):
    from datetime import datetime

    from client.logfiles import new_run_folder

    second = datetime(2026, 11, 27, 12, 15, 30)
    first, again, third = (new_run_folder(tmp_path / "replays", "local-", second) for _ in range(3))
    assert [first.name, again.name, third.name] == ["local-20261127-121530", "local-20261127-121530-2",
                                                    "local-20261127-121530-3"]
    assert all(folder.is_dir() and not any(folder.iterdir()) for folder in (first, again, third))
    (tmp_path / "replays" / "local-20261127-121530-4").write_text("a file, not a run")   # any name taken is skipped
    assert new_run_folder(tmp_path / "replays", "local-", second).name == "local-20261127-121530-5"

"""Log files: atomic writes survive a crash at any point, the live .part file keeps what was played and
never passes for a finished game, and reading names the file and the line of what is wrong."""

import os

import pytest

from server.logs import logfile
from server.logs.logfile import LiveLogWriter, part_path, read_log, write_text_atomic
from shared.gamelog import GameHeader, GameLog, GameOutcome, LogFormatError, StepRecord, format_log, format_outcome
from shared.quoridor import GameStatus, Step

S = GameStatus
HEADER = GameHeader(("Smith, John", 'The "Bot"'), game="g-1", started="2024-05-01T12:00:00Z")
ROWS = [
    StepRecord("Smith, John", Step.move(5, 2), S.OK, 100, 0),
    StepRecord('The "Bot"', Step.wall(3, 2, 5, 2), S.OK, 50, 1),
    StepRecord("Smith, John", Step(), S.TIMEOUT, 1000, 2),
    StepRecord('The "Bot"', Step.move(5, 8), S.OK, 70, 3),
]
OUTCOME = GameOutcome(1, "disconnect", (1100, 120), (1, 0))
LOG = GameLog(HEADER, ROWS, OUTCOME)


class Crash(Exception):
    """Stands for the process dying at that point."""


def test_write_and_read_back(tmp_path):
    path = tmp_path / "game.csv"
    write_text_atomic(path, format_log(LOG))
    assert read_log(path) == LOG
    assert path.read_text(encoding="utf-8") == format_log(LOG)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.csv"]   # no temporary file left


def test_a_crash_before_the_rename_leaves_the_old_file_and_no_debris(tmp_path, monkeypatch):
    path = tmp_path / "game.csv"
    old = GameLog(HEADER, ROWS[:1])
    write_text_atomic(path, format_log(old))

    def crash(*args):
        raise Crash
    monkeypatch.setattr(logfile.os, "replace", crash)
    with pytest.raises(Crash):
        write_text_atomic(path, format_log(LOG))
    assert read_log(path) == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.csv"]


def test_a_crash_while_syncing_leaves_no_final_file(tmp_path, monkeypatch):
    path = tmp_path / "game.csv"

    def crash(fd):
        raise Crash
    monkeypatch.setattr(logfile.os, "fsync", crash)
    with pytest.raises(Crash):
        write_text_atomic(path, format_log(LOG))
    assert not path.exists() and list(tmp_path.iterdir()) == []


def test_the_file_is_synced_before_the_rename(tmp_path, monkeypatch):
    events = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(logfile.os, "fsync", lambda fd: (events.append("fsync"), real_fsync(fd)))
    monkeypatch.setattr(logfile.os, "replace", lambda a, b: (events.append("replace"), real_replace(a, b)))
    write_text_atomic(tmp_path / "game.csv", format_log(LOG))
    expected = ["fsync", "replace", "fsync"] if hasattr(os, "O_DIRECTORY") else ["fsync", "replace"]
    assert events == expected


def test_live_rows_are_on_disk_after_each_append(tmp_path):
    path = tmp_path / "game.csv"
    writer = LiveLogWriter(path, HEADER)
    part = part_path(path)
    assert part.name == "game.csv.part"
    for count, record in enumerate(ROWS[:3], start=1):
        writer.append(record)
        # Read while the writer is still open, as a viewer (or a restarted server) would after a crash.
        seen = read_log(part)
        assert seen.steps == ROWS[:count] and seen.outcome is None and not seen.finished
    assert not path.exists()
    writer.close()


def test_a_crash_mid_game_leaves_only_the_part_file(tmp_path):
    path = tmp_path / "game.csv"
    writer = LiveLogWriter(path, HEADER)
    for record in ROWS:
        writer.append(record)
    # The server dies here, before finish: what is on disk now is what a crash leaves.
    assert not path.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.csv.part"]
    recovered = read_log(part_path(path))
    assert recovered.header == HEADER and recovered.steps == ROWS and recovered.outcome is None
    assert "result" not in part_path(path).read_text(encoding="utf-8")
    writer.close()   # (only so the test leaves no open file behind)
    assert part_path(path).exists()


def test_finish_writes_the_complete_log_and_removes_the_part(tmp_path):
    path = tmp_path / "game.csv"
    with LiveLogWriter(path, HEADER) as writer:
        for record in ROWS:
            writer.append(record)
        assert writer.finish(OUTCOME) == LOG
    assert read_log(path) == LOG and read_log(path).problems == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.csv"]
    with pytest.raises(ValueError, match="closed"):
        writer.append(ROWS[0])


def test_an_intact_part_file_becomes_the_finished_log_in_one_rename(tmp_path):
    path = tmp_path / "game.csv"
    writer = LiveLogWriter(path, HEADER)
    for record in ROWS:
        writer.append(record)
    inode = os.stat(part_path(path)).st_ino
    writer.finish(OUTCOME)
    assert os.stat(path).st_ino == inode                      # the same file, not a copy written again
    assert path.read_text(encoding="utf-8") == format_log(LOG)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.csv"]


@pytest.mark.skipif(os.name != "posix", reason="file modes and the umask are POSIX")
def test_a_finished_log_has_the_same_mode_whichever_way_it_was_written(tmp_path):
    """A renamed .part file and a log written from memory get LOG_MODE less the umask, both."""
    old = os.umask(0o002)           # group-writable by default: a plain open() would make 0o664
    try:
        renamed = LiveLogWriter(tmp_path / "renamed.csv", HEADER)
        from_memory = LiveLogWriter(tmp_path / "memory.csv", HEADER, open_now=False)   # never made: written from memory
        for writer in (renamed, from_memory):
            for record in ROWS:
                writer.append(record)
            writer.finish(OUTCOME)
    finally:
        os.umask(old)
    modes = {path.name: path.stat().st_mode & 0o777 for path in tmp_path.iterdir()}
    assert modes == {"renamed.csv": logfile.LOG_MODE & ~0o002, "memory.csv": logfile.LOG_MODE & ~0o002}


def test_a_part_file_a_write_failed_on_is_not_renamed_the_whole_log_comes_from_memory(tmp_path, monkeypatch):
    path = tmp_path / "game.csv"
    writer = LiveLogWriter(path, HEADER, fsync_rows=True)
    writer.append(ROWS[0])
    real_fsync, calls = os.fsync, []

    def fsync(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 1:         # the row reached the file, but whether it is whole nobody knows
            raise OSError(5, "Input/output error")
        real_fsync(fd)
    monkeypatch.setattr(logfile.os, "fsync", fsync)
    with pytest.raises(OSError):
        writer.append(ROWS[1])      # the .part file may hold part of it; the log in memory holds it all
    for record in ROWS[2:]:
        writer.append(record)
    inode = os.stat(part_path(path)).st_ino
    assert writer.finish(OUTCOME) == LOG                    # the referee judged every row: the log has them all
    assert path.read_text(encoding="utf-8") == format_log(LOG)
    assert os.stat(path).st_ino != inode and not part_path(path).exists()     # written anew, not renamed


def test_a_rename_that_fails_leaves_the_part_without_result_rows_and_its_file_closed(tmp_path, monkeypatch):
    path = tmp_path / "game.csv"
    writer = LiveLogWriter(path, HEADER)
    for record in ROWS:
        writer.append(record)
    before = part_path(path).read_text(encoding="utf-8")
    real_link = os.link

    def link(source, target):
        if str(source).endswith(".part"):
            raise OSError(5, "Input/output error")
        real_link(source, target)
    monkeypatch.setattr(logfile.os, "link", link)
    assert writer.finish(OUTCOME) == LOG                      # written from memory instead
    assert read_log(path) == LOG and not part_path(path).exists()
    monkeypatch.undo()

    path = tmp_path / "again.csv"
    writer = LiveLogWriter(path, HEADER)                        # another game, and its rename cut short
    writer.append(ROWS[0])
    opened = set(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None

    def crash(*args):
        raise Crash
    monkeypatch.setattr(logfile.os, "link", crash)
    with pytest.raises(Crash):
        writer.finish(OUTCOME)
    assert part_path(path).read_text(encoding="utf-8") == before.split(format_row_text(ROWS[1]))[0]
    if opened is not None:
        assert len(set(os.listdir("/proc/self/fd"))) < len(opened)   # the .part file's descriptor is closed


def format_row_text(record: StepRecord) -> str:
    """``record``'s row in HEADER's game."""
    from shared.gamelog import format_row
    return format_row(record, seat=HEADER.seat(record.player))


def test_a_crash_during_finish_keeps_the_part(tmp_path, monkeypatch):
    path = tmp_path / "game.csv"
    writer = LiveLogWriter(path, HEADER)
    for record in ROWS:
        writer.append(record)

    def crash(*args):
        raise Crash
    monkeypatch.setattr(logfile.os, "link", crash)
    with pytest.raises(Crash):
        writer.finish(OUTCOME)
    assert not path.exists()
    assert read_log(part_path(path)).steps == ROWS and read_log(part_path(path)).outcome is None
    monkeypatch.undo()
    writer.finish(OUTCOME)   # the game can still be finished
    assert read_log(path) == LOG and not part_path(path).exists()


def test_live_writer_refuses_what_it_cannot_log(tmp_path):
    with pytest.raises(ValueError, match=r"ends with '\.part'"):
        LiveLogWriter(tmp_path / "game.csv.part", HEADER)
    with LiveLogWriter(tmp_path / "game.csv", HEADER, fsync_rows=True) as writer:
        with pytest.raises(ValueError, match="'carol' does not play"):
            writer.append(StepRecord("carol", Step.move(5, 2), S.OK))
        writer.append(ROWS[0])
    assert read_log(part_path(tmp_path / "game.csv")).steps == ROWS[:1]


def test_read_log_tolerates_bom_and_crlf(tmp_path):
    path = tmp_path / "windows.csv"
    path.write_bytes(b"\xef\xbb\xbf" + format_log(LOG).replace("\n", "\r\n").encode("utf-8"))
    assert read_log(path) == LOG


def test_read_log_names_the_file(tmp_path):
    missing = tmp_path / "missing.csv"
    with pytest.raises(LogFormatError) as caught:
        read_log(missing)
    assert caught.value.line is None and str(missing) in str(caught.value) and "cannot read" in str(caught.value)

    binary = tmp_path / "binary.csv"
    binary.write_bytes(format_log(LOG).encode("utf-8")[:200] + b"\n\xff\xfejunk\n")
    with pytest.raises(LogFormatError) as caught:
        read_log(binary)
    line = format_log(LOG).encode("utf-8")[:200].count(b"\n") + 2
    assert caught.value.line == line and "not UTF-8" in caught.value.problem
    assert str(caught.value).startswith(f"{binary}, line {line}: ")

    other = tmp_path / "uiconfig.json"
    other.write_text('{"logFile": "log.csv"}\n', encoding="utf-8")
    with pytest.raises(LogFormatError, match=r"uiconfig\.json, line 1: missing column"):
        read_log(other)


def test_the_finished_file_is_format_log_of_the_game(tmp_path):
    path = tmp_path / "game.csv"
    with LiveLogWriter(path, HEADER) as writer:
        writer.append(ROWS[0])
        writer.append_many(ROWS[1:3])
        writer.append_many(ROWS[3:])
        log = writer.finish(OUTCOME)
    assert log == LOG
    assert path.read_text(encoding="utf-8") == format_log(LOG)


def test_finishing_logs_together_syncs_each_folder_once_and_fails_games_alone(tmp_path, monkeypatch):
    synced = []
    monkeypatch.setattr(logfile, "_fsync_dir", synced.append)
    (tmp_path / "b").mkdir()
    paths = [tmp_path / "one.csv", tmp_path / "two.csv", tmp_path / "b" / "three.csv", tmp_path / "bad.csv"]
    writers = [LiveLogWriter(path, HEADER) for path in paths]
    for writer in writers:
        writer.append_many(ROWS)
    writers[3].close()                                   # this one cannot finish
    outcomes = logfile.finish_logs([(writer, OUTCOME) for writer in writers])
    assert [ok for ok, _ in outcomes] == [True, True, True, False]
    assert all(value == LOG for _, value in outcomes[:3]) and isinstance(outcomes[3][1], ValueError)
    assert sorted(synced) == sorted([tmp_path, tmp_path / "b"])
    assert [read_log(path) == LOG and not part_path(path).exists() for path in paths[:3]] == [True] * 3
    assert not paths[3].exists() and part_path(paths[3]).exists()   # the failed game keeps its .part


def test_result_rows_the_disk_takes_only_part_of_are_cut_off_and_the_log_comes_from_memory(tmp_path, monkeypatch):
    path = tmp_path / "game.csv"
    writer = LiveLogWriter(path, HEADER)
    for record in ROWS:
        writer.append(record)
    before = part_path(path).read_bytes()
    real_write, seen = os.write, []

    def write(fd, data):
        seen.append(bytes(data))
        if len(seen) == 1:          # the result rows: the disk takes 5 bytes, then is full
            real_write(fd, bytes(data)[:5])
            raise OSError(28, "No space left on device")
        return real_write(fd, data)
    monkeypatch.setattr(logfile.os, "write", write)
    left = {}
    real_link = os.link
    monkeypatch.setattr(logfile.os, "link",
                        lambda a, b: (left.setdefault("part", part_path(path).read_bytes()), real_link(a, b))[1])
    assert writer.finish(OUTCOME) == LOG
    monkeypatch.undo()
    assert left["part"] == before                       # cut back before the log was written from memory
    assert seen[0] == format_outcome(OUTCOME).encode("utf-8")   # the first write was the result rows'
    assert path.read_text(encoding="utf-8") == format_log(LOG) and not part_path(path).exists()


@pytest.mark.parametrize("hard_links", [True, False], ids=["linked", "no-hard-links"])
def test_a_finished_log_is_never_overwritten_whichever_way_it_is_written(tmp_path, monkeypatch, hard_links):
    path = tmp_path / "game.csv"
    path.write_text("the first game's log\n")
    if not hard_links:          # a file system without hard links: looked at first, then renamed
        def link(source, target):
            raise OSError(1, "Operation not permitted")
        monkeypatch.setattr(logfile.os, "link", link)
    intact = LiveLogWriter(path, HEADER)
    for record in ROWS:
        intact.append(record)
    with pytest.raises(FileExistsError, match="never overwritten"):
        intact.finish(OUTCOME)
    from_memory = LiveLogWriter(path, HEADER, open_now=False)      # no .part file: written from memory
    from_memory.append_many(ROWS)
    with pytest.raises(FileExistsError, match="never overwritten"):
        from_memory.finish(OUTCOME)
    assert path.read_text() == "the first game's log\n"
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]

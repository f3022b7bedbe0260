"""Out of file descriptors, a game's log is tried again, never lost, and the error says what ran out:
opening its live ``.part`` file and writing its finished log retry with growing pauses; a finished log
that still cannot be written raises ``LogUnavailableError`` (its game is to be played again)."""

from __future__ import annotations

import asyncio
import errno
import logging
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from server.logs import logfile
from server.logs.batcher import RETRY_FIRST_PAUSE_S, LogUnavailableError, RowBatcher
from server.logs.logfile import read_log
from shared.gamelog import GameHeader, GameOutcome, StepRecord
from shared.quoridor import GameStatus, Step
from tests.clocks import TickingClock, timers_due_within
from tests.server.conftest import bounded

PLAYERS = ("Ann", "Bob")
OUTCOME = GameOutcome(0, "goal", (6, 9), (0, 0))


def rows(n: int) -> list[StepRecord]:
    return [StepRecord(PLAYERS[i % 2], Step.move(5, 2 + i // 2) if i % 2 == 0 else Step.move(5, 8 - i // 2),
                       GameStatus.OK, i, i) for i in range(n)]


def emfile(path: object) -> OSError:
    return OSError(errno.EMFILE, os.strerror(errno.EMFILE), str(path))


class OutOfDescriptors:
    """Makes opening files whose names end with ``suffix`` fail with EMFILE ``times`` times (None: always)."""

    def __init__(self, suffix: str, times: int | None) -> None:
        self.suffix, self.left, self.refused = suffix, times, 0

    def refuse(self, path: object) -> bool:
        if not str(path).endswith(self.suffix) or self.left == 0:
            return False
        self.refused += 1
        if self.left is not None:
            self.left -= 1
        return True


def part_files_fail(monkeypatch: pytest.MonkeyPatch, times: int | None) -> OutOfDescriptors:
    """Making ``.part`` files (the live logs) fails with EMFILE."""
    out = OutOfDescriptors(".part", times)
    original = os.open

    def os_open(path: Any, flags: int, mode: int = 0o777, **kwargs: Any) -> int:
        if flags & (os.O_WRONLY | os.O_RDWR) and out.refuse(path):      # reading still works
            raise emfile(path)
        return original(path, flags, mode, **kwargs)
    monkeypatch.setattr(logfile.os, "open", os_open)
    return out


def temporary_files_fail(monkeypatch: pytest.MonkeyPatch, times: int | None) -> OutOfDescriptors:
    """Opening the temporary files finished logs are written to fails with EMFILE."""
    out = OutOfDescriptors(".tmp", times)
    original = os.open

    def os_open(path: Any, flags: int, mode: int = 0o777, **kwargs: Any) -> int:
        if out.refuse(path):
            raise emfile(path)
        return original(path, flags, mode, **kwargs)
    monkeypatch.setattr(logfile.os, "open", os_open)
    return out


def renames_of_part_files_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """Renaming a ``.part`` file to its finished name fails (EIO): the finished log is written from memory."""
    original = os.link

    def link(source: Any, target: Any, **kwargs: Any) -> None:
        if str(source).endswith(".part"):
            raise OSError(errno.EIO, os.strerror(errno.EIO), str(source))
        original(source, target, **kwargs)
    monkeypatch.setattr(logfile.os, "link", link)


@pytest.fixture
def executor():
    with ThreadPoolExecutor(max_workers=1) as pool:
        yield pool


async def until(condition: Any, seconds: float = 10.0) -> None:
    """Wait until ``condition()`` is true (an AssertionError after ``seconds``)."""
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("not within the time")


def same(log: Any, path: Path) -> bool:
    """The log read back from ``path`` is ``log``."""
    back = read_log(path)
    return (back.header, back.steps, back.outcome) == (log.header, log.steps, log.outcome)


def read_log_rows(part: Path) -> list[str]:
    """The step rows of a ``.part`` file so far (its lines after the header)."""
    lines = part.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.split(",")[0] in PLAYERS]


async def test_a_live_log_that_cannot_be_opened_is_opened_on_a_later_try_with_its_rows(
        tmp_path, executor, monkeypatch, caplog):
    out = part_files_fail(monkeypatch, 3)
    batcher = RowBatcher(executor, interval_s=60)
    writer = batcher.open(tmp_path / "g.csv", GameHeader(players=PLAYERS, game="g1"))
    for record in rows(2):                                  # played while the file could not be made
        batcher.add(writer, record)
    batcher.flush()
    await bounded(until(lambda: writer.part.exists()))
    assert out.refused == 3
    batcher.add(writer, rows(3)[2])
    batcher.flush()
    await bounded(until(lambda: len(read_log_rows(writer.part)) == 3))
    log = await bounded(batcher.finish(writer, OUTCOME))
    assert log.steps == rows(3) and read_log(writer.path).steps == rows(3) and not writer.part.exists()
    warnings = [r.getMessage() for r in caplog.records if "out of file descriptors" in r.getMessage()]
    assert len(warnings) == 1                               # one clear line, not one per try
    assert warnings[0].startswith("out of file descriptors (ulimit -n ") and "g.csv.part" in warnings[0]


async def test_a_live_log_never_opened_still_gives_the_whole_finished_log(tmp_path, executor, monkeypatch, caplog):
    out = part_files_fail(monkeypatch, None)
    batcher = RowBatcher(executor, interval_s=60, retry_s=30, clock=TickingClock(10.0))   # 10 s a reading
    writer = batcher.open(tmp_path / "g.csv", GameHeader(players=PLAYERS))
    for record in rows(2):                                  # played while the file is tried again
        batcher.add(writer, record)
    batcher.flush()
    await bounded(until(lambda: "gave up making the live log" in caplog.text))
    for record in rows(4)[2:]:                              # and after it was given up
        batcher.add(writer, record)
    batcher.flush()
    assert out.refused >= 2 and not writer.part.exists()       # tried again before it gave up
    log = await bounded(batcher.finish(writer, OUTCOME))
    assert same(log, writer.path) and log.steps == rows(4)


async def test_a_game_that_ends_while_its_live_log_waits_for_a_try_leaves_no_part_file(
        tmp_path, executor, monkeypatch):
    out = part_files_fail(monkeypatch, None)
    batcher = RowBatcher(executor, interval_s=60)
    writer = batcher.open(tmp_path / "g.csv", GameHeader(players=PLAYERS))
    assert out.refused == 1                                 # tried at once; the next try waits for its timer
    await bounded(batcher.finish(writer, OUTCOME))
    await bounded(timers_due_within(RETRY_FIRST_PAUSE_S), 5)   # past the moment the next try was due
    assert out.refused == 1 and not writer.part.exists() and writer.path.exists()


async def test_a_finished_log_that_cannot_be_written_is_written_on_a_later_try(tmp_path, executor, monkeypatch):
    part_files_fail(monkeypatch, None)              # no .part file to rename: the log is written from memory
    out = temporary_files_fail(monkeypatch, 2)
    batcher = RowBatcher(executor, interval_s=60)
    writer = batcher.open(tmp_path / "g.csv", GameHeader(players=PLAYERS))
    for record in rows(2):
        batcher.add(writer, record)
    log = await bounded(batcher.finish(writer, OUTCOME))
    assert out.refused == 2 and same(log, writer.path) and log.steps == rows(2) and not writer.part.exists()


@pytest.mark.parametrize("part_opens", [True, False], ids=["renamed", "from-memory"])
async def test_a_folder_that_cannot_be_synced_is_synced_on_a_later_try_and_keeps_the_part_file_until(
        tmp_path, executor, monkeypatch, part_opens):
    original, calls, renamed = logfile._fsync_dir, [], []
    if not part_opens:
        renames_of_part_files_fail(monkeypatch)

    def sync(folder: Path) -> None:
        calls.append(folder)
        if len(calls) == 1:
            if part_opens:      # the .part file itself became the log, in one rename: never neither name
                assert writer.path.exists() and not writer.part.exists()
                renamed.append(os.stat(writer.path).st_ino)
            else:               # written from memory: the .part is not removed before its folder is synced
                assert writer.path.exists() and writer.part.exists()
            raise emfile(folder)
        original(folder)
    monkeypatch.setattr(logfile, "_fsync_dir", sync)
    batcher = RowBatcher(executor, interval_s=60)
    writer = batcher.open(tmp_path / "g.csv", GameHeader(players=PLAYERS))
    log = await bounded(batcher.finish(writer, OUTCOME))
    assert calls == [tmp_path, tmp_path] and same(log, writer.path) and not writer.part.exists()
    if part_opens:              # the renamed .part was complete: the retry only synced the folder again
        assert os.stat(writer.path).st_ino == renamed[0]


@pytest.mark.parametrize("code, what", [
    (errno.EMFILE, "out of file descriptors (ulimit -n "),
    (errno.ENFILE, "out of file descriptors (the system's table of open files is full)"),
])
async def test_a_finished_log_that_never_can_be_written_raises_log_unavailable(
        tmp_path, executor, monkeypatch, caplog, code, what):
    original = os.open

    def os_open(path: Any, flags: int, mode: int = 0o777, **kwargs: Any) -> int:
        if str(path).endswith(".tmp"):
            raise OSError(code, os.strerror(code), str(path))
        return original(path, flags, mode, **kwargs)
    monkeypatch.setattr(logfile.os, "open", os_open)
    renames_of_part_files_fail(monkeypatch)         # the log is written from memory, to a temporary file
    batcher = RowBatcher(executor, interval_s=60, retry_s=30, clock=TickingClock(10.0))     # 10 s a reading
    writer = batcher.open(tmp_path / "g.csv", GameHeader(players=PLAYERS))
    with pytest.raises(LogUnavailableError) as raised:
        await bounded(batcher.finish(writer, OUTCOME))
    error = raised.value
    assert isinstance(error, OSError) and error.errno == code and error.path == writer.path
    assert str(error).startswith(what) and str(writer.path) in str(error) and "played again" in str(error)
    assert error.waited_s >= 30 and what in caplog.text
    assert writer.part.exists() and not writer.path.exists()   # what was played is still on disk
    assert read_log(writer.part).outcome is None                # and it still says unfinished


async def test_other_failures_are_not_retried(tmp_path, executor, caplog):
    caplog.set_level(logging.WARNING)
    batcher = RowBatcher(executor, interval_s=60)
    writer = batcher.open(tmp_path / "missing" / "g.csv", GameHeader(players=PLAYERS))
    with pytest.raises(FileNotFoundError):
        await bounded(batcher.finish(writer, OUTCOME), 5)
    assert "cannot make the live log" in caplog.text and "out of file descriptors" not in caplog.text


EVERY_DESCRIPTOR_TAKEN = """
import asyncio, os, resource, sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from server.logs.batcher import RowBatcher
from shared.gamelog import GameHeader, GameOutcome

async def main(folder):
    with ThreadPoolExecutor(max_workers=1) as executor:
        batcher = RowBatcher(executor, interval_s=60, retry_s=1)
        writer = batcher.open(folder / "g.csv", GameHeader(players=("Ann", "Bob")))
        await asyncio.get_running_loop().run_in_executor(executor, lambda: None)   # its .part file is open
        assert writer.part.exists()
        taken = []
        try:
            while True:                                     # every other descriptor is taken
                taken.append(os.open(os.devnull, os.O_RDONLY))
        except OSError:
            pass
        log = await batcher.finish(writer, GameOutcome(0, "goal", (0, 0), (0, 0)))
        print("finished", log.outcome.reason, writer.path.exists(), writer.part.exists())

resource.setrlimit(resource.RLIMIT_NOFILE, (64, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
asyncio.run(main(Path(sys.argv[1])))
"""


@pytest.mark.skipif(os.name != "posix", reason="file descriptor limits are POSIX")
def test_a_game_ending_with_every_descriptor_taken_writes_its_log_in_its_live_files_place(tmp_path):
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", EVERY_DESCRIPTOR_TAKEN, str(tmp_path)], capture_output=True,
                          text=True, cwd=Path(__file__).resolve().parents[2], timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["finished", "goal", "True", "False"]


async def test_a_game_whose_log_cannot_be_written_is_voided_and_played_again(make_server, monkeypatch):
    import errno

    from server.logs.batcher import LogUnavailableError, RowBatcher
    from tests.server.conftest import ScriptedBot, bounded, url

    real_finish = RowBatcher.finish
    failures = [OSError(errno.EMFILE, "Too many open files")]

    async def finish_once_out_of_files(self, writer, outcome):
        if failures:
            raise LogUnavailableError(writer.path, failures.pop(), 30.0)
        return await real_finish(self, writer, outcome)

    monkeypatch.setattr(RowBatcher, "finish", finish_once_out_of_files)
    server = await make_server()
    bots = [ScriptedBot(url(server), "a"), ScriptedBot(url(server), "b")]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    standings = await bounded(server.run_tournament(), 30)
    await bounded(asyncio.gather(*tasks))
    assert standings.games_done == 1                              # counted once, from the replay
    [row] = await server.results.games(server.tournament_id, "finished")
    assert row.game_id.endswith("-replay1") and all(len(bot.games_over) == 1 for bot in bots)
    assert [f["game"] for f in bots[0].frames if f["type"] == "game_start"] == ["t1-r1-p1-g1", row.game_id]

"""The row batcher: every game's rows reach their own log, in order, written by the loop in one write per game
per flush, and before its end; games that end together share one sync; a broken log loses no rows."""

from __future__ import annotations

import asyncio
import os
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from server.logs import batcher as log_batcher

from server.logs import logfile
from server.logs.batcher import RowBatcher
from server.logs.logfile import LiveLogWriter, read_log
from tests.server.conftest import bounded
from shared.gamelog import GameHeader, GameOutcome, StepRecord
from shared.quoridor import GameStatus, Step

PLAYERS = ("Ann", "Bob")


def rows(n: int) -> list[StepRecord]:
    return [StepRecord(PLAYERS[i % 2], Step.move(5, 2 + i // 2) if i % 2 == 0 else Step.move(5, 8 - i // 2),
                       GameStatus.OK, i, i) for i in range(n)]


async def test_rows_of_many_games_are_written_by_the_loop_one_write_per_game_per_flush(tmp_path, monkeypatch):
    executor = ThreadPoolExecutor(max_workers=1)
    jobs, writes = [], []
    batcher = RowBatcher(executor, interval_s=60)         # nothing flushes by itself in this test
    original = executor.submit
    executor.submit = lambda *args, **kw: jobs.append(args) or original(*args, **kw)  # type: ignore[method-assign]
    writers = [LiveLogWriter(tmp_path / f"g{n}.csv", GameHeader(players=PLAYERS, game=f"g{n}")) for n in range(3)]
    real_write = os.write
    monkeypatch.setattr(logfile.os, "write", lambda fd, data: writes.append(fd) or real_write(fd, data))
    for record in rows(6):
        for writer in writers:
            batcher.add(writer, record)
    assert writes == [] and all(read_log(w.part).steps == [] for w in writers)   # kept in memory until the flush
    batcher.flush()
    assert len(writes) == 3 and len(set(writes)) == 3      # 18 rows, one write per game
    assert all(read_log(w.part).steps == rows(6) for w in writers) and jobs == []   # no hand-off to the log thread
    for writer in writers:
        await bounded(batcher.finish(writer, GameOutcome(0, "goal", (6, 9), (0, 0))))
    for writer in writers:
        assert writer.records == rows(6) and read_log(writer.path).steps == rows(6)
        assert writer.path.exists() and not writer.part.exists()
    executor.shutdown()


async def test_a_flush_of_many_games_writes_a_few_of_them_per_pass_of_the_loop(tmp_path, monkeypatch):
    monkeypatch.setattr(log_batcher, "ROWS_PER_PASS", 4)
    batcher = RowBatcher(None, interval_s=60)
    writers = [LiveLogWriter(tmp_path / f"g{n}.csv", GameHeader(players=PLAYERS)) for n in range(10)]
    for writer in writers:
        batcher.add(writer, rows(1)[0])
    batcher.flush()
    written = [sum(len(read_log(w.part).steps) for w in writers)]
    for _ in range(3):
        await asyncio.sleep(0)
        written.append(sum(len(read_log(w.part).steps) for w in writers))
    assert written == [4, 8, 10, 10]
    for writer in writers:
        batcher.add(writer, rows(2)[1])
    batcher.flush()                                         # 4 games now, the 6 others in the next passes
    ending = writers[9]                                     # a game that ends while the flush still lists it
    await bounded(batcher.finish(ending, OUTCOME))
    assert read_log(ending.path).steps == rows(2)
    for _ in range(3):
        await asyncio.sleep(0)
    assert all(read_log(w.part).steps == rows(2) for w in writers[:9])


async def test_rows_are_flushed_within_the_interval(tmp_path):
    executor = ThreadPoolExecutor(max_workers=1)
    writer = LiveLogWriter(tmp_path / "g.csv", GameHeader(players=PLAYERS))
    batcher = RowBatcher(executor, interval_s=0.01)
    batcher.add(writer, rows(1)[0])
    for _ in range(200):                                   # bounded: at most 2 s
        if read_log(writer.part).steps:
            break
        await asyncio.sleep(0.01)
    assert read_log(writer.part).steps == rows(1)
    executor.shutdown()


async def test_a_broken_log_loses_no_rows_of_its_own_or_of_other_games(tmp_path, monkeypatch, caplog):
    executor = ThreadPoolExecutor(max_workers=1)
    good = LiveLogWriter(tmp_path / "good.csv", GameHeader(players=PLAYERS))
    broken = LiveLogWriter(tmp_path / "broken.csv", GameHeader(players=("Cat", "Dan")))
    real_write = os.write

    def write(fd, data):
        if b"Cat" in bytes(data):
            raise OSError(5, "Input/output error")
        return real_write(fd, data)
    monkeypatch.setattr(logfile.os, "write", write)
    batcher = RowBatcher(executor, interval_s=60)
    batcher.add(broken, StepRecord("Cat", Step.move(5, 2), GameStatus.OK, 1, 0))
    batcher.add(good, rows(1)[0])
    batcher.flush()
    assert read_log(good.part).steps == rows(1)
    assert "writing the live log" in caplog.text and "broken.csv" in caplog.text
    monkeypatch.undo()
    log = await bounded(batcher.finish(broken, OUTCOME))    # written from memory: the row is there
    assert read_log(broken.path).steps == log.steps == [StepRecord("Cat", Step.move(5, 2), GameStatus.OK, 1, 0)]
    executor.shutdown()


OUTCOME = GameOutcome(0, "goal", (6, 9), (0, 0))


async def test_a_games_rows_reach_its_log_before_its_end_even_behind_another_games_end(tmp_path):
    executor = ThreadPoolExecutor(max_workers=1)
    gate = threading.Event()
    executor.submit(gate.wait, 5)                           # the log thread is busy: everything queues up
    batcher = RowBatcher(executor, interval_s=60)
    first, second = (LiveLogWriter(tmp_path / f"{n}.csv", GameHeader(players=PLAYERS)) for n in ("a", "b"))
    ends = [asyncio.ensure_future(batcher.finish(first, OUTCOME))]
    await asyncio.sleep(0)                                  # the first game's end is queued before these rows
    for record in rows(4):
        batcher.add(second, record)
    ends.append(asyncio.ensure_future(batcher.finish(second, OUTCOME)))
    await asyncio.sleep(0.05)
    gate.set()
    await bounded(asyncio.gather(*ends))
    assert read_log(second.path).steps == rows(4) and read_log(first.path).steps == []
    executor.shutdown()


async def test_games_that_end_together_share_one_sync_of_their_folder(tmp_path, monkeypatch):
    synced = []
    monkeypatch.setattr(logfile, "_fsync_dir", synced.append)
    executor = ThreadPoolExecutor(max_workers=1)
    gate = threading.Event()
    executor.submit(gate.wait, 5)
    batcher = RowBatcher(executor, interval_s=60)
    writers = [LiveLogWriter(tmp_path / f"g{n}.csv", GameHeader(players=PLAYERS)) for n in range(5)]
    ends = [asyncio.ensure_future(batcher.finish(writer, OUTCOME)) for writer in writers]
    await asyncio.sleep(0.05)
    gate.set()
    assert [log.outcome for log in await bounded(asyncio.gather(*ends))] == [OUTCOME] * 5
    assert synced == [tmp_path]
    executor.shutdown()


async def test_a_log_that_cannot_be_made_fails_the_games_end_with_the_reason(tmp_path, caplog):
    executor = ThreadPoolExecutor(max_workers=1)
    batcher = RowBatcher(executor, interval_s=60)
    writer = batcher.open(tmp_path / "missing" / "g.csv", GameHeader(players=PLAYERS))   # the game goes on
    for record in rows(2):
        batcher.add(writer, record)
    with pytest.raises(OSError, match="missing"):
        await bounded(batcher.finish(writer, OUTCOME))
    assert "missing" in caplog.text                          # the failed open is logged when it happens
    executor.shutdown()


async def test_a_log_opened_through_the_batcher_gets_its_header_and_rows(tmp_path):
    executor = ThreadPoolExecutor(max_workers=1)
    batcher = RowBatcher(executor, interval_s=60)
    writer = batcher.open(tmp_path / "g.csv", GameHeader(players=PLAYERS, game="g7"))
    for record in rows(3):
        batcher.add(writer, record)
    log = await bounded(batcher.finish(writer, OUTCOME))
    back = read_log(writer.path)
    assert (back.header, back.steps, back.outcome) == (log.header, log.steps, log.outcome)
    assert log.header.game == "g7" and log.steps == rows(3)
    executor.shutdown()


async def test_a_games_last_rows_are_written_with_its_result_rows_by_the_log_thread(tmp_path, monkeypatch):
    executor = ThreadPoolExecutor(max_workers=1)
    batcher = RowBatcher(executor, interval_s=60)
    writer = batcher.open(tmp_path / "g.csv", GameHeader(players=PLAYERS))
    batcher.add(writer, rows(1)[0])
    batcher.flush()                                         # the .part file holds the first row
    loop_thread, writes = threading.get_ident(), []
    real_write = os.write
    monkeypatch.setattr(logfile.os, "write", lambda fd, data: writes.append(threading.get_ident()) or
                        real_write(fd, data))
    for record in rows(4)[1:]:
        batcher.add(writer, record)
    log = await bounded(batcher.finish(writer, OUTCOME))
    assert len(writes) == 1 and writes[0] != loop_thread    # rows and result in one write, off the event loop
    assert read_log(writer.path).steps == log.steps == rows(4)
    executor.shutdown()

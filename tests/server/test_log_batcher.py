"""The row batcher: every game's rows reach their own log, in order, in few jobs, and before its
end; games that end together share one sync; a broken log loses no other's."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from server import logfile
from server.log_batcher import RowBatcher
from server.logfile import LiveLogWriter, read_log
from tests.server.conftest import bounded
from shared.gamelog import GameHeader, GameOutcome, StepRecord
from shared.quoridor import GameStatus, Step

PLAYERS = ("Ann", "Bob")


def rows(n: int) -> list[StepRecord]:
    return [StepRecord(PLAYERS[i % 2], Step.move(5, 2 + i // 2) if i % 2 == 0 else Step.move(5, 8 - i // 2),
                       GameStatus.OK, i, i) for i in range(n)]


async def test_rows_of_many_games_land_in_order_in_one_job_per_interval(tmp_path):
    executor = ThreadPoolExecutor(max_workers=1)
    jobs = []
    batcher = RowBatcher(executor, interval_s=60)         # nothing flushes by itself in this test
    original = executor.submit
    executor.submit = lambda *args, **kw: jobs.append(args) or original(*args, **kw)  # type: ignore[method-assign]
    writers = [LiveLogWriter(tmp_path / f"g{n}.csv", GameHeader(players=PLAYERS, game=f"g{n}")) for n in range(3)]
    for record in rows(6):
        for writer in writers:
            batcher.add(writer, record)
    batcher.flush()
    assert len(jobs) == 1                                   # 18 rows, one hand-off to the log thread
    for writer in writers:
        await bounded(batcher.finish(writer, GameOutcome(0, "goal", (6, 9), (0, 0))))
    for writer in writers:
        assert writer.records == rows(6)
        assert writer.path.exists() and not writer.part.exists()
    executor.shutdown()


async def test_rows_are_flushed_within_the_interval(tmp_path):
    executor = ThreadPoolExecutor(max_workers=1)
    writer = LiveLogWriter(tmp_path / "g.csv", GameHeader(players=PLAYERS))
    batcher = RowBatcher(executor, interval_s=0.01)
    batcher.add(writer, rows(1)[0])
    for _ in range(200):                                   # bounded: at most 2 s
        if writer.records:
            break
        await asyncio.sleep(0.01)
    assert writer.records == rows(1) and "Ann" in writer.part.read_text()
    executor.shutdown()


async def test_a_broken_log_loses_no_other_games_rows(tmp_path, caplog):
    executor = ThreadPoolExecutor(max_workers=1)
    good = LiveLogWriter(tmp_path / "good.csv", GameHeader(players=PLAYERS))
    broken = LiveLogWriter(tmp_path / "broken.csv", GameHeader(players=PLAYERS))
    broken.close()                                          # writing to it raises ValueError
    batcher = RowBatcher(executor, interval_s=60)
    batcher.add(broken, rows(1)[0])
    batcher.add(good, rows(1)[0])
    batcher.flush()
    await asyncio.get_running_loop().run_in_executor(executor, lambda: None)   # the job before it is done
    assert good.records == rows(1)
    assert "writing the log" in caplog.text and "broken.csv" in caplog.text
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

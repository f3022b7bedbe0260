"""The rooms' worker pool: jobs in other processes, a runaway or cancelled job killed and its worker replaced,
a bounded line (``PoolBusy`` beyond it), failures reported with the worker's traceback."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from server.rooms.workers import JobFailed, JobStopped, PoolBusy, WorkerPool
from tests.server.conftest import bounded
from tests.server.rooms import jobs


@pytest.fixture
async def make_pool() -> AsyncIterator[Callable[..., WorkerPool]]:
    """Start ``WorkerPool``s (one worker unless told); all are closed after the test."""
    pools: list[WorkerPool] = []

    async def factory(size: int = 1, **options: object) -> WorkerPool:
        pool = WorkerPool(size, preload=("tests.server.rooms.jobs",), **options)  # type: ignore[arg-type]
        await bounded(pool.start())
        pools.append(pool)
        return pool

    yield factory
    for pool in pools:
        await bounded(pool.close())


class Gate:
    """A pair of files: the job creates ``started``; the test creates ``release`` to let it finish."""

    def __init__(self, folder: Path, name: str = "job") -> None:
        self.started, self.release = folder / f"{name}.started", folder / f"{name}.release"

    @property
    def args(self) -> tuple[str, str]:
        """The arguments of ``jobs.wait_for``."""
        return str(self.started), str(self.release)

    async def until_started(self) -> None:
        """Wait (at most 10 s) until the job has begun."""
        for _ in range(1000):
            if self.started.exists():
                return
            await asyncio.sleep(0.01)
        raise AssertionError("the job never started")

    def open(self) -> None:
        """Let the job finish."""
        self.release.touch()


async def gone(pid: int) -> bool:
    """True once process ``pid`` no longer exists (waiting at most 10 s)."""
    for _ in range(1000):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        await asyncio.sleep(0.01)
    return False


async def test_a_job_runs_in_a_worker_process(make_pool):
    pool = await make_pool()
    assert await bounded(pool.run(jobs.echo, ({"a": [1, 2]},), limit_s=10)) == {"a": [1, 2]}
    worker = await bounded(pool.run(jobs.pid, (), limit_s=10))
    assert worker != os.getpid() and pool.pids == [worker]


async def test_a_job_past_its_limit_is_killed_and_its_worker_replaced(make_pool, tmp_path):
    pool = await make_pool()
    first = pool.pids[0]
    gate = Gate(tmp_path)                    # never opened: the job would wait its full patience
    with pytest.raises(JobStopped, match="past its limit"):
        await bounded(pool.run(jobs.wait_for, gate.args, limit_s=0.2))
    assert gate.started.exists() and pool.killed == 1
    assert await gone(first)
    assert await bounded(pool.run(jobs.echo, ("after",), limit_s=10)) == "after"
    assert pool.pids != [first]


async def test_a_cancelled_job_kills_its_worker(make_pool, tmp_path):
    pool = await make_pool()
    first = pool.pids[0]
    gate = Gate(tmp_path)
    running = asyncio.create_task(pool.run(jobs.wait_for, gate.args, limit_s=30))
    await gate.until_started()
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await bounded(running)
    assert await gone(first)
    assert await bounded(pool.run(jobs.echo, ("after",), limit_s=10)) == "after"


async def test_jobs_wait_in_a_bounded_line_and_beyond_it_are_refused_at_once(make_pool, tmp_path):
    pool = await make_pool(waiting=1, wait_s=30)
    gate = Gate(tmp_path)
    first = asyncio.create_task(pool.run(jobs.wait_for, gate.args, limit_s=30))
    await gate.until_started()
    second = asyncio.create_task(pool.run(jobs.echo, ("second",), limit_s=30))
    await asyncio.sleep(0)                   # the second takes its place in the line
    with pytest.raises(PoolBusy, match="busy"):
        await bounded(pool.run(jobs.echo, ("third",), limit_s=30), 5)
    assert not second.done()
    gate.open()
    assert await bounded(first) == "released"
    assert await bounded(second) == "second"


async def test_a_job_waits_for_a_worker_only_so_long(make_pool, tmp_path):
    pool = await make_pool(waiting=4, wait_s=0.05)
    gate = Gate(tmp_path)
    first = asyncio.create_task(pool.run(jobs.wait_for, gate.args, limit_s=30))
    await gate.until_started()
    with pytest.raises(PoolBusy, match="stayed busy"):
        await bounded(pool.run(jobs.echo, ("late",), limit_s=30))
    gate.open()
    assert await bounded(first) == "released"
    assert await bounded(pool.run(jobs.echo, ("now",), limit_s=30)) == "now"


async def test_a_failing_job_reports_the_workers_traceback_and_the_worker_goes_on(make_pool):
    pool = await make_pool()
    worker = pool.pids[0]
    with pytest.raises(JobFailed, match="ValueError: boom"):
        await bounded(pool.run(jobs.fail, ("boom",), limit_s=10))
    assert await bounded(pool.run(jobs.pid, (), limit_s=10)) == worker


async def test_a_worker_that_dies_fails_its_job_and_is_replaced(make_pool):
    pool = await make_pool()
    with pytest.raises(JobFailed, match="died"):
        await bounded(pool.run(jobs.die, (), limit_s=10))
    for _ in range(1000):                    # bounded: the replacement is starting
        if pool.idle:
            break
        await asyncio.sleep(0.01)
    assert await bounded(pool.run(jobs.echo, ("again",), limit_s=10)) == "again"


async def test_closing_stops_a_running_job_and_refuses_new_ones(make_pool, tmp_path):
    pool = await make_pool()
    worker = pool.pids[0]
    gate = Gate(tmp_path)
    running = asyncio.create_task(pool.run(jobs.wait_for, gate.args, limit_s=30))
    await gate.until_started()
    await bounded(pool.close())
    with pytest.raises(PoolBusy, match="closing"):
        await bounded(running)
    assert await gone(worker)
    with pytest.raises(PoolBusy, match="closing"):
        await bounded(pool.run(jobs.echo, (1,), limit_s=10))

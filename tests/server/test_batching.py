"""``ThreadBatcher``: what queues up while the worker thread is busy runs as one batch, in order,
and every job gets its own result or its own exception."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from server.disk.batching import ThreadBatcher
from tests.server.conftest import bounded


async def test_jobs_that_queue_while_the_thread_works_run_together_in_order():
    batches: list[list[int]] = []
    gate = threading.Event()

    def run(jobs):
        if not batches:
            gate.wait(5)            # the first batch holds the thread while the others queue up
        batches.append(list(jobs))
        return [(True, job * 10) for job in jobs]

    with ThreadPoolExecutor(1) as executor:
        batcher = ThreadBatcher(executor, run)
        first = asyncio.create_task(batcher.submit(1))
        await asyncio.sleep(0.05)
        rest = [asyncio.create_task(batcher.submit(n)) for n in (2, 3, 4)]
        await asyncio.sleep(0.05)
        gate.set()
        assert await bounded(asyncio.gather(first, *rest)) == [10, 20, 30, 40]
    assert batches == [[1], [2, 3, 4]]


async def test_a_failing_job_fails_alone_and_a_failing_batch_fails_all():
    def run(jobs):
        if "boom" in jobs:
            raise RuntimeError("the batch broke")
        return [(False, ValueError(job)) if job == "bad" else (True, job.upper()) for job in jobs]

    with ThreadPoolExecutor(1) as executor:
        batcher = ThreadBatcher(executor, run)
        assert await bounded(batcher.submit("ok")) == "OK"
        with pytest.raises(ValueError, match="bad"):
            await bounded(batcher.submit("bad"))
        with pytest.raises(RuntimeError, match="the batch broke"):
            await bounded(batcher.submit("boom"))
        assert await bounded(batcher.submit("again")) == "AGAIN"     # the worker goes on


async def test_a_shut_down_executor_refuses_the_job():
    executor = ThreadPoolExecutor(1)
    executor.shutdown()
    batcher = ThreadBatcher(executor, lambda jobs: [(True, None) for _ in jobs])
    with pytest.raises(RuntimeError):
        await bounded(batcher.submit("late"))

"""``ThreadBatcher``: jobs for one worker thread, where the jobs that queue up while it works run as one batch.

Finishing a game costs a sync to disk for its log and another for its result. When hundreds of
games end at once, one sync each would make the last game's players wait for hundreds of them;
run as a batch, the jobs share one: the results one transaction (one commit), the logs one sync
of their folder. The batch function gets the jobs in the order they came and returns, per job,
its result or the exception it raised, so one bad job fails alone.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import Any, Generic, TypeVar

__all__ = ["ThreadBatcher", "Outcome"]

J = TypeVar("J")
#: What a batch function says of one job: ``(True, result)`` or ``(False, exception)``.
Outcome = tuple[bool, Any]


class ThreadBatcher(Generic[J]):
    """Runs ``run_batch`` on ``executor`` over the jobs queued so far, one batch at a time (``None``: the loop's default)."""

    def __init__(self, executor: Executor | None, run_batch: Callable[[Sequence[J]], Sequence[Outcome]], *,
                 on_idle: Callable[[], None] | None = None) -> None:
        """``on_idle``: called on the worker thread each time it has run every job queued (a quiet time)."""
        self.executor = executor
        self.run_batch = run_batch
        self.on_idle = on_idle
        self._jobs: deque[tuple[J, asyncio.Future[Any]]] = deque()
        self._lock = threading.Lock()
        self._draining = False

    def enqueue(self, job: J) -> asyncio.Future[Any]:
        """Queue ``job`` now (jobs run in the order they were queued); the future of its result."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        with self._lock:
            self._jobs.append((job, future))
            start, self._draining = not self._draining, True
        if start:
            try:
                loop.run_in_executor(self.executor, self._drain)
            except RuntimeError:            # the executor is shut down: nothing will run the job
                with self._lock:
                    self._draining = False
                    self._jobs.clear()
                raise
        return future

    async def submit(self, job: J) -> Any:
        """Queue ``job`` and wait for its result (its exception is raised here)."""
        return await self.enqueue(job)

    def _drain(self) -> None:
        """On the worker thread: run batches until nothing is queued."""
        while True:
            with self._lock:
                quiet = not self._jobs
            if quiet and self.on_idle is not None:
                self.on_idle()          # before the thread is given up: a job queued meanwhile waits for it
            with self._lock:
                if not self._jobs:
                    self._draining = False
                    return
                batch = list(self._jobs)
                self._jobs.clear()
            try:
                outcomes = list(self.run_batch([job for job, _ in batch]))
                if len(outcomes) != len(batch):
                    raise RuntimeError(f"a batch of {len(batch)} jobs gave {len(outcomes)} outcomes")
            except BaseException as exc:  # noqa: BLE001 - the batch failed as a whole: so did each job
                outcomes = [(False, exc)] * len(batch)
            loop = batch[0][1].get_loop()
            try:
                loop.call_soon_threadsafe(_settle, [future for _, future in batch], outcomes)
            except RuntimeError:            # the loop is closed: nobody waits any more
                pass


def _settle(futures: list[asyncio.Future[Any]], outcomes: Sequence[Outcome]) -> None:
    for future, (ok, value) in zip(futures, outcomes):
        if future.done():               # cancelled meanwhile
            continue
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)

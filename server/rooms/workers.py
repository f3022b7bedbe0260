"""``WorkerPool``: a few worker processes for the rooms' long work, each job with a time limit, a runaway killed.

A job is a module-level function and plain arguments (both pickled to the worker), run by a
process of its own, so that no job holds the server's interpreter: the event loop and the
rooms' quick answers go on while it runs. The contract:

* At most ``size`` jobs run at once, one per worker. A job finding every worker busy waits at
  most ``wait_s`` in a line of at most ``waiting`` jobs; beyond either, ``run`` raises
  ``PoolBusy`` at once (nothing queues without bound).
* A job still running ``limit_s`` after it was handed over, or whose caller is cancelled, has
  its worker killed (SIGKILL) and replaced by a fresh one; ``run`` raises ``JobStopped`` (or
  the cancellation). A job that raises, or whose worker dies, raises ``JobFailed`` with the
  worker's traceback; the worker lives on (or is replaced).
* Workers import ``preload`` before they take a job (so no job pays for imports inside its
  limit), run at a lower scheduling priority than the server, and ignore Ctrl-C (the server
  stops them). They are started by ``forkserver`` where the platform has it, so that a
  replacement is a fork of a small clean process (a few milliseconds), not of the server.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import multiprocessing
import os
import signal
import traceback
from collections import deque
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any

__all__ = ["JobFailed", "JobStopped", "PoolBusy", "WorkerPool"]

log = logging.getLogger("quoridor.server")

#: How much lower than the server the workers run (``os.nice``): the event loop keeps the CPU it needs.
NICENESS = 5


class PoolBusy(Exception):
    """Every worker is busy and the line is full (or the wait for a worker ran out): the job was not run."""


class JobStopped(Exception):
    """The job ran past its limit; its worker was killed and replaced."""


class JobFailed(Exception):
    """The job raised in its worker (the message holds the worker's traceback), or its worker died."""


class _Worker:
    """One worker process, the parent's end of its pipe, and the reply of the job it runs."""

    __slots__ = ("process", "conn", "ready", "reply", "started")

    def __init__(self, process: BaseProcess, conn: Connection) -> None:
        self.process = process
        self.conn = conn
        self.ready = False
        self.reply: asyncio.Future[tuple[str, Any]] | None = None
        #: Done once the worker has said it is ready (or has died trying).
        self.started: asyncio.Future[None] = asyncio.get_running_loop().create_future()


def _serve(conn: Connection, preload: Sequence[str]) -> None:
    """A worker's life: import ``preload``, say ready, then run jobs until told to stop or the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(NICENESS)
    except OSError:
        pass
    for name in preload:
        importlib.import_module(name)
    conn.send(("ready", None))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        function, args = job
        try:
            reply: tuple[str, Any] = ("ok", function(*args))
        except Exception:  # noqa: BLE001 - a failing job is reported, the worker goes on
            reply = ("error", traceback.format_exc())
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception:  # noqa: BLE001 - a result that cannot be pickled
            conn.send(("error", traceback.format_exc()))


def _context() -> BaseContext:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


class WorkerPool:
    """``size`` worker processes running jobs with a time limit; see the module's notes for the contract."""

    def __init__(self, size: int = 2, *, waiting: int = 4, wait_s: float = 0.1, preload: Sequence[str] = ()) -> None:
        if size < 1:
            raise ValueError(f"a worker pool needs at least one worker, not {size}")
        self.size, self.waiting, self.wait_s = size, waiting, wait_s
        self.preload = tuple(preload)
        self._context = _context()
        self._workers: list[_Worker] = []
        self._idle: list[_Worker] = []
        self._line: deque[asyncio.Future[_Worker]] = deque()
        self._chores: set[asyncio.Task[None]] = set()
        self._closed = False
        #: Workers killed for running past their limit or for a cancelled caller (for tests and figures).
        self.killed = 0

    # -- lifecycle --------------------------------------------------------------------------
    async def start(self, ready_within_s: float = 30.0) -> None:
        """Start the workers and wait (at most ``ready_within_s``) until they have imported ``preload``."""
        if self.preload and self._context.get_start_method() == "forkserver":
            # Only heeded by a fork server not yet running; the workers import them anyway.
            self._context.set_forkserver_preload([__name__, *self.preload])  # type: ignore[attr-defined]
        await asyncio.gather(*(self._spawn() for _ in range(self.size)))
        started = [worker.started for worker in self._workers]
        _, late = await asyncio.wait(started, timeout=ready_within_s)
        if late:
            log.warning("%d of %d puzzle workers were not ready after %g s; they take jobs once they are",
                        len(late), self.size, ready_within_s)

    async def close(self) -> None:
        """Stop every worker (a running job is killed: its ``run`` raises ``PoolBusy``) and refuse new jobs."""
        self._closed = True
        while self._line:
            waiter = self._line.popleft()
            if not waiter.done():
                waiter.set_exception(PoolBusy("the puzzle rooms are closing"))
        if self._chores:
            await asyncio.gather(*self._chores, return_exceptions=True)
        workers = list(self._workers)
        for worker in workers:
            self._forget(worker)
            if worker.reply is not None and not worker.reply.done():
                worker.reply.set_exception(PoolBusy("the puzzle rooms are closing"))
            if worker.ready and worker.reply is None:
                try:
                    worker.conn.send(None)          # an idle worker leaves on its own
                except OSError:
                    pass
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(None, _stop, worker.process, 1.0 if worker.ready and
                                                    worker.reply is None else 0.0) for worker in workers))
        for worker in workers:
            worker.conn.close()

    @property
    def idle(self) -> int:
        """Workers ready and free."""
        return len(self._idle)

    @property
    def pids(self) -> list[int]:
        """Process ids of the live workers."""
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    # -- running a job ----------------------------------------------------------------------
    async def run(self, function: Callable[..., Any], args: tuple[Any, ...], *, limit_s: float) -> Any:
        """``function(*args)`` in a worker; raises ``PoolBusy``, ``JobStopped`` past ``limit_s``, or ``JobFailed``."""
        worker = await self._acquire()
        loop = asyncio.get_running_loop()
        worker.reply = reply = loop.create_future()
        try:
            worker.conn.send((function, args))
        except Exception as exc:  # noqa: BLE001 - arguments that cannot be pickled: nothing was sent
            worker.reply = None
            self._release(worker)
            raise JobFailed(f"the job {getattr(function, '__name__', function)!r} cannot be sent to a worker: "
                            f"{exc}") from None
        try:
            async with asyncio.timeout(limit_s):
                kind, value = await reply
        except TimeoutError:
            self._retire(worker, "ran past its limit")
            raise JobStopped(f"the job ran past its limit of {limit_s:g} s and was stopped") from None
        except asyncio.CancelledError:
            self._retire(worker, "was cancelled")
            raise
        worker.reply = None
        self._release(worker)
        if kind == "error":
            raise JobFailed(value)
        return value

    async def _acquire(self) -> _Worker:
        if self._closed:
            raise PoolBusy("the puzzle rooms are closing")
        if self._idle:
            return self._idle.pop()
        if len(self._line) >= self.waiting:
            raise PoolBusy(f"all {self.size} solver workers are busy and {len(self._line)} jobs wait already")
        waiter: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        self._line.append(waiter)
        taken = False
        try:
            async with asyncio.timeout(self.wait_s):
                worker = await waiter
            taken = True
            return worker
        except TimeoutError:
            raise PoolBusy(f"all {self.size} solver workers stayed busy for {self.wait_s:g} s") from None
        finally:
            if waiter in self._line:
                self._line.remove(waiter)
            if not taken and waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                self._release(waiter.result())      # handed a worker just as the wait ended: give it back

    def _release(self, worker: _Worker) -> None:
        """A worker is free: to the first in line, or idle."""
        if worker not in self._workers:
            return
        while self._line:
            waiter = self._line.popleft()
            if not waiter.done():
                waiter.set_result(worker)
                return
        self._idle.append(worker)

    # -- workers coming and going -------------------------------------------------------------
    async def _spawn(self) -> None:
        """Start one worker (off the event loop: the first start also starts the fork server)."""
        loop = asyncio.get_running_loop()
        process, conn = await loop.run_in_executor(None, self._start_process)
        worker = _Worker(process, conn)
        if self._closed:
            await loop.run_in_executor(None, _stop, worker.process, 0.0)
            worker.conn.close()
            return
        self._workers.append(worker)
        loop.add_reader(worker.conn.fileno(), self._readable, worker)

    def _start_process(self) -> tuple[BaseProcess, Connection]:
        ours, theirs = self._context.Pipe()
        process = self._context.Process(target=_serve, args=(theirs, self.preload), name="quoridor-room-worker",
                                        daemon=True)
        process.start()
        theirs.close()          # the worker holds the only other end: its death reads as end of file here
        return process, ours

    def _readable(self, worker: _Worker) -> None:
        """A message from a worker (its readiness or a job's reply), or the end of its pipe."""
        try:
            kind, value = worker.conn.recv()
        except (EOFError, OSError):
            self._lost(worker)
            return
        if kind == "ready":
            worker.ready = True
            worker.started.set_result(None)
            self._release(worker)
        elif worker.reply is not None and not worker.reply.done():
            worker.reply.set_result((kind, value))

    def _lost(self, worker: _Worker) -> None:
        """A worker died on its own: fail its job and replace it (not one that died starting: that would recur)."""
        log.error("a puzzle worker process (pid %s) died with exit code %s%s", worker.process.pid,
                  worker.process.exitcode, "" if worker.ready else " before it was ready; it is not replaced")
        if worker.reply is not None and not worker.reply.done():
            worker.reply.set_exception(JobFailed("the worker process died while running the job"))
        if not worker.started.done():
            worker.started.set_result(None)
        self._forget(worker)
        self._chore(self._replace(worker, again=worker.ready))

    def _retire(self, worker: _Worker, why: str) -> None:
        """Kill a worker (its job is abandoned) and start another in its place."""
        self.killed += 1
        log.warning("a puzzle job %s; its worker (pid %s) is replaced", why, worker.process.pid)
        self._forget(worker)
        self._chore(self._replace(worker))

    def _forget(self, worker: _Worker) -> None:
        """Stop listening to a worker and count it out (its process is left to the caller)."""
        if worker in self._workers:
            self._workers.remove(worker)
        if worker in self._idle:
            self._idle.remove(worker)
        if not worker.conn.closed:
            asyncio.get_running_loop().remove_reader(worker.conn.fileno())

    async def _replace(self, worker: _Worker, *, again: bool = True) -> None:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, _stop, worker.process, 0.0)
        worker.conn.close()
        if again and not self._closed:
            await self._spawn()

    def _chore(self, coro: Any) -> None:
        """Run a replacement in the background (``close`` waits for it); a failure is logged."""
        task = asyncio.get_running_loop().create_task(coro)
        self._chores.add(task)
        task.add_done_callback(self._chore_done)

    def _chore_done(self, task: asyncio.Task[None]) -> None:
        self._chores.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a puzzle worker could not be replaced: %r; the pool has %d of %d workers",
                      task.exception(), len(self._workers), self.size)


def _stop(process: BaseProcess, patience_s: float) -> None:
    """Wait up to ``patience_s`` for a process to leave, then kill it and reap it."""
    if patience_s:
        process.join(patience_s)
    if process.is_alive():
        process.kill()
    process.join(5.0)

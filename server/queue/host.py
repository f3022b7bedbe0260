"""``QueueGameHost``: the ``GameHost`` whose pairings are played by workers on other machines, through saq and Redis.

``play(pairing)`` shelves the handed-in bots' files in the engine by digest (``BotShelf``), enqueues
one saq job per pairing, keyed by the pairing (its games' ids and a digest of the job: asking again
for the same pairing, after a restart, finds the same job, never a second one), follows the job's
step stream (``StepRelay``) into ``on_step`` as the worker plays, and returns the worker's answer as
a ``PairingResult`` once saq has it, with each game's log written where the pairing says.

What can go wrong, and what happens:

* a worker dies mid-game: it stops touching its job; after ``heartbeat_s`` a worker's sweep hands the
  job back to the queue and another worker plays the pairing again from the start (attempt 2: the
  live view starts again, each of ``restart_hooks`` hears it); the partial game is never counted.
* the engine is away: every call waits for it (``engine.connect``), saying so in the log; jobs and
  answers are in the engine, so nothing is lost when it returns with its data (``docs/queue.md``).
* a job vanished from the engine (restarted without its data): it is enqueued again.
* an answer holds a game the server did not ask for, or a game whose result was taken already:
  that game is refused with one log line (``ResultLedger``) and never reaches the caller.
* a job saq left in no list (a sweep's race, then a dead worker: ``docs/queue.md``): after
  ``orphan_after_s`` untouched, the server enqueues it again itself.
* a worker refuses the job (a bot version it cannot fetch, files that do not match their digest):
  ``play`` raises ``JobRefused`` (a ``PairingRefused``) with the worker's reason; nothing is recorded. A
  version the engine lost is shelved again and asked for once more first. A refusal the engine still holds
  when the same pairing is asked for again (a resumed server) is not taken as the answer: the job is
  enqueued afresh.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from saq import Job, Status
from saq.queue.redis import RedisQueue

from shared.referee import StepJudged

from server import __version__
from server.games.match import MatchRunner
from server.sandbox.host import Pairing, PairingRefused, PairingResult
from server.sandbox.limits import SandboxLimits
from server.queue.bots import BotShelf
from server.queue.engine import Keys, connect, shown_url, wait_for_engine
from server.queue.events import AttemptEntry, DoneEntry, Entry, RemoteMatch, RemoteReferee, StepEntry
from server.queue.jobs import (
    JOB_FUNCTION, PROTOCOL, JobRefusal, JobResult, PairingJob, job_for, job_timeout_s, log_text, pairing_result,
    parse_answer,
)
from server.queue.ledger import ResultLedger, Verdict
from server.queue.relay import StepRelay

__all__ = ["QueueGameHost", "QueueSettings", "JobRefused", "disconnect"]

log = logging.getLogger("quoridor.queue")

StepHook = Callable[[MatchRunner, StepJudged], None]


class JobRefused(PairingRefused):
    """A pairing no worker could play (a refusal, or every attempt failed): nothing of it is recorded.

    ``code`` is the worker's refusal code (``unfetchable``, ``bad_digest``, ...), ``None`` for other failures.
    """

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class QueueSettings:
    """How the server uses the queue: liveness, attempts, how long answers are kept."""

    #: Seconds a job may go untouched before a sweep hands it to another worker (workers touch it every third).
    heartbeat_s: int = 15
    #: Attempts a job gets (a worker that dies costs one).
    attempts: int = 5
    #: Seconds saq keeps a finished job's answer (a server that resumes within them takes it without replaying).
    answer_ttl_s: int = 2 * 24 * 3600
    #: Seconds between two looks at a job's state besides the ``done`` event (a lost event costs at most this).
    poll_s: float = 2.0
    #: Seconds a running job may go untouched before the server enqueues it again itself (default: three
    #: heartbeats and ten seconds, well after any sweep would have handed it back; see ``docs/queue.md``).
    orphan_after_s: float | None = None
    #: The prefix of every key this project uses in the engine.
    prefix: str = "quoridor"


class QueueGameHost:
    """Plays pairings on workers through the engine at ``url`` (``quoridor-worker --queue URL`` on any machine)."""

    def __init__(self, url: str, limits: SandboxLimits, *, settings: QueueSettings | None = None,
                 on_restart: Callable[[str, int], None] | None = None,
                 on_entry: Callable[[StepEntry], None] | None = None) -> None:
        self.url = url
        self.limits = limits
        self.settings = settings or QueueSettings()
        #: Each hears ``(game_id, attempt)`` when a game restarts on another worker (its live view starts again).
        self.restart_hooks: list[Callable[[str, int], None]] = [] if on_restart is None else [on_restart]
        #: Hears every step entry as it arrives, before the step hooks (``bench/queue_workers.py``: the relay's lag).
        self.on_entry = on_entry
        self.keys = Keys(self.settings.prefix)
        self.ledger = ResultLedger()
        self._redis = connect(url, "quoridor.queue")
        self._queue = RedisQueue(self._redis, name=self.keys.queue)
        self._shelf = BotShelf(self._redis, self.keys)
        self._relay = StepRelay(self._redis, self.keys)
        self._ready: asyncio.Task[None] | None = None

    async def open(self) -> None:
        """Wait for the engine (one line per try while it is away); then say which protocol this server speaks."""
        if self._ready is None:
            self._ready = asyncio.get_running_loop().create_task(self._open())
        await asyncio.shield(self._ready)

    async def _open(self) -> None:
        await wait_for_engine(self.url, log)
        await self._queue.connect()
        await self._redis.set(self.keys.server, json.dumps({"protocol": PROTOCOL, "version": __version__,
                                                            "pid": os.getpid()}))
        log.info("games of handed-in bots go to the workers of %s (queue %s)", shown_url(self.url), self.keys.queue)

    # -- playing ------------------------------------------------------------------------------
    async def play(self, pairing: Pairing, *, on_step: StepHook | None = None) -> PairingResult:
        """Have a worker play every game of ``pairing``; ``on_step`` hears each judged step as the worker plays it."""
        await self.open()
        digests = {bot.name: await self._shelf.put(bot) for bot in pairing.bots if bot.folder is not None}
        job = job_for(pairing, self.limits, digests)
        key = job.key
        self.ledger.expect(key, [g.game_id for g in pairing.games])
        views = {g.game_id: RemoteMatch(g.game_id, g.log_path, RemoteReferee(
            (pairing.bots[g.white].name, pairing.bots[1 - g.white].name), pairing.referee), pairing.tournament)
            for g in pairing.games}
        done = asyncio.Event()
        await self._relay.follow(key, self._consumer(key, views, on_step, done))
        try:
            try:
                answer = await self._answer(job, done)
            except JobRefused as exc:
                if exc.code != "unfetchable":
                    raise
                # The engine lost a bot's files (evicted, or restarted without its data): shelve them again, once.
                log.warning("job %s: shelving its bots again and asking once more", key)
                for bot in pairing.bots:
                    if bot.folder is not None:
                        await self._shelf.put(bot, force=True)
                await self._enqueue(job)
                answer = await self._answer(job, done)
            return await self._accept(key, pairing, answer)
        finally:
            self._relay.drop(key)
            self.ledger.close(key)

    def _consumer(self, key: str, views: dict[str, RemoteMatch], on_step: StepHook | None,
                  done: asyncio.Event) -> Callable[[Entry], None]:
        attempt = 0

        def consume(entry: Entry) -> None:
            nonlocal attempt
            if isinstance(entry, DoneEntry):
                done.set()
                return
            if entry.attempt < attempt:
                return                          # what is left of an attempt played again
            if entry.attempt > attempt:
                if attempt:
                    log.warning("job %s: attempt %d%s; its games start again from the beginning", key, entry.attempt,
                                f" on worker {entry.worker}" if isinstance(entry, AttemptEntry) else "")
                attempt = entry.attempt
                for view in views.values():
                    if view.steps:
                        for hook in self.restart_hooks:
                            hook(view.game_id, attempt)
                    view.restart(attempt)
            if isinstance(entry, AttemptEntry):
                for view in views.values():
                    view.worker = entry.worker
            if isinstance(entry, StepEntry):
                if self.on_entry is not None:
                    self.on_entry(entry)
                view = views.get(entry.game)
                if view is None:
                    log.warning("job %s: a step of game %s, which the job does not hold; ignored", key, entry.game)
                    return
                view.apply(entry)
                if on_step is not None:
                    on_step(view, entry.judged)  # type: ignore[arg-type]
        return consume

    async def _answer(self, job: PairingJob, done: asyncio.Event) -> JobResult:
        """Enqueue ``job`` (unless the engine holds it already) and wait for its answer."""
        key = job.key
        stored = await self._queue.job(key)
        if stored is None or stored.status in (Status.ABORTED, Status.FAILED) or _refused(stored):
            await self._enqueue(job)            # a refusal of an earlier run (a resumed server) is asked again
        while True:
            try:
                async with asyncio.timeout(self.settings.poll_s):     # not wait_for: it can swallow a cancellation
                    await done.wait()
            except TimeoutError:
                pass
            done.clear()
            stored = await self._queue.job(key)
            if stored is None:
                log.warning("job %s vanished from the engine (restarted without its data?); enqueued again", key)
                await self._enqueue(job)
                continue
            if stored.status == Status.COMPLETE:
                answer = parse_answer(stored.result)
                if isinstance(answer, JobRefusal):
                    message = f"worker {answer.worker} refused job {key}: {answer.reason} ({answer.code})"
                    log.error("%s; its games are not played and nothing is recorded", message)
                    raise JobRefused(message, answer.code)
                return answer
            if stored.status in (Status.FAILED, Status.ABORTED) and stored.attempts >= self.settings.attempts:
                message = f"job {key} failed after {stored.attempts} attempt(s): {_last_line(stored.error)}"
                log.error("%s; nothing of it is recorded", message)
                raise JobRefused(message)
            idle_s = self._orphaned_for(stored)
            if idle_s is not None:
                log.warning("job %s: %s for %.0f s (its worker died, and no sweep handed it back); enqueued again",
                            key, stored.status.value, idle_s)
                await self._enqueue(job, attempts=stored.attempts)

    def _orphaned_for(self, stored: Job) -> float | None:
        """Seconds an unfinished job has been left alone long after a sweep would have handed it back, else None.

        saq's sweep can take a job that a worker has just dequeued for a stale one and abort it; if a worker
        dies before that sweep's retry, the job is left running (or aborted) in no list any sweep reads
        (``docs/queue.md``). An aborted job with attempts left is normally retried within seconds.
        """
        if stored.status in (Status.ACTIVE, Status.ABORTING):      # a sweep's copy may hold no touch at all
            since = max(stored.touched, stored.started, stored.queued)
        elif stored.status in (Status.ABORTED, Status.FAILED):
            since = max(stored.completed, stored.touched)
        else:
            return None
        limit = self.settings.orphan_after_s
        if limit is None:
            limit = 3 * self.settings.heartbeat_s + 10
        idle_s = time.time() - since / 1000
        return idle_s if since and idle_s > limit else None

    async def _enqueue(self, job: PairingJob, *, attempts: int = 0) -> None:
        """Enqueue ``job`` (a no-op while the engine holds it unfinished); ``attempts`` so far keep counting."""
        saq_job = Job(JOB_FUNCTION, kwargs={"job": job.model_dump(mode="json")}, key=job.key,
                      timeout=job_timeout_s(job), heartbeat=self.settings.heartbeat_s,
                      retries=self.settings.attempts, ttl=self.settings.answer_ttl_s, attempts=attempts)
        await self._queue.enqueue(saq_job)

    async def _accept(self, key: str, pairing: Pairing, answer: JobResult) -> PairingResult:
        """The answer's games the ledger takes, with their logs written; refused games are logged and left out."""
        if answer.protocol != PROTOCOL:
            raise JobRefused(f"worker {answer.worker} answered job {key} in protocol {answer.protocol}; "
                             f"this server speaks {PROTOCOL}")
        taken = []
        for game in answer.games:
            verdict = self.ledger.take(key, game.game_id)
            if verdict is Verdict.TAKEN:
                taken.append(game)
            else:
                log.error("%s", self.ledger.refusal(verdict, key, game.game_id, answer.worker))
        missing = [g.game_id for g in pairing.games if g.game_id not in {t.game_id for t in taken}]
        if missing:
            raise JobRefused(f"job {key}: no acceptable result of {', '.join(missing)} from worker {answer.worker}")
        result = pairing_result(answer.model_copy(update={"games": tuple(taken)}), pairing)
        paths = {g.game_id: g.log_path for g in pairing.games}
        await asyncio.to_thread(_write_logs, [(paths[g.game_id], log_text(g)) for g in taken])
        return result

    async def close(self) -> None:
        """Stop following jobs and close the connection (jobs in the engine go on: a resumed server takes them)."""
        await self._relay.close()
        if self._ready is not None and not self._ready.done():
            self._ready.cancel()
            await asyncio.gather(self._ready, return_exceptions=True)
        await disconnect(self._queue, self._redis)


async def disconnect(queue: RedisQueue, redis: object, *, seconds: float = 5.0) -> None:
    """Close saq's queue and its client; an engine that is away cannot hold this up for more than ``seconds``."""
    try:
        await asyncio.wait_for(queue.disconnect(), seconds)
    except Exception:  # noqa: BLE001 - closing: the engine may be gone for good (a timeout is one too)
        await redis.aclose()  # type: ignore[attr-defined]


def _write_logs(logs: list[tuple[Path, str]]) -> None:
    """Write each finished log whole (a temporary file renamed), then sync its folder."""
    folders = set()
    for path, text in logs:
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(path.name + ".queue-part")
        with open(part, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(part, path)
        folders.add(path.parent)
    for folder in folders:
        handle = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


def _refused(stored: Job) -> bool:
    """True when ``stored`` is a finished job whose answer is a worker's refusal."""
    if stored.status != Status.COMPLETE:
        return False
    try:
        return isinstance(parse_answer(stored.result), JobRefusal)
    except ValueError:
        return False


def _last_line(error: str | None) -> str:
    lines = [line.strip() for line in (error or "").strip().splitlines() if line.strip()]
    return lines[-1] if lines else "no reason given"

"""``GameWorker``: takes pairing jobs from the queue, plays them in the sandbox with the server's referee, answers.

A job (``PairingJob``) is played by ``server.sandbox.play_pairing``, the very code a server without
a queue runs: the same referee, the same sandbox and limits, the same logs. Meanwhile the worker
streams every judged step to the job's stream (``StepPublisher``) and touches the job every third
of its heartbeat, so a worker that dies is noticed and its job handed to another. The answer (each
game's outcome and log, each bot's report) is the job's result in saq.

It also serves the analysis jobs of an ``--analysis queue`` server (``server.queue.analysis``), from a queue of
their own and one at a time, so that they never take a pairing's place: each game's log is analysed by an
analysis process at the lowest CPU priority (``server.analysis.process``) and the analysis's JSON is the answer.

A job the worker cannot play (another protocol, a bot version it cannot fetch or whose files do not
match their digest) is answered with a ``JobRefusal`` and one log line, never played. A worker whose
server speaks another protocol refuses to serve it and stops (exit code 3).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import logging
import os
import socket
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from saq import Job, Worker
from saq.queue.redis import RedisQueue

from server import __version__
from server.analysis.process import DEFAULT_KIT, AnalysisProcess, AnalysisProcessError
from server.analysis.store import analysis_path
from server.games.match import MatchRunner
from server.sandbox.buildcache import DEFAULT_KEEP, bound
from server.sandbox.host import play_pairing
from server.sandbox.status import sandbox_status
from server.queue.bots import BotCache, BotUnavailable
from server.queue.engine import Keys, connect, shown_url, wait_for_engine
from server.queue.events import attempt_entry, done_entry, step_entry
from server.queue.host import disconnect
from server.queue.jobs import JOB_FUNCTION, PROTOCOL, JobRefusal, PairingJob, job_result, limits_for, pairing_for
from server.queue.publisher import StepPublisher
from server.queue.analysis import ANALYSIS_FUNCTION, AnalysisJob, parse_job

__all__ = ["GameWorker", "WorkerSettings", "EXIT_INCOMPATIBLE", "EXIT_NO_SANDBOX", "default_name"]

log = logging.getLogger("quoridor.worker")

#: Exit code of a worker whose server speaks another job protocol.
EXIT_INCOMPATIBLE = 3
#: Exit code of a worker that cannot run handed-in bots in a sandbox (and was not told to run them without).
EXIT_NO_SANDBOX = 4
#: Seconds between two looks at which protocol the server speaks.
SERVER_CHECK_S = 30.0


def default_name() -> str:
    """This worker's name in logs and answers: host and process id."""
    return f"{socket.gethostname()}-{os.getpid()}"


@dataclass(frozen=True)
class WorkerSettings:
    """One worker process: where the engine is, where it keeps bots, how many pairings it plays at once."""

    url: str
    cache: Path
    concurrency: int = 1
    #: Where it caches the C++ builds of the bots it plays (``--cpp-builds``); ``None``: ``cache/cpp-builds``.
    cpp_builds: Path | None = None
    #: C++ builds its cache keeps, the most recently used (``--cpp-builds-keep``).
    cpp_builds_keep: int = DEFAULT_KEEP
    #: Seconds between two sweeps for jobs of dead workers (any worker may sweep; one at a time).
    sweep_s: int = 5
    #: Run handed-in bots without bubblewrap, under rlimits only (``--unsafe-no-sandbox``).
    unsafe: bool = False
    name: str = field(default_factory=default_name)
    prefix: str = "quoridor"
    #: The module of the analysis it runs for ``--analysis queue`` servers (``server.analysis.kit``; tests: a fake).
    analysis_kit: str = DEFAULT_KIT


class GameWorker:
    """Serves the queue of the engine at ``settings.url`` until stopped (SIGINT, SIGTERM) or refused."""

    def __init__(self, settings: WorkerSettings) -> None:
        self.settings = settings
        self.keys = Keys(settings.prefix)
        self._redis = connect(settings.url, "quoridor.worker")
        self._queue = RedisQueue(self._redis, name=self.keys.queue)
        self._cache = BotCache(self._redis, self.keys, settings.cache / "bots")
        bound(self.builds, settings.cpp_builds_keep)
        self._worker: Worker[Any] | None = None
        #: Analysis jobs (``server.queue.analysis``): a queue and a saq worker of their own, one job at a time, so
        #: that they never take a pairing's place; each analysed by an analysis process at the lowest priority.
        self._analysis_queue = RedisQueue(self._redis, name=self.keys.analysis_queue)
        self._analysis_worker: Worker[Any] | None = None
        self._analysers: dict[int | None, AnalysisProcess] = {}
        self.exit_code = 0

    @property
    def builds(self) -> Path:
        """Where it caches the C++ builds of the bots it plays (``--cpp-builds``, else ``CACHE/cpp-builds``)."""
        return self.settings.cpp_builds or self.settings.cache / "cpp-builds"

    async def run(self) -> int:
        """Serve jobs until stopped; the exit code (0, or why the worker refused to serve)."""
        s = self.settings
        if not s.unsafe and (problem := sandbox_status()) is not None:
            log.error("refusing to start: handed-in bots would run without a sandbox: %s", problem)
            return EXIT_NO_SANDBOX
        await wait_for_engine(s.url, log)
        refusal = await self._server_refusal()
        if refusal is not None:
            log.error("%s", refusal)
            await self._redis.aclose()
            return EXIT_INCOMPATIBLE
        await self._queue.connect()
        # Sweep once before taking any job: saq's worker sweeps as it starts, and a sweep takes a job dequeued that
        # very moment (not marked running yet) for a stale one (docs/queue.md); this one holds the sweep's lock.
        await self._queue.sweep(lock=s.sweep_s)
        self._worker = Worker(self._queue, [(JOB_FUNCTION, self._play)], id=s.name, concurrency=s.concurrency,
                              timers={"sweep": s.sweep_s, "abort": 1, "schedule": 1, "worker_info": 10},
                              after_process=self._after, metadata={"protocol": PROTOCOL, "version": __version__},
                              shutdown_grace_period_s=None)
        await self._analysis_queue.connect()
        self._analysis_worker = Worker(self._analysis_queue, [(ANALYSIS_FUNCTION, self._analyse)],
                                       id=f"{s.name}-analysis", concurrency=1,
                                       timers={"sweep": s.sweep_s, "abort": 1, "schedule": 1, "worker_info": 10},
                                       shutdown_grace_period_s=None)
        self._analysis_worker.SIGNALS = []      # the pairings' worker hears SIGINT/SIGTERM and stops this one
        loop = asyncio.get_running_loop()
        watch = loop.create_task(self._watch_server())
        analysing = loop.create_task(self._analysis_worker.start())
        log.info("worker %s serves %s (queue %s, %d pairing(s) at once%s; analyses from %s, one at a time)", s.name,
                 shown_url(s.url), self.keys.queue, s.concurrency, ", WITHOUT the sandbox" if s.unsafe else "",
                 self.keys.analysis_queue)
        try:
            await self._worker.start()      # returns on SIGINT/SIGTERM (its jobs go back to the queue)
        finally:
            watch.cancel()
            await self._analysis_worker.stop()
            analysing.cancel()
            await asyncio.gather(watch, analysing, return_exceptions=True)
            await asyncio.to_thread(self._close_analysers)
            await disconnect(self._analysis_queue, self._redis)
            await disconnect(self._queue, self._redis)
        return self.exit_code

    async def stop(self) -> None:
        """Stop serving (jobs in progress go back to the queue for another worker)."""
        if self._worker is not None:
            await self._worker.stop()

    # -- analysis jobs ---------------------------------------------------------------------------
    async def _analyse(self, ctx: dict[str, Any], *, job: dict[str, Any]) -> dict[str, Any]:
        """saq's analysis function: the game's analysis as JSON (``{"ok": true, "analysis": ...}``), or why not."""
        parsed = parse_job(job)
        if isinstance(parsed, str):
            return {"ok": False, "error": parsed}
        kit = importlib.import_module(self.settings.analysis_kit)
        if parsed.engine != kit.ENGINE_VERSION:
            return {"ok": False, "error": f"worker {self.settings.name} analyses with engine {kit.ENGINE_VERSION}, the "
                                          f"server with {parsed.engine}: install the server's version on the worker"}
        answer = await asyncio.to_thread(self._analyse_log, parsed)
        log.info("analysed %s for job %s: %s", parsed.name, ctx["job"].key, "done" if answer["ok"] else answer["error"])
        return answer

    def _analyse_log(self, job: AnalysisJob) -> dict[str, Any]:
        """Analyse ``job``'s log in the analysis process of its node budget (one job at a time: saq's concurrency 1)."""
        process = self._analysers.get(job.nodes)
        if process is None:
            process = self._analysers[job.nodes] = AnalysisProcess(self.settings.analysis_kit, job.nodes)
        folder = self.settings.cache / "analyses"
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder, prefix="game-") as scratch:
            path = Path(scratch) / "game.csv"
            path.write_text(job.log, encoding="utf-8", newline="")
            try:
                answer = process.request({"op": "analyse", "log": str(path)})
            except AnalysisProcessError as exc:
                return {"ok": False, "error": str(exc)}
            if not answer.get("ok"):
                return {"ok": False, "error": str(answer.get("error"))}
            analysis = json.loads(analysis_path(path).read_text(encoding="utf-8"))
        analysis.pop("key", None)           # the server keys it by its own reading of the log
        return {"ok": True, "analysis": analysis}

    def _close_analysers(self) -> None:
        for process in self._analysers.values():
            process.close()

    # -- the server's protocol -------------------------------------------------------------------
    async def _server_refusal(self) -> str | None:
        raw = await self._redis.get(self.keys.server)
        if raw is None:
            return None
        try:
            said = json.loads(raw)
            protocol = int(said["protocol"])
        except (ValueError, KeyError, TypeError):
            return None
        if protocol == PROTOCOL:
            return None
        return (f"refused: the server at {shown_url(self.settings.url)} speaks job protocol {protocol} (quoridor-arena "
                f"{said.get('version', '?')}), this worker {PROTOCOL} (quoridor-arena {__version__}); install the "
                "server's version of quoridor-arena on this machine and start the worker again")

    async def _watch_server(self) -> None:
        while True:
            await asyncio.sleep(SERVER_CHECK_S)
            refusal = await self._server_refusal()
            if refusal is not None:
                log.error("%s", refusal)
                self.exit_code = EXIT_INCOMPATIBLE
                await self.stop()
                return

    # -- one job ---------------------------------------------------------------------------------
    def _refuse(self, key: str, code: str, reason: str) -> dict[str, Any]:
        log.error("refused job %s: %s (%s)", key, reason, code)
        return JobRefusal(worker=self.settings.name, code=code, reason=reason).model_dump(mode="json")

    async def _play(self, ctx: dict[str, Any], *, job: dict[str, Any]) -> dict[str, Any]:
        """saq's job function: play the pairing ``job`` and return the answer (or a refusal) as JSON."""
        saq_job: Job = ctx["job"]
        key, attempt = saq_job.key, saq_job.attempts
        if not isinstance(job, dict) or job.get("protocol") != PROTOCOL:
            said = job.get("protocol") if isinstance(job, dict) else None
            return self._refuse(key, "incompatible", f"the job speaks protocol {said!r}, this worker {PROTOCOL}")
        try:
            pairing_job = PairingJob.model_validate(job)
        except ValidationError as exc:
            return self._refuse(key, "bad_job", f"not a pairing job ({exc.error_count()} problem(s), the first: "
                                                f"{exc.errors()[0]['msg']})")
        publisher = StepPublisher(self._redis, self.keys.steps(key))
        publisher.add(attempt_entry(attempt, self.settings.name))
        try:
            try:
                folders = {bot.digest: await self._cache.fetch(bot.digest, bot.spec)
                           for bot in pairing_job.bots if bot.digest is not None}
            except BotUnavailable as exc:
                return self._refuse(key, exc.code, exc.message)
            answer = await self._play_pairing(saq_job, pairing_job, folders, publisher)
            await publisher.flush()
            return answer
        finally:
            await publisher.close()

    async def _play_pairing(self, saq_job: Job, job: PairingJob, folders: dict[str, Path],
                            publisher: StepPublisher) -> dict[str, Any]:
        attempt = saq_job.attempts
        games = self.settings.cache / "games"
        games.mkdir(parents=True, exist_ok=True)

        def on_step(runner: MatchRunner, judged: Any) -> None:
            referee = runner.referee
            publisher.add(step_entry(attempt, runner.game_id, judged, referee.outcome if referee.is_over else None,
                                     time.time()))

        touching = asyncio.get_running_loop().create_task(self._touch(saq_job))
        try:
            with tempfile.TemporaryDirectory(dir=games, prefix="pairing-") as folder:
                pairing = pairing_for(job, folders, Path(folder), builds=self.builds)
                result = await play_pairing(pairing, limits_for(job, unsafe=self.settings.unsafe), on_step=on_step)
                logs = await asyncio.to_thread(lambda: {g.game_id: g.log_path.read_text(encoding="utf-8")
                                                        for g in result.games})
        finally:
            touching.cancel()
            await asyncio.gather(touching, return_exceptions=True)
        answer = job_result(result, logs, worker=self.settings.name, attempt=attempt)
        outcomes = ", ".join(f"{g.game_id} {g.outcome.reason}" for g in answer.games)
        log.info("played job %s (attempt %d): %s", saq_job.key, attempt, outcomes)
        return answer.model_dump(mode="json")

    async def _touch(self, job: Job) -> None:
        """Touch the job every third of its heartbeat, so a sweep knows this worker is alive."""
        every = max(0.5, job.heartbeat / 3) if job.heartbeat else 5.0
        while True:
            await asyncio.sleep(every)
            try:
                await job.update()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - a missed touch is retried; the game goes on
                log.warning("could not touch job %s (%s)", job.key, " ".join(str(exc).split()))

    async def _after(self, ctx: dict[str, Any]) -> None:
        """After saq stored the answer (or handed the job back): tell the server's step reader."""
        job = ctx.get("job")
        if job is not None:
            await self._redis.xadd(self.keys.steps(job.key), done_entry(job.attempts), maxlen=20_000,  # type: ignore[arg-type]
                                   approximate=True)

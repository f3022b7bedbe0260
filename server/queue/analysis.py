"""Analyses on worker machines (``--analysis queue``): an analysis job kind on the same queue as the pairings.

The server's ``BackgroundAnalyser`` hands its games, one at a time, to ``QueueAnalysis`` instead of its own
analysis process: the log's text goes to the engine as an ``AnalysisJob`` (``ANALYSIS_FUNCTION``), a worker
(``GameWorker``) analyses it in its own analysis process at the lowest CPU priority
(``server.analysis.process``) and answers with the analysis's JSON, and the server stores it beside the log
(``server.analysis.store``), keyed by its own reading of the log. A worker whose engine version is not the
server's refuses the job (its analysis would be stored under the wrong key). The logs a start finds without a
current analysis are looked for on the server (``server.analysis.child.answer``: only reading files).

A job that fails (no worker took it within ``ANALYSIS_TIMEOUT_S``, the worker died twice, the analysis failed)
fails its game's analysis only: the page says so, and the next start queues it again.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
from pathlib import Path
from types import ModuleType
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from shared.gamelog import MAX_LOG_BYTES

from server.analysis.child import answer as local_answer
from server.analysis.process import AnalysisProcessError
from server.analysis.store import read_log_bytes, store, stored
from server.queue.jobs import PROTOCOL

__all__ = ["ANALYSIS_FUNCTION", "ANALYSIS_TIMEOUT_S", "AnalysisJob", "QueueAnalysis", "analysis_answer", "parse_job"]

ANALYSIS_FUNCTION = "analyse_log"
"""The name workers register their analysis function under (saq's ``Job.function``)."""
#: Seconds an analysis job may take from its enqueueing to its answer (a worker busy with pairings analyses only on
#: the cores they leave idle): beyond, the game's analysis fails until the next start.
ANALYSIS_TIMEOUT_S = 600.0


class AnalysisJob(BaseModel):
    """One game's log to analyse: its text, a name for errors, the node budget, the engine version expected."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    protocol: int = PROTOCOL
    engine: str = Field(min_length=1, max_length=100)
    nodes: int | None = Field(None, ge=1)
    name: str = Field(min_length=1, max_length=300)
    log: str = Field(max_length=MAX_LOG_BYTES)

    @property
    def key(self) -> str:
        """The job's key in the engine: the same log, engine and budget are one job, whoever asks."""
        digest = hashlib.sha256(f"{self.engine}\n{self.nodes}\n{self.log}".encode()).hexdigest()[:32]
        return f"analysis-{digest}"


def analysis_answer(result: Any) -> dict[str, Any]:
    """A worker's answer as the analysis process's (``{"ok": true, "analysis": {...}}`` or ``{"ok": false,
    "error": ...}``); anything else is a one-line error."""
    if isinstance(result, dict) and isinstance(result.get("ok"), bool):
        if result["ok"] and isinstance(result.get("analysis"), dict):
            return result
        if not result["ok"]:
            return {"ok": False, "error": str(result.get("error") or "the worker could not analyse it")}
    return {"ok": False, "error": "the worker's answer is not an analysis"}


class QueueAnalysis:
    """The analyser's ``Analysis`` on workers: ``request`` (from the analyser's thread) waits for a worker's answer.

    ``kit`` is the server's analysis kit (``analysis_key``, ``ENGINE_VERSION``); the engine's client lives on the
    event loop ``loop``, where each job is enqueued and awaited.
    """

    def __init__(self, url: str, kit: ModuleType, loop: asyncio.AbstractEventLoop, *, nodes: int | None = None,
                 prefix: str = "quoridor", timeout_s: float = ANALYSIS_TIMEOUT_S) -> None:
        from saq.queue.redis import RedisQueue       # the queue extra: imported only with --analysis queue

        from server.queue.engine import Keys, connect

        self.url, self.kit, self.loop, self.nodes, self.timeout_s = url, kit, loop, nodes, timeout_s
        self._redis = connect(url, "quoridor.queue")
        self._queue = RedisQueue(self._redis, name=Keys(prefix).analysis_queue)
        self._ready: asyncio.Future[None] | None = None
        self._waiting: concurrent.futures.Future[dict[str, Any]] | None = None
        self._closed = False

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Answer as the analysis process would (``server.analysis.child``), the analysis made by a worker."""
        if message.get("op") != "analyse":
            return local_answer(self.kit, message, self.nodes)
        log = Path(message["log"])
        try:
            data = read_log_bytes(log)
        except FileNotFoundError:
            return {"ok": False, "missing": True, "error": f"{log}: no such log"}
        except OSError as exc:
            return {"ok": False, "error": f"{log}: {exc.strerror or exc}"}
        key = self.kit.analysis_key(data)
        if stored(log, key, self.nodes) is not None:
            return {"ok": True, "done": "current"}
        job = AnalysisJob(engine=self.kit.ENGINE_VERSION, nodes=self.nodes, name=log.name,
                          log=data.decode("utf-8", errors="replace"))
        if self._closed:
            raise AnalysisProcessError("the analysis is closed")
        self._waiting = future = asyncio.run_coroutine_threadsafe(self._apply(job), self.loop)
        try:
            answer = future.result(self.timeout_s + 30)
        except Exception as exc:  # noqa: BLE001 - the engine away, the job failed or timed out: this game only
            future.cancel()
            if self._closed:
                raise AnalysisProcessError("the analysis is closed") from None
            return {"ok": False, "error": f"no worker answered: {' '.join(str(exc).split()) or type(exc).__name__}"}
        if answer.get("ok"):
            if answer["analysis"].get("engine") != self.kit.ENGINE_VERSION:
                return {"ok": False, "error": f"the worker's engine is {answer['analysis'].get('engine')!r}, "
                                              f"this server's {self.kit.ENGINE_VERSION!r}"}
            store(log, answer["analysis"], key)
            return {"ok": True, "done": "analysed"}
        return answer

    async def _apply(self, job: AnalysisJob) -> dict[str, Any]:
        if self._ready is None:
            self._ready = asyncio.ensure_future(self._queue.connect())
        await asyncio.shield(self._ready)
        # the job's own timeout is the wait's; a worker that dies is swept and the job tried again (twice)
        result = await self._queue.apply(ANALYSIS_FUNCTION, timeout=self.timeout_s, key=job.key, retries=2, ttl=600,
                                         job=job.model_dump(mode="json"))
        return analysis_answer(result)

    def close(self) -> None:
        """Stop asking (a request waiting fails) and close the engine's client (from a thread, not the loop)."""
        from server.queue.host import disconnect

        self._closed = True
        if self._waiting is not None:
            self._waiting.cancel()              # the analyser's thread stops waiting for it
        try:
            asyncio.run_coroutine_threadsafe(disconnect(self._queue, self._redis), self.loop).result(10)
        except Exception:  # noqa: BLE001 - closing: the engine may be away for good
            pass


def parse_job(job: Any) -> AnalysisJob | str:
    """The ``AnalysisJob`` a worker was given, or why it is not one (one line)."""
    try:
        return AnalysisJob.model_validate(job)
    except ValidationError as exc:
        return f"not an analysis job ({exc.error_count()} problem(s), the first: {exc.errors()[0]['msg']})"

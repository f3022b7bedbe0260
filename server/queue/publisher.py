"""``StepPublisher``: a worker appends its game's step events to the job's stream as they happen.

The referee's step hook must not wait, so ``add`` only queues the entry; one task sends whatever is
queued in one pipelined round trip (a step reaches the stream about one round trip after it was
judged). While the engine is away the entries wait in memory, in order, and go out when it is back.
Each stream expires ``ttl_s`` after its last entry and keeps at most ``max_len`` entries.
"""

from __future__ import annotations

import asyncio
import logging

from redis.asyncio import Redis

__all__ = ["StepPublisher", "STREAM_TTL_S", "STREAM_MAX_LEN"]

log = logging.getLogger("quoridor.worker")

#: Seconds a job's stream is kept after its last entry (a server that resumes within them replays it).
STREAM_TTL_S = 6 * 3600
#: Entries a stream keeps at most (a pairing of two games has at most a few hundred steps).
STREAM_MAX_LEN = 20_000


class StepPublisher:
    """Sends entries to ``stream`` in the order they were added; ``flush`` waits until all are sent."""

    def __init__(self, redis: Redis, stream: str, *, ttl_s: int = STREAM_TTL_S, max_len: int = STREAM_MAX_LEN) -> None:
        self.redis = redis
        self.stream = stream
        self.ttl_s = ttl_s
        self.max_len = max_len
        self._pending: list[dict[str, str]] = []
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"publish {stream}")

    def add(self, fields: dict[str, str]) -> None:
        """Queue one entry (sent at once, with whatever else is queued)."""
        self._pending.append(fields)
        self._idle.clear()
        self._wake.set()

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for fields in batch:
                            pipe.xadd(self.stream, fields, maxlen=self.max_len, approximate=True)  # type: ignore[arg-type]
                        pipe.expire(self.stream, self.ttl_s)
                        await pipe.execute()
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # noqa: BLE001 - never lose the game for a spectator's stream
                    log.warning("sending %d step event(s) to %s failed (%s); trying again in 1 s", len(batch),
                                self.stream, " ".join(str(exc).split()))
                    self._pending = batch + self._pending
                    await asyncio.sleep(1.0)
            if not self._pending:
                self._idle.set()

    async def flush(self) -> None:
        """Wait until every entry added so far is in the stream."""
        await self._idle.wait()

    async def close(self) -> None:
        """Stop sending (entries not sent yet are dropped)."""
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)

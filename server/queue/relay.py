"""``StepRelay``: the server reads the step streams of every job it follows, in one loop, and hands entries on.

Each job's worker appends its step events to the job's stream (``Keys.steps``); the relay reads all
the streams it follows with one blocking ``XREAD`` (a step reaches the server as soon as the worker
wrote it) and calls each job's consumer with its entries, in order. Following a new job wakes the
read at once (an entry in the server's own ``wake`` stream), so the new job's first steps never
wait for the block to time out. Streams are read from their start: a server that resumed sees a
game in progress from its first step.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable

from redis.asyncio import Redis

from server.queue.engine import Keys
from server.queue.events import Entry, parse_entry

__all__ = ["StepRelay", "Consumer", "BLOCK_MS", "READ_COUNT"]

log = logging.getLogger("quoridor.queue")

#: How long one read waits for an entry (ms); the loop then reads again.
BLOCK_MS = 5000
#: Entries one read takes at most per stream.
READ_COUNT = 500
#: A job's consumer: called with each entry of its stream, in order.
Consumer = Callable[[Entry], None]


class StepRelay:
    """Follows job streams (``follow``/``drop``) and feeds their entries to consumers, until ``close``."""

    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys
        self.wake_key = keys.wake(uuid.uuid4().hex[:12])
        self._consumers: dict[str, Consumer] = {}
        self._last: dict[str, str] = {}
        self._task: asyncio.Task[None] | None = None

    async def follow(self, job: str, consumer: Consumer) -> None:
        """Feed ``consumer`` every entry of ``job``'s stream, from its start."""
        stream = self.keys.steps(job)
        self._consumers[stream] = consumer
        self._last[stream] = "0-0"
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="quoridor-step-relay")
        await self.redis.xadd(self.wake_key, {"w": "1"}, maxlen=8, approximate=False)

    def drop(self, job: str) -> None:
        """Stop following ``job``."""
        stream = self.keys.steps(job)
        self._consumers.pop(stream, None)
        self._last.pop(stream, None)

    async def _run(self) -> None:
        # From the wake stream's start, never "$": a wake added before this read was sent must still wake it.
        wake_last = "0-0"
        while True:
            streams: dict[str, str] = {self.wake_key: wake_last, **self._last}
            try:
                answer = await self.redis.xread(streams, count=READ_COUNT, block=BLOCK_MS)  # type: ignore[arg-type]
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - the engine's errors are waited out by the client; others logged
                log.warning("reading step events failed (%s); reading again in 1 s", " ".join(str(exc).split()))
                await asyncio.sleep(1.0)
                continue
            for name, entries in answer or []:
                stream = name.decode() if isinstance(name, bytes) else name
                if not entries:
                    continue
                last_id = entries[-1][0]
                last = last_id.decode() if isinstance(last_id, bytes) else last_id
                if stream == self.wake_key:
                    wake_last = last
                    continue
                if stream not in self._last:
                    continue                    # dropped meanwhile
                self._last[stream] = last
                consumer = self._consumers.get(stream)
                for _, fields in entries:
                    if consumer is None:
                        break
                    try:
                        entry = parse_entry(fields)
                    except ValueError as exc:
                        log.warning("ignored an entry of %s: %s", stream, exc)
                        continue
                    try:
                        consumer(entry)
                    except Exception:  # noqa: BLE001 - a spectator's hook must not stop every relay
                        log.exception("a step hook failed on an entry of %s", stream)

    async def close(self) -> None:
        """Stop reading and forget the wake stream."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        self._consumers.clear()
        self._last.clear()
        try:
            await asyncio.wait_for(self.redis.delete(self.wake_key), 2.0)
        except Exception:  # noqa: BLE001 - the engine may be gone (a timeout too); the stream is tiny
            pass

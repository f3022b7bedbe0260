"""``Connections``: who is connected, over either transport, and who hears the broadcasts.

The websocket and the legacy TCP listeners count their connections here against the same
limits (total and per address); connections that said ``hello`` (or sent a legacy key) are
``greeted`` and hear the standings and the end of the tournament; spectators keep the games
they watch. A broadcast is serialised once and goes out in a task per connection, so a client
that stopped reading delays nobody's game, and in chunks of ``BROADCAST_CHUNK`` connections per
pass of the event loop, so that writing to a thousand clients never holds up the steps (and the
clocks) in between. A *paced* broadcast (the standings: a big table, often) also keeps to a byte
rate, is written at once connection by connection (passing over the ones that are busy by then),
and a newer one replaces what is left of the one before.
"""

from __future__ import annotations

import asyncio
from collections import Counter, deque
from collections.abc import Callable
from typing import Any, Protocol

from .connection import Encoded
from .settings import Limits

__all__ = ["Connections", "Connection", "BROADCAST_CHUNK", "PACED_PASS_BYTES"]

#: Connections written to per pass of the event loop during a broadcast.
BROADCAST_CHUNK = 50
#: Bytes a paced broadcast writes in one go (at least one frame) before it waits for its rate.
PACED_PASS_BYTES = 64 * 1024


class Connection(Protocol):
    """What the registry needs of a connection (``server.connection.Peer``, ``server.legacy.LegacyPeer``)."""

    address: str

    async def send(self, message: Any) -> bool: ...

    def send_now(self, message: Any) -> bool: ...

    async def close(self, code: int = 1000, reason: str = "") -> None: ...


class Connections:
    """The open connections, counted against ``limits``."""

    def __init__(self, limits: Limits, paced_bytes_per_s: float = 4 * 1024 * 1024) -> None:
        self.limits = limits
        self.paced_bytes_per_s = paced_bytes_per_s
        self.open: set[Connection] = set()
        self.per_address: Counter[str] = Counter()
        #: Connections that said hello (or sent a legacy key): only they hear broadcasts.
        self.greeted: set[Connection] = set()
        #: Spectator -> the game ids it watches (``"*"``: all).
        self.spectators: dict[Connection, set[str]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._outbox: deque[tuple[Connection, Encoded]] = deque()
        self._draining = False
        self._paced: deque[tuple[Connection, Encoded]] = deque()
        self._pacing: asyncio.TimerHandle | asyncio.Handle | None = None
        self._paced_busy: Callable[[], set[Connection]] | None = None

    def add(self, conn: Connection) -> bool:
        """Count a new connection; False (not counted) when it is over a connection limit."""
        if len(self.open) >= self.limits.max_connections or self.per_address[conn.address] >= self.limits.max_per_address:
            return False
        self.open.add(conn)
        self.per_address[conn.address] += 1
        return True

    def remove(self, conn: Connection) -> None:
        """A connection closed: stop counting it (a connection never counted is ignored)."""
        if conn not in self.open:
            return
        self.open.discard(conn)
        self.per_address[conn.address] -= 1
        if self.per_address[conn.address] <= 0:
            del self.per_address[conn.address]
        self.spectators.pop(conn, None)
        self.greeted.discard(conn)

    def watchers(self, game: str) -> list[Connection]:
        """The spectators watching ``game``."""
        return [conn for conn, games in self.spectators.items() if game in games or "*" in games]

    def send_later(self, conns: list[Connection], message: Any, *, paced: bool = False,
                   busy: Callable[[], set[Connection]] | None = None) -> int:
        """Send ``message`` to each connection (fire and forget), serialised once, a chunk per loop pass.

        ``paced``: at ``paced_bytes_per_s`` at most, replacing what a paced broadcast before it has
        not written yet (for the standings, where only the latest table matters); ``busy``: the
        connections to pass over when their turn comes (asked once per pass: players in a game).
        Returns the bytes queued (the frame's size times the connections).
        """
        if not conns:
            return 0
        encoded = Encoded.of(message)
        if paced:
            self._paced.clear()
            self._paced_busy = busy
            self._paced.extend((conn, encoded) for conn in conns)
            if self._pacing is None:
                self._pacing = asyncio.get_running_loop().call_soon(self._drain_paced)
        else:
            self._outbox.extend((conn, encoded) for conn in conns)
            if not self._draining:
                self._draining = True
                asyncio.get_running_loop().call_soon(self._drain)
        return len(encoded.payload) * len(conns)

    def _send(self, loop: asyncio.AbstractEventLoop, conn: Connection, encoded: Encoded) -> None:
        task = loop.create_task(conn.send(encoded))
        self._tasks.add(task)            # the loop holds tasks only weakly
        task.add_done_callback(self._tasks.discard)

    def _drain(self) -> None:
        loop = asyncio.get_running_loop()
        for _ in range(min(BROADCAST_CHUNK, len(self._outbox))):
            self._send(loop, *self._outbox.popleft())
        if self._outbox:
            loop.call_soon(self._drain)
        else:
            self._draining = False

    def _drain_paced(self) -> None:
        loop = asyncio.get_running_loop()
        written = 0
        busy = self._paced_busy() if self._paced_busy is not None else set()
        while self._paced and written < PACED_PASS_BYTES:
            conn, encoded = self._paced.popleft()
            if conn in busy:
                continue
            conn.send_now(encoded)          # written now: no game can start between this check and the write
            written += len(encoded.payload)
        self._pacing = loop.call_later(written / self.paced_bytes_per_s, self._drain_paced) if self._paced else None

    async def send_all(self, message: Any) -> None:
        """Send ``message`` to every greeted connection and wait until it is written (the tournament's end)."""
        encoded = Encoded.of(message)
        await asyncio.gather(*(conn.send(encoded) for conn in list(self.greeted)))

    async def close_all(self, code: int, reason: str) -> None:
        """Close every connection."""
        await asyncio.gather(*(conn.close(code, reason) for conn in list(self.open)))

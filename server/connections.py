"""``Connections``: who is connected, over either transport, counted against the limits, and the broadcasts.

Counting (``Limits``), so that no client and no address can lock others out:

* every TCP connection counts against ``capacity`` from the moment it is accepted, handshake
  included (``add``); a refused one is cut at once and holds no file descriptor;
* a connection that has not said ``hello`` yet is *pending*, and one address may have at most
  ``max_pending_per_address`` pending connections: half-open handshakes cannot pile up;
* once greeted (``settle``), a connection that holds no checked key (a spectator) is
  *anonymous*, capped per address by ``max_anonymous_per_address``; players are never counted
  there, so a classroom behind one address can always seat its keyed players.

Broadcasts are serialised once and written a chunk of ``BROADCAST_CHUNK`` connections per pass
of the event loop, so writing to a thousand clients never holds the steps up in between. What
waits for its pass is bounded too: a latest-state message (a game's update) waits as the newest
of its kind for that connection, replacing an older one not handed over yet, so the backlog is
at most one message per connection and kind, however fast the games go. A
*paced* broadcast (the standings: a big table, often) keeps to a byte rate, passes over the
connections that are busy when their turn comes, and a newer one replaces what is left of the
one before. Nothing here waits for a client: see ``server.connection.Peer`` for what a client
that stops reading is sent.
"""

from __future__ import annotations

import asyncio
from collections import Counter, deque
from collections.abc import Callable, Hashable
from typing import Any, Protocol

from .connection import Encoded
from .settings import Limits

__all__ = ["Connections", "Connection", "BROADCAST_CHUNK", "PACED_PASS_BYTES", "STANDINGS"]

#: Connections written to per pass of the event loop during a broadcast.
BROADCAST_CHUNK = 50
#: Bytes a paced broadcast writes in one go (at least one frame) before it waits for its rate.
PACED_PASS_BYTES = 64 * 1024
#: The kind of latest-state message the standings are (a newer table replaces an unsent older one).
STANDINGS = "standings"


class Connection(Protocol):
    """What the registry needs of a connection (``server.connection.Peer``, ``server.legacy.LegacyPeer``)."""

    address: str
    closed: bool

    def send_now(self, message: Any) -> bool: ...

    def send_latest(self, kind: Hashable, message: Encoded) -> bool: ...

    def close(self, code: int = 1000, reason: str = "") -> None: ...


class Connections:
    """The open connections, counted against ``limits`` and at most ``capacity`` at once."""

    def __init__(self, limits: Limits, paced_bytes_per_s: float = 4 * 1024 * 1024,
                 capacity: int | None = None) -> None:
        self.limits = limits
        self.paced_bytes_per_s = paced_bytes_per_s
        #: Connections open at once (``limits.max_connections``, or fewer to keep within the open-file limit).
        self.capacity = limits.max_connections if capacity is None else min(capacity, limits.max_connections)
        self.open: set[Connection] = set()
        self.pending: Counter[str] = Counter()
        self.anonymous: Counter[str] = Counter()
        self._pending: set[Connection] = set()
        self._anonymous: set[Connection] = set()
        #: Connections that said hello (or sent a legacy key): only they hear broadcasts.
        self.greeted: set[Connection] = set()
        #: Spectator -> the game ids it watches (``"*"``: all).
        self.spectators: dict[Connection, set[str]] = {}
        self._outbox: deque[tuple[Connection, Encoded]] = deque()
        #: Per connection, the newest latest-state message of each kind not handed to it yet.
        self._latest: dict[Connection, dict[Hashable, Encoded]] = {}
        self._latest_order: deque[Connection] = deque()
        self._draining = False
        self._paced: deque[tuple[Connection, Encoded]] = deque()
        self._pacing: asyncio.TimerHandle | asyncio.Handle | None = None
        self._paced_busy: Callable[[], set[Connection]] | None = None

    # -- counting ---------------------------------------------------------------------------
    def add(self, conn: Connection) -> bool:
        """Count a new connection as pending; False (not counted) when it is over a limit."""
        if len(self.open) >= self.capacity or self.pending[conn.address] >= self.limits.max_pending_per_address:
            return False
        self.open.add(conn)
        self._pending.add(conn)
        self.pending[conn.address] += 1
        return True

    def settle(self, conn: Connection, *, anonymous: bool) -> bool:
        """A pending connection said who it is; False when ``anonymous`` and its address has too many such."""
        self._unpend(conn)
        if not anonymous or conn in self._anonymous:
            return True
        if self.anonymous[conn.address] >= self.limits.max_anonymous_per_address:
            return False
        self._anonymous.add(conn)
        self.anonymous[conn.address] += 1
        return True

    def remove(self, conn: Connection) -> None:
        """A connection closed: stop counting it (a connection never counted is ignored)."""
        if conn not in self.open:
            return
        self.open.discard(conn)
        self._unpend(conn)
        if conn in self._anonymous:
            self._anonymous.discard(conn)
            _decrement(self.anonymous, conn.address)
        self.spectators.pop(conn, None)
        self.greeted.discard(conn)
        self._latest.pop(conn, None)

    def _unpend(self, conn: Connection) -> None:
        if conn in self._pending:
            self._pending.discard(conn)
            _decrement(self.pending, conn.address)

    def watchers(self, game: str) -> list[Connection]:
        """The spectators watching ``game``."""
        return [conn for conn, games in self.spectators.items() if game in games or "*" in games]

    # -- broadcasts -------------------------------------------------------------------------
    def send_later(self, conns: list[Connection], message: Any, *, kind: Hashable | None = None,
                   paced: bool = False, busy: Callable[[], set[Connection]] | None = None) -> int:
        """Send ``message`` to each connection, serialised once, a chunk per loop pass; the bytes queued.

        ``kind``: a latest-state message (``Peer.send_latest``): a connection that is behind keeps
        only the newest of that kind. ``paced`` (the standings, kind ``STANDINGS``): at
        ``paced_bytes_per_s`` at most, replacing what a paced broadcast before it has not written
        yet; ``busy``: the connections to pass over when their turn comes (asked once per pass).
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
        elif kind is None:
            self._outbox.extend((conn, encoded) for conn in conns)
        else:
            for conn in conns:
                waiting = self._latest.get(conn)
                if waiting is None:
                    waiting = self._latest[conn] = {}
                    self._latest_order.append(conn)
                waiting[kind] = encoded
        if not self._draining:
            self._draining = True
            asyncio.get_running_loop().call_soon(self._drain)
        return len(encoded.payload) * len(conns)

    def _drain(self) -> None:
        for _ in range(BROADCAST_CHUNK):
            if self._outbox:
                conn, encoded = self._outbox.popleft()
                conn.send_now(encoded)
            elif self._latest_order:
                conn = self._latest_order.popleft()
                for kind, encoded in self._latest.pop(conn, {}).items():
                    conn.send_latest(kind, encoded)
            else:
                break
        if self._outbox or self._latest_order:
            asyncio.get_running_loop().call_soon(self._drain)
        else:
            self._draining = False

    def _drain_paced(self) -> None:
        written = 0
        busy = self._paced_busy() if self._paced_busy is not None else set()
        while self._paced and written < PACED_PASS_BYTES:
            conn, encoded = self._paced.popleft()
            if conn in busy:
                continue
            conn.send_latest(STANDINGS, encoded)   # now: no game can start between this check and the write
            written += len(encoded.payload)
        self._pacing = (asyncio.get_running_loop().call_later(written / self.paced_bytes_per_s, self._drain_paced)
                        if self._paced else None)

    def send_all(self, message: Any) -> None:
        """Write ``message`` to every greeted connection now (the tournament's end)."""
        encoded = Encoded.of(message)
        for conn in list(self.greeted):
            conn.send_now(encoded)

    async def close_all(self, code: int, reason: str, wait_s: float = 3.0) -> None:
        """Close every connection, and wait up to ``wait_s`` for them to be gone."""
        for conn in list(self.open):
            conn.close(code, reason)
        loop = asyncio.get_running_loop()
        until = loop.time() + wait_s
        while self.open and loop.time() < until:
            await asyncio.sleep(0.01)


def _decrement(counter: Counter[str], key: str) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]

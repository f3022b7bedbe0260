"""``Connection``, what the server needs of any connection, and ``Peer``, one websocket connection's rate, strikes and sends.

Three transports satisfy ``Connection``: a websocket (``Peer``), the legacy TCP port
(``server.net.legacy.LegacyPeer``) and a hosted bot's process (``server.sandbox.seat.HostedPeer``).
A session holds one as its ``peer``, the registry (``server.net.connections``) counts and
broadcasts to them, and neither needs to know which transport it is.

A peer sends through its link (``server.net.wire.WebSocketLink``) and never waits: a write goes to
the transport at once. What a client that stops reading can cost is bounded two ways:

* *latest-state* messages (a spectator's game updates, the standings) are written only while
  the link's unsent bytes are under its high-water mark; above it, each kind keeps only its
  newest message (one per game, one table), written when the client reads again;
* everything else (turns, errors, game results) is written always, but a connection whose unsent
  bytes pass ``Limits.max_unsent_bytes``, or that stays behind for ``Limits.send_timeout_s``, is
  closed with 1008 and a reason that says so.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

from shared.protocol import ErrorMessage, GameUpdate, dump

from server.net.limits import Limits

__all__ = ["Connection", "Peer", "Encoded", "Gathered", "Link", "FLOOD_MEMORY_S", "CLOSE_POLICY", "CLOSE_TRY_LATER", "FRAME_OVERHEAD"]

log = logging.getLogger("quoridor.server")

#: Seconds without a rate refusal after which a connection's flood count starts again from zero.
FLOOD_MEMORY_S = 10.0
#: The close code for a client that broke the server's rules (RFC 6455: policy violation).
CLOSE_POLICY = 1008
#: The close code for "the server is full, try again later" (RFC 6455, 1013).
CLOSE_TRY_LATER = 1013
#: Bytes a websocket frame adds to its payload from the server (RFC 6455 5.2: unmasked, at most 10).
FRAME_OVERHEAD = 10
#: A ``game_updates`` frame around the ``game_update`` frames it carries (their JSON joined by commas).
_BATCH_HEAD, _BATCH_TAIL = b'{"type":"game_updates","updates":[', b"]}"


@dataclass(frozen=True)
class Encoded:
    """A protocol message serialised and encoded once, to be sent to many connections."""

    #: The message (``None`` for a frame written directly, such as ``server.games.updates.game_update_frame``'s).
    message: Any
    payload: bytes
    #: A ``game_update``: it may go out inside a ``game_updates`` frame (a spectator that watches with ``batch``).
    batchable: bool = False

    @classmethod
    def of(cls, message: Any) -> Encoded:
        """``message`` with its frame, UTF-8 encoded."""
        return cls(message, dump(message).encode(), isinstance(message, GameUpdate))


class Gathered:
    """Latest-state messages to write together, in order: what they weigh, and their ``game_updates`` frame
    built once, since many connections are often sent the same (``server.net.connections``' feed)."""

    def __init__(self, items: list[tuple[Hashable, Encoded]]) -> None:
        self.items = items
        #: Bytes the items take as frames of their own.
        self.size = sum(len(encoded.payload) for _, encoded in items) + FRAME_OVERHEAD * len(items)

    @cached_property
    def batch(self) -> bytes | None:
        """All the items as one ``game_updates`` frame (built once), or None when one is not a ``game_update``."""
        return _batch_of(self.items)


def _batch_of(items: list[tuple[Hashable, Encoded]]) -> bytes | None:
    """``items`` as one ``game_updates`` frame, built from their frames; None when one is not a ``game_update``."""
    if not all(encoded.batchable for _, encoded in items):
        return None
    return _BATCH_HEAD + b",".join([encoded.payload for _, encoded in items]) + _BATCH_TAIL


class Connection(Protocol):
    """What sessions, lobbies and the registry need of a connection, whatever its transport."""

    address: str

    @property
    def closed(self) -> bool:
        """True once the connection is gone (closed by either side)."""
        ...

    def send_now(self, message: Any) -> bool:
        """Write a protocol message now; False when the connection is gone."""
        ...

    def send_latest(self, kind: Hashable, message: Encoded) -> bool:
        """Send a latest-state message of ``kind``, replacing an unsent older one; False when gone."""
        ...

    def send_latest_many(self, gathered: Gathered) -> None:
        """Send several latest-state messages in order."""
        ...

    def forget_latest(self, kind: Hashable) -> None:
        """Drop the unsent latest-state message of ``kind``."""
        ...

    def tell(self, code: str, message: str, frame_type: str | None = None) -> None:
        """Send an ``error`` frame, counting no strike."""
        ...

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close the connection (idempotent)."""
        ...


class Link(Protocol):
    """What a peer needs of its transport (``server.net.wire.WebSocketLink``)."""

    address: str
    paused: bool

    @property
    def buffered(self) -> int: ...

    @property
    def high_water(self) -> int: ...

    @property
    def gone(self) -> bool: ...

    def send_text(self, payload: bytes) -> bool: ...

    def send_texts(self, payloads: list[bytes]) -> bool: ...

    def close(self, code: int = 1000, reason: str = "") -> None: ...

    def abort(self) -> None: ...


class Peer:
    """One websocket connection as the server sees it: token bucket, strikes, sending with bounds.

    ``role`` is ``None`` until the connection's ``hello`` is taken, then ``player``,
    ``spectator`` or the puzzle room's name; ``anonymous`` is True for a connection that holds
    no key the server checked (a spectator, a room user without a roster): those are counted
    per address apart from players. ``clock`` is the clock of the arrival stamps that ``allow``
    and ``flooding`` are given (``server.net.arrivals``): the token bucket starts full at its reading.
    """

    def __init__(self, link: Link, limits: Limits, *, debug: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.link = link
        self.limits = limits
        self.debug = debug
        self.address: str = link.address
        self.role: str | None = None
        self.anonymous = False
        #: The spectator watched with ``batch``: game updates that go out together go as one ``game_updates`` frame.
        self.batch_updates = False
        self.strikes = 0
        #: Frames refused for the rate; unlike ``strikes``, good frames in between do not forgive them.
        self.flood_strikes = 0
        self._last_flood = 0.0
        self._tokens = float(limits.burst)
        self._refilled = clock()
        #: The newest latest-state message of each kind not written yet (the client was not reading).
        self._latest: dict[Hashable, Encoded] = {}
        self._behind: asyncio.TimerHandle | None = None
        self.closed = False

    # -- what comes in --------------------------------------------------------------------
    def allow(self, now: float) -> bool:
        """Take one message from the token bucket; False when the connection is over its rate."""
        self._tokens = min(float(self.limits.burst),
                           self._tokens + (now - self._refilled) * self.limits.messages_per_second)
        self._refilled = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def flooding(self, now: float) -> bool:
        """Count a frame refused for the rate; True once the connection floods often enough to be closed.

        Only a quiet spell (``FLOOD_MEMORY_S`` without a refusal) clears the count, so a client that
        alternates accepted and refused frames is closed all the same.
        """
        if now - self._last_flood > FLOOD_MEMORY_S:
            self.flood_strikes = 0
        self._last_flood = now
        self.flood_strikes += 1
        return self.flood_strikes >= self.limits.strikes_to_close

    def good_frame(self) -> None:
        """A frame was accepted: strikes count bad frames in a row, so a slip now and then is forgiven."""
        self.strikes = 0

    def strike(self, code: str, message: str, frame_type: str | None = None) -> bool:
        """Answer a bad frame with an ``error`` and count a strike; False once the connection must close."""
        self.strikes += 1
        self.tell(code, message, frame_type)
        return self.strikes < self.limits.strikes_to_close

    # -- what goes out --------------------------------------------------------------------
    def send_now(self, message: Any) -> bool:
        """Write a protocol message (a model, its frame text, or an ``Encoded`` one) now; False when the
        connection is gone or was closed for it."""
        if self.closed or self.link.gone:
            self.closed = True
            return False
        if isinstance(message, Encoded):
            data = message.payload
        else:
            data = (message if isinstance(message, str) else dump(message)).encode()
        if self.debug:
            log.info("-> %s %s", self.address, data[:1000].decode(errors="replace"))
        if not self.link.send_text(data):
            self.closed = True
            return False
        if self.link.paused:
            if self.link.buffered > self.limits.max_unsent_bytes:
                self.close(CLOSE_POLICY, f"not reading: over {self.limits.max_unsent_bytes} bytes unsent")
                return False
            self._watch_behind()
        return True

    def send_latest(self, kind: Hashable, message: Encoded) -> bool:
        """Send a latest-state message of ``kind`` (a game's update, the standings), replacing an unsent older one.

        Written now while the client keeps up; otherwise kept (only the newest of each kind) and
        written by ``drained``. False when the connection is gone.
        """
        if self.closed or self.link.gone:
            return False
        if self.link.paused:
            self._latest[kind] = message
            self._watch_behind()
            return True
        return self.send_now(message)

    def send_latest_many(self, gathered: Gathered) -> None:
        """Send several latest-state messages in order: as many as fit under the link's high-water mark as one
        write (one ``game_updates`` frame for a ``batch_updates`` spectator), the rest one by one through
        ``send_latest`` (so a client that falls behind keeps only the newest)."""
        if self.closed or self.link.gone:
            return
        items, framed = gathered.items, 0
        if len(items) > 1 and not self.debug and not self.link.paused:
            room = self.link.high_water - self.link.buffered
            if gathered.size <= room:
                framed = len(items)
            else:
                for _, encoded in items:
                    room -= len(encoded.payload) + FRAME_OVERHEAD
                    if room < 0:
                        break
                    framed += 1
            batch = None
            if self.batch_updates and framed > 1:
                batch = gathered.batch if framed == len(items) else _batch_of(items[:framed])
            payloads = [batch] if batch is not None else [encoded.payload for _, encoded in items[:framed]]
            if framed and not self.link.send_texts(payloads):
                self.closed = True
                return
        for kind, encoded in items[framed:]:
            self.send_latest(kind, encoded)

    def forget_latest(self, kind: Hashable) -> None:
        """Drop the unsent latest-state message of ``kind``, if one waits for the client to read."""
        self._latest.pop(kind, None)

    def drained(self) -> None:
        """The client read its backlog: write the newest message of each kind it missed."""
        if self._behind is not None:
            self._behind.cancel()
            self._behind = None
        while self._latest and not self.link.paused and not self.closed:
            kind = next(iter(self._latest))
            self.send_now(self._latest.pop(kind))

    @property
    def behind(self) -> int:
        """Latest-state messages waiting for the client to read (at most one per kind)."""
        return len(self._latest)

    def tell(self, code: str, message: str, frame_type: str | None = None) -> None:
        """Send an ``error`` frame, counting no strike."""
        self.send_now(ErrorMessage(code=code, message=message, frame_type=frame_type))

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close the websocket (idempotent): the closing handshake, cut short if the client does not answer."""
        if self.closed and self.link.gone:
            return
        self.closed = True
        self._latest.clear()
        if self._behind is not None:
            self._behind.cancel()
            self._behind = None
        if code == CLOSE_POLICY and reason.startswith("not reading"):
            log.warning("%s stopped reading (%s); closing it", self.address, reason)
        self.link.close(code, reason)

    def _watch_behind(self) -> None:
        if self._behind is None:
            self._behind = asyncio.get_running_loop().call_later(self.limits.send_timeout_s, self._still_behind)

    def _still_behind(self) -> None:
        self._behind = None
        if not self.closed and self.link.paused:
            self.close(CLOSE_POLICY, f"not reading: behind for {self.limits.send_timeout_s:.0f} s")

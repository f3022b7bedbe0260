"""The legacy TCP port's transport: the course's C++ bots' connections, read and written as ``legacy-tcp.md`` frames.

``LegacyProtocol`` is one TCP connection: it stamps each read's arrival, decodes frames
(``shared.legacy``), hands the key frame to its gate (``server.seats.legacy.LegacyPort``, which
seats it in the lobby as a ``LegacySession``) and each step frame to that session. ``LegacyPeer``
is the connection as the server sees any connection (``server.net.connection.Connection``): the
session writes its board changes through it. Garbage, a wrong frame id, a step under another key
or a short read at close disconnects that client only.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Hashable
from typing import Any, Protocol

from shared.legacy import KeyFrame, LegacyDecoder, LegacyProtocolError, StepFrame, encode_close, name_from_key
from shared.protocol import TournamentOver

from server.net.arrivals import ArrivalClock
from server.net.connection import Encoded, Gathered

__all__ = ["LegacyPeer", "LegacyProtocol", "LegacyGate", "LegacyPlayer"]

log = logging.getLogger("quoridor.server")


class LegacyPlayer(Protocol):
    """What a legacy connection's frames go to once its key is taken (``server.seats.legacy.LegacySession``)."""

    def take_step(self, frame: StepFrame, arrived_at: float) -> None:
        """A step frame that arrived at ``arrived_at``."""
        ...


class LegacyGate(Protocol):
    """What a legacy connection needs of the port (``server.seats.legacy.LegacyPort``): counting, admission, leaving."""

    key_timeout_s: float
    debug: bool
    #: The clock of the arrival stamps (the server's one, shared with its websocket links).
    arrivals: ArrivalClock

    def on_open(self, peer: LegacyPeer) -> bool:
        """Count a new connection; False refuses it."""
        ...

    def on_close(self, peer: LegacyPeer) -> None:
        """Stop counting a connection."""
        ...

    def admit(self, key: str, peer: LegacyPeer) -> LegacyPlayer | None:
        """Seat the key frame's player; None when refused."""
        ...

    def leave(self, player: LegacyPlayer, peer: LegacyPeer) -> None:
        """The connection of a seated player closed."""
        ...


class LegacyPeer:
    """A legacy TCP connection, with the small interface the server uses for any connection."""

    def __init__(self, transport: asyncio.Transport, debug: bool = False) -> None:
        self.transport = transport
        self.debug = debug
        peer = transport.get_extra_info("peername")
        self.address: str = peer[0] if isinstance(peer, tuple) else str(peer)
        self.closed = False
        self.strikes = 0

    def write(self, data: bytes) -> bool:
        """Write raw bytes; False when the connection is gone."""
        if self.closed or self.transport.is_closing():
            self.closed = True
            return False
        if self.debug:
            log.info("-> legacy %s %s", self.address, data.hex())
        self.transport.write(data)
        return True

    def send_now(self, message: Any) -> bool:
        """Only the end of the contest means anything to a legacy client: the close frame; the rest is ignored."""
        if isinstance(message, Encoded):
            message = message.message
        if isinstance(message, TournamentOver):
            return self.write(encode_close())
        return not self.closed

    def send_latest(self, kind: Hashable, message: Encoded) -> bool:
        """Standings and game updates mean nothing to a legacy client: ignored."""
        return not self.closed

    def send_latest_many(self, gathered: Gathered) -> None:
        """Game updates mean nothing to a legacy client: ignored."""

    def forget_latest(self, kind: Hashable) -> None:
        """A legacy client is sent no latest-state messages: nothing to forget."""

    def tell(self, code: str, message: str, frame_type: str | None = None) -> None:
        """The legacy protocol has no error frame: log it."""
        log.info("legacy %s: %s (%s)", self.address, message, code)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close the socket (idempotent)."""
        self.closed = True
        if not self.transport.is_closing():
            self.transport.close()


class LegacyProtocol(asyncio.Protocol):
    """One legacy TCP connection: stamps arrivals in ``data_received``, decodes, admits, routes."""

    def __init__(self, port: LegacyGate) -> None:
        self.port = port
        self.decoder = LegacyDecoder()
        self.peer: LegacyPeer | None = None
        self.session: LegacyPlayer | None = None
        self._key_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.peer = LegacyPeer(transport, self.port.debug)  # type: ignore[arg-type]
        if not self.port.on_open(self.peer):
            transport.abort()               # refused: no file descriptor is kept for it
            return
        loop = asyncio.get_running_loop()
        self._key_timer = loop.call_later(self.port.key_timeout_s, self._drop, "no key frame in time")

    def data_received(self, data: bytes) -> None:
        arrived = self.port.arrivals.now()   # when this pass of the loop began reading: see server.net.arrivals
        assert self.peer is not None
        try:
            frames = self.decoder.feed(data)
        except LegacyProtocolError as exc:
            self._drop(str(exc))
            return
        for frame in frames:
            if self.port.debug:
                log.info("<- legacy %s %s", self.peer.address, frame)
            if isinstance(frame, KeyFrame):
                self._admit(frame.key)
                if self.session is None:
                    return
            elif frame.key != self.decoder.key:
                self._drop("a step frame under another key than the connection's")
                return
            elif self.session is not None:
                self.session.take_step(frame, arrived)

    def _admit(self, key: str) -> None:
        if self._key_timer is not None:
            self._key_timer.cancel()
        assert self.peer is not None
        self.session = self.port.admit(key, self.peer)
        if self.session is None:
            self._drop(f"key {name_from_key(key)!r} refused")

    def _drop(self, reason: str) -> None:
        log.warning("legacy client %s dropped: %s", self.peer.address if self.peer else "?", reason)
        if self.peer is not None:
            self.peer.closed = True
            self.peer.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._key_timer is not None:
            self._key_timer.cancel()
        if self.decoder.pending:
            log.warning("legacy client closed with %d bytes of a partial frame", self.decoder.pending)
        if self.peer is not None:
            self.peer.closed = True
            self.port.on_close(self.peer)
            if self.session is not None:
                self.port.leave(self.session, self.peer)

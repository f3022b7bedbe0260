"""One client connection: arrival time stamps, rate limiting, strikes and sending.

``TimedConnection`` stamps every complete data frame inside ``data_received``, the earliest
moment the event loop sees its bytes, so a bot's thinking time never includes the time the
server took to get round to reading it (``quoridor-rules.md``: never charge the server's delays).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode

from shared.protocol import ErrorMessage, dump

from .settings import Limits

__all__ = ["TimedConnection", "Peer"]

log = logging.getLogger("quoridor.server")
_DATA = (Opcode.TEXT, Opcode.BINARY, Opcode.CONT)


class TimedConnection(ServerConnection):
    """A websocket server connection that records when each message's last frame arrived."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.arrivals: deque[float] = deque()

    def process_event(self, event: Any) -> None:
        if self.request is not None and isinstance(event, Frame) and event.opcode in _DATA and event.fin:
            self.arrivals.append(time.monotonic())
        super().process_event(event)

    def arrival(self) -> float:
        """Arrival time of the message ``recv`` just returned (now, if none was stamped)."""
        return self.arrivals.popleft() if self.arrivals else time.monotonic()

    def pending_since(self) -> float | None:
        """Arrival time of the oldest message received but not yet taken by ``recv`` (None: none waiting)."""
        return self.arrivals[0] if self.arrivals else None


#: Seconds without a rate refusal after which a connection's flood count starts again from zero.
FLOOD_MEMORY_S = 10.0


@dataclass(frozen=True)
class Encoded:
    """A protocol message serialised and encoded once, to be sent to many connections."""

    message: Any
    payload: bytes

    @classmethod
    def of(cls, message: Any) -> Encoded:
        """``message`` with its frame, UTF-8 encoded (websockets would encode a str again for every send)."""
        return cls(message, dump(message).encode())


class Peer:
    """What the server knows of one connection: its socket, its address, its rate and its strikes."""

    def __init__(self, ws: TimedConnection, limits: Limits, *, debug: bool = False) -> None:
        self.ws = ws
        self.limits = limits
        self.debug = debug
        address = ws.remote_address
        self.address: str = address[0] if isinstance(address, tuple) else str(address)
        self.strikes = 0
        #: Frames refused for the rate; unlike ``strikes``, good frames in between do not forgive them.
        self.flood_strikes = 0
        self._last_flood = 0.0
        self._tokens = float(limits.burst)
        self._refilled = time.monotonic()
        self.closed = False

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

    async def send(self, message: Any) -> bool:
        """Send a protocol message (or an ``Encoded`` one, for a broadcast); False when the connection is gone."""
        if self.closed:
            return False
        text: str | bytes = message.payload if isinstance(message, Encoded) else dump(message)
        if self.debug:
            log.info("-> %s %s", self.address, text if isinstance(text, str) else text[:1000].decode(errors="replace"))
        try:
            # send() only waits when the write buffer is full (websockets pauses writing), i.e. the
            # client stopped reading: a bound keeps such a client from stalling a game, a broadcast or
            # the tournament's end. The timer costs a good share of a step, so only then is it armed.
            # (asyncio.timeout, not wait_for: on 3.11 wait_for can swallow a cancellation.)
            if not getattr(self.ws, "paused", True):
                await self.ws.send(text, text=True)
            else:
                async with asyncio.timeout(self.limits.send_timeout_s):
                    await self.ws.send(text, text=True)
        except ConnectionClosed:
            self.closed = True
            return False
        except TimeoutError:
            log.warning("%s stopped reading for %.0f s; dropping it", self.address, self.limits.send_timeout_s)
            self.abort()
            return False
        return True

    def good_frame(self) -> None:
        """A frame was accepted: strikes count bad frames in a row, so a late answer now and then is forgiven."""
        self.strikes = 0

    async def error(self, code: str, message: str, frame_type: str | None = None, *, strike: bool = True) -> bool:
        """Send an ``error`` frame (counting a strike unless told not to); False when the connection should close."""
        if strike:
            self.strikes += 1
        await self.send(ErrorMessage(code=code, message=message, frame_type=frame_type))
        return self.strikes < self.limits.strikes_to_close

    def abort(self) -> None:
        """Drop the connection at once, without the closing handshake (the client is not reading)."""
        self.closed = True
        transport = self.ws.transport
        if transport is not None:
            transport.abort()

    async def close(self, code: int = 1000, reason: str = "") -> None:
        """Close the websocket politely (idempotent)."""
        self.closed = True
        try:
            await self.ws.close(code, reason)
        except Exception:  # noqa: BLE001 - closing a broken socket must never raise into the server
            pass

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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode, apply_mask
from websockets.protocol import State

from shared.protocol import ErrorMessage, dump

from .settings import Limits

__all__ = ["TimedConnection", "Peer", "Encoded", "FastLane", "between_frames", "one_text_frame", "text_frame"]

log = logging.getLogger("quoridor.server")
_DATA = (Opcode.TEXT, Opcode.BINARY, Opcode.CONT)


#: Takes a complete text message (its UTF-8 bytes) and its arrival time; True when it handled it.
FastLane = Callable[[bytes, float], bool]


class TimedConnection(ServerConnection):
    """A websocket server connection that records when each message's last frame arrived.

    A ``fast_lane`` may take a one-frame text message the moment it arrives, in the protocol
    callback, before it is queued for ``recv``: the server's steps skip the queue and a task
    switch that way. It is offered a frame only while the reader waits in ``recv`` (``reading``)
    with nothing queued, so messages are always handled in the order they came.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.arrivals: deque[float] = deque()
        self.fast_lane: FastLane | None = None
        self.reading = False
        # The parser state the fast read looks at (websockets 13-15); another version may lack it.
        self._fast_read = all(hasattr(self.protocol, name) for name in ("reader", "parser", "cur_size", "extensions",
                                                                          "max_size"))

    def data_received(self, data: bytes) -> None:
        # The fast lane's own reading of the commonest chunk there is, one whole small text frame
        # (a step): websockets' general parser costs more than the rest of the step. Anything else,
        # or a frame the lane declines, goes through websockets untouched: this path is tried only
        # while its parser waits for the first byte of a frame, with no fragmented message open.
        lane = self.fast_lane
        if lane is not None and self.reading and not self.arrivals and self._fast_read:
            protocol = self.protocol
            if (protocol.state is State.OPEN and protocol.cur_size is None and not protocol.extensions
                    and between_frames(protocol)):
                payload = one_text_frame(data, protocol.max_size)
                if payload is not None and lane(payload, time.monotonic()):
                    return
        super().data_received(data)

    def process_event(self, event: Any) -> None:
        if self.request is not None and isinstance(event, Frame) and event.opcode in _DATA and event.fin:
            now = time.monotonic()
            if (self.fast_lane is not None and self.reading and not self.arrivals and event.opcode is Opcode.TEXT
                    and self.fast_lane(event.data, now)):
                return
            self.arrivals.append(now)
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


def between_frames(protocol: Any) -> bool:
    """True when websockets' parser waits for the first byte of a frame, having read nothing of it.

    Read off the parser coroutine: between frames it waits in ``reader.at_eof()``, within one in
    ``read_exact`` (even with an empty buffer: the header is consumed before the payload comes).
    Should websockets ever parse otherwise, this is False and every frame takes its own path.
    """
    waiting = protocol.parser
    for _ in range(4):                  # ServerProtocol.parse -> Protocol.parse -> what it waits in
        inner = getattr(waiting, "gi_yieldfrom", None)
        if inner is None:
            break
        waiting = inner
    return getattr(waiting, "__name__", None) == "at_eof" and not protocol.reader.buffer


def one_text_frame(data: bytes, max_size: int | None) -> bytes | None:
    """The payload when ``data`` is exactly one final, masked (client) text frame of at most 65,535
    bytes and ``max_size``; else None (fragments, control frames, several frames, part of one...)."""
    if len(data) < 6 or data[0] != 0x81 or not data[1] & 0x80:
        return None
    size = data[1] & 0x7F
    start = 6
    if size == 126:
        size, start = int.from_bytes(data[2:4], "big"), 8
    elif size == 127:
        return None
    if start + size != len(data) or (max_size is not None and size > max_size):
        return None
    return apply_mask(data[start:], data[start - 4:start])


def text_frame(payload: bytes) -> bytes:
    """A final, unmasked websocket text frame carrying ``payload`` (RFC 6455 5.2: a server never masks)."""
    size = len(payload)
    if size < 126:
        return bytes((0x81, size)) + payload
    if size < 1 << 16:
        return bytes((0x81, 126)) + size.to_bytes(2, "big") + payload
    return bytes((0x81, 127)) + size.to_bytes(8, "big") + payload


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
        self._stall_check: asyncio.TimerHandle | None = None
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

    def send_now(self, message: Any) -> bool:
        """Write a protocol message at once, without awaiting (the game's hot path); False when the connection is gone.

        Like websockets' own ``broadcast``, this never waits for a full write buffer: a client that
        stopped reading gets the frame buffered, and is dropped if it still reads nothing
        ``send_timeout_s`` later (the bound ``send`` enforces by waiting).
        """
        ws = self.ws
        if self.closed or ws.protocol.state is not State.OPEN:
            self.closed = True
            return False
        if isinstance(message, Encoded):
            data = message.payload
        else:
            data = (message if isinstance(message, str) else dump(message)).encode()
        if self.debug:
            log.info("-> %s %s", self.address, data[:1000].decode(errors="replace"))
        try:
            if ws.protocol.extensions:          # an extension (none is offered today) transforms frames
                ws.protocol.send_text(data)
                ws.send_data()
            else:
                ws.transport.write(text_frame(data))
        except Exception as exc:  # noqa: BLE001 - a broken socket (OSError, a protocol state race): gone
            log.info("sending to %s failed: %s", self.address, exc)
            self.abort()
            return False
        if getattr(ws, "paused", False) and self._stall_check is None:
            self._stall_check = asyncio.get_running_loop().call_later(self.limits.send_timeout_s, self._stalled)
        return True

    def _stalled(self) -> None:
        self._stall_check = None
        if not self.closed and getattr(self.ws, "paused", False):
            log.warning("%s stopped reading for %.0f s; dropping it", self.address, self.limits.send_timeout_s)
            self.abort()

    def tell(self, code: str, message: str, frame_type: str | None = None) -> None:
        """Send an ``error`` frame at once, counting no strike (a step the game could not take)."""
        self.send_now(ErrorMessage(code=code, message=message, frame_type=frame_type))

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
        if self._stall_check is not None:
            self._stall_check.cancel()
            self._stall_check = None
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

"""``WebSocketLink``: one websocket connection, an asyncio protocol over websockets' sans-I/O ``ServerProtocol``.

websockets documents its sans-I/O layer for servers that handle frames in their own loop; this is
that loop, and nothing else. Bytes in: ``data_received`` stamps them with the moment this pass of the
event loop began reading (``server.net.arrivals``: a bot never pays for the other sockets read before
its own in the same pass), feeds ``ServerProtocol.receive_data``, writes what ``data_to_send`` gives (handshake
response, pongs, close replies) and hands each complete message, with its arrival stamp, to the
``LinkHandler`` in the same callback: a bot's step is judged the moment it is read, with no queue
and no task switch. Bytes out: ``send_text`` goes through ``ServerProtocol.send_text`` straight to
the transport.

What it bounds: the handshake must finish within ``handshake_timeout_s``; messages are at most
``max_size`` bytes (the protocol closes with 1009 otherwise); the socket's kernel send buffer is
``send_buffer`` bytes (on loopback the kernel would otherwise queue megabytes for a client that
does not read, and the server would never notice), and the transport reports when its own
unsent bytes pass ``high_water`` (``paused``, then ``LinkHandler.drained`` once they are written),
so the handler can keep a slow reader to the latest state; a close that the other side does not
finish within ``close_timeout_s`` is cut, and a close for misbehaviour (any code but 1000/1001)
stops reading at once: nothing more the client sends costs the server anything. Keep-alive pings are sent by ``keepalive``, which the
server calls for every link from one timer.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from dataclasses import dataclass
from typing import Any, Protocol

from websockets.datastructures import Headers
from websockets.frames import Frame, Opcode
from websockets.http11 import Request, Response
from websockets.protocol import State
from websockets.server import ServerProtocol

from server.net.arrivals import ARRIVALS, ArrivalClock

__all__ = ["LinkSettings", "LinkHandler", "WebSocketLink"]

log = logging.getLogger("quoridor.server")
#: websockets logs every opened and closed connection at INFO; the server says what matters itself.
_WS_LOG = logging.getLogger("quoridor.websockets")


@dataclass(frozen=True, slots=True)
class LinkSettings:
    """What one link allows: message size, how long a handshake and a close may take, keep-alive, buffering."""

    max_size: int = 4096
    handshake_timeout_s: float = 5.0
    close_timeout_s: float = 2.0
    ping_interval_s: float = 20.0
    ping_timeout_s: float = 20.0
    #: Unsent bytes above which the transport pauses writing (``paused``) until they are written.
    high_water: int = 64 * 1024
    #: The socket's kernel send buffer (SO_SNDBUF); None leaves the system's (autotuned) size.
    send_buffer: int | None = 64 * 1024
    #: The clock of the arrival stamps (the server's one, shared with its legacy port).
    arrivals: ArrivalClock = ARRIVALS


class LinkHandler(Protocol):
    """What the server does with a link's events (``server.router.Router``)."""

    def opened(self, link: WebSocketLink) -> bool:
        """A TCP connection arrived: count it; False refuses it (the socket is cut at once)."""
        ...

    def request(self, link: WebSocketLink, request: Request) -> Response | None:
        """An HTTP request arrived: a response to send instead of the websocket handshake, or None."""
        ...

    def ready(self, link: WebSocketLink) -> None:
        """The websocket handshake finished: messages may flow."""
        ...

    def received(self, link: WebSocketLink, payload: bytes, text: bool, arrived: float) -> None:
        """A complete message (UTF-8 bytes when ``text``) that arrived at ``arrived`` (the arrival clock's stamp)."""
        ...

    def drained(self, link: WebSocketLink) -> None:
        """The unsent bytes fell below the low-water mark after a pause: the client reads again."""
        ...

    def closed(self, link: WebSocketLink) -> None:
        """The connection is gone (once per link, also for a refused one)."""
        ...


class WebSocketLink(asyncio.Protocol):
    """One websocket connection, driven by websockets' ``ServerProtocol``; see the module docstring."""

    def __init__(self, handler: LinkHandler, settings: LinkSettings) -> None:
        self.handler = handler
        self.settings = settings
        self.protocol = ServerProtocol(max_size=settings.max_size, logger=_WS_LOG)
        self.transport: asyncio.Transport | None = None
        self.address = "?"
        #: The server's own state for this connection (``server.net.connection.Peer``), set by the handler.
        self.peer: Any = None
        #: True while the transport holds more than ``high_water`` unsent bytes.
        self.paused = False
        #: When the other side was last heard from (on ``settings.arrivals``' clock).
        self.last_heard = 0.0
        self._pinged = False
        self._timer: asyncio.TimerHandle | None = None
        self._parts: list[bytes] | None = None
        self._text = False
        self._gone = False
        self._hanging_up = False
        self._counted = False
        self._sniffed = False

    # -- state ------------------------------------------------------------------------------
    @property
    def open(self) -> bool:
        """True once the handshake finished and until a close began."""
        return not self._gone and self.protocol.state is State.OPEN

    @property
    def gone(self) -> bool:
        """True once the TCP connection is closed or being cut."""
        return self._gone

    @property
    def high_water(self) -> int:
        """Unsent bytes above which the link is ``paused`` (the client does not keep up)."""
        return self.settings.high_water

    @property
    def buffered(self) -> int:
        """Bytes written but not yet sent to the client."""
        transport = self.transport
        return 0 if transport is None or self._gone else transport.get_write_buffer_size()

    # -- asyncio.Protocol -------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's transports are not asyncio.Transport subclasses
        peer = transport.get_extra_info("peername")
        self.address = peer[0] if isinstance(peer, (tuple, list)) else str(peer)
        self.last_heard = self.settings.arrivals.clock()
        if not self.handler.opened(self):
            self._gone = True
            transport.abort()
            return
        self._counted = True
        transport.set_write_buffer_limits(high=self.settings.high_water)
        sock = transport.get_extra_info("socket")
        if self.settings.send_buffer is not None and sock is not None:
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.settings.send_buffer)
            except OSError:             # a platform that will not: its own size serves
                pass
        self._timer = asyncio.get_running_loop().call_later(self.settings.handshake_timeout_s, self._handshake_late)

    def data_received(self, data: bytes) -> None:
        arrived = self.settings.arrivals.now()   # when this pass of the loop began reading: see server.net.arrivals
        if self._gone or self._hanging_up:
            return
        self.last_heard = arrived
        self._pinged = False
        protocol = self.protocol
        if not self._sniffed and protocol.state is State.CONNECTING and self._other_method(data):
            return
        protocol.receive_data(data)
        for event in protocol.events_received():
            if self._gone or self._hanging_up:
                return
            if isinstance(event, Frame):
                self._frame(event, arrived)
            elif isinstance(event, Request):
                self._handshake(event)
        self._flush()

    def pause_writing(self) -> None:
        self.paused = True

    def resume_writing(self) -> None:
        self.paused = False
        if not self._gone:
            self.handler.drained(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self._gone = True
        self.paused = False
        self._cancel_timer()
        self.protocol.receive_eof()
        if self._counted:
            self._counted = False
            self.handler.closed(self)

    # -- sending ----------------------------------------------------------------------------
    def send_text(self, payload: bytes) -> bool:
        """Send one text message (UTF-8 bytes) now; False when the connection is not open."""
        if not self.open:
            return False
        self.protocol.send_text(payload)
        self._flush()
        return True

    def send_texts(self, payloads: list[bytes]) -> bool:
        """Send several text messages (UTF-8 bytes), in order, as one write; False when the connection is not open."""
        if not self.open:
            return False
        protocol = self.protocol
        for payload in payloads:
            protocol.send_text(payload)
        self._flush(joined=True)
        return True

    def ping(self, payload: bytes = b"") -> None:
        """Send a ping (the other side answers with a pong, which counts as hearing from it)."""
        if self.open:
            self.protocol.send_ping(payload)
            self._flush()

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Start the closing handshake (idempotent); the TCP connection is cut if it is not done in time.

        A normal close (1000, 1001) waits for the client's answer; any other code is a close for
        misbehaviour: the close frame is sent, nothing more is read, and the socket is closed
        once what is queued is written.
        """
        if self._gone:
            return
        if self.protocol.state is State.OPEN:
            self.protocol.send_close(code, reason)
            self._flush()
        elif self.protocol.state is State.CONNECTING:
            self.abort()
            return
        self._expect_close()
        if code not in (1000, 1001) and self.transport is not None and not self._gone:
            self._hanging_up = True
            self.transport.close()          # stops reading now; writes the close frame, then closes

    def abort(self) -> None:
        """Cut the TCP connection at once, unsent bytes and all (a client that does not read)."""
        if self._gone:
            return
        self._gone = True
        self._cancel_timer()
        if self.transport is not None:
            self.transport.abort()

    def keepalive(self, now: float) -> None:
        """Ping a link that has been quiet for ``ping_interval_s``; cut one that did not answer the last ping."""
        if not self.open:
            return
        quiet = now - self.last_heard
        if self._pinged and quiet >= self.settings.ping_interval_s + self.settings.ping_timeout_s:
            log.info("%s answered no ping for %.0f s; closing it", self.address, self.settings.ping_timeout_s)
            self.abort()
        elif not self._pinged and quiet >= self.settings.ping_interval_s:
            self._pinged = True
            self.ping()

    # -- internals --------------------------------------------------------------------------
    def _other_method(self, data: bytes) -> bool:
        """A request whose method is not GET (which websockets would cut without a word): the handler's answer.

        True when it was answered (a 405) and the connection is closing.
        """
        self._sniffed = True
        method = data.split(b" ", 1)[0]
        if method == b"GET" or not (1 <= len(method) <= 16 and method.isalpha() and method.isupper()):
            return False
        response = self.handler.request(self, Request("/", Headers(), method=method.decode("ascii")))
        if response is None or self.transport is None:
            return False
        self._hanging_up = True
        self.transport.write(response.serialize())
        self._expect_close()
        self.transport.close()
        return True

    def _handshake(self, request: Request) -> None:
        response = self.handler.request(self, request)
        if response is None:
            response = self.protocol.accept(request)
        self.protocol.send_response(response)
        self._flush()
        if self.protocol.state is State.OPEN:
            self._cancel_timer()
            self.handler.ready(self)
        else:
            self._expect_close()

    def _frame(self, frame: Frame, arrived: float) -> None:
        opcode = frame.opcode
        if opcode is Opcode.TEXT or opcode is Opcode.BINARY:
            if frame.fin:
                self.handler.received(self, bytes(frame.data), opcode is Opcode.TEXT, arrived)
            else:
                self._parts, self._text = [bytes(frame.data)], opcode is Opcode.TEXT
        elif opcode is Opcode.CONT and self._parts is not None:
            # ServerProtocol keeps the whole message within max_size across its fragments.
            self._parts.append(bytes(frame.data))
            if frame.fin:
                payload, self._parts = b"".join(self._parts), None
                self.handler.received(self, payload, self._text, arrived)
        # Ping, pong and close frames are answered by ServerProtocol itself (written by _flush).

    def _flush(self, joined: bool = False) -> None:
        """Write what the protocol has to send; ``joined``: its chunks up to an end of stream as one write."""
        transport = self.transport
        if transport is None:
            return
        chunks = self.protocol.data_to_send()
        if joined and len(chunks) > 1 and all(chunks):
            chunks = [b"".join(chunks)]
        for data in chunks:
            if self._gone:
                return
            if data:
                transport.write(data)
            else:                               # websockets' SEND_EOF: end the TCP stream
                self._expect_close()
                transport.close()
        if self.protocol.close_expected():
            self._expect_close()

    def _expect_close(self) -> None:
        if self._timer is None and not self._gone:
            self._timer = asyncio.get_running_loop().call_later(self.settings.close_timeout_s, self._close_late)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _handshake_late(self) -> None:
        self._timer = None
        if self.protocol.state is State.CONNECTING:
            log.info("%s did not finish the websocket handshake within %.0f s; closing it",
                     self.address, self.settings.handshake_timeout_s)
            self.abort()

    def _close_late(self) -> None:
        self._timer = None
        self.abort()

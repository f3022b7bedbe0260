"""``ClientLink``: one websocket client connection, an asyncio protocol over websockets' sans-I/O ``ClientProtocol``.

The client-side twin of ``server/net/wire.py``'s ``WebSocketLink``, for the bench's scripted clients
(``load_clients.py``, ``load_flood.py``, ``load_watchers.py``). It uses only what websockets
documents for its sans-I/O layer (``parse_uri``, ``ClientProtocol.connect``/``send_request``,
``receive_data``, ``events_received``, ``data_to_send``, ``send_text``, ``send_close``,
``handshake_exc``, ``close_code``):

* bytes in: ``data_received`` stamps the reads of one pass of the event loop with the time of
  that pass's first read (``server.net.arrivals``, as the server stamps arrivals: the process's own
  queue of ready sockets counts as its bots' thinking, not as the server's delay), feeds the
  protocol, and hands every complete text message with that stamp to ``on_text`` in the same
  callback, so an instant answer is written before the callback
  returns: no queue, no task switch;
* bytes out: ``send_text`` goes through ``ClientProtocol.send_text`` straight to the transport
  (no flow control: the bench's frames are small);
* pings are answered by the protocol itself (written by ``_flush``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.uri import parse_uri

from server.net.arrivals import ARRIVALS

__all__ = ["ClientLink", "open_link"]

TextHandler = Callable[[str, float], None]


class ClientLink(asyncio.Protocol):
    """One websocket client connection; ``opened`` resolves when the handshake is done, ``lost`` when TCP is gone."""

    def __init__(self, url: str, on_text: TextHandler | None = None, *, compression: bool = False,
                 max_size: int | None = None) -> None:
        # The websockets default offer when compression is wanted (what its own connect() sends).
        extensions = [ClientPerMessageDeflateFactory(compress_settings={"memLevel": 5})] if compression else None
        self.protocol = ClientProtocol(parse_uri(url), extensions=extensions, max_size=max_size)
        self.on_text = on_text
        #: Called once when the TCP connection is gone.
        self.on_lost: Callable[[], None] | None = None
        self.transport: asyncio.Transport | None = None
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.lost: asyncio.Future[None] = loop.create_future()
        #: When the other side's close frame arrived (``time.monotonic``), and its code and reason (known
        #: once the TCP connection is gone).
        self.close_received_at: float | None = None
        self.close_code: int | None = None
        self.close_reason: str | None = None
        #: When the TCP connection was gone (``time.monotonic``).
        self.lost_at: float | None = None
        #: True: what the protocol would write on its own (pongs, the close reply) is dropped, as a
        #: hostile client would; ``send_text`` still writes.
        self.silent = False
        self._parts: list[bytes] | None = None

    @property
    def is_open(self) -> bool:
        """True once the handshake finished and until a close began."""
        return self.protocol.state is State.OPEN and not self.lost.done()

    # -- asyncio.Protocol -------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        protocol = self.protocol
        protocol.send_request(protocol.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        now = ARRIVALS.now()        # as the server stamps its reads: the pass's first read (server.net.arrivals)
        protocol = self.protocol
        protocol.receive_data(data)
        for event in protocol.events_received():
            if isinstance(event, Frame):
                self._frame(event, now)
            elif isinstance(event, Response) and not self.opened.done():
                if protocol.handshake_exc is not None:
                    self.opened.set_exception(protocol.handshake_exc)
                else:
                    self.opened.set_result(None)
        self._flush()

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost_at = time.monotonic()
        self.protocol.receive_eof()
        if self.close_received_at is not None:     # known once the protocol is CLOSED
            self.close_code, self.close_reason = self.protocol.close_code, self.protocol.close_reason
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(f"connection lost during the handshake: {exc}"))
        if not self.lost.done():
            self.lost.set_result(None)
        if self.on_lost is not None:
            self.on_lost()

    # -- sending ----------------------------------------------------------------------------
    def send_text(self, data: bytes) -> bool:
        """Send one text message (UTF-8 bytes) now; False once the connection is not open."""
        if self.protocol.state is not State.OPEN or self.lost.done():
            return False
        self.protocol.send_text(data)
        self._flush(force=True)
        return True

    async def close(self, code: int = 1000, timeout: float = 5.0) -> None:
        """Start the closing handshake and wait (at most ``timeout``) for the server to end the TCP connection."""
        if self.transport is None or self.lost.done():
            return
        if self.protocol.state is State.OPEN:
            self.protocol.send_close(code)
            self._flush()
        try:
            await asyncio.wait_for(asyncio.shield(self.lost), timeout)
        except TimeoutError:
            self.transport.abort()

    # -- internals --------------------------------------------------------------------------
    def _frame(self, frame: Frame, now: float) -> None:
        opcode = frame.opcode
        if opcode is Opcode.TEXT:
            if frame.fin:
                if self.on_text is not None:
                    self.on_text(frame.data.decode(), now)
            else:
                self._parts = [bytes(frame.data)]
        elif opcode is Opcode.CONT and self._parts is not None:
            self._parts.append(bytes(frame.data))
            if frame.fin:
                payload, self._parts = b"".join(self._parts), None
                if self.on_text is not None:
                    self.on_text(payload.decode(), now)
        elif opcode is Opcode.CLOSE:
            self.close_received_at = now

    def _flush(self, force: bool = False) -> None:
        transport = self.transport
        writes = self.protocol.data_to_send()
        if transport is None or transport.is_closing() or (self.silent and not force):
            return
        for data in writes:
            if data:
                transport.write(data)
            elif transport.can_write_eof():     # websockets' SEND_EOF: half-close; the server closes TCP
                transport.write_eof()


async def open_link(url: str, on_text: TextHandler | None = None, *, compression: bool = False,
                    timeout: float = 30.0) -> ClientLink:
    """Connect to ``url`` (ws:// only) and finish the websocket handshake within ``timeout`` seconds."""
    uri = parse_uri(url)
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(timeout):
        transport, link = await loop.create_connection(lambda: ClientLink(url, on_text, compression=compression),
                                                       uri.host, uri.port)
        try:
            await link.opened
        except BaseException:
            transport.abort()
            raise
    return link

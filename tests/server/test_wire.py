"""``WebSocketLink`` over a real loopback connection: the handler's events, frames in and out, sizes, close codes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed, InvalidMessage
from websockets.http11 import Request, Response

from server.net.wire import LinkSettings, WebSocketLink
from tests.server.conftest import bounded


class Handler:
    """A ``LinkHandler`` that keeps every event; ``events`` wakes a test on each."""

    def __init__(self, *, admit: bool = True, page: Response | None = None) -> None:
        self.admit, self.page = admit, page
        self.links: list[WebSocketLink] = []
        self.log: list[tuple[str, Any]] = []
        self.messages: list[tuple[bytes, bool, float]] = []
        self._changed = asyncio.Event()

    def _note(self, event: str, detail: Any = None) -> None:
        self.log.append((event, detail))
        self._changed.set()

    async def until(self, event: str, count: int = 1) -> None:
        """Wait (bounded) until ``event`` happened ``count`` times."""
        async def wait() -> None:
            while sum(1 for name, _ in self.log if name == event) < count:
                self._changed.clear()
                await self._changed.wait()
        await bounded(wait(), 5)

    def opened(self, link: WebSocketLink) -> bool:
        self.links.append(link)
        self._note("opened", link.address)
        return self.admit

    def request(self, link: WebSocketLink, request: Request) -> Response | None:
        self._note("request", request.path)
        return self.page

    def ready(self, link: WebSocketLink) -> None:
        self._note("ready")

    def received(self, link: WebSocketLink, payload: bytes, text: bool, arrived: float) -> None:
        self.messages.append((payload, text, arrived))
        self._note("received", payload)

    def drained(self, link: WebSocketLink) -> None:
        self._note("drained")

    def closed(self, link: WebSocketLink) -> None:
        self._note("closed")


async def test_text_and_binary_messages_reach_the_handler_with_their_arrival():
    handler = Handler()
    async with connect(await serve_url(handler)) as ws:
        await handler.until("ready")
        await ws.send('{"type":"hello"}')
        await ws.send(b"\x00\x01")
        await handler.until("received", 2)
    assert [(payload, text) for payload, text, _ in handler.messages] == [(b'{"type":"hello"}', True),
                                                                        (b"\x00\x01", False)]
    assert all(arrived > 0 for _, _, arrived in handler.messages)
    await handler.until("closed")
    assert [name for name, _ in handler.log] == ["opened", "request", "ready", "received", "received", "closed"]
    assert handler.log[0][1] == "127.0.0.1"


async def test_a_fragmented_message_arrives_whole():
    handler = Handler()
    async with connect(await serve_url(handler)) as ws:
        await ws.send(iter(["ab", "cd", "ef"]))
        await handler.until("received")
    assert handler.messages[0][:2] == (b"abcdef", True)


async def test_what_the_server_sends_arrives_in_order():
    handler = Handler()
    async with connect(await serve_url(handler)) as ws:
        await handler.until("ready")
        link = handler.links[0]
        assert link.open
        assert link.send_text(b'{"n":1}')
        assert link.send_texts([b'{"n":2}', b'{"n":3}'])
        assert [await bounded(ws.recv(), 5) for _ in range(3)] == ['{"n":1}', '{"n":2}', '{"n":3}']


async def test_a_message_over_max_size_closes_with_1009():
    handler = Handler()
    async with connect(await serve_url(handler, LinkSettings(max_size=256))) as ws:
        await ws.send("x" * 257)
        with pytest.raises(ConnectionClosed) as closed:
            await bounded(ws.recv(), 5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert handler.messages == []


@pytest.mark.parametrize("code", [1000, 1008, 1013])
async def test_the_server_closes_with_its_code_and_reason_and_the_handler_hears_once(code):
    handler = Handler()
    async with connect(await serve_url(handler)) as ws:
        await handler.until("ready")
        link = handler.links[0]
        link.close(code, "because")
        link.close(code, "again")           # idempotent
        with pytest.raises(ConnectionClosed) as closed:
            await bounded(ws.recv(), 5)
        assert link.send_text(b"late") is False
    assert closed.value.rcvd is not None and (closed.value.rcvd.code, closed.value.rcvd.reason) == (code, "because")
    await handler.until("closed")
    assert [name for name, _ in handler.log].count("closed") == 1 and link.gone


async def test_a_refused_connection_is_cut_before_the_handshake_and_never_reported_closed():
    handler = Handler(admit=False)
    with pytest.raises(InvalidMessage):     # the socket was cut: no HTTP answer at all
        async with connect(await serve_url(handler), open_timeout=5):
            pass
    assert [name for name, _ in handler.log] == ["opened"]


async def test_a_plain_http_request_gets_the_handlers_page():
    page = Response(200, "OK", Headers({"Content-Type": "text/plain", "Content-Length": "2"}), b"hi")
    handler = Handler(page=page)
    url = await serve_url(handler)
    reader, writer = await asyncio.open_connection("127.0.0.1", int(url.rsplit(":", 1)[1].strip("/")))
    writer.write(b"GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n")
    answer = await bounded(reader.read(), 5)
    writer.close()
    assert answer.startswith(b"HTTP/1.1 200 OK") and answer.endswith(b"hi")
    assert ("request", "/index.html") in handler.log and ("ready", None) not in handler.log


async def test_another_method_than_get_is_answered_by_the_handler():
    page = Response(405, "Method Not Allowed", Headers({"Content-Length": "0"}), b"")
    handler = Handler(page=page)
    url = await serve_url(handler)
    reader, writer = await asyncio.open_connection("127.0.0.1", int(url.rsplit(":", 1)[1].strip("/")))
    writer.write(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
    answer = await bounded(reader.read(), 5)
    writer.close()
    assert answer.startswith(b"HTTP/1.1 405")


async def test_a_link_quiet_past_its_ping_and_the_ping_timeout_is_cut():
    handler = Handler()
    async with connect(await serve_url(handler, LinkSettings(ping_interval_s=20, ping_timeout_s=20))) as ws:
        await handler.until("ready")
        link = handler.links[0]
        heard = link.last_heard
        link.keepalive(heard + 5)           # not quiet long enough: nothing
        link.keepalive(heard + 20)          # a ping
        assert link.open
        link.keepalive(heard + 40)          # no pong in between: cut
        assert link.gone
        with pytest.raises(ConnectionClosed):
            await bounded(ws.recv(), 5)
    await handler.until("closed")


async def test_a_pong_counts_as_hearing_from_the_client():
    handler = Handler()
    async with connect(await serve_url(handler, LinkSettings(ping_interval_s=20, ping_timeout_s=20))) as ws:
        await handler.until("ready")
        link = handler.links[0]
        heard = link.last_heard
        link.keepalive(heard + 20)
        pong = await bounded(ws.ping(), 5)         # the client's own ping: its answer comes after the server's pong
        await bounded(pong, 5)
        assert link.last_heard > heard
        link.keepalive(link.last_heard + 1)
        assert link.open


async def test_a_handshake_not_finished_in_time_is_cut_and_reported_closed():
    handler = Handler()
    url = await serve_url(handler, LinkSettings(handshake_timeout_s=0.01))
    reader, writer = await asyncio.open_connection("127.0.0.1", int(url.rsplit(":", 1)[1].strip("/")))
    writer.write(b"GET / HTTP/1.1\r\n")          # and never the rest
    await handler.until("closed")
    assert await bounded(reader.read(), 5) == b""
    writer.close()
    assert [name for name, _ in handler.log] == ["opened", "closed"] and handler.links[0].gone


async def test_a_paused_transport_marks_the_link_paused_and_its_resume_is_drained():
    handler = Handler()
    async with connect(await serve_url(handler)):
        await handler.until("ready")
        link = handler.links[0]
        link.pause_writing()
        assert link.paused
        link.resume_writing()
        assert not link.paused
        await handler.until("drained")


async def test_after_a_close_for_misbehaviour_nothing_more_is_read():
    handler = Handler()
    async with connect(await serve_url(handler)) as ws:
        await handler.until("ready")
        link = handler.links[0]
        await ws.send("before")
        await handler.until("received")
        link.close(1008, "rules")
        link.data_received(b"\x81\x85\x00\x00\x00\x00after")     # a masked text frame, as a client writes it
        with pytest.raises(ConnectionClosed):
            await bounded(ws.recv(), 5)
    assert [payload for payload, _, _ in handler.messages] == [b"before"]


# -- helpers ----------------------------------------------------------------------------
_servers: list[tuple[asyncio.Server, Handler]] = []


async def serve_url(handler: Handler, settings: LinkSettings = LinkSettings()) -> str:
    """A listener of ``WebSocketLink``s for ``handler`` on 127.0.0.1 port 0 (closed by ``_close_servers``)."""
    server = await asyncio.get_running_loop().create_server(lambda: WebSocketLink(handler, settings), "127.0.0.1", 0)
    _servers.append((server, handler))
    return f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}/"


@pytest.fixture(autouse=True)
async def _close_servers() -> AsyncIterator[None]:
    yield
    while _servers:
        server, handler = _servers.pop()
        for link in handler.links:
            link.abort()
        server.close()
        await bounded(server.wait_closed(), 5)

"""The Origin check in a real browser (issue 31): the server's pages connect, a page of another site cannot."""

from __future__ import annotations

import asyncio

#: Opens a websocket and says how it went: "open", or "refused" when it failed or closed first.
PROBE = """async (target) => await new Promise((done) => {
    const ws = new WebSocket(target);
    ws.onopen = () => { ws.close(); done("open"); };
    ws.onerror = () => done("refused");
    ws.onclose = () => done("refused");
})"""


async def _site() -> asyncio.Server:
    """Another site on 127.0.0.1: any request gets a blank page (no Content-Security-Policy of the arena's)."""
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        body = b"<!doctype html><title>another site</title>"
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n"
                     b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        await writer.drain()
        writer.close()
    return await asyncio.start_server(answer, "127.0.0.1", 0)


async def test_only_the_servers_own_pages_and_allowed_sites_open_a_websocket(browser, make_server, tmp_path):
    site = await _site()
    elsewhere = f"http://127.0.0.1:{site.sockets[0].getsockname()[1]}"     # another port: another origin
    strict = await make_server(players=0, data_dir=tmp_path / "strict")
    allowing = await make_server(players=0, allowed_origins=[elsewhere], data_dir=tmp_path / "allowing")
    page = await browser.new_page()
    try:
        await page.goto(f"http://127.0.0.1:{strict.port}/")
        assert await page.evaluate(PROBE, f"ws://127.0.0.1:{strict.port}/") == "open"       # its own page
        await page.goto(f"{elsewhere}/")
        assert await page.evaluate(PROBE, f"ws://127.0.0.1:{strict.port}/") == "refused"    # another site's page
        assert await page.evaluate(PROBE, f"ws://127.0.0.1:{allowing.port}/") == "open"     # one allowed there
    finally:
        await page.close()
        site.close()
        await site.wait_closed()

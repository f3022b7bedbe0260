"""The pages' icon: every page links it, and a browser's default ``/favicon.ico`` is answered (no 404 on a console)."""

from __future__ import annotations

import pytest
from websockets.datastructures import Headers
from websockets.http11 import Request

from server.web.http import answer_http
from shared.web import PAGES

ICON = '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'


def get(path: str):
    return answer_http(Request(path, Headers({"Host": "127.0.0.1:1"})))


@pytest.mark.parametrize("path", ["/favicon.ico", "/static/favicon.svg"])
def test_the_icon_is_served_as_svg(path):
    response = get(path)
    assert response.status_code == 200 and response.headers["Content-Type"] == "image/svg+xml"
    assert response.body.startswith(b"<svg ") and b"</svg>" in response.body


@pytest.mark.parametrize("path", sorted(PAGES))
def test_every_page_links_the_icon_in_its_head(path):
    head = get(path).body.decode().split("</head>")[0]
    assert ICON in head


async def test_no_page_asks_for_a_file_the_server_does_not_have(browser, make_server):
    server = await make_server(players=0)
    page = await browser.new_page()
    missing: list[str] = []
    page.on("response", lambda response: missing.append(f"{response.status} {response.url}")
            if response.status >= 400 else None)
    for path in ["/favicon.ico", *sorted(PAGES)]:
        await page.goto(f"http://127.0.0.1:{server.port}{path}", wait_until="load")
    assert missing == []
    icon = await page.evaluate("fetch('/favicon.ico').then(r => r.status + ' ' + r.headers.get('content-type'))")
    assert icon == "200 image/svg+xml"

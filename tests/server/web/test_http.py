"""The pages over HTTP: GET only, files of the static folder only, a CSP on every answer."""

import asyncio

import pytest
from websockets.datastructures import Headers
from websockets.http11 import Request

from server.web.http import answer_http, csp, static_name
from shared.web import PAGES

TRICKS = ["/static/../app.py", "/static/%2e%2e/board.js", "/static/%2e%2e%2fgame.html", "/static/..%2fgame.html",
          "/static/%252e%252e/board.js", "/static/.hidden.js", "/static/sub/board.js", "/static/board.js%00.png",
          "/static/..\\board.js", "/static/%5c..%5cboard.js", "/../../etc/passwd", "/static//etc/passwd",
          "/static/%2fetc%2fpasswd", "/static/BOARD.JS", "/static/__init__.py"]


def get(path, **headers):
    return answer_http(Request(path, Headers({"Host": "127.0.0.1:1", **headers})))


@pytest.mark.parametrize("path", sorted(PAGES))
def test_every_page_is_served_as_html_with_a_csp(path):
    response = get(path)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/html")
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "connect-src 'self' ws://127.0.0.1:1" in policy
    assert "unsafe" not in policy
    assert b"<script type=\"module\" src=\"/static/" in response.body


def test_static_files_are_served_with_their_type():
    assert get("/static/board.js").headers["Content-Type"].startswith("text/javascript")
    assert get("/static/style.css").headers["Content-Type"].startswith("text/css")
    assert get("/game?game=g1&step=3").status_code == 200


@pytest.mark.parametrize("path", TRICKS)
def test_no_path_leaves_the_static_folder(path):
    assert static_name(path) is None or "/" not in static_name(path)
    assert get(path).status_code == 404


def test_a_websocket_handshake_is_left_to_websockets():
    assert get("/", Upgrade="websocket", Connection="Upgrade") is None


def test_other_methods_get_405():
    response = answer_http(Request("/", Headers({"Host": "x"}), method="POST"))
    assert response.status_code == 405 and response.headers["Allow"] == "GET"


def test_a_hostile_host_header_stays_out_of_the_policy():
    assert "evil" not in csp("evil.com; script-src *")
    assert "ws://ok.example:80" in csp("ok.example:80")


async def raw_request(port: int, data: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(data)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    return answer


async def test_the_server_answers_get_and_refuses_the_rest(make_server):
    server = await make_server(players=0)
    page = await raw_request(server.port, b"GET /tv HTTP/1.1\r\nHost: x\r\n\r\n")
    assert page.startswith(b"HTTP/1.1 200") and b"Content-Security-Policy" in page
    for method in (b"POST", b"PUT", b"DELETE", b"HEAD"):
        answer = await raw_request(server.port, method + b" / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
        assert answer.startswith(b"HTTP/1.1 405"), answer[:60]
    for path in TRICKS:
        answer = await raw_request(server.port, b"GET " + path.encode() + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 404"), path

"""The Origin check (issue 31): a page of another site cannot open a websocket here; bots and the server's pages can."""

from __future__ import annotations

import logging

import pytest
from websockets.exceptions import InvalidStatus

from server.cli import build_parser, settings_from_args
from server.net.origins import OriginCheck, normal_origin
from tests.server.conftest import url
from tests.server.support import Client, hello


@pytest.mark.parametrize("text, normal", [
    ("https://Arena.Example.org/", "https://arena.example.org"),
    ("http://localhost:80", "http://localhost"),
    ("https://arena.example.org:443", "https://arena.example.org"),
    ("http://127.0.0.1:8000", "http://127.0.0.1:8000"),
    ("http://[::1]:8000", "http://[::1]:8000"),
    ("null", "null"),
])
def test_an_origin_has_one_spelling(text, normal):
    assert normal_origin(text) == normal


@pytest.mark.parametrize("text", ["arena.example.org", "ftp://x.org", "http://x.org/page", "http://", "http://x:99999",
                                  "http://user@x.org"])
def test_what_is_not_an_origin_is_said_in_one_line(text):
    with pytest.raises(ValueError, match="is not an origin: expected scheme://host") as caught:
        normal_origin(text)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("origin, host, admitted", [
    (None, "arena:19330", True),                                  # a bot: no Origin
    ("http://arena:19330", "arena:19330", True),                   # the server's own page
    ("http://ARENA:19330", "arena:19330", True),
    ("https://arena.example.org", "arena.example.org", True),     # behind a TLS proxy that keeps Host
    ("https://arena.example.org", "arena.example.org:443", True),
    ("http://arena:8000", "arena:19330", False),                   # another port is another origin
    ("http://evil.example", "arena:19330", False),
    ("http://evil.example", None, False),
    ("null", "arena:19330", False),                                # a file:// page
    ("not an origin", "arena:19330", False),
    ("https://teacher.example.org", "arena:19330", True),          # allowed by the organiser
])
def test_which_origins_may_open_a_websocket(origin, host, admitted):
    check = OriginCheck(["https://Teacher.example.org/"])
    assert check.admits(origin, host) is admitted


def test_allow_origin_is_repeatable_and_checked():
    args = build_parser().parse_args(["--allow-origin", "https://a.example.org/", "--allow-origin", "http://b:8000"])
    assert settings_from_args(args).allowed_origins == ["https://a.example.org", "http://b:8000"]
    with pytest.raises(ValueError, match=r"^--allow-origin: 'a\.example\.org' is not an origin"):
        settings_from_args(build_parser().parse_args(["--allow-origin", "a.example.org"]))


async def test_a_page_of_another_site_cannot_join_but_bots_and_own_pages_can(make_server, caplog):
    server = await make_server(allowed_origins=["http://teacher.example.org"])
    own = f"http://127.0.0.1:{server.port}"
    caplog.set_level(logging.WARNING, logger="quoridor.server")
    for _ in range(2):                                            # a page that tries again is logged once
        with pytest.raises(InvalidStatus) as refused:
            await Client.open(url(server), origin="http://evil.example")
        assert refused.value.response.status_code == 403
    assert b"--allow-origin" in refused.value.response.body
    assert [r.getMessage() for r in caplog.records].count(
        "refused a websocket from 127.0.0.1 opened by a page of 'http://evil.example' (not this server's; "
        "--allow-origin http://evil.example would let it in)") == 1
    for origin in (None, own, "http://teacher.example.org"):     # a bot, the server's own page, an allowed site
        client = await Client.open(url(server), origin=origin)
        await client.send(hello(f"k{origin}"))
        assert (await client.reply())["type"] == "welcome"
        await client.close()

"""Reaching the server: a malformed URL, nothing listening, a server that cuts the handshake, the countdown."""

from __future__ import annotations

import asyncio
import io
import socket

import pytest
from rich.console import Console
from websockets.exceptions import InvalidMessage

from client.cli import main
from client.connecting import ServerUnavailable, Unreachable, check_server_url, connect_waiting, why_unreachable
from client.notices import Notice, Tone
from client.render import notice_printer
from tests.server.conftest import bounded


def free_port() -> int:
    """A port on 127.0.0.1 where nothing listens (it was free a moment ago)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("url, advice", [
    ("http://127.0.0.1:19399/", "write ws://127.0.0.1:19399/"),
    ("https://arena.example/", "write wss://arena.example/"),
    ("127.0.0.1:19399", "write ws://127.0.0.1:19399/"),
    ("ws://127.0.0.1:99999/", "no valid port"),
    ("ws://:19330/", "names no host"),
    ("ftp://127.0.0.1/", "not a websocket URL"),
])
def test_a_url_that_can_never_work_is_refused_with_how_to_write_it(url, advice):
    with pytest.raises(ValueError, match=advice):
        check_server_url(url)
    assert check_server_url("ws://127.0.0.1:19330/") == "ws://127.0.0.1:19330/"


@pytest.mark.parametrize("url", ["http://127.0.0.1:19399/", "127.0.0.1:19399"])
def test_the_client_gives_one_clear_error_for_a_malformed_url(url, capsys):
    with pytest.raises(SystemExit) as info:
        main(["--server", url, "-k", "one", "--bot", "runner", "--wait", "1"])
    err = capsys.readouterr().err
    assert info.value.code == 2
    errors = [line for line in err.splitlines() if "error" in line]
    assert errors == [line for line in err.splitlines() if line.startswith("quoridor-client: error: ")]
    assert len(errors) == 1 and "ws://127.0.0.1:19399/" in errors[0]
    assert "is the server running" not in err and "Traceback" not in err


def test_a_wrong_port_is_said_at_once_then_the_client_gives_up(capsys):
    port = free_port()
    code = main(["--server", f"ws://127.0.0.1:{port}/", "-k", "one", "--bot", "runner", "--wait", "1.5"])
    lines = capsys.readouterr().err.splitlines()
    assert code == 1
    assert lines[0].startswith(f"nothing answers at ws://127.0.0.1:{port}/ (connection refused); retrying for ")
    assert lines[0].endswith(" s — is the server running? check -p/--server")
    assert lines[-1] == (f"quoridor-client: no server at ws://127.0.0.1:{port}/ after 2 s (connection refused); "
                         "is the server running? check -p/--server")


async def test_the_wait_is_counted_down_in_live_notices():
    told: list[Notice] = []
    with pytest.raises(ServerUnavailable):
        await bounded(connect_waiting(f"ws://127.0.0.1:{free_port()}/", 2.5, told.append), 10)
    assert not told[0].live and told[0].text.startswith("nothing answers at")
    countdown = [n.text for n in told[1:]]
    assert countdown and all(n.live for n in told[1:])
    assert all(text.startswith("waiting for the server at ws://127.0.0.1:") and text.endswith(" s left")
               for text in countdown)


async def test_a_server_that_cuts_the_handshake_may_be_full(capsys):
    async def hang_up(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.close()               # what a full server does to a new TCP connection

    server = await asyncio.start_server(hang_up, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        code = await bounded(asyncio.to_thread(main, ["--server", f"ws://127.0.0.1:{port}/", "-k", "one",
                                                      "--bot", "runner", "--wait", "1"]))
    finally:
        server.close()
        await server.wait_closed()
    lines = capsys.readouterr().err.splitlines()
    assert code == 1
    assert lines[0].startswith(f"ws://127.0.0.1:{port}/: the server closed the connection during the handshake "
                               "(it may be full); retrying for ")
    assert lines[-1] == (f"quoridor-client: could not join the server at ws://127.0.0.1:{port}/ within 1 s: "
                         "the server closed the connection during the handshake (it may be full)")
    assert not any("nothing answers" in line or "is the server running" in line for line in lines)


def test_live_notices_are_a_line_every_few_seconds_without_a_terminal():
    now = [0.0]
    console = Console(file=io.StringIO(), width=80, color_system=None)
    say = notice_printer(console, clock=lambda: now[0], live_every_s=10)
    say(Notice.of("nothing answers"))
    for second in range(1, 25):
        now[0] = float(second)
        say(Notice.of((f"{60 - second} s left", Tone.QUIET), live=True))
    assert console.file.getvalue().splitlines() == ["nothing answers", "50 s left", "40 s left"]


def test_a_live_notice_is_rewritten_in_place_on_a_terminal():
    console = Console(file=io.StringIO(), width=80, force_terminal=True, color_system=None)
    say = notice_printer(console)
    say(Notice.of(("58 s left", Tone.QUIET), live=True))
    say(Notice.of(("57 s left", Tone.QUIET), live=True))
    say(Notice.of("joined"))
    out = console.file.getvalue()
    erase = "\x1b[2K"
    assert out.count(erase) == 2 and out.endswith(erase + "joined\n")
    assert "58 s left" in out and "57 s left" in out and out.count("\n") == 1


def test_why_an_attempt_failed_in_words():
    assert why_unreachable(ConnectionRefusedError(111, "refused")) == Unreachable("connection refused", False)
    assert why_unreachable(TimeoutError()) == Unreachable("the connection timed out", False)
    assert why_unreachable(socket.gaierror(-2, "Name or service not known")).reason == \
        "the host name is not known: Name or service not known"
    assert why_unreachable(InvalidMessage("did not receive a valid HTTP response")) == \
        Unreachable("the server closed the connection during the handshake (it may be full)", True)

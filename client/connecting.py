"""Reaching the server: the URL checked before anything is tried, then attempts retried with a countdown.

``check_server_url`` refuses what can never work (``http://``, a missing ``ws://``) with one line
saying how to write the URL. ``connect_waiting`` tries, and while nothing answers it says so at
once with the reason (connection refused, an unknown host, a server that closes during the
handshake because it is full), counts down the time left in live notices (``Notice.live``: a
terminal shows them on one line, plain output every few seconds) and raises ``ServerUnavailable``
when the time is up.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidHandshake, InvalidMessage, InvalidStatus, InvalidURI

from shared.protocol import MAX_SERVER_FRAME_BYTES

from .notices import Notice, Say, Tone

__all__ = ["ServerUnavailable", "Unreachable", "check_server_url", "connect_waiting", "why_unreachable",
           "COUNTDOWN_EVERY_S"]

#: Seconds between two live notices of the countdown.
COUNTDOWN_EVERY_S = 1.0
_OPEN_TIMEOUT_S = 10.0    # one attempt's TCP connection and handshake
_FIRST_OPEN_TIMEOUT_S = 2.0   # the first one's: a host that never answers is said within 2 s, not 10
_MAX_DELAY_S = 1.0        # between attempts, so that a server coming up is joined at once


class ServerUnavailable(ConnectionError):
    """The server could not be reached within the waiting time; the message says why, for people."""


@dataclass(frozen=True)
class Unreachable:
    """Why one attempt failed: ``reason`` for people, ``answered`` when something was listening."""

    reason: str
    answered: bool


def check_server_url(url: str) -> str:
    """``url`` when it is a websocket URL (``ws://HOST:PORT/`` or ``wss://``); else ``ValueError`` saying how to write it."""
    if "://" not in url:
        raise ValueError(f"{url!r} is not a server URL: write ws://{url.strip('/')}/ (or give --host and -p)")
    parts = urlsplit(url)
    if parts.scheme in ("http", "https"):
        fixed = ("wss" if parts.scheme == "https" else "ws") + url[len(parts.scheme):]
        raise ValueError(f"{url!r} is not a websocket URL: the server speaks websockets, write {fixed}")
    if parts.scheme not in ("ws", "wss"):
        raise ValueError(f"{url!r} is not a websocket URL: write ws://HOST:PORT/")
    try:
        _ = parts.port    # urlsplit checks the port only when it is read
    except ValueError:
        raise ValueError(f"{url!r} has no valid port: write ws://HOST:PORT/ with PORT from 1 to 65535") from None
    if not parts.hostname:
        raise ValueError(f"{url!r} names no host: write ws://HOST:PORT/")
    return url


def why_unreachable(exc: BaseException) -> Unreachable:
    """What a failed attempt to connect means, in words (``exc`` from ``websockets.asyncio.client.connect``)."""
    if isinstance(exc, InvalidMessage):
        # A full server (or any peer) that cuts the TCP connection before answering the handshake.
        return Unreachable("the server closed the connection during the handshake (it may be full)", True)
    if isinstance(exc, InvalidStatus):
        return Unreachable(f"it answered HTTP {exc.response.status_code}: not a Quoridor Arena server", True)
    if isinstance(exc, InvalidHandshake):
        return Unreachable(f"the websocket handshake failed: {exc}", True)
    if isinstance(exc, ConnectionRefusedError):
        return Unreachable("connection refused", False)
    if isinstance(exc, socket.gaierror):
        return Unreachable(f"the host name is not known: {exc.strerror or exc}", False)
    if isinstance(exc, TimeoutError):
        return Unreachable("the connection timed out", False)
    if isinstance(exc, OSError):
        return Unreachable(exc.strerror or str(exc) or type(exc).__name__, False)
    return Unreachable(str(exc) or type(exc).__name__, False)


async def connect_waiting(url: str, wait_s: float, say: Say, *, hint: str = "",
                          clock: Callable[[], float] = time.monotonic) -> ClientConnection:
    """Connect to ``url``, retrying for ``wait_s`` seconds; ``ServerUnavailable`` when the time is up.

    ``say`` hears why each new kind of failure happened (at once, not at the end) and a live
    countdown; ``hint`` ends the "is the server running?" question (``check -p/--server``).
    ``ValueError`` for a URL that can never work (``check_server_url``).
    """
    check_server_url(url)
    deadline = clock() + wait_s
    ask = f"is the server running?{' ' + hint if hint else ''}"
    delay = 0.1
    told: Unreachable | None = None
    countdown: asyncio.Task[None] | None = None
    try:
        while True:
            timeout = max(0.1, min(_OPEN_TIMEOUT_S if countdown else _FIRST_OPEN_TIMEOUT_S, deadline - clock()))
            try:
                return await connect(url, open_timeout=timeout, max_size=MAX_SERVER_FRAME_BYTES)   # a big table
            except InvalidURI as exc:            # check_server_url let it through; still one clear line
                raise ValueError(f"{url!r} is not a websocket URL: {exc}") from None
            except (OSError, InvalidHandshake, TimeoutError) as exc:
                why = why_unreachable(exc)
                left = deadline - clock()
                if left < delay:
                    raise ServerUnavailable(_given_up(url, wait_s, why, ask)) from None
                if why != told:
                    told = why
                    say(Notice.of((_retrying(url, why, left, ask), Tone.CAUTION)))
                if countdown is None:
                    countdown = asyncio.get_running_loop().create_task(_count_down(url, deadline, say, clock))
                await asyncio.sleep(delay)
                delay = min(delay * 2, _MAX_DELAY_S)
    finally:
        if countdown is not None:
            countdown.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await countdown


def _retrying(url: str, why: Unreachable, left: float, ask: str) -> str:
    if why.answered:
        return f"{url}: {why.reason}; retrying for {left:.0f} s"
    return f"nothing answers at {url} ({why.reason}); retrying for {left:.0f} s — {ask}"


def _given_up(url: str, wait_s: float, why: Unreachable, ask: str) -> str:
    if why.answered:
        return f"could not join the server at {url} within {wait_s:.0f} s: {why.reason}"
    return f"no server at {url} after {wait_s:.0f} s ({why.reason}); {ask}"


async def _count_down(url: str, deadline: float, say: Say, clock: Callable[[], float]) -> None:
    """A live notice of the seconds left, every ``COUNTDOWN_EVERY_S``, until cancelled."""
    while True:
        await asyncio.sleep(COUNTDOWN_EVERY_S)
        left = max(0.0, deadline - clock())
        say(Notice.of((f"waiting for the server at {url}: {left:.0f} s left", Tone.QUIET), live=True))

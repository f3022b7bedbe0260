"""``LinkRecorder``: what the server's router saw of each connection, for the hostile sections of the load bench.

Installed by ``load_launcher.py --record-links`` in the launcher's own process only (no file of
the server changes): it wraps the ``Router``'s link events (``opened``, ``ready``, ``received``,
``closed``) and ``Peer.close`` and records, per connection, when it was accepted or refused,
when its handshake finished, the key and role of its ``hello``, how many messages the router
was handed (and how many after the server had started closing it), the close the server
started (code, reason, time) and when the TCP connection was gone. It also follows how many
accepted connections had not said hello yet (the server's *pending* ones) and their peak.

Per frame it costs a dictionary look-up and an increment (the hello of each link is parsed
once more); the figures of a run with it are the figures of the server plus that.
"""

from __future__ import annotations

import json
import time
from typing import Any

__all__ = ["LinkRecorder"]


class _Link:
    __slots__ = ("opened", "ready", "settled", "key", "role", "frames", "after_close", "close", "closed")

    def __init__(self, opened: float) -> None:
        self.opened = opened
        self.ready: float | None = None
        self.settled: float | None = None        # when its hello was taken (no longer pending)
        self.key: str | None = None
        self.role: str | None = None
        self.frames = 0
        self.after_close = 0                     # messages handed to the router once the server began closing it
        self.close: tuple[float, int, str] | None = None
        self.closed: float | None = None


class LinkRecorder:
    """Counts the router's view of every connection; ``install`` wraps the server's classes in this process."""

    def __init__(self) -> None:
        self.links: dict[int, _Link] = {}
        self.done: list[_Link] = []
        self.refused: list[float] = []
        self.pending = 0
        self.pending_peak = 0

    def install(self) -> None:
        """Wrap ``Router.opened/ready/received/closed`` and ``Peer.close`` (this process only)."""
        from server.net.connection import Peer
        from server.router import Router

        recorder = self
        opened, ready, received, closed, close = Router.opened, Router.ready, Router.received, Router.closed, Peer.close

        def opened_(router: Any, link: Any) -> bool:
            ok = opened(router, link)
            recorder._opened(link, ok)
            return ok

        def ready_(router: Any, link: Any) -> None:
            ready(router, link)
            entry = recorder.links.get(id(link))
            if entry is not None:
                entry.ready = time.monotonic()

        def received_(router: Any, link: Any, payload: bytes, text: bool, arrived: float) -> None:
            entry = recorder.links.get(id(link))
            if entry is not None:
                entry.frames += 1
                if link.peer.closed:
                    entry.after_close += 1
                elif entry.settled is None and entry.key is None:
                    entry.key, entry.role = _hello(payload)
            received(router, link, payload, text, arrived)
            if entry is not None and entry.settled is None and link.peer.role is not None:
                entry.settled = arrived
                recorder.pending -= 1

        def closed_(router: Any, link: Any) -> None:
            closed(router, link)
            entry = recorder.links.pop(id(link), None)
            if entry is not None:
                entry.closed = time.monotonic()
                if entry.settled is None:
                    recorder.pending -= 1
                recorder.done.append(entry)

        def close_(peer: Any, code: int = 1000, reason: str = "") -> None:
            entry = recorder.links.get(id(peer.link))
            if entry is not None and entry.close is None and not peer.closed:
                entry.close = (time.monotonic(), code, reason)
            close(peer, code, reason)

        Router.opened, Router.ready, Router.received, Router.closed = opened_, ready_, received_, closed_  # type: ignore[method-assign]
        Peer.close = close_  # type: ignore[method-assign]

    def _opened(self, link: Any, ok: bool) -> None:
        now = time.monotonic()
        if not ok:
            self.refused.append(now)
            return
        self.links[id(link)] = _Link(now)
        self.pending += 1
        self.pending_peak = max(self.pending_peak, self.pending)

    def report(self) -> dict[str, Any]:
        """Everything recorded, as JSON-ready values: players in aggregate, every other connection in full."""
        entries = self.done + list(self.links.values())
        players = [e for e in entries if e.role == "player" and not (e.key or "").startswith("flood")]
        others = [e for e in entries if e not in players]
        return {
            "refused": self.refused,
            "pending_peak": self.pending_peak,
            "players": {"count": len(players), "frames": sum(e.frames for e in players),
                        "closed_by_server": sum(e.close is not None and e.close[1] != 1000 for e in players)},
            "links": [{"opened": e.opened, "ready": e.ready, "settled": e.settled, "key": e.key, "role": e.role,
                       "frames": e.frames, "after_close": e.after_close, "close": e.close, "closed": e.closed}
                      for e in others],
        }


def _hello(payload: bytes) -> tuple[str | None, str | None]:
    """The key and role of a hello frame (None, None for anything else)."""
    try:
        message = json.loads(payload)
    except ValueError:
        return None, None
    if not isinstance(message, dict) or message.get("type") != "hello":
        return None, None
    return str(message.get("key")), str(message.get("role", "player"))

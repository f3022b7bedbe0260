"""Which web pages may open a websocket to the server: its own, and the origins the organiser allows. Pure.

A browser sends an ``Origin`` header with every websocket it opens (RFC 6455 4.1, RFC 6454): the
scheme, host and port of the page that opened it. A page of another site, opened by a student,
could otherwise join an open server as a player with a key of its choosing, or hand a bot in for
it. Bots send no ``Origin`` (the websockets library, the course's C++ client, ``curl``): they are
never refused here. The server's own pages are served from the address the browser asked for, so
their ``Origin`` names the request's ``Host``; any other origin needs ``--allow-origin ORIGIN``
(a page hosted elsewhere, or a reverse proxy that rewrites ``Host``).
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

__all__ = ["OriginCheck", "normal_origin"]

_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def normal_origin(text: str) -> str:
    """``text`` as an origin in one spelling (lowercase, no default port, no trailing slash), or ``"null"``.

    ``ValueError`` (one line quoting it) when it is not ``scheme://host[:port]``.
    """
    stripped = text.strip()
    if stripped.lower() == "null":      # the origin of a file:// page or a sandboxed frame
        return "null"
    try:
        parts = urlsplit(stripped.rstrip("/"))
        port = parts.port
    except ValueError:
        parts, port = None, None
    if (parts is None or parts.scheme.lower() not in _DEFAULT_PORTS or not parts.hostname or parts.path
            or parts.query or parts.fragment or parts.username is not None):
        raise ValueError(f"{text!r} is not an origin: expected scheme://host[:port], for example "
                         "https://arena.example.org or http://localhost:8000")
    scheme = parts.scheme.lower()
    host = parts.hostname.lower()
    if ":" in host:                     # an IPv6 address keeps its brackets
        host = f"[{host}]"
    return f"{scheme}://{host}" if port in (None, _DEFAULT_PORTS[scheme]) else f"{scheme}://{host}:{port}"


def _host_port(netloc: str, default: int) -> tuple[str, int] | None:
    """The host (lowercase) and port of a ``Host`` header or an origin's netloc; None when it is malformed."""
    try:
        parts = urlsplit(f"//{netloc}")
        return (parts.hostname or "").lower(), parts.port or default
    except ValueError:
        return None


class OriginCheck:
    """Decides whether a websocket upgrade's ``Origin`` may connect: none, the request's own host, or ``allowed``."""

    def __init__(self, allowed: Iterable[str] = ()) -> None:
        self.allowed = frozenset(normal_origin(origin) for origin in allowed)

    def admits(self, origin: str | None, host: str | None) -> bool:
        """True for an upgrade without ``Origin`` (a bot), from a page of the server itself, or of an allowed origin."""
        if origin is None:
            return True
        try:
            normal = normal_origin(origin)
        except ValueError:
            return False
        if normal in self.allowed:
            return True
        if normal == "null" or host is None:
            return False
        scheme, _, netloc = normal.partition("://")
        default = _DEFAULT_PORTS[scheme]
        own = _host_port(host, default)
        return own is not None and own[0] != "" and own == _host_port(netloc, default)

"""Answer an HTTP GET with a page or a static file, before any websocket handshake. Pure but for reading files.

``answer_http(request)`` returns ``None`` for a websocket handshake (the caller accepts it) and a
``Response`` for anything else: a page, a file of ``shared.web``'s ``static/`` folder, a 404, or
a 405 for any method but GET. Paths are decoded once and must name a file of the static folder
itself: no ``..``, no slashes in a name, no encoded tricks. Every response forbids framing and
carries a Content-Security-Policy that lets the page run its own scripts only and connect to its
own websocket. ``GET /analysis/<GAME>.json`` is a game's analysis as JSON, answered by the server's
``Analyses`` (``server.analysis.pages``) when it keeps them (``GAME`` percent-decoded once; a path of
the data directory may be given with its slash as is or as ``%2F``).
"""

from __future__ import annotations

import email.utils
import re
from collections.abc import Callable
from http import HTTPStatus
from urllib.parse import unquote, urlsplit

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from shared.web import PAGES, STATIC

__all__ = ["ANALYSIS_ROUTE", "AnalysisAnswer", "CONTENT_TYPES", "FAVICON", "FAVICON_ROUTE", "answer_http", "csp",
           "forbidden_origin", "is_upgrade", "method_not_allowed", "static_name"]

CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png",
                 ".ico": "image/x-icon"}
"""The types of the files served; a file of any other kind is not served."""


#: The pages' icon (``<link rel="icon">`` in each page's head), and the path browsers ask for it by default.
FAVICON = "favicon.svg"
FAVICON_ROUTE = "/favicon.ico"

#: The analyses' route: ``/analysis/<GAME>.json``.
ANALYSIS_ROUTE = "/analysis/"
#: The answerer of ``GET /analysis/<GAME>.json``: the game as decoded, to the status and the JSON body.
AnalysisAnswer = Callable[[str], tuple[HTTPStatus, bytes]]

_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*\.[a-z]+$")
_HOST = re.compile(r"^[A-Za-z0-9.\-\[\]:]{1,255}$")


def csp(host: str | None) -> str:
    """The Content-Security-Policy: own scripts, styles and images only, and a websocket to this host."""
    connect = "'self'"
    if host is not None and _HOST.match(host):
        connect += f" ws://{host} wss://{host}"
    return ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            f"connect-src {connect}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def static_name(path: str) -> str | None:
    """The static file a URL path names (``/static/board.js`` -> ``board.js``, ``/favicon.ico`` -> the icon), or None.

    The path is percent-decoded once; a name holding anything but lowercase letters, digits,
    ``-``, ``_`` and one extension (so no ``/``, ``\\``, ``..`` or ``%``) names nothing.
    """
    route = urlsplit(path).path
    if route in PAGES:
        return PAGES[route]
    if route == FAVICON_ROUTE:          # asked for by browsers (and tools) whatever the pages link
        return FAVICON
    if route.endswith(".html") and route[1:] in PAGES.values():
        return route[1:]
    if not route.startswith("/static/"):
        return None
    name = unquote(route[len("/static/"):])
    if not _NAME.match(name) or ".." in name:
        return None
    return name


def _response(status: HTTPStatus, body: bytes, content_type: str, host: str | None,
              extra: tuple[tuple[str, str], ...] = ()) -> Response:
    headers = Headers([
        ("Date", email.utils.formatdate(usegmt=True)),
        ("Content-Type", content_type),
        ("Content-Length", str(len(body))),
        ("Content-Security-Policy", csp(host)),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-cache"),
        ("Connection", "close"),
        *extra,
    ])
    return Response(status.value, status.phrase, headers, body)


def method_not_allowed(host: str | None = None) -> Response:
    """405 for anything but GET: the pages are read-only."""
    return _response(HTTPStatus.METHOD_NOT_ALLOWED, b"405 method not allowed: this server answers GET only\n",
                     "text/plain; charset=utf-8", host, (("Allow", "GET"),))


def forbidden_origin(host: str | None) -> Response:
    """403 for a websocket upgrade from a page of an origin the server does not allow (``server.net.origins``)."""
    return _response(HTTPStatus.FORBIDDEN, b"403 forbidden: this server takes websockets from its own pages and from "
                     b"bots; the organiser may allow another site's pages with --allow-origin\n",
                     "text/plain; charset=utf-8", host)


def is_upgrade(request: Request) -> bool:
    """True for a websocket handshake (an ``Upgrade: websocket`` request)."""
    return "websocket" in request.headers.get("Upgrade", "").lower()


def answer_http(request: Request, analyses: AnalysisAnswer | None = None) -> Response | None:
    """The response to a plain HTTP request, or None for a websocket handshake (see the module doc); ``analyses``
    answers ``/analysis/<GAME>.json`` (None: 404, this server keeps none)."""
    if is_upgrade(request):
        return None
    host = request.headers.get("Host")
    if getattr(request, "method", "GET") != "GET":
        return method_not_allowed(host)
    route = urlsplit(request.path).path
    if route.startswith(ANALYSIS_ROUTE) and route.endswith(".json"):
        if analyses is None:
            return _not_found(host)
        status, body = analyses(unquote(route[len(ANALYSIS_ROUTE):-len(".json")]))
        return _response(status, body, "application/json", host)
    name = static_name(request.path)
    if name is None:
        return _not_found(host)
    kind = CONTENT_TYPES.get("." + name.rsplit(".", 1)[-1])
    target = STATIC / name
    if kind is None or not target.is_file():
        return _not_found(host)
    return _response(HTTPStatus.OK, target.read_bytes(), kind, host)


def _not_found(host: str | None) -> Response:
    return _response(HTTPStatus.NOT_FOUND, b"404 not found\n", "text/plain; charset=utf-8", host)

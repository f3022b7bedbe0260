"""The browser pages: plain HTML, CSS and JavaScript modules shipped as package data (``static/``).

No Python here opens them: the server's ``server.web.http`` serves them, and ``quoridor-replay
--html`` inlines the renderer (``board.js``, ``player.js``, and ``analysis.js`` with a game's
analysis) into one self-contained page. The renderer is a pure function from a ``game_update``'s
board to SVG, one player for live and finished games (``player.js``: mount / render / unmount);
``analysis.js`` draws a game's analysis beside it (the evaluation graph, labels, best-step ghosts).
"""

from importlib.resources import files
from importlib.resources.abc import Traversable

__all__ = ["PAGES", "STATIC"]

STATIC: Traversable = files(__name__) / "static"
"""The folder of static files (a ``Traversable``: read it with ``read_bytes``)."""

PAGES = {"/": "index.html", "/game": "game.html", "/tv": "tv.html", "/replays": "replays.html",
         "/puzzles": "puzzles.html", "/submit": "submit.html", "/organiser": "organiser.html"}
"""The pages by URL path (``/submit`` hands a bot in, as a submitter; ``/organiser`` asks for the organiser's page with
a key typed into it: the two pages that send a key, in a frame, never in the URL)."""

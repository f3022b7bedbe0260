"""The browser's player inlined into a ``quoridor-replay --html`` page: the same renderer as the server's pages.

``game_record(game)`` is a ``ReplayGame`` in the form of the protocol's ``game_record`` (each step a
``game_update``), and ``player_block(game, analysis)`` the HTML that shows it with ``shared/web``'s
``board.js`` and ``player.js``, inlined (no files, no server: the page stands alone), with the game's
analysis (``GameAnalysis.to_json()``) drawn by the game page's own ``analysis.js`` when one is given;
``page_style(extra)`` is the site's stylesheet for the page's head, and ``site_palette()`` its
colours, which the exported pictures use too (one palette: the page's and the picture's pawns,
walls and goal rows are the same). String building; the page stays well-formed XML (script and
style in CDATA sections).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from shared.quoridor import BlockBar, Location
from shared.web import STATIC

from .frames import ReplayGame

__all__ = ["game_record", "inline_modules", "page_style", "player_block", "site_palette"]

_IMPORT = re.compile(r"^import .*?;\s*$", re.MULTILINE)
_EXPORT = re.compile(r"^export (?=(const|function|class|let) )", re.MULTILINE)
_COLOUR = re.compile(r"--([a-z0-9-]+):\s*(#[0-9a-fA-F]{3,8})\s*;")


@cache
def site_palette() -> dict[str, str]:
    """The site's colours by name (``p0``, ``p1``, ``board``, ``cell``, ``wall``...): style.css's ``:root``."""
    css = (STATIC / "style.css").read_text(encoding="utf-8")
    start = css.index(":root {")
    return dict(_COLOUR.findall(css[start:css.index("}", start)]))


def page_style(extra: str = "") -> str:
    """A ``<style>`` element for the page's head: the site's stylesheet, then ``extra`` (in a CDATA section)."""
    css = (STATIC / "style.css").read_text(encoding="utf-8") + "\n" + extra
    if "]]>" in css:
        raise ValueError("the stylesheet holds ']]>', which would end its CDATA section")
    return f"<style>/*<![CDATA[*/\n{css}\n/*]]>*/</style>"


def _cell(loc: Location) -> list[int]:
    return [loc.x, loc.y]


def _wall(bar: BlockBar) -> list[list[int]]:
    return [[bar.start.x, bar.start.y], [bar.stop.x, bar.stop.y]]


def game_record(game: ReplayGame) -> dict[str, Any]:
    """The game as a ``game_record`` frame (a dict ready for JSON)."""
    steps = []
    for frame in game.frames[1:]:
        pos, sent = frame.position, frame.sent
        wall = None
        if not sent.is_move() and not sent.new_wall.is_none():
            try:
                wall = _wall(sent.new_wall)
            except (AttributeError, ValueError):
                wall = None
        steps.append({
            "type": "game_update", "game": game.key, "players": list(game.players), "turn": frame.step - 1,
            "seat": frame.seat if frame.seat is not None else 0,
            "move": _cell(sent.new_loc) if sent.is_move() else None, "wall": wall,
            "notation": frame.notation, "status": int(frame.status) if frame.status is not None else 0,
            "clocks_ms": list(frame.clocks_ms or (0, 0)),
            "board": {"pawns": [_cell(pos.pawn(0)), _cell(pos.pawn(1))], "walls": [_wall(w) for w in pos.walls],
                      "walls_left": list(pos.walls_left)},
            "over": frame.over, "reason": "; ".join(n for n in (frame.reason, frame.problem, frame.stop) if n),
            "thinking_ms": frame.thinking_ms})
    return {"type": "game_record", "game": game.key, "players": list(game.players), "ruleset": game.ruleset,
            "live": False, "result": game.result() if game.over else None, "winner": game.winner,
            "problems": list(game.problems), "steps": steps}


def inline_modules(*names: str) -> str:
    """The static modules ``names`` as one script: their imports dropped, ``export`` removed (order matters)."""
    parts = []
    for name in names:
        text = (STATIC / name).read_text(encoding="utf-8")
        parts.append(_EXPORT.sub("", _IMPORT.sub("", text)))
    return "\n".join(parts)


def _json(value: Any) -> str:
    # Inside a <script>: no "</script", no "]]>" (the CDATA end), nothing an HTML parser would see.
    return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace(
        "&", "\\u0026")


def player_block(game: ReplayGame, analysis: Mapping[str, Any] | None = None) -> str:
    """The interactive player for ``game``: a section and one inline module (the page's head has ``page_style``).

    With ``analysis`` (a ``GameAnalysis.to_json()``), the player shows it as the game page does: the evaluation
    graph, the labels in the step list, the best step's ghost, each player's accuracy.
    """
    modules = ("board.js", "player.js") + (("analysis.js",) if analysis is not None else ())
    script = (inline_modules(*modules) + f"\nconst RECORD = {_json(game_record(game))};\n"
              "const player = new GamePlayer(document.getElementById('player'), {url: false});\n"
              "player.mount(RECORD, RECORD.steps.length);\nwindow.quoridorPlayer = player;\n")
    if analysis is not None:
        script += f"new AnalysisView(player).show({_json(dict(analysis))});\n"
    if "]]>" in script:
        raise ValueError("the inlined player holds ']]>', which would end its CDATA section")
    return ('<section id="player"></section>\n'
            f'<script type="module">//<![CDATA[\n{script}\n//]]></script>')

"""The browser's player inlined into a ``quoridor-replay --html`` page: the same renderer as the server's pages.

``game_record(game)`` is a ``ReplayGame`` in the form of the protocol's ``game_record`` (each step a
``game_update``), and ``player_block(game)`` the HTML that shows it with ``shared/web``'s
``board.js`` and ``player.js``, inlined (no files, no server: the page stands alone). Pure
string building; the page stays well-formed XML (script and style in CDATA sections).
"""

from __future__ import annotations

import json
import re
from typing import Any

from shared.quoridor import BlockBar, Location
from shared.web import STATIC

from .frames import ReplayGame

__all__ = ["game_record", "inline_modules", "player_block"]

_IMPORT = re.compile(r"^import .*?;\s*$", re.MULTILINE)
_EXPORT = re.compile(r"^export (?=(const|function|class|let) )", re.MULTILINE)


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


def player_block(game: ReplayGame) -> str:
    """The interactive player for ``game``: a section, the stylesheet, and one inline module."""
    css = (STATIC / "style.css").read_text(encoding="utf-8")
    script = (inline_modules("board.js", "player.js") + f"\nconst RECORD = {_json(game_record(game))};\n"
              "const player = new GamePlayer(document.getElementById('player'), {url: false});\n"
              "player.mount(RECORD, RECORD.steps.length);\nwindow.quoridorPlayer = player;\n")
    if "]]>" in script or "]]>" in css:
        raise ValueError("the inlined player holds ']]>', which would end its CDATA section")
    return (f"<style>/*<![CDATA[*/\n{css}\n/*]]>*/</style>\n"
            '<section id="player"></section>\n'
            f'<script type="module">//<![CDATA[\n{script}\n//]]></script>')

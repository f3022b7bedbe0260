"""SVG and HTML exports of a replay, for reports: one position, or the whole game in one picture.

The text is built here (pure string functions, escaped); ``SvgView`` and ``HtmlView`` write it to
a file. One position: the board after a step, the step's wall and the pawn that moved stand out.
The whole game: the final board, each pawn's path over the game, every wall numbered with the
step that placed it. The HTML page adds the table of steps and every position, folded; given the
game's analysis (``GameAnalysis.to_json()``), its player draws the evaluation graph, the labels and
the engine's best steps as the game page does, and its table marks the labelled steps. Pictures
and page are in the site's colours (``site_palette``, the web player's): one palette throughout.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from pathlib import Path
from typing import Any

from shared.analysis import analysis_key
from shared.gamelog import LogFormatError
from shared.quoridor import SIZE, BlockBar, Location, Position

from .analysed import read_stored
from .frames import STATUS_NAMES, Frame, ReplayGame, describe_step
from .sources import read_log_bytes
from .views import format_ms
from .webpage import page_style, player_block, site_palette

__all__ = ["position_svg", "game_svg", "game_html", "kept_analysis", "SvgView", "HtmlView", "ExportError"]

_CELL, _GAP, _MARGIN = 36, 8, 26
_PITCH = _CELL + _GAP
_BOARD = 2 * _MARGIN + SIZE * _PITCH + _GAP
_PALETTE = site_palette()                   # the web player's colours (shared/web/static/style.css)
_COLOURS = (_PALETTE["p0"], _PALETTE["p1"])                 # seat 0 blue, seat 1 red
_GOAL_TINTS = (_PALETTE["goal0"], _PALETTE["goal1"])        # seat 0's goal row (9), seat 1's (1)
_WALL, _LAST, _BAD, _WARN = _PALETTE["wall"], _PALETTE["wall-last"], _PALETTE["bad"], "#92400e"
_INK, _MUTED = _PALETTE["ink"], _PALETTE["muted"]
_FONT = "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\""


class ExportError(ValueError):
    """A file that cannot be written."""


def _grid(i: int) -> int:
    """Pixel of grid line ``i`` (0..9) from the left (its groove's left edge)."""
    return _MARGIN + i * _PITCH


def _grid_y(j: int) -> int:
    """Pixel of grid line ``j`` (0..9) from the top (y grows upwards on the board)."""
    return _MARGIN + (SIZE - j) * _PITCH


def _centre(loc: Location) -> tuple[float, float]:
    return _grid(loc.x - 1) + _GAP + _CELL / 2, _grid_y(loc.y) + _GAP + _CELL / 2


def _wall_rect(wall: BlockBar, colour: str, extra: str = "") -> str:
    start, _ = wall.normalized()
    if wall.is_h():
        x, y, w, h = _grid(start.x), _grid_y(start.y), 2 * _PITCH + _GAP, _GAP
    else:
        x, y, w, h = _grid(start.x), _grid_y(start.y + 2), _GAP, 2 * _PITCH + _GAP
    return f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="2" fill="{colour}"{extra}/>'


def _wall_centre(wall: BlockBar) -> tuple[float, float]:
    start, _ = wall.normalized()
    if wall.is_h():
        return _grid(start.x + 1) + _GAP / 2, _grid_y(start.y) + _GAP / 2
    return _grid(start.x) + _GAP / 2, _grid_y(start.y + 1) + _GAP / 2


def _board(pos: Position, labels: dict[BlockBar, str] | None = None, *, last_wall: BlockBar | None = None,
           moved: Location | None = None, trails: tuple[list[Location], list[Location]] | None = None) -> list[str]:
    """The SVG elements of a board: cells, goal rows, walls, optional trails and labels, pawns."""
    side = SIZE * _PITCH + _GAP
    out = [f'<rect x="0" y="0" width="{_BOARD}" height="{_BOARD}" fill="{_PALETTE["panel"]}"/>',
           f'<rect x="{_MARGIN}" y="{_MARGIN}" width="{side}" height="{side}" rx="6" fill="{_PALETTE["board"]}"/>']
    # One path per colour of cells, not 81 rects: the HTML page holds a board per step.
    for fill, rows in ((_GOAL_TINTS[0], [SIZE]), (_PALETTE["cell"], range(2, SIZE)), (_GOAL_TINTS[1], [1])):
        squares = "".join(f"M{_grid(x - 1) + _GAP} {_grid_y(y) + _GAP}h{_CELL}v{_CELL}h-{_CELL}z"
                          for y in rows for x in range(1, SIZE + 1))
        out.append(f'<path d="{squares}" fill="{fill}"/>')
    if moved is not None and moved.is_valid():          # the cell the pawn moved to, as the web board marks it
        cx, cy = _centre(moved)
        out.append(f'<rect x="{cx - _CELL / 2:g}" y="{cy - _CELL / 2:g}" width="{_CELL}" height="{_CELL}" '
                   f'fill="{_PALETTE["moved"]}"/>')
    for i in range(SIZE):
        out.append(f'<text x="{_grid(i) + _GAP + _CELL / 2}" y="{_BOARD - 8}" text-anchor="middle" '
                   f'font-size="13" fill="{_MUTED}">{"abcdefghi"[i]}</text>')
        out.append(f'<text x="{_MARGIN / 2}" y="{_grid_y(i + 1) + _GAP + _CELL / 2 + 5}" text-anchor="middle" '
                   f'font-size="13" fill="{_MUTED}">{i + 1}</text>')
    if trails is not None:
        for seat, cells in enumerate(trails):
            points = " ".join(f"{cx:g},{cy:g}" for cx, cy in map(_centre, cells))
            out.append(f'<polyline points="{points}" fill="none" stroke="{_COLOURS[seat]}" stroke-width="4" '
                       f'stroke-opacity="0.6" stroke-linejoin="round" stroke-linecap="round"/>')
    for wall in pos.walls:
        if wall == last_wall:
            out.append(_wall_rect(wall, _LAST, ' stroke="#ffffff" stroke-width="1.5"'))
        else:
            out.append(_wall_rect(wall, _WALL))
    for wall, label in (labels or {}).items():
        cx, cy = _wall_centre(wall)
        out.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="9" fill="#fff7ed" stroke="{_WALL}" stroke-width="1.5"/>')
        out.append(f'<text x="{cx:g}" y="{cy + 3.5:g}" text-anchor="middle" font-size="9.5" '
                   f'fill="#7c2d12">{escape(label)}</text>')
    for seat in (0, 1):
        cx, cy = _centre(pos.pawn(seat))
        out.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{_CELL * 0.36:g}" fill="{_COLOURS[seat]}" stroke="#ffffff" '
                   'stroke-width="2"/>')
        out.append(f'<text x="{cx:g}" y="{cy + 5:g}" text-anchor="middle" font-size="15" font-weight="bold" '
                   f'fill="#ffffff">{seat}</text>')
    return out


def _svg(body: list[str], lines: list[tuple[str, str]], title: str) -> str:
    """An SVG document: the board, then one text line per ``(text, colour)`` under it."""
    height = _BOARD + 10 + 18 * len(lines)
    texts = [f'<text x="{_MARGIN}" y="{_BOARD + 16 + 18 * n}" font-size="13" fill="{colour}">{escape(text)}</text>'
             for n, (text, colour) in enumerate(lines)]
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_BOARD}" height="{height}" '
            f'viewBox="0 0 {_BOARD} {height}" {_FONT}>\n<title>{escape(title)}</title>\n'
            + "\n".join(body + texts) + "\n</svg>\n")


def _players(game: ReplayGame) -> str:
    return f"{game.players[0]} (0) vs {game.players[1]} (1)"


def _frame_lines(game: ReplayGame, frame: Frame) -> list[tuple[str, str]]:
    lines = [(f"{_players(game)} · {game.ruleset} rules · {game.result()}", _INK)]
    if frame.seat is None and frame.player is None:
        lines.append((f"step {frame.step}/{game.last_step}: the start", _INK))
    else:
        status = STATUS_NAMES.get(frame.status, "?") if frame.status is not None else "?"
        lines.append((f"step {frame.step}/{game.last_step}: {frame.player} "
                      f"{describe_step(frame.sent, frame.status)} · {status}", _INK))
    if frame.ignored_wall_note:
        lines.append((frame.ignored_wall_note, _WARN))
    if frame.reason:
        lines.append((frame.reason, _BAD if frame.is_violation else _INK))
    if frame.problem is not None:
        lines.append((f"the log disagrees with the rules (line {frame.line}): {frame.problem}", _BAD))
    if frame.stop is not None:
        lines.append((f"line {frame.line}: {frame.stop}", _BAD))
    if frame.unverified_note:
        lines.append((frame.unverified_note, _WARN))
    left = frame.position.walls_left
    lines.append((f"walls left {left[0]} · {left[1]}   violations {frame.violations[0]} · {frame.violations[1]}",
                  _MUTED))
    return lines


def position_svg(game: ReplayGame, index: int) -> str:
    """An SVG of frame ``index``: the board, the step's wall and the moved pawn's cell marked, the step in words."""
    frame = game.frames[index]
    applied = frame.applied
    last_wall = frame.sent.new_wall.normalized() if applied and not frame.sent.is_move() else None
    moved = frame.sent.new_loc if applied and frame.sent.is_move() else None
    body = _board(frame.position, last_wall=last_wall, moved=moved)
    return _svg(body, _frame_lines(game, frame), f"{_players(game)}, step {frame.step}")


def _history(game: ReplayGame) -> tuple[dict[BlockBar, str], tuple[list[Location], list[Location]]]:
    """Each wall of the last frame with the step that placed it, and each pawn's cells over the game."""
    labels: dict[BlockBar, str] = {}
    trails: tuple[list[Location], list[Location]] = ([], [])
    for frame in game.frames:
        for seat in (0, 1):
            cell = frame.position.pawn(seat)
            if not trails[seat] or trails[seat][-1] != cell:
                trails[seat].append(cell)
        if frame.applied and not frame.sent.is_move() and not frame.sent.new_wall.is_none():
            wall = frame.sent.new_wall.normalized()
            if frame.position.has_wall(wall):
                labels.setdefault(wall, str(frame.step))
    return labels, trails


def game_svg(game: ReplayGame) -> str:
    """An SVG of the whole game: the final board, both pawns' paths, every wall numbered by its step."""
    labels, trails = _history(game)
    last = game.frames[-1]
    body = _board(last.position, labels, trails=trails)
    lines = [(f"{_players(game)} · {game.ruleset} rules", _INK),
             (f"{game.last_step} steps · {game.result()}", _INK),
             ("lines: the pawns' paths · numbers: the step that placed each wall", _MUTED)]
    lines += [(f"disagrees with the rules: {problem}", _BAD) for problem in game.problems[:3]]
    if game.unverified_from is not None:
        lines.append((f"unverified after line {game.unverified_from}: rows drawn as the log gives them", _WARN))
    return _svg(body, lines, f"{_players(game)}, the whole game")


# The page's own rules, after the site's stylesheet: margins, pictures no wider than the window, the table of
# steps scrolling in its own box (a phone's 390 px never scroll the page sideways; tests/server/web/test_pages.py).
_CSS = """body.export{max-width:110rem;margin:0 auto;padding:16px clamp(12px,3vw,48px) 40px}
.export figure{margin:1em 0}.export figure svg,.export details svg{display:block;max-width:100%;height:auto}
table.steps{display:block;overflow-x:auto;margin:1em 0}table.steps td,table.steps th{border:1px solid var(--line)}
tr.bad td{color:var(--bad);font-weight:bold}h1 .p0,table.steps .p0{color:var(--p0);font-weight:bold}
h1 .p1,table.steps .p1{color:var(--p1);font-weight:bold}.problem{color:var(--bad);font-weight:bold}
details{margin:.3em 0}tr.unverified td{color:#92400e;font-style:italic}.unverified{color:#92400e}
.export #player{margin:1em 0}"""


def _svg_inline(svg: str) -> str:
    return svg.replace('<svg xmlns="http://www.w3.org/2000/svg" ', "<svg ", 1).strip()


#: Lichess's symbols of the analysis's labels (shared/web/static/analysis.js has the same).
_SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??", "violation": "\u2717"}


def _judgements(analysis: Mapping[str, Any] | None) -> dict[int, tuple[str, str]]:
    """Each labelled ply of an analysis's JSON form: its label and a note (the reason, the engine's best step)."""
    out: dict[int, tuple[str, str]] = {}
    for ply in (analysis or {}).get("plies", ()):
        if ply.get("label") in _SYMBOLS:
            best = ply.get("best")
            better = f"best: {best}" if best and best != ply.get("played") else ""
            out[int(ply["ply"])] = (ply["label"], "; ".join(n for n in (ply.get("reason"), better) if n))
    return out


def kept_analysis(log_path: Path) -> dict[str, Any] | None:
    """The analysis kept beside the log at ``log_path`` (``<log>.analysis.json``, written by the server and
    ``quoridor-analyse``) in its JSON form, when it is up to date (the log and the engine unchanged); else None."""
    try:
        kept = read_stored(log_path, analysis_key(read_log_bytes(log_path)))
    except LogFormatError:
        return None
    return kept.to_json() if kept is not None else None


def _ply_note(analysis: Mapping[str, Any] | None, step: int, players: tuple[str, str]) -> str:
    """What the analysis says of step ``step`` (1-based), in words; "" when it says nothing of it."""
    plies = (analysis or {}).get("plies", ())
    if not 1 <= step <= len(plies):
        return ""
    ply = plies[step - 1]
    chance = ply["chance_after"] if ply["seat"] == 0 else -ply["chance_after"]
    label = ply.get("label")
    words = [f"{label} {_SYMBOLS[label]}" if label in _SYMBOLS else "",
             ply.get("reason") or "",
             f"the engine's best step: {ply['best']}" if ply.get("best") and ply["best"] != ply.get("played") else "",
             f"{players[0]}'s winning chance after it: {round(50 * (1 + chance))}%"]
    return f"step {step}: " + "; ".join(w for w in words if w)


def game_html(game: ReplayGame, index: int | None = None, *, analysis: Mapping[str, Any] | None = None) -> str:
    """An HTML page (also well-formed XML): the game's facts, its board(s) and the table of its steps.

    With ``index``, the page shows that position; without, the whole-game picture and every position. With
    ``analysis`` (a ``GameAnalysis.to_json()`` of this game), the player draws the evaluation graph and the labels,
    and the table marks each labelled step with its symbol and why.
    """
    judged = _judgements(analysis)
    name = escape(game.title or game.key)
    out = ['<!DOCTYPE html>', '<html lang="en">', '<head><meta charset="utf-8"/>',
           '<meta name="viewport" content="width=device-width, initial-scale=1"/>',
           f"<title>{escape(_players(game))} — {name}</title>", f"{page_style(_CSS)}</head>", '<body class="export">',
           f'<h1><span class="p0">{escape(game.players[0])}</span> vs '
           f'<span class="p1">{escape(game.players[1])}</span></h1>',
           f"<p>{name} · {escape(game.ruleset)} rules · {game.last_step} steps · "
           f"<strong>{escape(game.result())}</strong></p>"]
    out += [f'<p class="problem">The log disagrees with the rules at {escape(p)}</p>' for p in game.problems]
    if game.unverified_from is not None:
        out.append(f'<p class="unverified">From line {game.unverified_from} on, the rules check nothing: '
                   "the rows are drawn as the log gives them (unverified), as the old viewer did.</p>")
    if index is None:       # the browser's player (shared/web), inlined: step through the game in the page
        out.append(player_block(game, analysis))
    out.append(f"<figure>{_svg_inline(position_svg(game, index) if index is not None else game_svg(game))}</figure>")
    note = _ply_note(analysis, game.frames[index].step, game.players) if index is not None else ""
    if note:
        out.append(f'<p class="verdict">{escape(note)}</p>')
    out.append('<table class="steps"><thead><tr><th>step</th><th>player</th><th>step</th><th>status</th>'
               "<th>thinking</th><th>note</th></tr></thead><tbody>")
    for frame in game.frames[1:]:
        seat_class = f' class="p{frame.seat}"' if frame.seat is not None else ""
        status = STATUS_NAMES.get(frame.status, "?") if frame.status is not None else "?"
        note = "; ".join(n for n in (frame.problem, frame.stop, frame.reason, frame.ignored_wall_note,
                                     frame.unverified_note) if n)
        row_class = ' class="bad"' if frame.flagged else ' class="unverified"' if frame.unverified is not None else ""
        label, why = judged.get(frame.step, (None, ""))
        symbol = f' <b class="judgement {label}" title="{label}">{_SYMBOLS[label]}</b>' if label else ""
        note = "; ".join(n for n in (note, f"{label}: {why}" if label and why else label or "") if n)
        out.append(f"<tr{row_class}><td>{frame.step}</td>"
                   f"<td><span{seat_class}>{escape(frame.player or '?')}</span></td>"
                   f"<td>{escape(frame.notation)}{symbol}</td><td>{status}</td><td>{format_ms(frame.thinking_ms)}</td>"
                   f"<td>{escape(note)}</td></tr>")
    out.append("</tbody></table>")
    if index is None:
        out.append("<h2>Positions</h2>")
        for n, frame in enumerate(game.frames):
            summary = "the start" if frame.step == 0 and frame.seat is None else \
                f"{frame.player}: {describe_step(frame.sent, frame.status)}"
            out.append(f"<details><summary>step {frame.step}: {escape(summary)}</summary>"
                       f"{_svg_inline(position_svg(game, n))}</details>")
    out += ["</body>", "</html>", ""]
    return "\n".join(out)


def _write(path: Path, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ExportError(f"{path}: cannot write it: {exc.strerror or exc}") from None


class SvgView:
    """Writes SVG to ``path``: one position (``show``) or the whole game (``show_game``)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def show(self, game: ReplayGame, index: int) -> None:
        """Write frame ``index`` as SVG."""
        _write(self.path, position_svg(game, index))

    def show_game(self, game: ReplayGame) -> None:
        """Write the whole-game picture as SVG."""
        _write(self.path, game_svg(game))


class HtmlView:
    """Writes an HTML page to ``path``: one position (``show``) or the whole game (``show_game``), with the game's
    ``analysis`` (a ``GameAnalysis.to_json()``) when one is given."""

    def __init__(self, path: Path, analysis: Mapping[str, Any] | None = None) -> None:
        self.path = Path(path)
        self.analysis = analysis

    def show(self, game: ReplayGame, index: int) -> None:
        """Write the page of frame ``index``."""
        _write(self.path, game_html(game, index, analysis=self.analysis))

    def show_game(self, game: ReplayGame) -> None:
        """Write the page of the whole game."""
        _write(self.path, game_html(game, analysis=self.analysis))

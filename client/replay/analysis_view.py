"""A game's analysis as rich renderables: the evaluation graph, the labelled step list, a step's note, the text report.

Pure: an analysis (``shared.analysis.GameAnalysis``) in, text out. The interactive screen shows the graph (seat 0's
winning chance over the steps, the step shown marked), the step list (each step's label beside it, the engine's best
step beside the played one) and the note of the step shown; ``quoridor-replay --analyse --print`` prints the report.
Frame k of a replay is the board after ply k, so a frame's index is the ply it shows.
"""

from __future__ import annotations

from rich.console import Group
from rich.text import Text

from client.render import PAWN_STYLES
from shared.analysis import GameAnalysis, PlyAnalysis

__all__ = ["LABEL_MARKS", "LABEL_STYLES", "seat0_chances", "render_graph", "render_step_list", "render_ply_note",
           "render_player_lines", "render_report", "label_text"]

LABEL_MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??", "violation": "✗"}
"""The mark beside a labelled step, as chess annotates moves (a violation: a timeout or an illegal step)."""
LABEL_STYLES = {"inaccuracy": "bold yellow", "mistake": "bold dark_orange", "blunder": "bold red",
                "violation": "bold red"}
"""Each label's colour on the screen."""
_PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders", "violation": "violations"}
_EIGHTHS = " ▁▂▃▄▅▆▇█"


def seat0_chances(analysis: GameAnalysis) -> list[float]:
    """Seat 0's winning chance (-1..1) at the start and after each ply: the graph's values, index = ply."""
    plies = analysis.plies
    if not plies:
        return [0.0]
    first = plies[0]
    start = first.chance_before if first.seat == 0 else -first.chance_before
    return [start, *(ply.chance_after if ply.seat == 0 else -ply.chance_after for ply in plies)]


def render_graph(analysis: GameAnalysis, current: int | None = None, *, width: int = 80, height: int = 4) -> Text:
    """Seat 0's winning chance over the game as bars ``height`` rows high (full: seat 0 wins, empty: seat 1 does),
    at most ``width`` columns (long games are sampled); labelled steps in their label's colour, ``current`` (a ply)
    marked under the bars with ``▲``."""
    values = seat0_chances(analysis)
    last = len(values) - 1
    width = max(width, 2)
    if len(values) <= width:      # a short game: each value as wide as fits, up to 3 columns
        repeat = min(3, width // len(values))
        index_of = [index for index in range(len(values)) for _ in range(repeat)]
    else:                         # a long one: sampled
        index_of = [round(c * last / (width - 1)) for c in range(width)]
    labelled = {ply.ply: ply.label for ply in analysis.plies if ply.label is not None}
    mark = None
    if current is not None:
        current = max(0, min(current, last))
        mark = min(range(len(index_of)), key=lambda c: (abs(index_of[c] - current), c))
    text = Text()
    for row in range(height - 1, -1, -1):
        for column, index in enumerate(index_of):
            eighths = round((values[index] + 1) / 2 * height * 8)
            fill = max(0, min(8, eighths - row * 8))
            label = labelled.get(index)
            style = "reverse" if column == mark else LABEL_STYLES[label] if label else PAWN_STYLES[0]
            text.append(_EIGHTHS[fill] if fill else "·" if row == height // 2 and fill == 0 else " ", style)
        text.append("\n")
    if mark is not None:
        text.append(" " * mark + "▲")
    return text


def label_text(label: str | None) -> Text:
    """``?? blunder`` in the label's colour; empty for an unlabelled step."""
    if label is None:
        return Text()
    return Text(f"{LABEL_MARKS.get(label, '')} {label}".strip(), LABEL_STYLES.get(label, "bold"))


def _chance(value: float) -> str:
    return f"{value:+.2f}"


def render_step_list(analysis: GameAnalysis, current: int, rows: int = 20) -> Text:
    """Up to ``rows`` lines of the step list around ply ``current``: ply, who, the played step, its label's mark
    (``LABEL_MARKS``) and the engine's best step where it differs; the current ply stands out."""
    names = tuple(player.name for player in analysis.players)
    lines = [Text("   0 the start")]
    for ply in analysis.plies:
        line = Text(f"{ply.ply:>4} ")
        line.append(f"{names[ply.seat][:8]:<8}", PAWN_STYLES[ply.seat])
        line.append(f" {ply.played or '-':<4} ")
        if ply.label is not None:        # the mark only: the note of the step shown names the label
            line.append(f"{LABEL_MARKS.get(ply.label, ''):<2}", LABEL_STYLES.get(ply.label, "bold"))
            if ply.best is not None and ply.best != ply.played:
                line.append(f" best {ply.best}")
        lines.append(line)
    current = max(0, min(current, len(lines) - 1))
    start = max(0, min(current - rows // 2, len(lines) - rows))
    text = Text()
    for index in range(start, min(len(lines), start + rows)):
        line = lines[index]
        if index == current:
            line.stylize("reverse")
        text.append_text(line).append("\n")
    text.rstrip()
    return text


def render_ply_note(analysis: GameAnalysis, index: int) -> Text:
    """What the analysis says of ply ``index`` (the frame shown): the label and why, best and played steps with
    the mover's chances, both shortest paths; seat 0's chance at the start (``index`` 0)."""
    if index <= 0 or index > len(analysis.plies):
        chances = seat0_chances(analysis)
        return Text(f"analysis: {analysis.players[0].name}'s winning chance {_chance(chances[0])} at the start")
    ply = analysis.plies[index - 1]
    text = Text("analysis: ")
    if ply.label is not None:
        text.append_text(label_text(ply.label)).append(f" (drop {ply.drop:.2f})")
        if ply.reason:
            text.append(f": {ply.reason}")
        text.append("\n")
    if ply.best is None:
        text.append("the game was over")
        return text
    played = ply.played or "nothing"
    text.append(f"played {played} ({_chance(ply.chance_after)})")
    if ply.best != ply.played:
        text.append(f", best {ply.best} ({_chance(ply.chance_before)})")
    else:
        text.append(", the engine's choice too")
    text.append(f"\npaths {ply.paths_before[0]}·{ply.paths_before[1]} → {ply.paths_after[0]}·{ply.paths_after[1]}, "
                f"walls left {ply.walls_left[0]}·{ply.walls_left[1]}")
    return text


def render_player_lines(analysis: GameAnalysis) -> Text:
    """One line per player: accuracy and steps counted by label."""
    text = Text()
    for player in analysis.players:
        numbers = {label: player.counts.get(label, 0) for label in _PLURALS}
        counts = ", ".join(f"{n} {_PLURALS[label] if n != 1 else label}" for label, n in numbers.items())
        text.append(player.name, PAWN_STYLES[player.seat]).append(f" (seat {player.seat}): accuracy "
                                                                  f"{player.accuracy:.1f}%; {counts}\n")
    text.rstrip()
    return text


def _step_line(ply: PlyAnalysis, names: tuple[str, str]) -> Text:
    line = Text(f"  step {ply.ply:>3} {names[ply.seat]} played {ply.played or 'nothing'}")
    if ply.best is not None and ply.best != ply.played:
        line.append(f" (best {ply.best})")
    line.append(" ").append_text(label_text(ply.label))
    line.append(f", chance {_chance(ply.chance_before)} → {_chance(ply.chance_after)}")
    if ply.reason:
        line.append(f": {ply.reason}")
    return line


def render_report(analysis: GameAnalysis, title: Text | None = None, *, width: int = 80) -> Group:
    """The text report (``--print``): the graph, each player's accuracy and counts, each player's three worst steps
    with their reasons and best steps, then every labelled step in order."""
    names = (analysis.players[0].name, analysis.players[1].name)
    parts: list[Text] = []
    if title is not None:
        parts.append(title)
    parts.append(Text(f"analysis: engine {analysis.engine}, {analysis.nodes:,} nodes per position, "
                      f"{len(analysis.plies)} steps"))
    parts.append(Text(f"\n{names[0]}'s winning chance over the game (top: {names[0]} wins, bottom: {names[1]} wins; "
                      f"{' '.join(f'{LABEL_MARKS[label]} {label}' for label in LABEL_MARKS)}):"))
    parts.append(render_graph(analysis, None, width=width))
    parts.append(render_player_lines(analysis))
    by_ply = {ply.ply: ply for ply in analysis.plies}
    for player in analysis.players:
        worst = [by_ply[n] for n in player.worst if n in by_ply and by_ply[n].label is not None]
        parts.append(Text(f"\nworst steps of {player.name}:" if worst else f"\n{player.name}: no labelled step"))
        parts += [_step_line(ply, names) for ply in worst]
    labelled = [ply for ply in analysis.plies if ply.label is not None]
    parts.append(Text(f"\nevery labelled step ({len(labelled)}):" if labelled else "\nno step was labelled"))
    parts += [_step_line(ply, names) for ply in labelled]
    return Group(*parts)

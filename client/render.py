"""Rich renderables for Quoridor positions: pure functions from a position to a ``Text``."""

from __future__ import annotations

from rich.text import Text

from shared.quoridor import Position, diagram

__all__ = ["render_board", "PAWN_STYLES"]

#: Colour of each player's pawn (player 0 first).
PAWN_STYLES = ("bold bright_cyan", "bold bright_magenta")
_WALL_STYLE = "bold yellow"
_DIM = "grey42"


def render_board(pos: Position, *, status_line: bool = True) -> Text:
    """The diagram of ``pos`` in colour: pawns in their players' colours, walls highlighted."""
    lines = diagram(pos).split("\n")
    if not status_line:
        lines = lines[:-1]
    text = Text()
    last = len(lines) - 1
    for n, line in enumerate(lines):
        for ch in line:
            if ch == "0":
                text.append(ch, PAWN_STYLES[0])
            elif ch == "1":
                text.append(ch, PAWN_STYLES[1])
            elif ch in "-|+" and 1 < n < len(lines) - 2 - status_line:
                text.append(ch, _WALL_STYLE if _is_wall(line, n) else _DIM)
            elif ch == ".":
                text.append(ch, _DIM)
            else:
                text.append(ch)
        if n != last:
            text.append("\n")
    return text


def _is_wall(line: str, n: int) -> bool:
    """Border frames stay dim; characters inside the frame are walls."""
    return not (line.startswith("  +---") or n == 1)

"""A Sokoban position as a coloured ``rich`` ``Text`` (XSB symbols, so it reads the same without colour)."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from shared.sokoban import Level

__all__ = ["STYLES", "board_text"]

#: Style per XSB symbol.
STYLES: dict[str, Style] = {
    "#": Style(color="bright_black", bgcolor="grey23"),
    "$": Style(color="yellow", bold=True),
    "*": Style(color="green", bold=True),
    ".": Style(color="red", bold=True),
    "@": Style(color="bright_cyan", bold=True),
    "+": Style(color="bright_cyan", bold=True, underline=True),
    " ": Style(),
}


def board_text(level: Level, player: int | None = None, boxes: int | None = None) -> Text:
    """The level (or another player and boxes on it) as styled text, one line per row."""
    text = Text()
    for number, line in enumerate(level.render(player, boxes).split("\n")):
        if number:
            text.append("\n")
        for char in line:
            text.append(char, STYLES.get(char))
    return text

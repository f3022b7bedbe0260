"""Rich renderables for the client: pure functions from a position, or a notice, to a ``Text``.

``notice_printer`` is the one bridge from the client's notices (``client.notices``) to a console.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.console import Console
from rich.control import Control, ControlType
from rich.text import Text

from shared.quoridor import SIZE, BlockBar, Location, Position, diagram

from .notices import Notice, Say, Tone

__all__ = ["render_board", "render_board_marked", "render_notice", "notice_printer", "PAWN_STYLES", "MARK_STYLE",
           "TONE_STYLES", "LIVE_LINE_EVERY_S"]

#: Colour of each player's pawn (player 0 first).
PAWN_STYLES = ("bold bright_cyan", "bold bright_magenta")
_WALL_STYLE = "bold yellow"
_DIM = "grey42"


def render_board(pos: Position, *, status_line: bool = True) -> Text:
    """The diagram of ``pos`` in colour: pawns in their players' colours, walls highlighted.

    Only the inside of the frame is coloured: the coordinates around it (which include the
    digits 0 and 1) and the frame itself stay plain or dim.
    """
    lines = diagram(pos).split("\n")
    if not status_line:
        lines = lines[:-1]
    inside = range(3, 4 * SIZE + 2)             # columns between the frame's two '|'
    board_rows = range(2, 2 + 2 * SIZE - 1)     # the nine cell rows and the eight lines between them
    text = Text()
    last = len(lines) - 1
    for n, line in enumerate(lines):
        for col, ch in enumerate(line):
            if n in board_rows and col in inside:
                if ch == "0":
                    text.append(ch, PAWN_STYLES[0])
                elif ch == "1":
                    text.append(ch, PAWN_STYLES[1])
                elif ch in "-|+":
                    text.append(ch, _WALL_STYLE)
                elif ch == ".":
                    text.append(ch, _DIM)
                else:
                    text.append(ch)
            elif ch in "-|+" and 0 < n < len(lines) - 1 - status_line:
                text.append(ch, _DIM)         # the frame
            else:
                text.append(ch)
        if n != last:
            text.append("\n")
    return text


#: How the last step stands out in ``render_board_marked``.
MARK_STYLE = "bold bright_red"


def render_board_marked(pos: Position, *, wall: BlockBar | None = None, cell: Location | None = None,
                        status_line: bool = True, style: str = MARK_STYLE) -> Text:
    """``render_board``, with one placed wall and one cell emphasised in ``style`` (the same characters)."""
    text = render_board(pos, status_line=status_line)
    lines = diagram(pos).split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def mark(row: int, first: int, last: int) -> None:
        text.stylize(style, starts[row] + first, starts[row] + last + 1)

    if cell is not None and cell.is_valid():
        mark(2 + 2 * (SIZE - cell.y), 4 * cell.x - 1, 4 * cell.x + 1)
    if wall is not None and pos.has_wall(wall):
        start, _ = wall.normalized()
        if wall.is_h():        # on the line between rows start.y and start.y + 1, over two cells
            mark(1 + 2 * (SIZE - start.y), 4 * start.x + 3, 4 * start.x + 9)
        else:                  # right of column start.x, beside rows start.y + 1 and start.y + 2
            for row in (2 + 2 * (SIZE - start.y - 2), 3 + 2 * (SIZE - start.y - 2), 2 + 2 * (SIZE - start.y - 1)):
                mark(row, 4 * start.x + 2, 4 * start.x + 2)
    return text


#: How each tone of a notice looks.
TONE_STYLES = {Tone.PLAIN: "", Tone.NAME: "bold", Tone.GOOD: "green", Tone.BAD: "red", Tone.CAUTION: "yellow",
               Tone.QUIET: "dim"}

#: Seconds between two live notices printed as lines where there is no terminal to rewrite one in place.
LIVE_LINE_EVERY_S = 10.0


def render_notice(notice: Notice) -> Text:
    """A notice in colour; its text stays literal (a bot's ``[red]`` is printed, never read as markup)."""
    return Text.assemble(*((text, TONE_STYLES[tone]) for text, tone in notice.parts))


def notice_printer(console: Console, *, clock: Callable[[], float] = time.monotonic,
                   live_every_s: float = LIVE_LINE_EVERY_S) -> Say:
    """A ``Say`` that prints each notice on ``console``, long lines wrapped by the terminal (not cut).

    A live notice (``Notice.live``) rewrites one line in place on a terminal (cut to its width),
    the next notice taking that line; elsewhere it is printed as a line only when ``live_every_s``
    have passed since the last line printed.
    """
    shown_live = False
    last_line: float | None = None

    def clear_live() -> None:
        nonlocal shown_live
        if shown_live:
            console.control(Control.move_to_column(0), Control((ControlType.ERASE_IN_LINE, 2)))
            shown_live = False

    def say(notice: Notice) -> None:
        nonlocal shown_live, last_line
        if notice.live and console.is_terminal:
            clear_live()
            console.print(render_notice(notice), end="", no_wrap=True, overflow="ellipsis", crop=True)
            shown_live = True
            return
        if notice.live and last_line is not None and clock() - last_line < live_every_s:
            return
        clear_live()
        console.print(render_notice(notice), soft_wrap=True)
        last_line = clock()
    return say

"""Rich renderables for the client: pure functions from a position, or a notice, to a ``Text``.

``notice_printer`` is the one bridge from the client's notices (``client.notices``) to a console.
"""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from shared.quoridor import SIZE, BlockBar, Location, Position, diagram

from .notices import Notice, Say, Tone

__all__ = ["render_board", "render_board_marked", "render_notice", "notice_printer", "PAWN_STYLES", "MARK_STYLE",
           "TONE_STYLES"]

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
TONE_STYLES = {Tone.PLAIN: "", Tone.NAME: "bold", Tone.GOOD: "green", Tone.BAD: "red", Tone.CAUTION: "yellow"}


def render_notice(notice: Notice) -> Text:
    """A notice in colour; its text stays literal (a bot's ``[red]`` is printed, never read as markup)."""
    return Text.assemble(*((text, TONE_STYLES[tone]) for text, tone in notice.parts))


def notice_printer(console: Console) -> Say:
    """A ``Say`` that prints each notice on ``console``, long lines wrapped by the terminal (not cut)."""
    def say(notice: Notice) -> None:
        console.print(render_notice(notice), soft_wrap=True)
    return say

"""Text forms of a position that round-trip: a one-line form and a board diagram.

One line: ``e1 e9 0 10 10 e1h,d3v course`` - player 0's pawn, player 1's pawn, the player to
move, walls left for 0 and 1, the walls (``-`` for none) and the ruleset.

The diagram draws the board with y = 9 on top (as the players see the coordinates), ``0`` and
``1`` for the pawns, ``---`` for horizontal walls, ``|`` for vertical ones and ``+`` where two
walls cross, followed by a status line.
"""

from __future__ import annotations

import re

from .notation import COLUMNS, NotationError, parse_square, parse_wall, square, wall_name
from .position import Position
from .rulesets import find_ruleset
from .types import SIZE, BlockBar, Location

__all__ = ["position_text", "parse_position", "diagram", "parse_diagram"]


def position_text(pos: Position) -> str:
    """The one-line text form of ``pos``."""
    walls = ",".join(wall_name(w) for w in pos.walls) or "-"
    return (f"{square(pos.pawn(0))} {square(pos.pawn(1))} {pos.turn} "
            f"{pos.walls_left[0]} {pos.walls_left[1]} {walls} {pos.ruleset.name}")


def parse_position(text: str) -> Position:
    """The position of a one-line text form; ``ValueError`` names the part that is wrong."""
    parts = text.split()
    if len(parts) not in (6, 7):
        raise ValueError(f"expected 'PAWN0 PAWN1 TURN LEFT0 LEFT1 WALLS [RULESET]', got {text!r}")
    try:
        pawns = (parse_square(parts[0]), parse_square(parts[1]))
        turn, left0, left1 = int(parts[2]), int(parts[3]), int(parts[4])
    except ValueError as exc:
        raise ValueError(f"bad position {text!r}: {exc}") from None
    walls = [] if parts[5] == "-" else [parse_wall(w) for w in parts[5].split(",")]
    ruleset = find_ruleset(parts[6] if len(parts) == 7 else "course")
    return Position.setup(pawns, walls, walls_left=(left0, left1), turn=turn, ruleset=ruleset)


def _col(x: int) -> int:
    """Character column of the centre of cell column ``x`` in a diagram line."""
    return 4 * x


def diagram(pos: Position) -> str:
    """A board diagram of ``pos`` with coordinates and a status line."""
    header = "    " + "   ".join(COLUMNS)
    width = _col(SIZE) + 3
    lines = [header]
    border = "  +" + "---+" * SIZE
    lines.append(border)
    pawns = {pos.pawn(0): "0", pos.pawn(1): "1"}
    for y in range(SIZE, 0, -1):
        row = [" "] * width
        row[0], row[2], row[width - 1] = str(y), "|", "|"
        for x in range(1, SIZE + 1):
            row[_col(x)] = pawns.get(Location(x, y), ".")
            if x < SIZE and not pos.can_move(Location(x, y), Location(x + 1, y)):
                row[_col(x) + 2] = "|"
        lines.append("".join(row) + f" {y}")
        if y > 1:
            between = [" "] * width
            between[2] = between[width - 1] = "+"
            for x in range(1, SIZE + 1):
                if not pos.can_move(Location(x, y), Location(x, y - 1)):
                    for i in range(_col(x) - 1, _col(x) + 2):
                        between[i] = "-"
            for wall in pos.walls:  # mark the mid points of walls
                mid_x, mid_y = (wall.start.x + wall.stop.x) // 2, (wall.start.y + wall.stop.y) // 2
                if mid_y == y - 1:
                    i = _col(mid_x) + 2
                    between[i] = "+" if between[i] in "-+" and wall.is_v() else ("|" if wall.is_v() else "-")
            lines.append("".join(between))
    lines.append(border)
    lines.append(header)
    lines.append(f"player {pos.turn} to move · walls left {pos.walls_left[0]} {pos.walls_left[1]} · "
                 f"{pos.ruleset.name} rules")
    return "\n".join(lines)


_STATUS = re.compile(r"player ([01]) to move · walls left (\d+) (\d+) · (\w+) rules")


def parse_diagram(text: str) -> Position:
    """The position drawn by ``diagram``; ``ValueError`` names the line that is wrong."""
    lines = [line.rstrip() for line in text.strip("\n").split("\n")]
    if len(lines) != 2 * SIZE + 4:
        raise ValueError(f"a diagram has {2 * SIZE + 4} lines, got {len(lines)}")
    status = _STATUS.fullmatch(lines[-1].strip())
    if not status:
        raise ValueError(f"last line is not a status line: {lines[-1]!r}")
    body = [line.ljust(_col(SIZE) + 3) for line in lines[2:2 + 2 * SIZE - 1]]
    pawns: dict[str, Location] = {}
    h_segments: set[tuple[int, int]] = set()   # (x, y): wall segment above cell (x, y)
    v_segments: set[tuple[int, int]] = set()   # (x, y): wall segment right of cell (x, y)
    for k, line in enumerate(body):
        if k % 2 == 0:
            y = SIZE - k // 2
            for x in range(1, SIZE + 1):
                ch = line[_col(x)]
                if ch in "01":
                    pawns[ch] = Location(x, y)
                elif ch != ".":
                    raise ValueError(f"line {k + 3}: unexpected {ch!r} in cell {square(Location(x, y))}")
                if x < SIZE and line[_col(x) + 2] == "|":
                    v_segments.add((x, y))
        else:
            y = SIZE - k // 2 - 1
            for x in range(1, SIZE + 1):
                if line[_col(x)] == "-":
                    h_segments.add((x, y))
    if set(pawns) != {"0", "1"}:
        raise ValueError("a diagram needs both pawns, 0 and 1")
    walls: list[BlockBar] = []
    for y in range(1, SIZE):           # runs of horizontal segments, two per wall, from the left
        x = 1
        while x <= SIZE:
            if (x, y) in h_segments:
                if (x + 1, y) not in h_segments:
                    raise ValueError(f"a horizontal wall above {square(Location(x, y))} has length 1")
                walls.append(BlockBar.of(x - 1, y, x + 1, y))
                x += 2
            else:
                x += 1
    for x in range(1, SIZE):           # runs of vertical segments, two per wall, from the bottom
        y = 1
        while y <= SIZE:
            if (x, y) in v_segments:
                if (x, y + 1) not in v_segments:
                    raise ValueError(f"a vertical wall right of {square(Location(x, y))} has length 1")
                walls.append(BlockBar.of(x, y - 1, x, y + 1))
                y += 2
            else:
                y += 1
    try:
        return Position.setup((pawns["0"], pawns["1"]), walls,
                              walls_left=(int(status[2]), int(status[3])), turn=int(status[1]),
                              ruleset=find_ruleset(status[4]))
    except NotationError as exc:
        raise ValueError(str(exc)) from None

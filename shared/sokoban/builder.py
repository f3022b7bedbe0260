"""Building a level from a LURD solution (as soukoban does), then checking the solution on it.

Walk the solution from an arbitrary start: every cell the player visits is floor; a push shows a
box where the player steps (its start, unless a box was already pushed there) and moves it on.
Where boxes started become boxes, where they ended become goals; walls surround the floor. The
solution is then replayed on the new level: if it does not play or does not solve, the solution
was inconsistent (e.g. the player walked through a box) and ``SolutionError`` says where.
"""

from __future__ import annotations

from shared.grid import Pos

from .errors import LurdError, NoBoxError, SolutionError
from .game import parse_lurd
from .level import Level, level_from_rows
from .verdict import judge

__all__ = ["from_solution"]


def from_solution(lurd: str) -> Level:
    """The smallest level that ``lurd`` solves, with walls around the floor it walks.

    ``LurdError`` for text that is not LURD, ``NoBoxError`` without a push, ``SolutionError`` when
    the steps contradict each other.
    """
    steps = parse_lurd(lurd)
    if not steps:
        raise LurdError("the solution is empty; expected LURD letters")
    player = Pos(0, 0)
    floor = {player}
    boxes: set[Pos] = set()        # where each box is now
    starts: set[Pos] = set()       # where boxes were first seen
    for direction, push in steps:
        player = player.step(direction)
        floor.add(player)
        if push:
            if player not in boxes:
                if player in starts:
                    # A box seen before left this cell and none came back: the push has nothing to push.
                    raise SolutionError(f"push {direction.letter.upper()!r} at {player} finds no box there")
                boxes.add(player)
                starts.add(player)
            boxes.remove(player)
            ahead = player.step(direction)
            if ahead in boxes:
                raise SolutionError(f"push {direction.letter.upper()!r} at {player} drives a box into another box")
            boxes.add(ahead)
            floor.add(ahead)
    if not starts:
        raise NoBoxError("the solution pushes no box, so it defines no level; expected at least one push")
    goals = boxes
    rows = _draw(floor, Pos(0, 0), starts, goals)
    level = level_from_rows(rows)
    verdict = judge(level, lurd)
    if not verdict.valid or not verdict.solved:
        raise SolutionError(f"the solution does not play back on the level it describes: {verdict.reason}")
    return level


def _draw(floor: set[Pos], player: Pos, boxes: set[Pos], goals: set[Pos]) -> list[str]:
    """XSB rows of the floor with a ring of walls (diagonal neighbours too, for a closed look)."""
    walls = {Pos(p.row + dr, p.col + dc) for p in floor for dr in (-1, 0, 1) for dc in (-1, 0, 1)} - floor
    cells = floor | walls
    top = min(p.row for p in cells)
    left = min(p.col for p in cells)
    height = max(p.row for p in cells) - top + 1
    width = max(p.col for p in cells) - left + 1
    grid = [[" "] * width for _ in range(height)]
    for pos in walls:
        grid[pos.row - top][pos.col - left] = "#"
    for pos in floor:
        box, goal = pos in boxes, pos in goals
        if pos == player:
            char = "+" if goal else "@"
        else:
            char = "*" if box and goal else "$" if box else "." if goal else " "
        grid[pos.row - top][pos.col - left] = char
    return ["".join(row) for row in grid]

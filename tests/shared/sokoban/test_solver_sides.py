"""Deadlocks about where the player stands: distances by the player's side of a box (``sides``), shut corrals."""

from __future__ import annotations

import time

import random
from collections import deque

from shared.grid import iter_bits
from shared.sokoban import Level, judge, parse_level, solve
from shared.sokoban.corrals import pi_corral_pushes, reach
from shared.sokoban.deadlocks import Board
from shared.sokoban.matching import INFINITE
from shared.sokoban.sides import Sides

CORRIDOR_BEHIND = """\
#######
# $@. #
#######"""

CORRIDOR_AHEAD = """\
#######
#@$ . #
#######"""


def lone_box_moves(level: Level, box: int, player: int, target: int, pulls: bool) -> int:
    """Brute force: fewest pushes (or pulls) taking a lone box from ``box`` to ``target``, the player at ``player``."""
    floor, stride = level.floor, level.stride
    offsets = (-stride, stride, -1, 1)
    region = reach(1 << player, floor & ~(1 << box), stride)
    seen = {(box, region & -region)}
    queue = deque([(box, region, 0)])
    while queue:
        cell, region, moves = queue.popleft()
        if cell == target:
            return moves
        for offset in offsets:
            stand, after = (cell + offset, cell + 2 * offset) if pulls else (cell - offset, cell + offset)
            if not region >> stand & 1 or not floor >> after & 1:
                continue
            new_cell, new_player = (cell + offset, after) if pulls else (after, cell)
            new_region = reach(1 << new_player, floor & ~(1 << new_cell), stride)
            key = (new_cell, new_region & -new_region)
            if key not in seen:
                seen.add(key)
                queue.append((new_cell, new_region, moves + 1))
    return INFINITE


def random_room(rng: random.Random) -> Level | None:
    """A small room with random walls, one box, one goal and the player (None if it will not parse)."""
    width, height = rng.randint(5, 7), rng.randint(5, 6)
    rows = [["#" if r in (0, height - 1) or c in (0, width - 1) else " " for c in range(width)] for r in range(height)]
    inner = [(r, c) for r in range(1, height - 1) for c in range(1, width - 1)]
    cells = rng.sample(inner, len(inner))
    for r, c in cells[:rng.randint(1, 5)]:
        rows[r][c] = "#"
    (br, bc), (gr, gc), (pr, pc) = cells[5:8]
    rows[br][bc], rows[gr][gc], rows[pr][pc] = "$", ".", "@"
    try:
        return parse_level("\n".join("".join(row) for row in rows))
    except Exception:                          # an enclosed box or goal: not a level worth testing
        return None


def test_the_player_behind_a_corridor_box_cannot_push_it_to_the_goal() -> None:
    behind, ahead = parse_level(CORRIDOR_BEHIND), parse_level(CORRIDOR_AHEAD)
    board = Board(behind)
    sides = Sides(behind.floor, behind.stride, board.goal_cells)
    box = next(iter_bits(behind.boxes))
    assert board.goal_row(box) == [2]                         # the plain distance lets the player stand anywhere
    assert sides.row(box, behind.player) == [INFINITE]
    assert sides.row(box, ahead.player) == [2]


def test_a_start_the_player_cannot_push_from_is_unsolvable_before_any_search() -> None:
    result = solve(parse_level(CORRIDOR_BEHIND), clock=time.monotonic)
    assert result.status == "unsolvable"
    assert result.nodes == 0
    solved = solve(parse_level(CORRIDOR_AHEAD), clock=time.monotonic)
    assert solved.solved and judge(parse_level(CORRIDOR_AHEAD), solved.lurd or "").solved


def test_distances_are_exact_for_a_lone_box_pushed_or_pulled() -> None:
    rng = random.Random(153)
    checked = 0
    while checked < 40:
        level = random_room(rng)
        if level is None or level.goals & ~level.floor or level.boxes & ~level.floor:
            continue
        checked += 1
        floor, goal = level.floor, next(iter_bits(level.goals))
        for pulls in (False, True):
            sides = Sides(floor, level.stride, [goal], pulls=pulls)
            for box in iter_bits(floor):
                for player in iter_bits(floor & ~(1 << box)):
                    expected = lone_box_moves(level, box, player, goal, pulls)
                    assert sides.row(box, player)[0] == expected, (level, box, player, pulls)


def test_side_distances_never_undercut_the_plain_ones() -> None:
    level = parse_level("""\
#########
#.#  #  #
#.# $   #
#.  $ # #
#. $ $@ #
#########""")
    board = Board(level)
    sides = Sides(level.floor, level.stride, board.goal_cells)
    for box in iter_bits(level.floor):
        for player in iter_bits(level.floor & ~(1 << box)):
            assert all(a >= b for a, b in zip(sides.row(box, player), board.goal_row(box)))
    assert sides.cuts & ~level.floor == 0


# Microban 153 after some pushes: the box at row 7 moves only if the player stands below it, in the
# dead corner its neighbour at row 8 walls off; neither can move, though neither is frozen.
SHUT_CORRAL = """\
#############
#.# @#  #   #
#.#  $$ # $ #
#.#  # $#   #
#.#  #  # $##
#.#  # $#  #
#.#  #  # $#
#.. $# $   #
#..$ #  #  #
############"""


def test_a_corral_no_push_can_ever_open_is_a_deadlock() -> None:
    level = parse_level(SHUT_CORRAL)
    region = reach(1 << level.player, level.floor & ~level.boxes, level.stride)
    assert pi_corral_pushes(Board(level), level.boxes, region) == []
    result = solve(level, time_limit=5.0, clock=time.monotonic)
    assert result.status == "unsolvable"
    assert result.nodes == 1                  # seen at the start, not after searching the rest of the level

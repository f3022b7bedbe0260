"""Corral deadlocks: the opening and clearing searches fire on dead corrals, stay quiet on live ones, and are sound."""

from __future__ import annotations

import time

import random
from collections import deque

from shared.sokoban import Level, parse_level, solve
from shared.sokoban.corral_deadlocks import CorralDeadlocks
from shared.sokoban.corrals import pi_corral_pushes, reach
from shared.sokoban.deadlocks import Board

# The goal column (1..3, 1) is filled by pushing up from (4, 1); the box on (4, 2) shuts that square, and
# pushing it there fills (4, 1) instead: no box can ever enter the column. Each corral alone looks fine.
SHUT_TUNNEL = """\
#######
#.#   #
#.# $ #
#*  $ #
#.* $@#
#######"""

# The same, with (4, 1) reachable: the box on (3, 1) can be pushed up the column.
OPEN_TUNNEL = """\
#######
#.#   #
#.#$$ #
#*  $ #
#.. $@#
#######"""

# A box was just pushed into the one-cell door (7, 7) of a room without goals (Microban 153's right
# room). The player gets in by pushing it twice, but then the room's boxes and it can never all leave.
JAMMED_ROOM = """\
############
########   #
########$$ #
########   #
######## $##
########  #
########  #
#....@ $  #
#**#####  #
###########"""

# Two boxes in line through the door: the inner one could only go in if the player stood on the outer one.
DOUBLED_DOOR = """\
############
########   #
########$  #
########   #
######## $##
########  #
########  #
#....@ $$ #
#**#####  #
###########"""

# One box fewer in the room (and one goal fewer): they can all be brought out.
CLEARABLE_ROOM = """\
############
########   #
########$  #
########   #
######## $##
########  #
########  #
#... @ $  #
#**#####  #
###########"""


def _region(level: Level, boxes: int | None = None) -> int:
    boxes = level.boxes if boxes is None else boxes
    return reach(1 << level.player, level.floor & ~boxes, level.stride)


def _cell(level: Level, row: int, col: int) -> int:
    return row * level.stride + col


def _states(level: Level, limit: int = 10_000) -> dict[tuple[int, int], tuple[int, list[tuple[int, int]]]]:
    """Every position reachable by pushes (the first ``limit``): key -> (player's region, [(child key, pushed box)])."""
    floor, stride = level.floor, level.stride
    offsets = (-stride, stride, -1, 1)
    start = (level.boxes, _region(level))
    graph: dict[tuple[int, int], tuple[int, list[tuple[int, int]]]] = {}
    queue = deque([start])
    seen = {(start[0], start[1] & -start[1])}
    while queue and len(graph) < limit:
        boxes, region = queue.popleft()
        children = []
        for box in range(floor.bit_length()):
            if not boxes >> box & 1:
                continue
            for offset in offsets:
                target = box + offset
                if region >> (box - offset) & 1 and floor >> target & 1 and not boxes >> target & 1:
                    new_boxes = boxes ^ (1 << box) ^ (1 << target)
                    new_region = reach(1 << box, floor & ~new_boxes, stride)
                    key = (new_boxes, new_region & -new_region)
                    children.append((key, target))
                    if key not in seen:
                        seen.add(key)
                        queue.append((new_boxes, new_region))
        graph[(boxes, region & -region)] = (region, children)
    return graph


def _solvable(level: Level, graph: dict[tuple[int, int], tuple[int, list[tuple[int, int]]]]) -> set[tuple[int, int]]:
    """The keys of ``graph`` from which the solved position can be reached (by backward propagation)."""
    goals = level.goals & level.floor
    good = {key for key in graph if key[0] == goals}
    changed = True
    while changed:
        changed = False
        for key, (_, children) in graph.items():
            if key not in good and any(child in good for child, _ in children):
                good.add(key)
                changed = True
    return good


def _unsolvable(level: Level) -> bool:
    """Brute force: no position reachable from the start is solved."""
    graph = _states(level)
    assert len(graph) < 10_000               # all of them
    return not _solvable(level, graph)


def test_a_goal_column_whose_pushing_square_a_box_shuts_is_found_by_the_opening_search():
    level = parse_level(SHUT_TUNNEL)
    board = Board(level)
    region, pushed = _region(level), _cell(level, 4, 2)
    assert pi_corral_pushes(board, level.boxes, region) is None        # no PI-corral to prune with
    assert board.freeze(pushed, level.boxes) == 0 and board.freeze(_cell(level, 3, 1), level.boxes) == 0
    assert CorralDeadlocks(board).around(level.boxes, region, pushed)
    assert not CorralDeadlocks(board, open_limit=0).around(level.boxes, region, pushed)   # it is this search
    assert _unsolvable(level)                                          # and it is right


def test_the_same_column_with_its_pushing_square_free_is_no_deadlock():
    level = parse_level(OPEN_TUNNEL)
    board = Board(level)
    assert not CorralDeadlocks(board).around(level.boxes, _region(level), _cell(level, 3, 1))
    assert solve(level, time_limit=20, clock=time.monotonic).solved


def test_a_room_jammed_by_a_box_pushed_through_its_door_is_found_by_the_clearing_search():
    level = parse_level(JAMMED_ROOM)
    board = Board(level)
    region, door = _region(level), _cell(level, 7, 7)
    assert CorralDeadlocks(board).around(level.boxes, region, door)
    assert not CorralDeadlocks(board, clear_limit=0).around(level.boxes, region, door)   # it is this search
    assert _unsolvable(level)                                                            # and it is right


def test_a_room_its_boxes_can_leave_is_no_deadlock():
    level = parse_level(CLEARABLE_ROOM)
    board = Board(level)
    assert not CorralDeadlocks(board).around(level.boxes, _region(level), _cell(level, 7, 7))
    assert solve(level, time_limit=20, clock=time.monotonic).solved


def test_a_box_blocking_the_only_push_into_a_corral_counts_as_one_of_its_boxes():
    level = parse_level(DOUBLED_DOOR)
    board = Board(level)
    region, inner = _region(level), _cell(level, 7, 8)
    assert pi_corral_pushes(board, level.boxes, region) is None
    assert CorralDeadlocks(board).around(level.boxes, region, inner)
    assert _unsolvable(level)


def test_no_position_called_a_deadlock_can_be_solved(random_level):
    """Every position of small random levels, with both searches on whatever number of boxes they keep."""
    rng = random.Random(7)
    checked = fired = 0
    while checked < 25:
        level = random_level(rng, widths=(6, 8), heights=(5, 7), boxes=(2, 4))
        graph = _states(level) if level is not None else {}
        if len(graph) < 50:                  # a level with next to nothing to do
            continue
        checked += 1
        good = _solvable(level, graph)
        tests = CorralDeadlocks(Board(level))
        tests.clear_boxes = 6                # the cap only saves time: soundness must hold without it
        for region, children in graph.values():
            for child, pushed in children:
                if child in graph and tests.around(child[0], graph[child][0], pushed):
                    fired += 1
                    assert child not in good, level.render(player=child[1].bit_length() - 1, boxes=child[0])
    assert fired > 0                         # the searches did fire on some of these positions

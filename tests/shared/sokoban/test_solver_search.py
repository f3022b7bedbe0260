"""The solver's searches: pulling backwards, meeting in the middle, goal-tunnel macros, frozen goal boxes."""

from __future__ import annotations

import time

import random
from collections import deque

from shared.sokoban import Level, judge, parse_level, solve
from shared.sokoban.corrals import reach
from shared.sokoban.deadlocks import Board
from shared.sokoban.macros import Tunnels
from shared.sokoban.matching import INFINITE

PACKING = """\
#######
#     #
# $.$ #
#@.$. #
# $.$ #
#  .  #
#######"""

TUNNEL = """\
########
#.#    #
#.# $  #
#.  $  #
#. $$@ #
#      #
########"""


def fewest_pushes(level: Level) -> int | None:
    """Brute force: breadth-first over (boxes, player region) by single pushes; None when unsolvable."""
    floor, stride, goals = level.floor, level.stride, level.goals & level.floor
    offsets = (-stride, stride, -1, 1)
    start = (level.boxes, reach(1 << level.player, floor & ~level.boxes, stride))
    seen = {(start[0], start[1] & -start[1])}
    queue = deque([(start, 0)])
    while queue:
        (boxes, region), pushes = queue.popleft()
        if boxes == goals:
            return pushes
        for cell in range(floor.bit_length()):
            if not boxes >> cell & 1:
                continue
            for offset in offsets:
                target = cell + offset
                if region >> (cell - offset) & 1 and floor >> target & 1 and not boxes >> target & 1:
                    new_boxes = boxes ^ (1 << cell) ^ (1 << target)
                    new_region = reach(1 << cell, floor & ~new_boxes, stride)
                    key = (new_boxes, new_region & -new_region)
                    if key not in seen:
                        seen.add(key)
                        queue.append(((new_boxes, new_region), pushes + 1))
    return None


def test_the_pull_search_alone_solves_a_packing_level():
    level = parse_level(PACKING)
    result = solve(level, portfolio=(), pulls=((1, 1),), time_limit=20, clock=time.monotonic)
    assert result.solved
    verdict = judge(level, result.lurd)
    assert verdict.valid and verdict.solved and verdict.pushes == result.pushes


def test_forward_and_pull_searches_together_give_valid_solutions():
    for text in (PACKING, TUNNEL):
        level = parse_level(text)
        result = solve(level, portfolio=((1, 1),), pulls=((1, 1),), time_limit=20, clock=time.monotonic)
        assert result.solved and judge(level, result.lurd).solved


def test_a_goal_tunnel_is_found_and_a_box_slides_to_its_far_end():
    level = parse_level(TUNNEL)
    tunnels = Tunnels(level)
    up = tunnels.slide[0]
    column = [level.stride * row + 1 for row in (1, 2)]    # the one-wide goal cells above row 3
    assert up == sum(1 << cell for cell in column)
    assert tunnels.slide[1] == tunnels.slide[2] == tunnels.slide[3] == 0
    assert tunnels.extend(column[1], 0, 0) == column[0]              # empty tunnel: to the dead end
    assert tunnels.extend(column[1], 0, 1 << column[0]) == column[1]  # deepest cell taken: stops short
    assert not Tunnels(parse_level("#######\n#@ $ .#\n#######")).any   # a corridor with no closed goal run


def test_macros_keep_solutions_valid():
    level = parse_level(TUNNEL)
    result = solve(level, pulls=(), time_limit=20, clock=time.monotonic)
    verdict = judge(level, result.lurd)
    assert result.solved and verdict.valid and verdict.solved


def test_a_frozen_goal_box_walls_off_the_goals_behind_it():
    level = parse_level(TUNNEL)
    board = Board(level)
    stride = level.stride
    deep, mouth = stride + 1, 3 * stride + 1
    assert board.rows(0)[4 * stride + 4] == board.goal_row(4 * stride + 4)
    assert min(board.rows(0)[3 * stride + 3]) < INFINITE
    # a box standing for good on the goal (4, 1) holds the only square from which the column is pushed up
    walled = board.rows(1 << (4 * stride + 1))
    column = board.goal_cells.index(deep)
    assert walled[mouth + 1][column] == INFINITE
    assert walled[4 * stride + 1][board.goal_cells.index(4 * stride + 1)] == 0


def test_solved_and_unsolvable_agree_with_brute_force_and_never_beat_it(random_level):
    rng = random.Random(11)
    checked = 0
    while checked < 25:
        level = random_level(rng)
        if level is None:
            continue
        checked += 1
        best = fewest_pushes(level)
        for options in ({}, {"portfolio": (), "pulls": ((1, 1),)}):
            result = solve(level, time_limit=30, **options, clock=time.monotonic)
            if best is None:
                assert result.status == "unsolvable", level.render()
            else:
                assert result.solved, level.render()
                assert judge(level, result.lurd).solved
                assert result.pushes >= best           # no optimality claim, but never below the optimum

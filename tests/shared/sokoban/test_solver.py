"""The solver: matching bound, dead squares, freeze deadlocks, and solutions that the verdict accepts."""

from __future__ import annotations

import time

import random
from itertools import permutations

from shared.sokoban import Collection, judge, parse_level, solve
from shared.sokoban.deadlocks import Board
from shared.sokoban.matching import INFINITE, match, rematch


def brute_force(costs):
    n = len(costs)
    return min(sum(costs[i][p[i]] for i in range(n)) for p in permutations(range(n)))


def test_matching_is_optimal_and_repairs_after_one_row_changes():
    rng = random.Random(6)
    for _ in range(60):
        n = rng.randint(1, 6)
        costs = [[rng.choice([rng.randint(0, 9), INFINITE]) for _ in range(n)] for _ in range(n)]
        full = match(costs)
        assert full.cost == brute_force(costs)
        row = rng.randrange(n)
        changed = [r.copy() for r in costs]
        changed[row] = [rng.randint(0, 9) for _ in range(n)]
        assert rematch(full, changed, row).cost == brute_force(changed)


def test_dead_squares_and_distances():
    level = parse_level("""\
######
#    #
# $@.#
#    #
######""")
    board = Board(level)
    corner = level.index(level.pos(level.stride + 1))           # (1, 1): a corner
    assert not board.live >> corner & 1
    box = next(iter(level.box_positions))
    assert board.nearest[level.index(box)] == 2


def test_a_box_frozen_off_goal_is_a_deadlock():
    level = parse_level("""\
#######
#  .  #
# @$$ #
#  .  #
#######""")
    board = Board(level)
    stride = level.stride
    # two boxes side by side against the top wall, off the goals: frozen
    row1 = [stride + 3, stride + 4]
    boxes = sum(1 << c for c in row1)
    assert board.frozen_off_goal(stride + 4, boxes)
    assert not board.frozen_off_goal(2 * stride + 4, (1 << (2 * stride + 3)) | (1 << (2 * stride + 4)))


SMALL = [
    "#######\n#@ $ .#\n#######",
    """\
  ####
###  #
#  $ #
# #.@#
#  $.#
######""",
    """\
#######
#.  $ #
# $@  #
#  .  #
#######""",
]


def test_solutions_pass_the_verdict():
    for text in SMALL:
        level = parse_level(text)
        result = solve(level, time_limit=5, clock=time.monotonic)
        assert result.solved, text
        verdict = judge(level, result.lurd)
        assert verdict.solved and (verdict.moves, verdict.pushes) == (result.moves, result.pushes)


def test_an_unsolvable_level_is_reported():
    level = parse_level("#####\n#@ $#\n#  .#\n#####")
    result = solve(level, time_limit=5, clock=time.monotonic)
    assert result.status == "unsolvable" and result.lurd is None


def test_a_level_whose_goals_the_player_never_reaches_is_unsolvable():
    # walled off from the player: two boxes, and the goals (no goal at all on the player's floor)
    level = parse_level("######\n#  #$#\n#@#. #\n##.#$#\n######")
    assert Board(level).live == 0
    assert solve(level, time_limit=5, clock=time.monotonic).status == "unsolvable"


def test_an_already_solved_level():
    result = solve(parse_level("####\n#@*#\n####"), clock=time.monotonic)
    assert result.solved and result.lurd == "" and result.moves == 0


def test_limits_stop_the_search():
    level = parse_level(SMALL[2])
    result = solve(level, node_limit=1, clock=time.monotonic)
    assert result.status in ("node_limit", "solved")
    assert solve(level, time_limit=-1, clock=time.monotonic).status in ("time_limit", "solved")
    assert solve(level, portfolio=((1, 1),), time_limit=5, clock=time.monotonic).solved


def test_a_few_microban_levels(data_dir):
    collection = Collection((data_dir / "Microban_155.xsb").read_text(encoding="utf-8"))
    for index in (0, 1, 2, 5, 10, 20):
        level = collection.level(index)
        result = solve(level, time_limit=10, clock=time.monotonic)
        assert result.solved, index
        assert judge(level, result.lurd).solved

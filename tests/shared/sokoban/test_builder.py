"""Building a level from a LURD solution, and the solutions that cannot describe a level."""

from __future__ import annotations

import time

import pytest

from shared.grid import Pos
from shared.sokoban import LurdError, NoBoxError, SolutionError, from_solution, judge, parse_level, solve


def test_a_level_from_a_solution():
    level = from_solution("rrRRuL")
    assert judge(level, "rrRRuL").solved
    assert level.render() == "  #####\n###.$ ##\n#@  $ .#\n########"
    assert level.player_pos == Pos(2, 1) and level.box_count == 2


def test_a_box_pushed_three_times_has_one_start_and_one_goal():
    level = from_solution("RRR")
    assert level.render() == "#######\n#@$  .#\n#######"
    assert judge(level, "RRR").solved


def test_a_solved_level_rebuilds_from_its_solution():
    original = parse_level("""\
  ####
###  #
#  $ #
# #.@#
#  $.#
######""")
    lurd = solve(original, time_limit=5, clock=time.monotonic).lurd
    level = from_solution(lurd)
    assert judge(level, lurd).solved
    assert level.box_count == original.box_count
    # the rebuilt level is the walked part of the original: boxes and goals where the solution used them
    offset = (original.player_pos.row - level.player_pos.row, original.player_pos.col - level.player_pos.col)
    moved = {Pos(p.row + offset[0], p.col + offset[1]) for p in level.box_positions}
    assert moved <= original.box_positions | original.goal_positions


def test_no_push_means_no_level():
    with pytest.raises(NoBoxError):
        from_solution("rrdd")


def test_empty_and_non_lurd_solutions():
    with pytest.raises(LurdError):
        from_solution("")
    with pytest.raises(LurdError):
        from_solution("rR7")


def test_walking_through_a_box_is_inconsistent():
    # the player walks over (0, 1) and later a push finds a box that must have stood there
    with pytest.raises(SolutionError, match="does not play back"):
        from_solution("rrllRR")


def test_pushing_a_box_that_already_left():
    with pytest.raises(SolutionError, match="finds no box"):
        from_solution("RlR")


def test_driving_a_box_into_another():
    with pytest.raises(SolutionError, match="into another box"):
        from_solution("rRllRR")

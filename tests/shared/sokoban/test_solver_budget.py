"""The solver's time limit holds from its first instruction: the set-up and the searches check one ``Budget``.

Clocks here are fakes (a reading per call), so nothing depends on how fast the machine is.
"""

from __future__ import annotations

import time

import pytest

from shared.sokoban import Level, parse_level, solve
from shared.sokoban import solver as solver_module
from shared.sokoban.budget import Budget, OutOfTime
from shared.sokoban.deadlocks import Board
from shared.sokoban.macros import Tunnels
from shared.sokoban.matching import match
from shared.sokoban.pull import PullSearch
from shared.sokoban.sides import Sides
from tests.clocks import TickingClock


class SwitchClock:
    """A fake clock that stands still at 0 until ``late`` is set, then reads a day later."""

    def __init__(self) -> None:
        self.late = False

    def __call__(self) -> float:
        return 86400.0 if self.late else 0.0


def open_room(width: int, height: int, boxes: int) -> Level:
    """A walled room: boxes along the top inner rows, goals along the bottom ones, the player in the middle."""
    inner = [(r, c) for r in range(2, height - 2) for c in range(2, width - 2)]
    marks = {cell: "$" for cell in inner[:boxes]} | {cell: "." for cell in inner[-boxes:]}
    marks[inner[len(inner) // 2]] = "@"
    return parse_level("\n".join("".join("#" if r in (0, height - 1) or c in (0, width - 1) else marks.get((r, c), " ")
                                         for c in range(width)) for r in range(height)))


def count_calls(monkeypatch: pytest.MonkeyPatch, cls: type, name: str) -> list[int]:
    """Count the calls of ``cls.name`` (a one-element list, updated in place)."""
    calls = [0]
    original = getattr(cls, name)

    def counted(*args, **kwargs):
        calls[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(cls, name, counted)
    return calls


def test_a_clock_past_the_limit_stops_the_solve_before_any_table_is_built(monkeypatch, searches):
    searched = count_calls(monkeypatch, Board, "pull_distances")
    result = solve(searches, time_limit=0.5, clock=TickingClock(100.0))
    assert (result.status, result.lurd, result.nodes) == ("time_limit", None, 0)
    assert searched == [0]


def test_the_set_up_checks_the_budget_between_its_breadth_first_searches(monkeypatch):
    level = open_room(30, 30, 20)
    searched = count_calls(monkeypatch, Board, "pull_distances")
    clock = TickingClock(1.0)
    result = solve(level, time_limit=5.5, clock=clock)
    assert result.status == "time_limit" and result.nodes == 0
    assert 0 < searched[0] < 20               # stopped part way through the table of 20 goals
    assert clock.readings <= 8


def test_each_set_up_phase_honours_a_spent_budget():
    level = open_room(12, 10, 3)
    board = Board(level)
    spent = Budget(0.5, TickingClock(100.0))
    with pytest.raises(OutOfTime):
        Board(level, spent)
    with pytest.raises(OutOfTime):
        Sides(level.floor, level.stride, board.goal_cells, budget=spent)
    with pytest.raises(OutOfTime):
        Tunnels(level, spent)
    with pytest.raises(OutOfTime):
        match([[1, 2], [2, 1]], spent)
    with pytest.raises(OutOfTime):
        PullSearch(level, 1, [], spent)
    assert match([[1, 2], [2, 1]], Budget.unlimited()).cost == 2


def test_the_searches_stop_at_the_first_state_once_the_budget_is_spent(monkeypatch, searches):
    assert solve(searches, time_limit=30, clock=time.monotonic).nodes > 2 * solver_module._BATCH    # (more than a batch when unhurried)
    clock = SwitchClock()
    run = solver_module._Search.run

    def late_run(self, batch):
        clock.late = True                      # the set-up is over: the budget runs out now
        return run(self, batch)

    monkeypatch.setattr(solver_module._Search, "run", late_run)
    result = solve(searches, time_limit=5, clock=clock)
    assert (result.status, result.nodes) == ("time_limit", 0)


def test_an_unhurried_solve_is_unchanged(searches):
    result = solve(searches, time_limit=30, clock=TickingClock(0.0))
    assert result.solved and result.lurd

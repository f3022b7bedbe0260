"""The solver reports its progress to a callback, on its own clock, without changing what it finds.

Clocks here are fakes (a reading per call), so nothing depends on how fast the machine is.
"""

from __future__ import annotations

import time

import pytest

from shared.sokoban import Collection, solve
from shared.sokoban.budget import Budget
from shared.sokoban.progress import PROGRESS_SECONDS, Reporter, SolveProgress
from tests.clocks import TickingClock


def test_a_long_search_reports_every_half_second_of_its_clock(searches):
    reports: list[SolveProgress] = []
    clock = TickingClock(0.0004)                              # the solve takes some 13,000 readings: 5 s here
    result = solve(searches, time_limit=60.0, clock=clock, progress=reports.append)
    assert result.solved and result.seconds > 4.0
    assert len(reports) >= 6                                  # after the set-up, about one a half second
    assert all(report.time_limit == 60.0 for report in reports)
    assert all(b.seconds - a.seconds >= PROGRESS_SECONDS for a, b in zip(reports, reports[1:]))
    assert all(b.seconds - a.seconds < 2 * PROGRESS_SECONDS for a, b in zip(reports, reports[1:]))
    assert all(a.nodes < b.nodes for a, b in zip(reports, reports[1:]))
    assert reports[0].seconds >= PROGRESS_SECONDS and reports[-1].nodes <= result.nodes


def test_a_search_out_of_time_reports_up_to_its_limit(searches):
    reports: list[SolveProgress] = []
    result = solve(searches, time_limit=2.0, clock=TickingClock(0.0004), progress=reports.append)
    assert result.status == "time_limit" and reports
    assert reports[-1].seconds <= 2.0 and reports[-1].left < 1.0            # no report once the limit is spent


def test_reporting_changes_nothing_the_solver_finds(searches):
    quiet = solve(searches, time_limit=60.0, clock=TickingClock(0.0001))
    reports: list[SolveProgress] = []
    heard = solve(searches, time_limit=60.0, clock=TickingClock(0.0001), progress=reports.append)
    assert quiet.solved and reports
    assert (heard.status, heard.lurd, heard.nodes) == (quiet.status, quiet.lurd, quiet.nodes)


def test_a_quick_solve_reports_nothing():
    level = Collection("#######\n#@ $ .#\n#######\n").level(0)
    reports: list[SolveProgress] = []
    assert solve(level, time_limit=5.0, progress=reports.append, clock=time.monotonic).solved
    assert reports == []


def test_the_reporter_calls_back_once_its_interval_has_passed():
    clock = TickingClock(0.2)
    reports: list[SolveProgress] = []
    reporter = Reporter(reports.append, Budget(10.0, clock), every=1.0)        # the budget read 0.0
    for nodes in range(1, 12):
        reporter.tick(nodes * 100)                                           # reads 0.2, 0.4, ... 2.2
    assert [(r.nodes, round(r.seconds, 1)) for r in reports] == [(500, 1.0), (1000, 2.0)]
    assert reports[0] == SolveProgress(500, pytest.approx(1.0), 10.0) and reports[0].left == pytest.approx(9.0)

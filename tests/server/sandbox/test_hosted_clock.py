"""``--hosted-clock cpu`` on a real sandbox (issue 31): a hosted bot's step is judged by the CPU time its processes
used, so time it spends without the CPU (a busy host; here, asleep) costs it no timeout; the wall clock stays the
default."""

from __future__ import annotations

import asyncio

import pytest

from server.sandbox.host import BotEntry, GameSpec, Pairing, play_pairing
from shared.gamelog import parse_log
from shared.referee import RefereeSettings

from .conftest import FAST, walker


@pytest.mark.parametrize("clock, late", [("wall", True), ("cpu", False)])
def test_a_step_that_waits_without_the_cpu_is_late_only_on_the_wall_clock(bot_folder, tmp_path, clock, late):
    sleeper = bot_folder(walker("import time; time.sleep(0.4)"), "sleeper")     # 0.4 s of wall time, no CPU
    rules = RefereeSettings(time_limit_ms=300, step_cap=2, clock=clock)      # on the cpu clock: a 900 ms wall cap
    pairing = Pairing((BotEntry("sleeper", "bot.py", sleeper), BotEntry("random", "random")),
                      (GameSpec("g1", tmp_path / "g1.csv"),), rules)
    result = asyncio.run(play_pairing(pairing, FAST))
    outcome = result.games[0].outcome
    assert outcome.violations[0] == (2 if late else 0), outcome
    if late:
        return                      # frozen at the limit, asleep: its answers come after it, and are discarded
    report = result.reports[0]
    assert len(report.timings) == 2 and all(t.wall_ms >= 400 and t.cpu_ms < 300 for t in report.timings)
    log = (tmp_path / "g1.csv").read_text()
    rows = [line.split(",") for line in log.splitlines() if line.startswith("sleeper,")]
    assert len(rows) == 2 and all(int(row[8]) < 300 for row in rows), rows     # the CPU time it was judged by
    read = parse_log(log)                  # both clocks are in the log: it names the one that judged, and the wall's
    assert read.header.clock == "cpu" and read.outcome is not None and read.outcome.wall_ms is not None
    assert len(read.outcome.wall_ms[0]) == 2 and all(ms is not None and ms >= 400 for ms in read.outcome.wall_ms[0])

"""Hosted games' logs: CPU times per step (``cpu_ms`` rows) and why a bot's process died (the result row's reason).

Added as metadata rows, so logs without them read as before and readers that do not know them skip them.
"""

from __future__ import annotations

from shared.gamelog import GameHeader, GameLog, GameOutcome, StepRecord, format_log, parse_log, row_lines
from shared.quoridor import GameStatus, Step

HEADER = GameHeader(("alice", "bob"), game="g1")
STEPS = [StepRecord("alice", Step.move(5, 2), GameStatus.OK, 12, 0), StepRecord("bob", Step.move(5, 8), GameStatus.OK, 30, 1),
         StepRecord("alice", Step.move(5, 3), GameStatus.OK, 15, 2)]


def test_cpu_times_and_the_note_round_trip_and_stand_before_the_result_row():
    outcome = GameOutcome(1, "disconnect", (27, 30), (0, 0), ((11, None), (29,)),
                          "seat 0 memory_limit: ran out of its address space, at bot.py:4")
    log = GameLog(HEADER, STEPS, outcome)
    text = format_log(log)
    lines = text.splitlines()
    assert lines[-3:] == [",-1,-1,-1,-1,-1,-1,2000,,,0,cpu_ms,11 -,", ",-1,-1,-1,-1,-1,-1,2000,,,1,cpu_ms,29,",
                          ",-1,-1,-1,-1,-1,-1,2000,,,1,result,disconnect,"
                          "seat 0 memory_limit: ran out of its address space%2C at bot.py:4"]
    again = parse_log(text)
    assert again == log and again.problems == []
    assert row_lines(log)[1] == len(lines)


def test_a_log_without_them_is_written_and_read_as_before():
    log = GameLog(HEADER, STEPS, GameOutcome(0, "goal", (27, 30), (0, 0)))
    text = format_log(log)
    assert "cpu_ms" not in text and text.splitlines()[-1] == ",-1,-1,-1,-1,-1,-1,2000,,,0,result,goal,"
    assert parse_log(text).outcome == GameOutcome(0, "goal", (27, 30), (0, 0))

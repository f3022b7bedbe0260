"""The organiser's clock options (issue 31), fed as numbers: a step judged by its CPU time, and the time bank."""

import pytest

from shared.quoridor import GameStatus, Step, parse_step
from shared.referee import GameReferee, RefereeSettings, StepJudged, TurnRequest


class Clocked:
    """Feeds a referee steps with their wall time and, when given, the CPU time their bot used."""

    def __init__(self, **settings):
        self.ref = GameReferee(("alice", "bob"), RefereeSettings(**settings))
        self.now = 50.0
        self._turn([e for e in self.ref.start() if isinstance(e, TurnRequest)][-1])

    def _turn(self, request):
        self.pending = request
        self.ref.clock_started(request.turn, self.now)

    def play(self, step, wall, cpu=None):
        self.now += wall
        events = self.ref.receive_step(self.pending.seat, self.pending.turn, step, self.now, cpu)
        judged = next(e for e in events if isinstance(e, StepJudged))
        nxt = [e for e in events if isinstance(e, TurnRequest)]
        if nxt:
            self.now += 0.001
            self._turn(nxt[-1])
        return judged


# -- the CPU clock ------------------------------------------------------------------------------
def test_on_the_cpu_clock_a_step_slow_on_the_wall_but_quick_on_the_cpu_stands():
    d = Clocked(clock="cpu")
    judged = d.play(parse_step("e2"), wall=1.8, cpu=0.400)        # a busy host: 1.8 s wall, 400 ms of CPU
    assert judged.cause is None and judged.record.thinking_ms == 400
    assert d.ref.clocks_ms == (400, 0)


def test_on_the_cpu_clock_cpu_time_at_the_limit_is_late():
    d = Clocked(clock="cpu")
    judged = d.play(parse_step("e2"), wall=1.01, cpu=1.0)
    assert judged.late and judged.record.status is GameStatus.TIMEOUT
    assert judged.reason == "used 1,000 ms of CPU time; the limit is 1,000 ms"


def test_on_the_cpu_clock_the_wall_time_cap_still_holds():
    d = Clocked(clock="cpu", wall_cap_ms=2500)
    assert d.ref.deadline() == pytest.approx(d.now + 2.5)
    judged = d.play(parse_step("e2"), wall=2.5, cpu=0.01)        # a bot that sleeps
    assert judged.late and judged.reason == "answered after 2,500 ms of wall time; the cap is 2,500 ms"


def test_the_cpu_clocks_cap_defaults_to_three_times_the_limit_and_a_silent_seat_times_out_there():
    d = Clocked(clock="cpu")
    start = d.now
    assert d.ref.deadline() == pytest.approx(start + 3.0)
    assert d.ref.time_out(start + 2.9) == []
    judged = next(e for e in d.ref.time_out(start + 3.0) if isinstance(e, StepJudged))
    assert judged.late and judged.reason == "no answer within the wall-time cap of 3,000 ms"


def test_on_the_cpu_clock_a_step_without_a_cpu_time_is_judged_on_the_wall_as_a_connected_players():
    d = Clocked(clock="cpu")
    assert d.play(parse_step("e2"), wall=1.2).late                # no CPU time: a connected player
    assert d.play(parse_step("e8"), wall=0.3).record.thinking_ms == 300


def test_the_wall_clock_ignores_a_cpu_time():
    d = Clocked()
    judged = d.play(parse_step("e2"), wall=1.2, cpu=0.1)
    assert judged.late and judged.record.thinking_ms == 1200


def test_the_step_cap_on_the_cpu_clock_compares_cpu_times():
    d = Clocked(clock="cpu", step_cap=1)
    d.play(parse_step("e2"), wall=0.9, cpu=0.1)                   # slow on the wall, quick on the CPU
    d.play(parse_step("e8"), wall=0.2, cpu=0.2)
    assert d.ref.outcome is not None and d.ref.outcome.winner == 0 and d.ref.clocks_ms == (100, 200)


# -- the time bank ------------------------------------------------------------------------------
def test_the_bank_keeps_unused_time_up_to_its_size_and_the_turn_says_what_it_allows():
    d = Clocked(time_bank_ms=500)
    assert d.pending.time_limit_ms == 1000 and d.ref.banks_ms == (0, 0)
    d.play(parse_step("e2"), wall=0.8)                            # 200 ms unused
    assert d.ref.banks_ms == (200, 0)
    d.play(parse_step("e8"), wall=0.1)                            # 900 unused, kept up to 500
    d.play(parse_step("e3"), wall=0.5)
    assert d.ref.banks_ms == (500, 500)
    assert d.pending.seat == 1 and d.pending.time_limit_ms == 1500


def test_a_step_beyond_the_limit_draws_on_the_bank_and_one_beyond_limit_and_bank_is_late():
    d = Clocked(time_bank_ms=500)
    d.play(parse_step("e2"), wall=0.7)                            # bank 300
    d.play(parse_step("e8"), wall=0.1)
    judged = d.play(parse_step("e3"), wall=1.2)                   # 200 beyond the limit: from the bank
    assert judged.cause is None and d.ref.banks_ms[0] == 100
    d.play(parse_step("e7"), wall=0.1)
    assert d.ref.deadline() == pytest.approx(d.now + 1.1)
    late = d.play(parse_step("e4"), wall=1.1)
    assert late.late and late.reason == "answered after 1,100 ms; the limit is 1,000 ms and its bank held 100 ms"
    assert d.ref.banks_ms[0] == 0


def test_the_bank_counts_cpu_time_on_the_cpu_clock():
    d = Clocked(clock="cpu", time_bank_ms=1000)
    d.play(parse_step("e2"), wall=2.0, cpu=0.4)
    assert d.ref.banks_ms == (600, 0)


def test_without_a_bank_nothing_is_kept():
    d = Clocked()
    d.play(parse_step("e2"), wall=0.1)
    assert d.ref.banks_ms == (0, 0) and d.pending.time_limit_ms == 1000


def test_a_violation_in_time_still_banks_what_it_left():
    d = Clocked(time_bank_ms=500)
    judged = d.play(Step.move(5, 3), wall=0.6)                     # two cells: invalid
    assert judged.illegal
    assert d.ref.banks_ms == (400, 0)


@pytest.mark.parametrize("settings, message", [
    ({"clock": "cpu-ish"}, "the clock must be 'wall' or 'cpu'"),
    ({"wall_cap_ms": 0}, "the wall-time cap must be positive"),
    ({"time_bank_ms": -1}, "the time bank must be 0 or more ms"),
])
def test_the_options_are_validated(settings, message):
    with pytest.raises(ValueError, match=message):
        RefereeSettings(**settings)

import pytest

from shared.ladder import GameFact, build_report


def test_a_report_counts_colours_opponents_timing_and_causes():
    games = [
        GameFact("g1", "me", "you", 0, "goal", ((100, 900, 300), (50,)), (("late",), ()), (1.0, -1.0)),
        GameFact("g2", "you", "me", 0, "goal", ((10,), (200, 400)), ((), ("not_reachable",)), (2.0, 0.5)),
        GameFact("g3", "me", "them", None, "step_cap", ((1000,), (5,)), ((), ()), (0.7, 0.1)),
        GameFact("g4", "you", "them", 1, "goal"),
    ]
    report = build_report("me", games, time_limit_ms=1000)
    assert report.games == 3
    assert report.by_colour == ((1, 0, 1), (0, 1, 0))
    assert [(h.opponent, h.wins, h.losses, h.draws) for h in report.head_to_head] == [("them", 0, 0, 1),
                                                                                       ("you", 1, 1, 0)]
    assert report.history == [1.0, 0.5, 0.7]
    t = report.timing
    assert (t.steps, t.max_ms, t.slow_steps, t.timeouts) == (6, 1000, 2, 1)   # 900 and 1000 > 800
    assert t.median_ms == pytest.approx(350.0)       # 100 200 300 400 900 1000
    assert t.violations == {"late": 1, "not_reachable": 1}         # a timeout is a violation: late
    assert report.to_json()["seat0"] == {"wins": 1, "losses": 0, "draws": 1}


def test_cpu_times_per_step_are_reported_beside_the_wall_times_when_measured():
    from shared.ladder.report import cpu_summary

    games = [GameFact("g1", "me", "you", 0, "goal", ((100, 900, 300), (50,)), cpu_ms=((90, 850, 280), (40,))),
             GameFact("g2", "you", "me", 0, "goal", ((10,), (200, 400)), cpu_ms=((), (190, 380)))]
    timing = build_report("me", games, time_limit_ms=1000).timing
    assert timing.cpu is not None and (timing.cpu.steps, timing.cpu.max_ms) == (5, 850)
    assert timing.cpu.median_ms == pytest.approx(280.0)            # 90 190 280 380 850
    line = cpu_summary(timing)
    assert line is not None and "CPU time per step (5 steps measured): median 280 ms" in line
    assert "wall: median 300 ms" in line and "spent computing" in line      # 100 200 300 400 900
    assert build_report("me", games, 1000).to_json()["timing"]["cpu"] == {"steps": 5, "median_ms": 280.0,
                                                                         "p95_ms": pytest.approx(756.0), "max_ms": 850}


def test_a_bot_that_waited_for_a_core_is_told_apart_from_one_that_computed():
    from shared.ladder.report import cpu_summary

    waited = build_report("me", [GameFact("g1", "me", "you", 0, "goal", ((900, 950), ()), cpu_ms=((20, 30), ()))],
                          1000)
    assert "waiting, not computing: a busy host" in (cpu_summary(waited.timing) or "")


def test_a_connected_bot_has_no_cpu_times():
    from shared.ladder.report import cpu_summary

    report = build_report("me", [GameFact("g1", "me", "you", 0, "goal", ((100,), ()))], 1000)
    assert report.timing.cpu is None and cpu_summary(report.timing) is None
    assert report.to_json()["timing"]["cpu"] is None


def test_a_fault_ending_says_whose_fault_it_was():
    games = [GameFact("g1", "me", "you", 1, "violations", causes=(("late",) * 3, ())),
             GameFact("g2", "you", "me", 1, "violations", causes=(("wall_overlaps",) * 3, ())),
             GameFact("g3", "me", "you", 0, "disconnect"), GameFact("g4", "me", "you", 0, "goal"),
             GameFact("g5", "me", "you", None, "step_cap")]
    report = build_report("me", games, 1000)
    assert report.reasons == {"disconnect (the opponent's)": 1, "goal": 1, "step_cap": 1, "violations (its own)": 1,
                              "violations (the opponent's)": 1}
    assert report.timing.timeouts == 3 and report.timing.violations == {"late": 3}
    assert report.to_json()["endings"] == report.reasons

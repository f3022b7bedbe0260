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
    assert t.violations == {"not_reachable": 1}
    assert report.to_json()["seat0"] == {"wins": 1, "losses": 0, "draws": 1}

"""The log's value types check what they hold and say what is wrong."""

import pytest

import shared.gamelog

from shared.gamelog import GameHeader, GameLog, GameOutcome, LogProblem, StepRecord, check_player_name
from shared.quoridor import GameStatus, Step


def test_step_record_defaults_and_status_coercion():
    record = StepRecord("alice", Step.move(5, 2), 0)
    assert record.status is GameStatus.OK
    assert record.thinking_ms is None and record.turn is None


@pytest.mark.parametrize("kwargs", [{"thinking_ms": -1}, {"turn": -3}])
def test_step_record_rejects_negative_numbers(kwargs):
    with pytest.raises(ValueError, match="non-negative"):
        StepRecord("alice", Step(), GameStatus.TIMEOUT, **kwargs)


def test_step_record_rejects_unknown_status():
    with pytest.raises(ValueError):
        StepRecord("alice", Step(), 9)


@pytest.mark.parametrize("name, expected", [
    ("", "empty"), ("   ", "empty"), (" bob", "blanks"), ("bob\n", "blanks"), ("b\tob", "control"),
    ("b\x00b", "control"),
])
def test_bad_player_names_are_refused(name, expected):
    with pytest.raises(ValueError, match=expected):
        check_player_name(name)


def test_names_with_commas_and_quotes_are_fine():
    assert check_player_name('Smith, "Bot" 2') == 'Smith, "Bot" 2'


def test_header_checks_its_fields():
    header = GameHeader(["alice", "bob"], game="g1", started="2024-05-01T12:00:00Z")
    assert header.players == ("alice", "bob") and header.ruleset == "course"
    assert header.seat("bob") == 1
    with pytest.raises(ValueError, match="'carol' does not play"):
        header.seat("carol")
    with pytest.raises(ValueError, match="distinct names"):
        GameHeader(("bot", "bot"))
    with pytest.raises(ValueError, match="two players"):
        GameHeader(("a", "b", "c"))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown ruleset 'chess'"):
        GameHeader(("a", "b"), ruleset="chess")
    with pytest.raises(ValueError, match="ISO 8601"):
        GameHeader(("a", "b"), started="yesterday")
    with pytest.raises(ValueError, match="single line"):
        GameHeader(("a", "b"), tournament="spring\ncup")


def test_outcome_checks_its_fields():
    outcome = GameOutcome(None, "step_cap", [10, 10], (0, 1))  # type: ignore[arg-type]
    assert outcome.thinking_ms == (10, 10)
    with pytest.raises(ValueError, match="winner"):
        GameOutcome(2, "goal", (0, 0), (0, 0))
    with pytest.raises(ValueError, match="unknown reason 'boredom'"):
        GameOutcome(0, "boredom", (0, 0), (0, 0))
    with pytest.raises(ValueError, match="violation counts"):
        GameOutcome(0, "goal", (0, 0), (0, -1))
    with pytest.raises(ValueError, match="thinking times"):
        GameOutcome(0, "goal", (0,), (0, 0))  # type: ignore[arg-type]


def test_game_log_equality_ignores_file_lines():
    header = GameHeader(("a", "b"))
    steps = [StepRecord("a", Step.move(5, 2), GameStatus.OK)]
    assert GameLog(header, steps, step_lines=(9,)) == GameLog(header, list(steps))
    assert not GameLog(header, steps).finished
    assert GameLog(header, steps, GameOutcome(1, "disconnect", (0, 0), (0, 0))).finished


def test_problem_reads_as_a_line():
    assert str(LogProblem(4, "bad")) == "line 4: bad"


def test_exports_resolve():
    for name in shared.gamelog.__all__:
        assert hasattr(shared.gamelog, name), f"shared.gamelog.__all__ names {name}, which does not exist"

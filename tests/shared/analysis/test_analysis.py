"""``analyse_game``: labels and reasons, determinism, the JSON form, violations, old logs, accuracy, the budget."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

from shared.analysis import (
    DEFAULT_NODES, ENGINE_VERSION, LABELS, GameAnalysis, analyse_game, analysis_key, step_accuracy, win_chance,
)
from shared.engine import Searcher
from shared.gamelog import GameHeader, GameLog, GameOutcome, StepRecord, format_log, read_log_data
from shared.quoridor import GameStatus, Position, Step, parse_step

S = GameStatus
ROOT = pathlib.Path(__file__).parents[3]
LEGACY = ROOT / "tests" / "shared" / "gamelog" / "legacy"
NODES = 300      # small budgets keep the tests quick; the analysis is the same at any budget


def game(rows: list[tuple[str, str, GameStatus]], outcome: GameOutcome | None = None) -> GameLog:
    """A log of A (seat 0) and B from rows of (player, step notation or "", status)."""
    return GameLog(GameHeader(("A", "B")), [StepRecord(p, parse_step(s) if s else Step(), st) for p, s, st in rows],
                   outcome)


def race_thrown_away() -> GameLog:
    """A reaches d8 as B reaches f2; A, a step from its goal row, steps to c8 instead; B wins with f1."""
    a = ["e2", "e3", "d3", "d4", "d5", "d6", "d7", "d8", "c8"]
    b = ["f9", "f8", "f7", "f6", "f5", "f4", "f3", "f2"]
    rows = []
    for i, step in enumerate(a):
        rows.append(("A", step, S.OK))
        rows.append(("B", b[i], S.OK) if i < len(b) else ("B", "f1", S.WIN))
    return game(rows, GameOutcome(1, "goal", (0, 0), (0, 0)))


def test_a_win_in_one_not_taken_is_a_blunder_with_its_reason() -> None:
    analysis = analyse_game(race_thrown_away(), nodes=NODES)
    ply = analysis.plies[16]
    assert (ply.ply, ply.seat, ply.played, ply.best) == (17, 0, "c8", "d9")
    assert ply.label == "blunder"
    assert ply.chance_before > 0.95 and ply.chance_after < -0.95
    assert ply.reason == "d9 reached the goal row at once; this step did not"
    assert ply.paths_before == (1, 1) and ply.paths_after == (1, 1)
    assert analysis.players[0].worst[0] == 17
    assert analysis.players[0].counts["blunder"] >= 1


def test_a_win_in_one_put_off_for_a_sure_win_in_two_is_no_blunder() -> None:
    # The old client's example, ply 34: Enemy at a2 could step to b1 and win; a2 -> a1 wins next step all the
    # same (Me cannot stop it). The search stops at the win in one; the step beside it needs a search of its own.
    log = read_log_data((LEGACY / "client_example.csv").read_bytes(), "client_example.csv")
    ply = analyse_game(log, nodes=100).plies[33]
    assert (ply.played, ply.best) == ("a2", "b1")
    assert ply.label is None and ply.chance_after > 0.95


def test_the_same_log_gives_the_same_analysis() -> None:
    log = race_thrown_away()
    assert analyse_game(log, nodes=NODES).to_json() == analyse_game(log, nodes=NODES).to_json()


def _analysis_json(nodes: int) -> str:
    return json.dumps(analyse_game(race_thrown_away(), nodes=nodes).to_json(), sort_keys=True)


def test_another_process_and_hash_seed_give_the_same_analysis() -> None:
    code = "from tests.shared.analysis.test_analysis import _analysis_json; print(_analysis_json(300))"
    env = {**os.environ, "PYTHONHASHSEED": "4242"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120,
                         check=True, cwd=ROOT).stdout.strip()
    assert out == _analysis_json(NODES)


def test_the_json_form_round_trips() -> None:
    analysis = analyse_game(race_thrown_away(), nodes=NODES)
    data = json.loads(json.dumps(analysis.to_json()))
    assert GameAnalysis.from_json(data) == analysis
    assert data["engine"] == ENGINE_VERSION and data["nodes"] == NODES
    assert set(data["plies"][0]) == {"ply", "seat", "played", "best", "chance_before", "chance_after", "drop",
                                     "label", "paths_before", "paths_after", "walls_left", "reason"}
    assert set(data["players"][0]) == {"seat", "name", "accuracy", "counts", "worst"}


@pytest.mark.parametrize("bad, message", [
    ([], "must be a JSON object"),
    ({"engine": "qa", "nodes": 1, "plies": [], "players": []}, "two players"),
    ({"engine": "qa", "nodes": 1, "plies": [{"ply": 1}], "players": [{}, {}]}, "seat must be 0 or 1"),
])
def test_a_json_form_that_is_not_one_is_refused_in_one_line(bad: object, message: str) -> None:
    with pytest.raises(ValueError, match=message) as caught:
        GameAnalysis.from_json(bad)
    assert "\n" not in str(caught.value)


def test_a_timeout_row_is_a_violation() -> None:
    log = game([("A", "e2", S.OK), ("B", "", S.TIMEOUT), ("A", "e3", S.OK), ("B", "e7", S.INVALID_STEP)])
    plies = analyse_game(log, nodes=NODES).plies
    assert [p.label for p in plies[1::2]] == ["violation", "violation"]
    assert [p.played for p in plies[1::2]] == ["", ""]
    assert plies[1].reason == "the step timed out: the turn passed"
    assert plies[1].paths_before == plies[1].paths_after
    assert analyse_game(log, nodes=NODES).players[1].counts["violation"] == 2


@pytest.mark.parametrize("name", ["client_example.csv", "server_0_DEFENSIVE_VS_BASELINE.csv",
                                  "server_1_DEFENSIVE_VS_BASELINE.csv"])
def test_old_server_and_client_logs_are_analysed(name: str) -> None:
    data = (LEGACY / name).read_bytes()
    log = read_log_data(data, name)
    analysis = analyse_game(log, nodes=100)
    assert len(analysis.plies) == len(log.steps)
    assert [p.ply for p in analysis.plies] == list(range(1, len(log.steps) + 1))
    assert {p.label for p in analysis.plies if p.played == ""} <= {"violation", None}
    assert all(p.reason for p in analysis.plies if p.label is not None)


def test_our_logs_are_analysed_from_their_file() -> None:
    log = race_thrown_away()
    text = format_log(log)
    assert analyse_game(read_log_data(text.encode(), "ours.csv"), nodes=NODES) == analyse_game(log, nodes=NODES)


def _engine_against_a_wanderer(plies: int, nodes: int) -> GameLog:
    """A plays the engine's best step each turn; B steps where its own path grows most (first such move)."""
    pos, rows = Position.initial(), []
    for _ in range(plies):
        if pos.turn == 0:
            step = Searcher().search(pos, nodes=nodes).step
            assert step is not None
        else:
            moves = pos.legal_moves()
            step = Step.move(*max(moves, key=lambda loc: pos.apply(Step.move(*loc)).distance(1) or 0))
        pos = pos.apply(step)
        won = pos.winner() is not None
        rows.append(("AB"[1 - pos.turn], step, S.WIN if won else S.OK))
        if won:
            break
    return GameLog(GameHeader(("A", "B")), [StepRecord(p, s, st) for p, s, st in rows])


def test_accuracy_is_100_for_the_engines_own_steps_and_lower_for_wandering() -> None:
    analysis = analyse_game(_engine_against_a_wanderer(16, NODES), nodes=NODES)
    a, b = analysis.players
    assert a.accuracy == 100.0 and all(p.drop == 0 for p in analysis.plies if p.seat == 0)
    assert a.worst == ()
    assert b.accuracy < 90
    assert sum(b.counts[label] for label in LABELS) > 0


def test_accuracy_is_lower_for_a_blunder() -> None:
    assert analyse_game(race_thrown_away(), nodes=NODES).players[0].accuracy < 100
    assert step_accuracy(0.0) == pytest.approx(100.0, abs=1e-3)
    assert step_accuracy(0.3) < step_accuracy(0.1) < 100
    assert step_accuracy(2.0) == 0.0


def test_progress_is_told_after_each_ply() -> None:
    seen: list[tuple[int, int]] = []
    analyse_game(race_thrown_away(), nodes=50, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(i, 18) for i in range(1, 19)]


def test_the_key_names_the_log_and_the_engine() -> None:
    assert analysis_key(b"a") != analysis_key(b"b")
    assert analysis_key(b"a") == analysis_key(b"a") and ENGINE_VERSION in analysis_key(b"a")


def test_win_chances() -> None:
    assert win_chance(0) == 0.0
    assert win_chance(100_000 - 3) == pytest.approx(1.0) and win_chance(-(100_000 - 3)) == pytest.approx(-1.0)
    assert 0 < win_chance(100) < win_chance(300) < 1
    assert win_chance(-300) == -win_chance(300)


def test_a_budget_below_one_node_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        analyse_game(race_thrown_away(), nodes=0)
    assert DEFAULT_NODES >= 1


def test_the_stored_form_is_current_only_under_its_key_and_budget() -> None:
    from shared.analysis import parse_stored, stored_text

    text = stored_text({"engine": "e", "nodes": 500, "plies": []}, "key-1")
    assert parse_stored(text, "key-1") == {"engine": "e", "nodes": 500, "plies": [], "key": "key-1"}
    assert parse_stored(text.encode(), "key-1", 500) is not None
    assert parse_stored(text, "key-2") is None                      # another log, or another engine version
    assert parse_stored(text, "key-1", 600) is None                 # made with another budget
    assert parse_stored("{not json", "key-1") is None
    assert parse_stored("[1, 2]", "key-1") is None

"""The engine's search (``shared.engine``): wins found, budgets kept, the play pinned, the work per node."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

from shared.engine import MATE_BOUND, WIN, Searcher, wall_options
from shared.quoridor import Position, Step, parse_position, parse_step, step_name
from tests.client.bots.conftest import POSITIONS
from tests.clocks import TickingClock

#: What the search answers on the bot tests' positions, with a clock reading one second a read, on budgets of 400
#: and 2,500 seconds (about as many nodes): (step, score, completed depth, nodes). First pinned when the search
#: moved into ``shared.engine`` (``client/bots/search.py`` at 4ab75e8); set again by issue 34's search (walls in
#: hand at 1.5 steps, the table's step searched before the walls are made, killers): the same steps, scores
#: moved by the walls' worth, node counts by the order.
PINNED = {
    "start": [("e2", 50, 4, 248), ("e2", 50, 6, 1608)],
    "start, seat 1": [("e8", -50, 4, 253), ("e8", -50, 6, 1981)],
    "mid-game": [("c5", 350, 4, 247), ("d4", 250, 6, 2168)],
    "mid-game, seat 1": [("c4h", 500, 4, 240), ("c4h", 350, 6, 1587)],
    "jump up": [("e6", 50, 4, 205), ("e6", 50, 6, 1716)],
    "jump down": [("e3", 250, 4, 230), ("e3", 400, 6, 1942)],
    "jump blocked by a wall": [("d4", -150, 4, 186), ("d4", -150, 6, 1610)],
    "no walls left": [("e5", 49640, 6, 131), ("d6", 49810, 10, 800)],
    "no walls left, seat 1": [("e6", -49720, 7, 174), ("e6", -49920, 11, 856)],
    "mover has no walls, other has": [("f5", -350, 5, 167), ("f5", -49460, 7, 1119)],
}

#: The node-budget search's answers (600 nodes): the same on every machine, whatever the hash seed.
ON_600_NODES = {
    "start": ("e2", 50),
    "start, seat 1": ("e8", -50),
    "mid-game": ("c5", 350),
    "mid-game, seat 1": ("c4h", 500),
    "jump up": ("e6", 50),
    "jump down": ("e3", 250),
    "jump blocked by a wall": ("d4", -150),
    "no walls left": ("e5", 49770),
    "no walls left, seat 1": ("e6", -49830),
    "mover has no walls, other has": ("f5", -49470),
}


@pytest.mark.parametrize("name", sorted(PINNED))
def test_the_timed_search_plays_as_pinned(name: str) -> None:
    pos = parse_position(POSITIONS[name])
    for budget, expected in zip((400, 2500), PINNED[name]):
        result = Searcher(clock=TickingClock(1.0)).search(pos, budget)
        assert (step_name(result.step), result.score, result.depth, result.nodes) == expected


def test_a_win_in_one_is_taken_at_once() -> None:
    pos = parse_position("e8 a5 0 3 3 -")
    result = Searcher().search(pos, nodes=50)
    assert step_name(result.step) == "e9"
    assert result.score > MATE_BOUND


def test_a_win_in_three_plies_goes_round_the_wall() -> None:
    # e8h shuts e8 and f8 off row 9: d8 then d9 wins; f8 then g8, g9 is a step slower and loses the race.
    pos = parse_position("e8 e3 0 0 0 e8h")
    result = Searcher().search(pos, nodes=2000)
    assert step_name(result.step) == "d8"
    assert result.score == WIN - 3


@pytest.mark.parametrize("nodes", [1, 10, 100, 700])
def test_the_node_budget_is_kept(nodes: int) -> None:
    for text in POSITIONS.values():
        result = Searcher().search(parse_position(text), nodes=nodes)
        assert 0 < result.nodes <= nodes
        assert result.step is not None


def test_a_search_needs_a_budget_and_seconds_need_a_clock() -> None:
    pos = parse_position(POSITIONS["start"])
    with pytest.raises(ValueError, match="needs a budget"):
        Searcher().search(pos)
    with pytest.raises(ValueError, match="needs a clock"):
        Searcher().search(pos, 0.1)
    with pytest.raises(ValueError, match="positive"):
        Searcher().search(pos, nodes=0)


def test_both_budgets_stop_at_the_first_spent() -> None:
    pos = parse_position(POSITIONS["mid-game"])
    by_time = Searcher(clock=TickingClock(1.0)).search(pos, 100, nodes=10_000)
    by_nodes = Searcher(clock=TickingClock(1.0)).search(pos, 10_000, nodes=100)
    assert by_time.nodes <= 100 and by_nodes.nodes <= 100


def _answers() -> dict[str, list[object]]:
    return {name: [step_name(r.step), r.score] for name, text in POSITIONS.items()
            for r in [Searcher().search(parse_position(text), nodes=600)]}


def test_a_node_budget_search_gives_the_same_answers_everywhere() -> None:
    assert {name: tuple(answer) for name, answer in _answers().items()} == ON_600_NODES


def test_another_hash_seed_gives_the_same_answers() -> None:
    code = ("import json; from tests.shared.engine.test_search import _answers; print(json.dumps(_answers()))")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    root = pathlib.Path(__file__).parents[3]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120,
                         check=True, cwd=root).stdout
    assert json.loads(out) == _answers()


def test_a_step_is_scored_at_the_depth_of_the_search() -> None:
    pos = parse_position(POSITIONS["start"])
    searcher = Searcher()
    result = searcher.search(pos, nodes=600)
    assert result.step is not None
    # The best step, scored on its own at the depth of the search's score, scores what the search said.
    assert searcher.score_child(pos.apply(result.step), searcher.score_depth, 600) == result.score
    sideways = searcher.score_child(pos.apply(parse_step("d1")), searcher.score_depth, 600)
    assert sideways == result.score - 100     # a step lost: one step of path


@pytest.mark.parametrize("name", ["start", "mid-game", "mid-game, seat 1", "mover has no walls, other has"])
def test_a_search_makes_a_position_only_for_a_step_it_searches(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Scoring a wall needs only the two path lengths after it: the search makes the position of the root's steps
    # it keeps and of the steps it searches below (one node each), not of the dozens of walls it scores and drops.
    searcher = Searcher()
    pos = parse_position(POSITIONS[name])
    d0, d1 = pos.distance(0), pos.distance(1)
    assert d0 is not None and d1 is not None
    kept = min(searcher.root_wall_limit, len(wall_options(pos, d0, d1))) + len(pos.legal_moves())
    made = 0
    apply = Position.apply

    def counted(self: Position, step: Step) -> Position:
        nonlocal made
        made += 1
        return apply(self, step)

    monkeypatch.setattr(Position, "apply", counted)
    result = searcher.search(pos, nodes=600)
    assert result.step is not None and made <= result.nodes + kept

"""The engine's ``evaluation``: when a race is won (``won_race``), and how ``evaluate`` scores a decided race."""

import random

import pytest

from shared.engine.evaluation import (
    KNOWN_WIN,
    LEAD,
    STEP,
    WALL_VALUES,
    distance_from,
    distances_to_goal,
    evaluate,
    score_of,
    wall_cuts,
    wall_options,
    won_race,
)
from shared.quoridor import Position, Step, parse_position
from shared.quoridor.geometry import GOAL_ROWS

#: Won races from games against ``blocker`` (``test_won_race``): the other pawn held up behind this one,
#: and seat 1 to move.
HELD_UP = "f2 e3 0 3 0 d1h,f1h,h1h,b3h,d3h,f3h,g4h,f5h,h5h,e1v,c2v,b3v,d3v,f3v,b5v,b7v,e8v"
SEAT_1 = "h4 i5 1 0 1 b1h,d1h,f1h,h1h,a2h,c2h,e2h,g2h,c3h,d4h,b5h,d5h,f5h,h5h,a6h,e3v,g3v,b4v,f4v"


def score(pos: Position) -> int:
    """``evaluate`` of ``pos`` for its side to move, with its true path lengths."""
    d0, d1 = pos.distance(0), pos.distance(1)
    assert d0 is not None and d1 is not None
    return evaluate(pos, d0, d1)


@pytest.mark.parametrize("text, player, won", [
    ("e7 e4 0 10 0 -", 0, True),      # to move, a step to spare
    ("e7 e3 0 10 0 -", 0, False),     # to move, level: the other pawn may jump it where the paths cross
    ("e7 e5 1 10 0 -", 0, True),      # not to move, two steps to spare
    ("e7 e4 1 10 0 -", 0, False),     # not to move, one step to spare
    ("e7 e4 0 10 1 -", 0, False),     # the other side still has a wall
    ("e7 e4 0 10 0 -", 1, False),     # the other side's view
    ("e6 e3 1 0 10 -", 1, True),      # seat 1, to move, a step to spare
    ("e9 e3 1 10 0 -", 0, False),     # the game is over
])
def test_a_race_is_won_when_the_other_side_has_no_walls_and_this_one_is_three_plies_ahead(text, player, won):
    assert won_race(parse_position(text), player) is won


def random_positions(seed: int, plies: int) -> list[Position]:
    """The positions of one random game (half its steps walls while there are walls), over or not."""
    rng = random.Random(seed)
    pos = Position.initial()
    out = [pos]
    while len(out) <= plies and not pos.is_over():
        walls = pos.legal_walls() if pos.walls_left[pos.turn] else []
        step = Step(new_wall=rng.choice(walls)) if walls and rng.random() < 0.5 else Step(rng.choice(pos.legal_moves()))
        pos = pos.apply(step)
        out.append(pos)
    return out


def test_evaluate_scores_a_race_as_decided_exactly_when_won_race_says_it_is_won():
    # ``evaluate`` inlines ``won_race`` (the hot path); the two must agree for either side.
    positions = [pos for seed in range(40) for pos in random_positions(seed, 120) if not pos.is_over()]
    decided = 0
    for pos in positions:
        value = score(pos)
        assert (value > KNOWN_WIN // 2) is won_race(pos, pos.turn), pos
        assert (value < -KNOWN_WIN // 2) is won_race(pos, 1 - pos.turn), pos
        decided += abs(value) > KNOWN_WIN // 2
    assert 0 < decided < len(positions)


def test_a_decided_race_is_scored_by_the_winners_path_and_the_margin_only_breaks_ties():
    pos = parse_position("e7 e4 0 10 0 -")      # seat 0 needs 2 steps, seat 1 needs 3
    assert score(pos) == KNOWN_WIN - 2 * STEP + LEAD * 1 + WALL_VALUES[10]
    # The loser's path a step longer gains the winner only ``LEAD``; its own a step shorter, ``STEP`` more.
    assert evaluate(pos, 2, 4) - evaluate(pos, 2, 3) == LEAD
    assert evaluate(pos, 1, 3) - evaluate(pos, 2, 3) == STEP + LEAD
    # The loser to move sees the same race from the other side.
    loser = parse_position("e7 e4 1 10 0 -")
    assert not won_race(loser, 0) and score(loser) < 0
    assert score(parse_position("e7 e5 1 10 0 -")) == -(KNOWN_WIN - 2 * STEP) + LEAD * -2 - WALL_VALUES[10]


@pytest.mark.parametrize("text", [HELD_UP, SEAT_1, "e5 e7 0 2 0 -"])
def test_in_a_won_race_every_step_home_outscores_every_other_step(text):
    # Scored by the margin, a step home tied with a step into the loser's way and with a wall.
    pos = parse_position(text)
    me = pos.turn
    assert won_race(pos, me)

    def after(step: Step) -> int:
        return -score(pos.apply(step))

    home = [s for s in pos.legal_steps() if s.is_move() and pos.apply(s).distance(me) < pos.distance(me)]
    others = [s for s in pos.legal_steps() if s not in home]
    assert home and others and any(not s.is_move() for s in others)
    assert min(after(s) for s in home) > max(after(s) for s in others)


def _positions(count: int, seed: int) -> list[Position]:
    """Positions of seeded random games (walls and pawn moves mixed), each before the game is over."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = Position.initial()
        for _ in range(rng.randrange(4, 40)):
            steps = pos.legal_steps()
            walls = [s for s in steps if not s.is_move()]
            nxt = pos.apply(rng.choice(walls if walls and rng.random() < 0.5 else steps))
            if nxt.is_over():
                break
            pos = nxt
        out.append(pos)
    return out


def test_wall_cuts_are_exactly_the_legal_walls_that_lengthen_the_other_path_with_both_lengths_after() -> None:
    for pos in _positions(60, seed=34):
        d0, d1 = pos.distance(0), pos.distance(1)
        assert d0 is not None and d1 is not None
        other = 1 - pos.turn
        expected = []
        for step in pos.legal_steps() if pos.walls_left[pos.turn] else ():
            child = pos.apply(step)
            if not step.is_move() and child.distance(other) > (d0, d1)[other]:    # type: ignore[operator]
                expected.append((step, child.distance(0), child.distance(1)))
        cuts = wall_cuts(pos, d0, d1)
        assert sorted(cuts, key=str) == sorted(expected, key=str)
        # wall_options is the same walls, in the same order, each with its child position.
        assert [(o.step, o.d0, o.d1) for o in wall_options(pos, d0, d1)] == cuts
        assert all(o.child == pos.apply(o.step) for o in wall_options(pos, d0, d1))


def test_distances_to_goal_are_each_cells_path_length() -> None:
    for pos in _positions(30, seed=35):
        for player in (0, 1):
            cells = [c for c in range(90) if c % 10 < 9 and distance_from(1 << c, GOAL_ROWS[player], pos.open)
                     is not None]
            assert distances_to_goal(cells, GOAL_ROWS[player], pos.open) == [
                distance_from(1 << c, GOAL_ROWS[player], pos.open) for c in cells]


def test_a_wall_that_costs_the_other_pawn_three_steps_is_worth_more_than_a_step_home() -> None:
    # Seat 0 to move, both paths 8 steps, 10 walls each. A wall in hand is worth 1.5 steps (tuned against strong
    # itself): a wall that gains three steps is placed before a step home; at 2 steps a wall the two tied.
    step_home = -score_of(1, (10, 10), 7, 8)
    wall = -score_of(1, (9, 10), 8, 11)
    assert wall > step_home
    assert -score_of(1, (9, 10), 8, 10) < step_home        # two steps are not worth a wall

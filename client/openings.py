"""Seeded random openings: a few legal plies played for the bots before they take over.

Bots that choose the same step in the same position would play the same game again and again;
an opening makes the games of a series differ, and playing each opening twice with the colours
swapped (a *pair*) keeps it fair. ``random_opening`` draws the plies from a ``random.Random``;
``opening_for`` derives that generator from a run's seed and the pair's number, so a run is
repeated exactly by its seed and every pairing of a round robin meets the same openings.

Each ply is a pawn move or a wall with even odds (a uniform choice among all legal steps would
almost always be a wall: 128 wall slots against 3 moves at the start), then uniform among the
legal steps of that kind. A move that would reach the goal row is never drawn, so an opening
never ends a game; an opening stops early in the (rare) position where the side to move has no
step left to draw.

``walls=False`` draws pawn moves only: for a bot that keeps its own board from the handout's
``ChessboardChange`` (a C++ bot, any program on the hosted-bot channel), which tells it both
pawns at every turn but only the opponent's last wall, never the walls an opening placed.
"""

from __future__ import annotations

import random

from shared.quoridor import COURSE, Position, Ruleset, Step

__all__ = ["random_opening", "opening_for", "opening_position"]


def random_opening(plies: int, rng: random.Random, ruleset: Ruleset = COURSE, *,
                   walls: bool = True) -> tuple[Step, ...]:
    """``plies`` random legal steps from the initial position (see the module docstring for the draw; pawn moves
    only when not ``walls``)."""
    if plies < 0:
        raise ValueError(f"an opening has 0 or more plies, got {plies!r}")
    position = Position.initial(ruleset)
    steps: list[Step] = []
    for _ in range(plies):
        mover = position.turn
        moves = [Step(cell) for cell in position.legal_moves()
                 if position.apply(Step(cell)).winner() != mover]
        placed = [Step(new_wall=wall) for wall in position.legal_walls()] if walls else []
        kinds = [kind for kind in (moves, placed) if kind]
        if not kinds:
            break
        step = rng.choice(rng.choice(kinds))
        steps.append(step)
        position = position.apply(step)
    return tuple(steps)


def opening_for(seed: int, number: int, plies: int, ruleset: Ruleset = COURSE, *,
                walls: bool = True) -> tuple[Step, ...]:
    """The opening of pair ``number`` in a run seeded ``seed``: the same on every machine and Python."""
    if plies == 0:
        return ()
    return random_opening(plies, random.Random(f"quoridor-opening/{seed}/{number}"), ruleset, walls=walls)


def opening_position(opening: tuple[Step, ...], ruleset: Ruleset = COURSE) -> Position:
    """The position after ``opening`` (each step checked: ``IllegalStepError`` names a bad one)."""
    position = Position.initial(ruleset)
    for step in opening:
        position = position.play(step)
    return position

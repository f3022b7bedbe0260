"""Seeded openings for the ladder: a few random pawn moves played for the bots before they take over.

Both games of a pairing start from the same opening, colours swapped, so neither the first move
nor one lucky line decides. The ladder's openings are pawn moves only (never one that reaches the
goal row): a remote bot learns the position from its ``turn`` frames, which carry both pawns in full
but only the opponent's *last* wall, so a wall played for a bot would be invisible to it. Pure and
repeatable: the plies follow from the seed and the pairing's number on every machine.
"""

from __future__ import annotations

import random

from shared.quoridor import COURSE, Position, Ruleset, Step

__all__ = ["pawn_opening"]


def pawn_opening(seed: int, number: int, plies: int, ruleset: Ruleset = COURSE) -> tuple[Step, ...]:
    """The ``plies`` pawn moves of pairing ``number`` in a ladder seeded ``seed``."""
    if plies < 0:
        raise ValueError(f"an opening has 0 or more plies, got {plies!r}")
    rng = random.Random(f"quoridor-ladder-opening/{seed}/{number}")
    position = Position.initial(ruleset)
    steps: list[Step] = []
    for _ in range(plies):
        mover = position.turn
        moves = sorted((Step(cell) for cell in position.legal_moves() if position.apply(Step(cell)).winner() != mover),
                       key=lambda s: tuple(s.new_loc))
        if not moves:
            break
        step = rng.choice(moves)
        steps.append(step)
        position = position.apply(step)
    return tuple(steps)

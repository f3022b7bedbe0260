"""The curve from the engine's value to a winning chance: one logistic, one constant (``CHANCE_SCALE``).

``win_chance(v) = 2 / (1 + exp(-v / CHANCE_SCALE)) - 1`` (computed as ``tanh(v / (2 * CHANCE_SCALE))``):
the expected score on Lichess's -1..1 scale (1 a sure win) of the side to move when the engine values
its position at ``v`` evaluation units (100 = one step of path; ``shared.engine.evaluation``). A decided
race (``KNOWN_WIN``, 50,000) and a forced win the search found (``WIN``, 100,000 less the plies) are
hundreds of scales away: their chances round to +-1.

How the scale was fitted: 300 games between the built-in bots at several strengths (random, runner,
blocker, defender, strong at 20 ms; every pairing, both seats, seeded), every position of each searched
at the analysis's default budget (``DEFAULT_NODES``); the scale maximising the likelihood of the side to
move's result (win 1, loss 0; step-cap draws left out) under ``(1 + win_chance(v)) / 2``, by a grid of
scales from 50 to 2,000 units. This module is the only place the curve's parameter lives; a change of it
changes ``ENGINE_VERSION``, so stored analyses made with the old curve are analysed again.
"""

from __future__ import annotations

import math

__all__ = ["CHANCE_SCALE", "win_chance"]

#: Evaluation units per unit of the logistic's argument (see the module doc for how it was fitted).
CHANCE_SCALE = 400.0


def win_chance(value: int) -> float:
    """The side to move's winning chance in -1..1 for the engine's ``value`` of its position (calibrated curve)."""
    return math.tanh(value / (2.0 * CHANCE_SCALE))

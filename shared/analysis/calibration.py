"""The curve from the engine's value to a winning chance: one logistic, one constant (``CHANCE_SCALE``).

``win_chance(v) = 2 / (1 + exp(-v / CHANCE_SCALE)) - 1`` (computed as ``tanh(v / (2 * CHANCE_SCALE))``):
the expected score on Lichess's -1..1 scale (1 a sure win) of the side to move when the engine values
its position at ``v`` evaluation units (100 = one step of path; ``shared.engine.evaluation``). A decided
race (``KNOWN_WIN``, 50,000) and a forced win the search found (``WIN``, 100,000 less the plies) are
hundreds of scales away: their chances round to +-1.

How the scale was fitted (a first fit, to be refitted on many more games): 182 games between the
built-in bots that play walls (blocker, defender, strong at 20 ms, round robins with seeded openings of 2
and 4 random plies, both seats; and strong against strong at 200 ms), about 20 evenly spaced positions
of each game (4,323), each searched at ``DEFAULT_NODES`` nodes; the scale is the one, on a grid of
10 units from 50 to 2,000, that maximises the likelihood of the side to move's result (a win 1, a loss
0) under ``(1 + win_chance(v)) / 2``: 370 (Brier score 0.124). Games of ``random`` and ``runner`` were
left out: ``runner`` never places the walls the evaluation counts as worth two steps each, and ``random``
loses whatever the board says, so their games flatten the likelihood (best scale 1,280, nearly as good
from 1,000 to 1,500). This module is the only place the curve's parameter lives; its value is part of
``ENGINE_VERSION``, so stored analyses made with another curve are analysed again.
"""

from __future__ import annotations

import math

__all__ = ["CHANCE_SCALE", "win_chance"]

#: Evaluation units per unit of the logistic's argument (see the module doc for how it was fitted).
CHANCE_SCALE = 370.0


def win_chance(value: int) -> float:
    """The side to move's winning chance in -1..1 for the engine's ``value`` of its position (calibrated curve)."""
    return math.tanh(value / (2.0 * CHANCE_SCALE))

"""The curve from the engine's value to a winning chance: one logistic, one constant (``CHANCE_SCALE``).

``win_chance(v) = 2 / (1 + exp(-v / CHANCE_SCALE)) - 1`` (computed as ``tanh(v / (2 * CHANCE_SCALE))``):
the expected score on Lichess's -1..1 scale (1 a sure win) of the side to move when the engine values
its position at ``v`` evaluation units (100 = one step of path; ``shared.engine.evaluation``). A decided
race (``KNOWN_WIN``, 50,000) and a forced win the search found (``WIN``, 100,000 less the plies) are
hundreds of scales away: their chances round to +-1.

How the scale was fitted (docs/analysis.md, Calibration): ``.venv/bin/python bench/analysis_calibration.py
--samples FILE`` (run 2026-11-27, after issue 34's search: a wall in hand worth 1.5 steps), 10,000 games between
the built-in bots at several strengths (random, runner, blocker, defender, the engine on 40 and 120 nodes a
step; 20 pairings, both seats, seeded 4-ply openings), 2 positions of each searched as ``analyse_game``
searches them, at 500 nodes; the scale of maximum likelihood of the side to move's result on four fifths of
the games, undecided positions (13,316): 401. On the held-out fifth (3,978 positions of 1,989 games): Brier
score 0.174 against the base rate's 0.250 (0.177 at the earlier 581, fitted before the search changed), log
loss 0.506 (0.513); an offset gained nothing. The scale depends on the mix: 350 on a bot against itself only,
329 without random and runner (which lose even positions whatever the board says), 417 on a bot against a
stronger one. This module is the only place the curve's
parameter lives; its value is part of ``ENGINE_VERSION``, so stored analyses made with another curve are
analysed again.
"""

from __future__ import annotations

import math

__all__ = ["CHANCE_SCALE", "win_chance"]

#: Evaluation units per unit of the logistic's argument (see the module doc for how it was fitted).
CHANCE_SCALE = 401.0


def win_chance(value: int) -> float:
    """The side to move's winning chance in -1..1 for the engine's ``value`` of its position (calibrated curve)."""
    return math.tanh(value / (2.0 * CHANCE_SCALE))

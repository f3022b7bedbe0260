"""Elo rating differences with 95% error margins, computed from a score as cutechess-cli does."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only for annotations: standings.py imports this module at run time
    from .standings import Standings

__all__ = ["Z_95", "elo_difference", "expected_score", "ratings"]

Z_95 = 1.959964
"""The two-sided 95% quantile of the standard normal distribution, as cutechess uses it."""


def _logistic_diff(score: float) -> float:
    """The rating difference at which the logistic curve predicts ``score`` (0 < score < 1)."""
    return -400.0 * math.log10(1.0 / score - 1.0)


def expected_score(difference: float) -> float:
    """The score (0..1) the logistic Elo curve predicts for a rating ``difference``."""
    return 1.0 / (1.0 + 10.0 ** (-difference / 400.0))


def elo_difference(wins: int, losses: int, draws: int) -> tuple[float, float | None] | None:
    """The Elo difference and its 95% error margin for a score of ``wins``/``losses``/``draws``.

    None when there are no games. A score of 0 or 1 gives ``-inf``/``+inf`` with error None;
    the error is also None when the 95% interval of the score leaves (0, 1) (few games), where
    cutechess prints ``nan``.
    """
    for name, count in (("wins", wins), ("losses", losses), ("draws", draws)):
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {count!r}")
    n = wins + losses + draws
    if n == 0:
        return None
    mu = (wins + draws / 2.0) / n
    if mu == 0.0:
        return -math.inf, None
    if mu == 1.0:
        return math.inf, None
    # Variance of one game's outcome (1, 0.5, 0) around the mean, then the stdev of the mean.
    variance = (wins * (1.0 - mu) ** 2 + losses * mu ** 2 + draws * (0.5 - mu) ** 2) / n
    stdev_of_mean = math.sqrt(variance) / math.sqrt(n)
    lower = mu - Z_95 * stdev_of_mean
    upper = mu + Z_95 * stdev_of_mean
    diff = _logistic_diff(mu) + 0.0  # + 0.0 turns -0.0 (an even score) into 0.0
    if not 0.0 < lower < upper < 1.0:
        return diff, None
    return diff, (_logistic_diff(upper) - _logistic_diff(lower)) / 2.0


def ratings(standings: Standings) -> dict[str, tuple[float, float | None]]:
    """Each player's Elo relative to the field, with its error; players without games are left out.

    This is a performance rating against the pool, as cutechess reports per engine: the
    difference from the player's total score against all its opponents taken together.
    """
    result: dict[str, tuple[float, float | None]] = {}
    for row in standings.rows():
        elo = elo_difference(row.wins, row.losses, row.draws)
        if elo is not None:
            result[row.player] = elo
    return result

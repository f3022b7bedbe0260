"""Results counted per colour-swapped pair of games, and the Elo they give, as fastchess computes them.

Two games from the same opening, each bot once in each seat, form a *pair*; a first-move
advantage then cancels out within it. A pair scores 0, ½, 1, 1½ or 2 points for the first bot,
so pairs fall into five classes, counted by ``Pentanomial`` (fastchess's ``-report penta``):

====  ==========================  ====================
LL    lost both                   pair score 0
LD    lost one, drew one          ¼ (per game)
WL    won one, lost one           ½
DD    drew both                   ½
WD    won one, drew one           ¾
WW    won both                    1
====  ==========================  ====================

WL and DD score alike but are kept apart (the WL/DD ratio tells how much the colour decides);
statistics merge them, as fastchess's ``Ptnml(0-2)`` line ``[LL, LD, WL+DD, WD, WW]`` does.

``pentanomial_elo`` is fastchess's ``EloPentanomial``: the mean pair score, its variance per
pair, a 95% normal interval of the score and the logistic Elo difference of each end; the
normalised Elo (nElo) divides the score's excess over ½ by its standard deviation, and the
likelihood of superiority (LOS) is the normal probability that the true score exceeds ½.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from .elo import Z_95

__all__ = ["PAIR_SCORES", "Pentanomial", "PentanomialElo", "pentanomial_elo", "score_to_elo", "NELO_SCALE"]

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""The score per game of each class of ``Pentanomial.counts``: LL, LD, WL+DD, WD, WW."""

NELO_SCALE = 800.0 / math.log(10.0)
"""Normalised Elo per unit of (score - ½) / standard deviation of a game pair's score, times √2."""

_GAME_SCORES = (0.0, 0.5, 1.0)


@dataclass(frozen=True, slots=True)
class Pentanomial:
    """Counts of colour-swapped pairs by their result for the first bot (see the module docstring)."""

    ll: int = 0
    ld: int = 0
    wl: int = 0
    dd: int = 0
    wd: int = 0
    ww: int = 0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"pentanomial count {f.name.upper()} must be a non-negative integer, got {value!r}")

    @classmethod
    def of_pair(cls, first: float, second: float) -> Pentanomial:
        """One pair: the first bot's score (1 win, ½ draw, 0 loss) in each of its two games."""
        for score in (first, second):
            if score not in _GAME_SCORES:
                raise ValueError(f"a game's score is 0, 0.5 or 1, got {score!r}")
        wins = (first == 1.0) + (second == 1.0)
        losses = (first == 0.0) + (second == 0.0)
        key = {(2, 0): "ww", (1, 0): "wd", (1, 1): "wl", (0, 0): "dd", (0, 1): "ld", (0, 2): "ll"}[wins, losses]
        return cls(**{key: 1})

    @classmethod
    def from_counts(cls, counts: tuple[int, int, int, int, int]) -> Pentanomial:
        """From ``[LL, LD, WL+DD, WD, WW]`` (``counts``'s order; the middle class is taken as DD)."""
        ll, ld, middle, wd, ww = counts
        return cls(ll=ll, ld=ld, dd=middle, wd=wd, ww=ww)

    def __add__(self, other: Pentanomial) -> Pentanomial:
        return Pentanomial(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    def inverted(self) -> Pentanomial:
        """The same pairs seen by the second bot (its WW are the first bot's LL, and so on)."""
        return Pentanomial(ll=self.ww, ld=self.wd, wl=self.wl, dd=self.dd, wd=self.ld, ww=self.ll)

    @property
    def counts(self) -> tuple[int, int, int, int, int]:
        """``(LL, LD, WL+DD, WD, WW)``: fastchess's ``Ptnml(0-2)``, the order of ``PAIR_SCORES``."""
        return self.ll, self.ld, self.wl + self.dd, self.wd, self.ww

    @property
    def pairs(self) -> int:
        """Pairs counted."""
        return sum(self.counts)

    @property
    def score(self) -> float:
        """The first bot's mean score per game over the pairs (0..1); ½ when there are none."""
        if not self.pairs:
            return 0.5
        return sum(n * s for n, s in zip(self.counts, PAIR_SCORES)) / self.pairs

    @property
    def variance(self) -> float:
        """The variance of one pair's score (per game, 0..1) around ``score``; 0 when there are no pairs."""
        if not self.pairs:
            return 0.0
        mean = self.score
        return sum(n * (s - mean) ** 2 for n, s in zip(self.counts, PAIR_SCORES)) / self.pairs


def score_to_elo(score: float) -> float:
    """The logistic Elo difference for a score (``-400 log10(1/score - 1)``): ``±inf`` at 1 and 0."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0     # + 0.0: an even score gives 0.0, not -0.0


@dataclass(frozen=True, slots=True)
class PentanomialElo:
    """The first bot's Elo difference from pair results (fastchess's ``EloPentanomial``)."""

    pairs: int
    #: Mean score per game (0..1) and its 95% interval (may leave 0..1 when pairs are few).
    score: float
    score_low: float
    score_high: float
    #: Logistic Elo difference and the half width of its 95% interval (``None`` when an end of the
    #: score's interval is at or beyond 0 or 1, where the logistic curve has no finite Elo).
    elo: float
    error: float | None
    #: Normalised Elo and its 95% half width (``None`` when the variance is 0).
    nelo: float | None
    nelo_error: float | None
    #: Likelihood of superiority: the probability (0..1) that the first bot is the stronger.
    los: float


def pentanomial_elo(result: Pentanomial) -> PentanomialElo:
    """The Elo estimate of ``result`` (at least one pair), with fastchess's formulas.

    ``ValueError`` when there are no pairs.
    """
    pairs = result.pairs
    if not pairs:
        raise ValueError("no complete pair of games: an Elo estimate needs at least one pair")
    score, variance = result.score, result.variance
    stdev = math.sqrt(variance / pairs)
    low, high = score - Z_95 * stdev, score + Z_95 * stdev
    elo = score_to_elo(score)
    error = (score_to_elo(high) - score_to_elo(low)) / 2.0 if 0.0 < low and high < 1.0 else None
    if variance > 0.0:
        scale = NELO_SCALE / math.sqrt(2.0 * variance)
        nelo: float | None = (score - 0.5) * scale + 0.0
        nelo_error: float | None = (high - low) / 2.0 * scale
        los = (1.0 - math.erf(-(score - 0.5) / math.sqrt(2.0 * variance / pairs))) / 2.0
    else:   # every pair alike: the score is certain, as far as these pairs go
        nelo = nelo_error = None
        los = 1.0 if score > 0.5 else 0.0 if score < 0.5 else 0.5
    return PentanomialElo(pairs, score, low, high, elo, error, nelo, nelo_error, los)

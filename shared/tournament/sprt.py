"""The generalised sequential probability ratio test (GSPRT) on pentanomial pair results, as fastchess runs it.

Hypotheses about the first bot's Elo advantage: H0 ``elo = elo0`` against H1 ``elo = elo1``
(``elo0 < elo1``). After each pair of games the log-likelihood ratio (LLR) of the pair results
under the two hypotheses is compared with Wald's bounds: at or below ``log(beta / (1 - alpha))``
H0 is accepted, at or above ``log((1 - beta) / alpha)`` H1 is; in between, play on. ``alpha`` is
the chance of accepting H1 when H0 holds, ``beta`` that of accepting H0 when H1 holds.

The likelihood of each hypothesis is that of the most likely distribution over the five pair
classes (``PAIR_SCORES``) that satisfies it: a *generalised* SPRT, which assumes no draw model.
"Satisfies" depends on the Elo model, as in fastchess's ``SPRT::getLLR``:

* ``logistic``: the mean score per game equals the logistic curve's ``1 / (1 + 10^(-elo/400))``;
  the maximum-likelihood distribution is Van den Bergh's closed form up to one root
  ("Comparing the approximations for the generalized log likelihood ratio of a multinomial
  distribution", Proposition 1.1);
* ``normalized`` (fastchess's default): the normalised Elo ``(mean - ½) / sigma`` (sigma the
  standard deviation of a pair's score) equals ``sqrt(2) * elo / (800 / ln 10)``; found by
  Van den Bergh's fixed-point iteration ("Comments on normalized Elo", section 4.1).

An empty class is counted as 0.001 pairs (fastchess's ``regularize``), so that a distribution
with a zero never makes a likelihood vanish. Roots are found by bisection to a tolerance far
below fastchess's printed two decimals.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .pentanomial import NELO_SCALE, PAIR_SCORES, Pentanomial

__all__ = ["EMPTY_CLASS", "SprtModel", "SprtVerdict", "Sprt", "logistic_score", "mle_with_mean", "mle_with_normalized_elo",
           "llr_logistic", "llr_normalized"]

#: What an empty pentanomial class counts as (fastchess's ``regularize``).
EMPTY_CLASS = 1e-3


class SprtModel(StrEnum):
    """How an Elo hypothesis constrains the pair results (fastchess's ``--sprt model=``)."""

    NORMALIZED = "normalized"
    LOGISTIC = "logistic"


class SprtVerdict(StrEnum):
    """What the test says now."""

    CONTINUE = "continue"      #: the LLR lies between the bounds: play on
    H0 = "H0"                  #: accepted H0: the first bot is not ``elo1`` stronger (the LLR reached the lower bound)
    H1 = "H1"                  #: accepted H1: the first bot is ``elo1`` stronger, not only ``elo0`` (the upper bound)


def logistic_score(elo: float) -> float:
    """The expected score per game (0..1) of an ``elo`` advantage on the logistic curve."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def _bisect(f: Callable[[float], float], low: float, high: float, tolerance: float = 1e-12) -> float:
    """The root of a function decreasing from +inf (just above ``low``) to -inf (just below ``high``)."""
    for _ in range(200):
        middle = (low + high) / 2.0
        if high - low <= tolerance * max(1.0, abs(middle)):
            break
        value = f(middle)
        if value == 0.0:
            return middle
        if value > 0.0:
            low = middle
        else:
            high = middle
    return (low + high) / 2.0


def _solve_theta(probs: Sequence[float], phi: Sequence[float]) -> float:
    """The ``theta`` with ``sum(p_i phi_i / (1 + theta phi_i)) = 0`` keeping every ``1 + theta phi_i`` positive."""
    low, high = -1.0 / max(phi), -1.0 / min(phi)
    return _bisect(lambda x: sum(p * f / (1.0 + x * f) for p, f in zip(probs, phi)), low, high)


def mle_with_mean(scores: Sequence[float], probs: Sequence[float], mean: float) -> list[float]:
    """The distribution over ``scores`` nearest the empirical ``probs`` (in likelihood) whose mean is ``mean``.

    ``mean`` must lie strictly between the smallest and the largest score; ``probs`` sum to 1.
    """
    if not min(scores) < mean < max(scores):
        raise ValueError(f"a mean of {mean!r} is not strictly between the scores {min(scores)} and {max(scores)}")
    phi = [a - mean for a in scores]
    theta = _solve_theta(probs, phi)
    return [p / (1.0 + theta * f) for p, f in zip(probs, phi)]


def _mean_and_variance(scores: Sequence[float], probs: Sequence[float]) -> tuple[float, float]:
    mean = sum(a * p for a, p in zip(scores, probs))
    return mean, sum(p * (a - mean) ** 2 for a, p in zip(scores, probs))


def mle_with_normalized_elo(scores: Sequence[float], probs: Sequence[float], t: float, reference: float = 0.5,
                            *, tolerance: float = 1e-10, max_iterations: int = 100) -> list[float]:
    """The distribution over ``scores`` nearest ``probs`` (in likelihood) with ``(mean - reference) / sigma = t``.

    Van den Bergh's iteration from the uniform distribution: each round solves the first-order
    condition with the previous round's mean and sigma, until no probability moves by more than
    ``tolerance``.
    """
    p = [1.0 / len(scores)] * len(scores)
    for _ in range(max_iterations):
        mean, variance = _mean_and_variance(scores, p)
        sigma = math.sqrt(variance)
        phi = [a - reference - 0.5 * t * sigma * (1.0 + ((a - mean) / sigma) ** 2) for a in scores]
        theta = _solve_theta(probs, phi)
        new = [q / (1.0 + theta * f) for q, f in zip(probs, phi)]
        moved = max(abs(a - b) for a, b in zip(new, p))
        p = new
        if moved < tolerance:
            break
    return p


def _llr(probs: Sequence[float], total: float, p0: Sequence[float], p1: Sequence[float]) -> float:
    return total * sum(q * (math.log(b) - math.log(a)) for q, a, b in zip(probs, p0, p1))


def llr_logistic(scores: Sequence[float], counts: Sequence[float], score0: float, score1: float) -> float:
    """The GLLR of ``counts`` (per class of ``scores``) for mean ``score1`` against mean ``score0``."""
    total = sum(counts)
    probs = [n / total for n in counts]
    return _llr(probs, total, mle_with_mean(scores, probs, score0), mle_with_mean(scores, probs, score1))


def llr_normalized(scores: Sequence[float], counts: Sequence[float], t0: float, t1: float) -> float:
    """The GLLR of ``counts`` (per class of ``scores``) for normalised Elo ``t1`` against ``t0`` (in sigma units)."""
    total = sum(counts)
    probs = [n / total for n in counts]
    return _llr(probs, total, mle_with_normalized_elo(scores, probs, t0), mle_with_normalized_elo(scores, probs, t1))


@dataclass(frozen=True, slots=True)
class Sprt:
    """A GSPRT of H0 ``elo0`` against H1 ``elo1`` (Elo of the first bot over the second) on pair results.

    ``ValueError`` (quoting the value) unless ``elo0 < elo1``, ``0 < alpha, beta < 1`` and
    ``alpha + beta < 1`` (fastchess's ``SPRT::isValid``).
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: SprtModel = SprtModel.NORMALIZED

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 must be less than elo1, got elo0={self.elo0!r} and elo1={self.elo1!r}")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0.0 < value < 1.0:
                raise ValueError(f"{name} must be between 0 and 1 (exclusive), got {value!r}")
        if self.alpha + self.beta >= 1.0:
            raise ValueError(f"alpha + beta must be less than 1, got {self.alpha!r} + {self.beta!r}")
        object.__setattr__(self, "model", SprtModel(self.model))

    @property
    def lower(self) -> float:
        """The LLR at or below which H0 is accepted: ``log(beta / (1 - alpha))``."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at or above which H1 is accepted: ``log((1 - beta) / alpha)``."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, result: Pentanomial) -> float:
        """The log-likelihood ratio of H1 over H0 given the pairs so far (0.0 before any pair)."""
        if not result.pairs:
            return 0.0
        counts = [n if n else EMPTY_CLASS for n in result.counts]
        if self.model is SprtModel.LOGISTIC:
            return llr_logistic(PAIR_SCORES, counts, logistic_score(self.elo0), logistic_score(self.elo1))
        scale = math.sqrt(2.0) / NELO_SCALE
        return llr_normalized(PAIR_SCORES, counts, self.elo0 * scale, self.elo1 * scale)

    def verdict(self, llr: float) -> SprtVerdict:
        """H1 at or above ``upper``, H0 at or below ``lower``, else continue."""
        if llr >= self.upper:
            return SprtVerdict.H1
        if llr <= self.lower:
            return SprtVerdict.H0
        return SprtVerdict.CONTINUE

    def fraction(self, llr: float) -> float:
        """How far ``llr`` has gone towards the bound on its side (1.0 = reached), as fastchess prints it."""
        return llr / self.upper if llr >= 0 else llr / self.lower

"""Finite ratings for a table of any size: the Bradley-Terry fit with bootstrap intervals, per game.

The standings' ``elo`` column used to be a performance rating from the score alone, which is
infinite for a perfect score and meaningless with few games (``+inf``, ``+0.0 +- 798.1`` in a
six-player event). Here every game is one ``Encounter`` of ``bradley_terry``: the prior of one
virtual draw per pair that met keeps every rating finite, and the fit uses whom each player scored
against. Anchored at ``random`` = 0 when it plays (its interval is then 0 wide: every other rating is
a gap to it); otherwise centred, the field's mean at 0, with intervals of the centred ratings.

The exact fit solves a linear system per Newton step (cubic in the players), so the cost is kept
bounded for a table rebuilt after every game: up to ``BOOTSTRAP_PLAYERS`` the intervals are
bootstrapped; above, they come from the curvature of the likelihood at the fit (the inverse Fisher
information, the normal approximation); above ``FIT_PLAYERS`` the fit falls back to a performance
rating with the same prior (one virtual draw against the field) and a binomial interval, still finite.
Deterministic: the bootstrap's generator is seeded from the number of games.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from .bradley_terry import Encounter, _percentile, _simulated, fit_ratings

__all__ = ["field_ratings", "ANCHOR", "BOOTSTRAP_PLAYERS", "FIT_PLAYERS"]

ANCHOR = "random"
BOOTSTRAP_PLAYERS = 16
FIT_PLAYERS = 48
#: Bootstrap samples: fewer for bigger fields, so a table costs about the same at any size.
_SAMPLE_BUDGET = 2000


def _performance(players: Sequence[str], encounters: Sequence[Encounter]) -> dict[str, tuple[float, float | None]]:
    points = {name: 0.5 for name in players}     # the prior: one virtual draw against the field
    games = {name: 1.0 for name in players}
    for e in encounters:
        points[e.first] += e.points
        points[e.second] += e.games - e.points
        games[e.first] += e.games
        games[e.second] += e.games
    result = {}
    for name in players:
        if games[name] > 1.0:
            score = points[name] / games[name]
            # d(rating)/d(score) = 400 / (ln 10 s (1 - s)); the score's standard error is binomial.
            half = 1.96 * math.sqrt(score * (1 - score) / games[name]) * 400.0 / (math.log(10.0) * score * (1 - score))
            result[name] = (-400.0 * math.log10(1.0 / score - 1.0) + 0.0, half)
    return result


def _curvature_intervals(names: list[str], encounters: Sequence[Encounter], fitted: dict[str, float | None],
                         anchor: str | None) -> dict[str, float]:
    """95% half-widths from the inverse Fisher information at the fit (the prior's virtual draws included)."""
    rated = [n for n in names if fitted[n] is not None]
    fixed = anchor if anchor is not None else rated[0]       # one rating is held: the model has a free offset
    free = [n for n in rated if n != fixed]
    if not free:
        return {}
    index = {n: i for i, n in enumerate(free)}
    scale = math.log(10.0) / 400.0
    games: dict[tuple[str, str], float] = {}
    for e in encounters:
        key = (e.first, e.second) if e.first < e.second else (e.second, e.first)
        games[key] = games.get(key, 0.0) + e.games
    size = len(free)
    info = [[0.0] * size for _ in range(size)]
    for (a, b), n in games.items():
        if fitted[a] is None or fitted[b] is None:
            continue
        p = 1.0 / (1.0 + math.exp(-(fitted[a] - fitted[b]) * scale))   # type: ignore[operator]
        w = (n + 1.0) * p * (1.0 - p)                     # + the prior's one virtual draw per pair that met
        for x, y in ((a, b), (b, a)):
            if x in index:
                info[index[x]][index[x]] += w
                if y in index:
                    info[index[x]][index[y]] -= w
    cov = _inverse(info)
    if cov is None:
        return {}
    # Centred: rating_i - mean; anchored: rating_i (the anchor's is 0 exactly).
    weights = {}
    for name in rated:
        c = [0.0] * size
        if name in index:
            c[index[name]] += 1.0
        if anchor is None:
            for other in free:
                c[index[other]] -= 1.0 / len(rated)
        weights[name] = c
    result = {}
    for name, c in weights.items():
        variance = sum(c[i] * cov[i][j] * c[j] for i in range(size) if c[i] for j in range(size) if c[j])
        result[name] = 1.96 * math.sqrt(max(variance, 0.0)) / scale
    return result


def _inverse(matrix: list[list[float]]) -> list[list[float]] | None:
    """Gauss-Jordan inverse with partial pivoting; None when singular."""
    n = len(matrix)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        inv = 1.0 / a[col][col]
        a[col] = [v * inv for v in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col]
                row, pivot_row = a[r], a[col]
                a[r] = [x - f * y for x, y in zip(row, pivot_row)]
    return [row[n:] for row in a]


def _centred(ratings: dict[str, float | None], anchor: str | None) -> dict[str, float | None]:
    """``ratings`` as they are when anchored; else shifted so that the rated players' mean is 0."""
    if anchor is not None:
        return ratings
    rated = [v for v in ratings.values() if v is not None]
    mean = sum(rated) / len(rated) if rated else 0.0
    return {k: None if v is None else v - mean + 0.0 for k, v in ratings.items()}


def field_ratings(players: Sequence[str], games: Sequence[tuple[str, str, float]], *,
                  anchor: str | None = None) -> dict[str, tuple[float, float | None]]:
    """Each player's finite rating and the half-width of its 95% interval (None: not computed).

    ``games`` are ``(white, black, white's points)``. Players without a game are left out.
    """
    names = list(players)
    encounters = [Encounter(w, b, 1, p) for w, b, p in games]
    if not encounters:
        return {}
    if len(names) > FIT_PLAYERS:
        return _performance(names, encounters)
    anchor = anchor if anchor in names else (ANCHOR if ANCHOR in names else None)
    fitted = _centred(fit_ratings(names, encounters, anchor=anchor or names[0]), anchor)
    intervals: dict[str, tuple[float, float]] = {}
    if len(names) <= BOOTSTRAP_PLAYERS:
        samples = max(20, min(100, _SAMPLE_BUDGET // max(1, len(names) ** 2)))
        rng = random.Random(len(encounters))
        draws: dict[str, list[float]] = {name: [] for name in names}
        for _ in range(samples):            # Ordo's parametric bootstrap, as bradley_terry.rating_intervals
            made_up = _simulated(encounters, fitted, rng)
            for name, value in _centred(fit_ratings(names, made_up, anchor=anchor or names[0],
                                                    tolerance=1e-7), anchor).items():
                if value is not None:
                    draws[name].append(value)
        for name, values in draws.items():
            if values:
                values.sort()
                intervals[name] = (_percentile(values, 0.025), _percentile(values, 0.975))
    halves = {} if len(names) <= BOOTSTRAP_PLAYERS else _curvature_intervals(names, encounters, fitted, anchor)
    played = {e.first for e in encounters} | {e.second for e in encounters}
    result: dict[str, tuple[float, float | None]] = {}
    for name in names:
        value = fitted[name]
        if value is None or name not in played:
            continue
        interval = intervals.get(name)
        result[name] = (value, halves.get(name) if interval is None else (interval[1] - interval[0]) / 2.0)
    return result

"""Ratings of a field of players from all their games: a Bradley-Terry fit, with bootstrap intervals.

The Bradley-Terry model gives each player a strength ``pi``; ``a`` scores against ``b`` with
expectation ``pi_a / (pi_a + pi_b)`` per game (a draw counts half a win for each). In Elo units
``rating = 400 log10(pi)``, so a 400-point gap is a 10:1 score, the logistic curve of
``elo.expected_score``. Unlike a performance rating against the pool, the fit uses *whom* each
player scored against, so a gauntlet (one player against each of the others) and an unbalanced
schedule rate fairly.

``fit_ratings`` maximises the likelihood by Newton's method on ``log pi`` (the log-likelihood is
concave, so a step halved until the likelihood grows always makes progress; a handful of steps
reach full precision where Hunter's MM iteration, "MM algorithms for generalized Bradley-Terry
models" (2004), needs thousands once the ratings spread over 2000 Elo, too slow for a bootstrap).
The maximum exists only when no group of players beat everyone outside it in every game; a
*prior* of ``prior_draws`` virtual drawn games between each two players who met (BayesElo's
idea) makes it always exist and pulls a perfect score to a large but finite gap. Ratings are
anchored: the anchor player is 0. Players who played no game, or only in a group of players
never linked by games to the anchor's, get no rating (the data say nothing about the gap).

``rating_intervals`` bootstraps: it makes up many tournaments like the one played, refits each,
and takes percentiles of each player's rating. Two ways to make them up:

* ``simulate`` (the default; Ordo's way): every game is played again by the fitted ratings, won
  with the probability they predict. It sees the uncertainty of a small sample even when every
  game of a pairing went the same way (bots that always choose alike), where redrawing sees
  none. Draws are simulated as wins and losses (they are rare in Quoridor): the expected score
  is kept and the interval errs on the wide side.
* ``resample`` (the nonparametric bootstrap): each pairing's *encounters* (a single game, or a
  colour-swapped pair of games, whatever the caller counts as one independent unit) are redrawn
  with replacement. It assumes no model, but only sees the variety that was played.

Pure: randomness comes from the ``random.Random`` passed in.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = ["Encounter", "Rating", "fit_ratings", "rating_intervals", "rate"]


@dataclass(frozen=True, slots=True)
class Encounter:
    """Games between two players counted as one unit: ``points`` is what ``first`` scored in ``games`` games."""

    first: str
    second: str
    games: int
    points: float

    def __post_init__(self) -> None:
        if self.first == self.second:
            raise ValueError(f"an encounter needs two different players, got {self.first!r} twice")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1:
            raise ValueError(f"an encounter has at least one game, got {self.games!r}")
        if not 0.0 <= self.points <= self.games or (2 * self.points) % 1:
            raise ValueError(f"{self.first!r} cannot score {self.points!r} points in {self.games} games "
                             "(a multiple of 0.5 between 0 and the games)")


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating relative to the anchor, with its interval (``None`` when not rated)."""

    player: str
    rating: float | None
    low: float | None = None
    high: float | None = None


def _tables(players: Sequence[str], encounters: Iterable[Encounter]) -> tuple[list[list[float]], list[list[float]]]:
    """Points scored and games played, ``[i][j]`` for player ``i`` against player ``j``."""
    index = {name: i for i, name in enumerate(players)}
    n = len(players)
    points = [[0.0] * n for _ in range(n)]
    games = [[0.0] * n for _ in range(n)]
    for e in encounters:
        try:
            i, j = index[e.first], index[e.second]
        except KeyError as missing:
            raise ValueError(f"encounter names {missing.args[0]!r}, who is not among the players {list(players)!r}") from None
        points[i][j] += e.points
        points[j][i] += e.games - e.points
        games[i][j] += e.games
        games[j][i] += e.games
    return points, games


def _component(start: int, games: list[list[float]]) -> list[int]:
    """The players linked to ``start`` by games, ``start`` first."""
    seen, todo = [start], [start]
    while todo:
        i = todo.pop()
        for j, count in enumerate(games[i]):
            if count and j not in seen:
                seen.append(j)
                todo.append(j)
    return seen


def _strongly_connected(members: list[int], points: list[list[float]]) -> bool:
    """True when every member can be reached from every other by a chain of "scored against"."""
    def reach(start: int, scored: bool) -> set[int]:
        seen, todo = {start}, [start]
        while todo:
            i = todo.pop()
            for j in members:
                edge = points[i][j] if scored else points[j][i]
                if edge > 0 and j not in seen:
                    seen.add(j)
                    todo.append(j)
        return seen
    return len(reach(members[0], True)) == len(members) == len(reach(members[0], False))


def _log_likelihood(theta: dict[int, float], points: list[list[float]], games: list[list[float]],
                    members: list[int]) -> float:
    """``sum over pairs i, j of points_ij * theta_i - games_ij * log(e^theta_i + e^theta_j)``, halved over both orders."""
    total = 0.0
    for i in members:
        for j in members:
            if i != j and games[i][j]:
                high, low = max(theta[i], theta[j]), min(theta[i], theta[j])
                total += points[i][j] * theta[i] - 0.5 * games[i][j] * (high + math.log1p(math.exp(low - high)))
    return total


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``x`` with ``matrix x = vector`` (Gaussian elimination with partial pivoting; the matrix is small)."""
    n = len(vector)
    rows = [row[:] + [value] for row, value in zip(matrix, vector)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(col + 1, n):
            factor = rows[r][col] / rows[col][col]
            if factor:
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (rows[r][n] - sum(rows[r][c] * x[c] for c in range(r + 1, n))) / rows[r][r]
    return x


def _win_probability(difference: float) -> float:
    """The logistic ``1 / (1 + e^-difference)``, without overflow."""
    if difference >= 0:
        return 1.0 / (1.0 + math.exp(-difference))
    e = math.exp(difference)
    return e / (1.0 + e)


def _fit(players: Sequence[str], points: list[list[float]], games: list[list[float]], anchor: int,
         prior_draws: float, tolerance: float, max_iterations: int) -> dict[str, float | None]:
    members = _component(anchor, games)
    if prior_draws > 0:
        for i in members:
            for j in members:
                if i != j and games[i][j]:
                    points[i][j] += prior_draws / 2.0
                    games[i][j] += prior_draws
    elif not _strongly_connected(members, points):
        raise ValueError("without a prior the ratings diverge: some players beat everyone outside their group "
                         "in every game (give prior_draws > 0)")
    free = [i for i in members if i != anchor]          # the anchor's log-strength stays 0
    theta = {i: 0.0 for i in members}
    likelihood = _log_likelihood(theta, points, games, members)
    for _ in range(max_iterations):
        if not free:
            break
        gradient, hessian = [], []                      # of the log-likelihood, over the free players
        for i in free:
            expected, row = 0.0, {}
            for j in members:
                if j != i and games[i][j]:
                    p = _win_probability(theta[i] - theta[j])
                    expected += games[i][j] * p
                    row[j] = games[i][j] * p * (1.0 - p)
            gradient.append(sum(points[i][j] for j in members if j != i) - expected)
            hessian.append([sum(row.values()) if j == i else -row.get(j, 0.0) for j in free])
        step = _solve(hessian, gradient)                 # -H is positive definite: the anchor grounds it
        scale = 1.0
        while True:
            trial = dict(theta)
            for i, delta in zip(free, step):
                trial[i] += scale * delta
            trial_likelihood = _log_likelihood(trial, points, games, members)
            if trial_likelihood >= likelihood or scale < 1e-6:
                break
            scale /= 2.0
        theta, likelihood = trial, trial_likelihood
        if max(abs(scale * delta) for delta in step) < tolerance:
            break
    rated: dict[str, float | None] = {name: None for name in players}
    for i in members:
        rated[players[i]] = 400.0 / math.log(10.0) * theta[i] + 0.0
    return rated


def fit_ratings(players: Sequence[str], encounters: Iterable[Encounter], *, anchor: str | None = None,
                prior_draws: float = 1.0, tolerance: float = 1e-10,
                max_iterations: int = 100) -> dict[str, float | None]:
    """Each player's Bradley-Terry rating in Elo units, the ``anchor`` (default: the first player) at 0.

    ``None`` for a player with no rating (see the module docstring). ``prior_draws`` virtual
    drawn games are added between each two players who met; with 0 the pure maximum-likelihood
    fit is returned, and ``ValueError`` is raised when it does not exist.
    """
    names = list(players)
    if len(set(names)) != len(names) or not names:
        raise ValueError(f"players must be distinct names, at least one, got {names!r}")
    anchor_name = names[0] if anchor is None else anchor
    if anchor_name not in names:
        raise ValueError(f"the anchor {anchor_name!r} is not among the players {names!r}")
    if prior_draws < 0:
        raise ValueError(f"prior_draws must be 0 or more, got {prior_draws!r}")
    points, games = _tables(names, encounters)
    return _fit(names, points, games, names.index(anchor_name), prior_draws, tolerance, max_iterations)


def _percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of sorted ``values``, linear between neighbours."""
    position = q * (len(values) - 1)
    low = math.floor(position)
    high = min(low + 1, len(values) - 1)
    return values[low] + (values[high] - values[low]) * (position - low)


def _simulated(encounters: Sequence[Encounter], fitted: dict[str, float | None], rng: random.Random) -> list[Encounter]:
    """The encounters played again by the ``fitted`` ratings (encounters of unrated players kept as they were)."""
    result = []
    for e in encounters:
        first, second = fitted[e.first], fitted[e.second]
        if first is None or second is None:
            result.append(e)
            continue
        p = 1.0 / (1.0 + 10.0 ** ((second - first) / 400.0))
        result.append(Encounter(e.first, e.second, e.games, float(sum(rng.random() < p for _ in range(e.games)))))
    return result


def rating_intervals(players: Sequence[str], encounters: Sequence[Encounter], rng: random.Random, *,
                     samples: int = 1000, level: float = 0.95, anchor: str | None = None,
                     prior_draws: float = 1.0,
                     method: Literal["simulate", "resample"] = "simulate") -> dict[str, tuple[float, float] | None]:
    """Percentile bootstrap intervals of ``fit_ratings`` over ``samples`` made-up tournaments (see the module
    docstring for the two ``method``s).

    ``None`` for a player ``fit_ratings`` leaves unrated. The anchor's interval is (0, 0): every
    rating is a gap to the anchor, so the anchor's uncertainty is part of everyone else's.
    """
    if samples < 1 or not 0.0 < level < 1.0:
        raise ValueError(f"need samples >= 1 and 0 < level < 1, got samples={samples!r}, level={level!r}")
    if method not in ("simulate", "resample"):
        raise ValueError(f"method must be 'simulate' or 'resample', got {method!r}")
    names = list(players)
    fitted = fit_ratings(names, encounters, anchor=anchor, prior_draws=prior_draws)
    by_pairing: dict[frozenset[str], list[Encounter]] = {}
    for e in encounters:
        by_pairing.setdefault(frozenset((e.first, e.second)), []).append(e)
    groups = list(by_pairing.values())
    draws: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(samples):
        if method == "simulate":
            made_up = _simulated(encounters, fitted, rng)
        else:
            made_up = [group[rng.randrange(len(group))] for group in groups for _ in group]
        for name, value in fit_ratings(names, made_up, anchor=anchor, prior_draws=prior_draws,
                                       tolerance=1e-7).items():
            if value is not None:
                draws[name].append(value)
    tail = (1.0 - level) / 2.0
    intervals: dict[str, tuple[float, float] | None] = {}
    for name, values in draws.items():
        if not values:      # every pairing is kept, so the same players are rated each time
            intervals[name] = None
            continue
        values.sort()
        intervals[name] = (_percentile(values, tail), _percentile(values, 1.0 - tail))
    return intervals


def rate(players: Sequence[str], encounters: Sequence[Encounter], rng: random.Random, *, samples: int = 1000,
         level: float = 0.95, anchor: str | None = None, prior_draws: float = 1.0,
         method: Literal["simulate", "resample"] = "simulate") -> list[Rating]:
    """``fit_ratings`` and ``rating_intervals`` together, one ``Rating`` per player in the given order."""
    ratings = fit_ratings(players, encounters, anchor=anchor, prior_draws=prior_draws)
    intervals = rating_intervals(players, encounters, rng, samples=samples, level=level, anchor=anchor,
                                 prior_draws=prior_draws, method=method)
    result = []
    for name in players:
        interval = intervals[name] if ratings[name] is not None else None
        result.append(Rating(name, ratings[name], *(interval or (None, None))))
    return result

"""Who plays whom next on the ladder: a pure, deterministic decision over the free bots.

The rules, in the order they apply:

1. A bot plays at most ``slots`` pairings at once (its hello's concurrency minus what it plays now),
   never against itself, and never twice against the same opponent in one decision.
2. A pair plays at most ``pair_games_per_hour`` games in any hour: a pairing (two colour-swapped
   games) is allowed only while ``recent + 2 <= cap``.
3. Nobody starves: bots choose in the order of how long they have waited (longest first), so the
   bot that has waited longest picks first. A bot waits for a closer partner while the best one's
   rating is more than ``max_gap`` away, but only until it has waited ``starving_s``: from then on it takes the
   best allowed partner whatever it costs, so it is paired whenever any partner is allowed at all.
4. Among the allowed partners the cheapest wins: the rating gap measured against how little the
   two ratings are known, ``gap / sqrt(rating_scale**2 + u_a**2 + u_b**2)`` with ``u`` each bot's
   ``uncertainty``, plus ``meeting_weight * log(1 + meetings)``; so close ratings and pairs that met
   least come first. Ties go to the name, so the same input always gives the same pairings.

Why that cost: a game tells the most about two bots whose order is least certain, and that is a
small gap *relative to the spread of the gap's estimate* (active ranking's criterion; TrueSkill's
match quality falls off with the same ``gap**2 / (2 beta**2 + sigma_a**2 + sigma_b**2)``). A newcomer,
whose rating is a guess, is therefore tried against a wider band than a well-known bot. Repeats tell
less and less (the variance of a pair's estimated gap falls like one over its games), so each further
meeting costs less than the one before (the logarithm), instead of the same: a linear count
eventually outweighs any rating gap and turns a long-running ladder into a round robin, where
games between far-apart bots say almost nothing about the order.

A bot looks at its ``window`` nearest allowed rating neighbours on each side (a bot out of slots
leaves the sorted pool at once), which keeps a decision over hundreds of bots within a few
milliseconds.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Candidate", "MatchmakingRules", "Pairing", "pair_key", "pick_pairings"]


def pair_key(a: str, b: str) -> tuple[str, str]:
    """The order-free key of a pair of bots (for meeting counts and recent games)."""
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A bot that could start a pairing now: its name (track), rating, seconds waited, free slots, uncertainty."""

    bot: str
    rating: float
    waiting_s: float
    slots: int = 1
    uncertainty: float = 0.0           # the rating's standard deviation (openskill's sigma); 0: taken as exact


@dataclass(frozen=True, slots=True)
class MatchmakingRules:
    """The knobs of ``pick_pairings``."""

    pair_games_per_hour: int = 8
    games_per_pairing: int = 2
    starving_s: float = 60.0
    rating_scale: float = 5.0          # openskill points of gap between two exactly known ratings that cost 1
    meeting_weight: float = 0.5        # times log(1 + games the pair has played so far)
    window: int = 12
    max_gap: float = 20.0              # a bot that is not starving waits rather than meet a rating further away

    def __post_init__(self) -> None:
        if self.pair_games_per_hour < self.games_per_pairing:
            raise ValueError(f"the pair cap ({self.pair_games_per_hour} games an hour) must allow one pairing "
                             f"of {self.games_per_pairing} games")
        if self.rating_scale <= 0 or self.window < 1 or self.meeting_weight < 0:
            raise ValueError("rating_scale must be positive, window at least 1 and meeting_weight at least 0")


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two bots to play a colour-swapped pair of games; ``first`` is the one that waited longer."""

    first: str
    second: str


def pick_pairings(candidates: Sequence[Candidate], rules: MatchmakingRules = MatchmakingRules(), *,
                  meetings: Mapping[tuple[str, str], int] | None = None,
                  recent: Mapping[tuple[str, str], int] | None = None) -> list[Pairing]:
    """The pairings to start now (see the module docstring for the rules).

    ``meetings`` and ``recent`` are keyed by ``pair_key``: games ever played, and games in the
    last hour. Missing pairs count 0.
    """
    if any(c.uncertainty < 0 for c in candidates):
        raise ValueError(f"an uncertainty is a standard deviation, 0 or more, got "
                         f"{[c.uncertainty for c in candidates if c.uncertainty < 0]!r}")
    meetings = meetings or {}
    recent = recent or {}
    slots = {c.bot: c.slots for c in candidates if c.slots > 0}
    pool = sorted((c for c in candidates if c.slots > 0), key=lambda c: (c.rating, c.bot))
    ratings = [c.rating for c in pool]
    keys = [(c.rating, c.bot) for c in pool]
    by_name = {c.bot: c for c in pool}
    order = sorted(pool, key=lambda c: (-c.waiting_s, c.bot))
    chosen: set[tuple[str, str]] = set()
    pairings: list[Pairing] = []
    cap = rules.pair_games_per_hour - rules.games_per_pairing
    scale, weight, window = rules.rating_scale, rules.meeting_weight, rules.window
    for me in order:
        name, rating, spread = me.bot, me.rating, scale * scale + me.uncertainty * me.uncertainty
        while slots[name] > 0:
            best: tuple[float, str, float] | None = None        # (cost, partner, rating gap)
            at = bisect.bisect_left(ratings, rating)
            for indices in (range(at - 1, -1, -1), range(at, len(pool))):    # the rating neighbours
                seen = 0
                for i in indices:
                    if seen >= window:
                        break
                    other = pool[i].bot
                    if other == name:
                        continue
                    key = (name, other) if name <= other else (other, name)
                    if key in chosen or recent.get(key, 0) > cap:
                        continue
                    seen += 1
                    gap = abs(pool[i].rating - rating)
                    u = pool[i].uncertainty
                    cost = gap / math.sqrt(spread + u * u) + weight * math.log1p(meetings.get(key, 0))
                    if best is None or (cost, other) < best[:2]:
                        best = (cost, other, gap)
            if best is None or (best[2] > rules.max_gap and me.waiting_s < rules.starving_s):
                break                       # nobody allowed, or only a poor match and it can still wait
            other = best[1]
            chosen.add(pair_key(name, other))
            pairings.append(Pairing(name, other))
            for bot in (name, other):
                slots[bot] -= 1
                if not slots[bot]:          # out of the pool: later scans never step over it
                    i = bisect.bisect_left(keys, (by_name[bot].rating, bot))
                    del pool[i], ratings[i], keys[i]
    return pairings

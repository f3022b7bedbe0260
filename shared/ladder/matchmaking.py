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
4. Among the allowed partners the cheapest wins: the rating gap (in units of ``rating_scale``)
   plus ``meeting_weight`` per earlier meeting, so close ratings and pairs that met least come first.
   Ties go to the name, so the same input always gives the same pairings.

A bot looks at its ``window`` nearest allowed rating neighbours on each side (a bot out of slots
leaves the sorted pool at once), which keeps a decision over hundreds of bots within a few
milliseconds.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Candidate", "MatchmakingRules", "Pairing", "pair_key", "pick_pairings"]


def pair_key(a: str, b: str) -> tuple[str, str]:
    """The order-free key of a pair of bots (for meeting counts and recent games)."""
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A bot that could start a pairing now: its name (track), rating, seconds waited and free slots."""

    bot: str
    rating: float
    waiting_s: float
    slots: int = 1


@dataclass(frozen=True, slots=True)
class MatchmakingRules:
    """The knobs of ``pick_pairings``."""

    pair_games_per_hour: int = 8
    games_per_pairing: int = 2
    starving_s: float = 60.0
    rating_scale: float = 5.0          # openskill ordinal points that weigh as much as one earlier meeting
    meeting_weight: float = 1.0
    window: int = 12
    max_gap: float = 20.0              # a bot that is not starving waits rather than meet a rating further away

    def __post_init__(self) -> None:
        if self.pair_games_per_hour < self.games_per_pairing:
            raise ValueError(f"the pair cap ({self.pair_games_per_hour} games an hour) must allow one pairing "
                             f"of {self.games_per_pairing} games")
        if self.rating_scale <= 0 or self.window < 1:
            raise ValueError("rating_scale must be positive and window at least 1")


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
        name, rating = me.bot, me.rating
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
                    cost = gap / scale + weight * meetings.get(key, 0)
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

"""Who plays whom next on the ladder: a pure, deterministic decision over the free bots.

The rules, in the order they apply:

1. A bot plays at most ``slots`` pairings at once (its hello's concurrency minus what it plays now),
   never against itself, and never twice against the same opponent in one decision.
2. A pair plays at most ``pair_games_per_hour`` games in any hour: a pairing (two colour-swapped
   games) is allowed only while ``recent + 2 <= cap``, as long as one of its bots has a partner under
   the cap among the free bots and the ``busy`` ones (those that play now). A bot whose every
   partner is capped (a small ladder after a busy hour) may play any of them, the pair that played least
   in the hour first: the cap orders the pairs then, and a ladder with two bots connected never falls
   silent. A ``barred`` pair (its last pairing could not be played) is never paired.
3. Nobody starves: bots choose in the order of how long they have waited (longest first), so the
   bot that has waited longest picks first. A bot waits for a closer partner while the best free one's
   rating is more than ``max_gap`` away and a closer one is busy (it is free soon), but only until it has
   waited ``starving_s``: from then on it takes the best allowed partner whatever it costs, so it is paired
   whenever any partner is allowed at all. With no closer partner connected it does not wait at all.
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
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Candidate", "Idle", "MatchmakingRules", "Pairing", "idle_reason", "pair_key", "pick_pairings",
           "saturated"]


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


def saturated(field: Collection[str], recent: Mapping[tuple[str, str], int], rules: MatchmakingRules) -> set[str]:
    """The bots of ``field`` whose every partner in it reached the hourly cap (a lone bot is not one).

    Costs the pairs played in the hour, not the square of the field.
    """
    cap = rules.pair_games_per_hour - rules.games_per_pairing
    capped: Counter[str] = Counter()
    for (a, b), games in recent.items():
        if games > cap and a != b and a in field and b in field:
            capped[a] += 1
            capped[b] += 1
    return {bot for bot in field if len(field) > 1 and capped[bot] >= len(field) - 1}


def pick_pairings(candidates: Sequence[Candidate], rules: MatchmakingRules = MatchmakingRules(), *,
                  meetings: Mapping[tuple[str, str], int] | None = None,
                  recent: Mapping[tuple[str, str], int] | None = None,
                  busy: Sequence[Candidate] = (),
                  barred: Collection[tuple[str, str]] = ()) -> list[Pairing]:
    """The pairings to start now (see the module docstring for the rules).

    ``meetings`` and ``recent`` are keyed by ``pair_key``: games ever played, and games in the
    last hour. Missing pairs count 0. ``busy``: the bots that play now, with no slot free (their
    ratings; default none); ``barred``: pairs (``pair_key``) never to pair now.
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
    chosen: set[tuple[str, str]] = set(barred)
    pairings: list[Pairing] = []
    cap = rules.pair_games_per_hour - rules.games_per_pairing
    lifted = saturated(set(slots) | {c.bot for c in busy}, recent, rules)
    playing = sorted((c.rating, c.bot) for c in busy if c.bot not in slots)

    def allowed(key: tuple[str, str], a: str, b: str) -> bool:
        return key not in chosen and (recent.get(key, 0) <= cap or a in lifted or b in lifted)

    def closer_busy(name: str, rating: float) -> bool:
        """True when a bot that plays now is within ``max_gap`` of ``rating`` and may meet ``name``."""
        at = bisect.bisect_left(playing, (rating - rules.max_gap, ""))
        for other_rating, other in playing[at:]:
            if other_rating > rating + rules.max_gap:
                return False
            if other != name and allowed(pair_key(name, other), name, other):
                return True
        return False

    scale, weight, window = rules.rating_scale, rules.meeting_weight, rules.window
    for me in order:
        name, rating, spread = me.bot, me.rating, scale * scale + me.uncertainty * me.uncertainty
        while slots[name] > 0:
            # (games over the cap in the hour, cost, partner, rating gap): pairs under the cap first
            best: tuple[int, float, str, float] | None = None
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
                    if not allowed(key, name, other):
                        continue
                    games = recent.get(key, 0)
                    over = games if games > cap else 0
                    seen += 1
                    gap = abs(pool[i].rating - rating)
                    u = pool[i].uncertainty
                    cost = gap / math.sqrt(spread + u * u) + weight * math.log1p(meetings.get(key, 0))
                    if best is None or (over, cost, other) < best[:3]:
                        best = (over, cost, other, gap)
            if best is None or (best[3] > rules.max_gap and me.waiting_s < rules.starving_s
                                and closer_busy(name, rating)):
                break                       # nobody allowed, or a closer partner is busy and it can still wait
            other = best[2]
            chosen.add(pair_key(name, other))
            pairings.append(Pairing(name, other))
            for bot in (name, other):
                slots[bot] -= 1
                if not slots[bot]:          # out of the pool: later scans never step over it
                    i = bisect.bisect_left(keys, (by_name[bot].rating, bot))
                    del pool[i], ratings[i], keys[i]
    return pairings


@dataclass(frozen=True, slots=True)
class Idle:
    """Why the ladder pairs nobody now, for people; ``resumes_in_s``: when play resumes (None: once a bot comes)."""

    reason: str
    resumes_in_s: float | None = None


def idle_reason(candidates: Sequence[Candidate], field: Sequence[str], *, paused: Sequence[str] = ()) -> Idle:
    """Why nothing is paired while no game is played: no bot, one bot, bots still getting ready.

    ``candidates`` are the free bots (as for ``pick_pairings``, which paired none of them), ``field`` every bot
    that may play (connected, not paused), ``paused`` the connected bots that are paused.
    """
    held = f"; paused: {', '.join(paused)} (a bot plays again once it reconnects)" if paused else ""
    if not field:
        return Idle(f"no bot is connected: play starts when two are{held}")
    if len(field) == 1:
        return Idle(f"only {field[0]} is connected: play starts when a second bot connects{held}")
    if len(candidates) < 2:
        return Idle(f"{len(field) - len(candidates)} bot(s) are getting ready: play starts in a moment{held}", 1.0)
    # pick_pairings pairs two free bots whenever no game is played (a closer partner cannot be busy then)
    return Idle(f"{', '.join(c.bot for c in candidates)} wait for a pairing{held}", 1.0)

"""The Swiss system, pure: a fixed number of rounds, each pairing players of equal score; its tie-breaks.

``Swiss`` is driven like ``Knockout``: ``current_round``, ``record``, ``advance``. Each round is
computed from the results of the earlier ones only (and the seed), so a resumed tournament that
records the stored results round by round gets the same rounds again. Rules 1-3 are what a round
must keep (given up in reverse order, and only when no round keeps them); 4-5 choose among those:

1. **No pair meets twice** while a round without a rematch exists and, looking ahead, while the
   rest of the tournament can still be played without one. The lookahead is exact while its search
   stays within ``SEARCH_BUDGET`` (a field of n, rounded up to even, that plays at most n/2 rounds
   needs no search at all: the default does from 7 players on, and smaller fields are tiny). When a
   rematch cannot be avoided, pairs may meet again, as few times as possible, each player taking
   the opponent it has met least. More than ``players - 1`` rounds are refused.
2. **A bye for an odd player**: the lowest-ranked player who has had none (a higher one only if the
   lowest would force a rematch, now or later); never a second bye to anyone. A bye scores like
   winning every game of a pairing (``games_per_pairing`` points) and adds nothing to the player's
   own tie-breaks: there is no opponent.
3. **Colour**: no seat-0 count minus seat-1 count beyond ±2 (FIDE's absolute colour rule).
4. **Score groups**: players are ranked by points, then by pairing number (``seeds``' order when
   given, as from the ladder's ratings; else the player order shuffled by ``seed``, else as given). From the top down, a player meets the nearest score it can: within
   a group the top half meets the bottom half in order (1-3, 2-4 in a group of four), and a group's
   odd player floats down to the next group (its lowest, unless colours ask for another).
5. **Colour balance**, within what the score groups allow: opponents that keep both players within
   ±1 come first, and two pairings of equal scores swap opponents when that leaves fewer players
   beyond ±1. Who is listed first (seat 0 in the pairing's even-numbered games) is the one with
   fewer seat-0 games, else the one listed second last time, else the higher-ranked in even rounds,
   the lower in odd ones. With an even ``games_per_pairing`` every pairing is colour-neutral.

Final standings (``swiss_tie_breaks``, ``SwissStandings``, in ``swiss_standings``): points, then
Buchholz, then Sonneborn-Berger. The matching search behind rule 1 is ``matching``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations

from .matching import _Budget, _completable, _OutOfBudget, _perfect_matching, _without
from .pairing import ScheduledGame, _check_games, check_seeds, pairing_games
from .standings import GameResult, TournamentError, check_players
from .swiss_standings import Played, SwissStandings, TieBreaks, swiss_byes, swiss_tie_breaks

__all__ = ["Swiss", "SwissStandings", "TieBreaks", "Played", "swiss_tie_breaks", "swiss_byes",
           "default_swiss_rounds", "max_swiss_rounds"]

#: Steps the lookahead and the search for a better round may take per round before settling for the
#: round found first (rule 1 still holds for the round itself): deterministic, and about a second.
SEARCH_BUDGET = 20_000
_PHANTOM = ""   # the lookahead's stand-in opponent for "the bye" (no player is called "")


def max_swiss_rounds(players: int) -> int:
    """The most rounds a Swiss of ``players`` may have: ``players - 1`` (one more would force a rematch)."""
    return max(players - 1, 0)


def default_swiss_rounds(players: int) -> int:
    """ceil(log2(players)) + 1 rounds (enough to single out a winner, and one more), at most ``players - 1``."""
    return min((players - 1).bit_length() + 1, max_swiss_rounds(players))


def _check_rounds(rounds: int, players: int) -> int:
    most = max_swiss_rounds(players)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= most:
        raise TournamentError(f"a Swiss of {players} players has 1 to {most} rounds (each player meets "
                              f"{most} others at most once), got {rounds!r}")
    return rounds


class Swiss:
    """A Swiss tournament of ``rounds`` rounds (``default_swiss_rounds`` if None), driven by
    ``current_round``, ``record`` and ``advance``; the rules are the module's.

    Each round's pairing is ``games_per_pairing`` games with seats alternating (``pairing_games``);
    pairings are numbered through the whole tournament, top board first. ``seeds`` (the players, best
    first) are the pairing numbers (``seed`` then unused): round 1 pairs the top half with the bottom
    half in order (1 v n/2 + 1, 2 v n/2 + 2, ...), and later rounds rank equal scores by them.
    """

    def __init__(self, players: Sequence[str], games_per_pairing: int, seed: int | None = None,
                 rounds: int | None = None, seeds: Sequence[str] | None = None) -> None:
        self._players = check_players(players)
        self._games_per_pairing = _check_games(games_per_pairing)
        n = len(self._players)
        self._rounds = default_swiss_rounds(n) if rounds is None else _check_rounds(rounds, n)
        order = list(self._players) if seeds is None else check_seeds(self._players, seeds)
        if seed is not None and seeds is None:
            random.Random(seed).shuffle(order)
        #: The pairing number: who ranks higher among equal scores.
        self._number = {name: i for i, name in enumerate(order)}
        self._points = dict.fromkeys(self._players, 0.0)
        self._colour = dict.fromkeys(self._players, 0)
        self._listed_first: dict[str, bool] = {}
        self._met: Counter[frozenset[str]] = Counter()
        self._byes: list[str] = []
        self._round = 0
        self._next_pairing = 0
        self._finished = False
        self._start_round()

    # -- state -------------------------------------------------------------------------------------
    @property
    def round(self) -> int:
        """The 0-based number of the current round (the last one once finished)."""
        return self._round

    @property
    def rounds(self) -> int:
        """How many rounds the tournament has."""
        return self._rounds

    @property
    def games_total(self) -> int:
        """Games in the whole tournament: rounds x pairings per round x games per pairing."""
        return self._rounds * (len(self._players) // 2) * self._games_per_pairing

    @property
    def finished(self) -> bool:
        """True once ``advance`` has closed the last round."""
        return self._finished

    @property
    def pairings(self) -> list[tuple[str, str]]:
        """The current round's pairings, top board first, the player listed first taking seat 0 in game 0."""
        return [] if self._finished else list(self._pairings)

    @property
    def bye(self) -> str | None:
        """Who has the bye in the current round (None with an even count, or once finished)."""
        return None if self._finished else self._bye

    @property
    def byes(self) -> list[str]:
        """Every bye given so far, the current round's included, in round order."""
        return list(self._byes)

    @property
    def scores(self) -> dict[str, float]:
        """Points so far: the recorded games, and ``games_per_pairing`` per bye given (the current one too)."""
        return dict(self._points)

    @property
    def colour_balance(self) -> dict[str, int]:
        """Per player: seat-0 games minus seat-1 games over every round scheduled so far."""
        return dict(self._colour)

    @property
    def round_complete(self) -> bool:
        """True when every game of the current round has been recorded (or the tournament is finished)."""
        return self._finished or all(len(results) == self._games_per_pairing for results in self._results)

    def current_round(self) -> list[ScheduledGame]:
        """Every game of the current round (recorded or not); empty once finished."""
        return [] if self._finished else list(self._schedule)

    def record(self, result: GameResult) -> None:
        """Count a finished game of the current round; games of a pairing may come in any order."""
        if self._finished:
            raise TournamentError(f"the Swiss is over; cannot record {result.white!r} vs {result.black!r}")
        index = self._index.get(frozenset(result.players))
        if index is None:
            pairs = ", ".join(f"{a} vs {b}" for a, b in self._pairings)
            raise TournamentError(f"{result.white!r} vs {result.black!r} is not a pairing of round "
                                  f"{self._round}; its pairings are: {pairs}")
        seats = result.players
        recorded = Counter(r.players for r in self._results[index])
        if recorded[seats] >= self._seatings[index][seats]:
            raise TournamentError(f"every scheduled game with {result.white!r} as seat 0 against "
                                  f"{result.black!r} is already recorded ({self._seatings[index][seats]} of them)")
        self._results[index].append(result)
        for seat, name in enumerate(seats):
            self._points[name] += result.points(seat)

    def advance(self) -> bool:
        """Pair the next round from the results so far; False (and ``finished``) after the last round.

        The current round must be complete.
        """
        if self._finished:
            return False
        if not self.round_complete:
            done = sum(len(results) for results in self._results)
            raise TournamentError(f"round {self._round} is not finished: {done} of {len(self._schedule)} "
                                  "games recorded")
        if self._round + 1 >= self._rounds:
            self._finished = True
            return False
        self._round += 1
        self._start_round()
        return True

    # -- one round -----------------------------------------------------------------------------------
    def _start_round(self) -> None:
        pairs, self._bye = self._pair()
        self._pairings = [self._seat(a, b) for a, b in pairs]
        self._schedule: list[ScheduledGame] = []
        self._seatings: list[Counter[tuple[str, str]]] = []
        odd = self._games_per_pairing % 2
        for offset, (first, second) in enumerate(self._pairings):
            games = pairing_games(self._round, self._next_pairing + offset, first, second, self._games_per_pairing)
            self._schedule += games
            self._seatings.append(Counter((g.white, g.black) for g in games))
            self._met[frozenset((first, second))] += 1
            self._colour[first] += odd
            self._colour[second] -= odd
            self._listed_first[first], self._listed_first[second] = True, False
        self._next_pairing += len(self._pairings)
        self._results: list[list[GameResult]] = [[] for _ in self._pairings]
        self._index = {frozenset(pair): i for i, pair in enumerate(self._pairings)}
        if self._bye is not None:
            self._byes.append(self._bye)
            self._points[self._bye] += self._games_per_pairing

    def _rank(self, name: str) -> tuple[float, int]:
        return -self._points[name], self._number[name]

    def _order(self, a: str, b: str) -> tuple[str, str]:
        """``(first, second)``: who is listed first when ``a`` (the higher-ranked) meets ``b`` (rule 5)."""
        def want(name: str) -> tuple[int, float]:
            last = self._listed_first.get(name)
            return self._colour[name], 0.5 if last is None else float(last)
        if want(a) != want(b):
            return (a, b) if want(a) < want(b) else (b, a)
        return (a, b) if self._round % 2 == 0 else (b, a)

    def _seat(self, a: str, b: str) -> tuple[str, str]:
        return self._order(*sorted((a, b), key=self._rank))

    def _colour_after(self, a: str, b: str) -> int:
        """The larger colour imbalance of the two after ``a`` meets ``b``."""
        first, second = self._seat(a, b)
        odd = self._games_per_pairing % 2
        return max(abs(self._colour[first] + odd), abs(self._colour[second] - odd))

    def _pair(self) -> tuple[list[tuple[str, str]], str | None]:
        """This round's pairs (higher-ranked first) and bye, by the module's rules in their order."""
        ranked = sorted(self._players, key=self._rank)
        if len(ranked) % 2:
            fresh = [name for name in reversed(ranked) if name not in self._byes]
            candidates: list[str | None] = list(fresh or reversed(ranked))
        else:
            candidates = [None]
        budget = _Budget(SEARCH_BUDGET)
        lookahead = self._rounds - self._round - 1
        first_found: tuple[list[tuple[str, str]], str | None, dict[str, set[str]]] | None = None
        for most in range(max(self._met.values(), default=0) + 1):
            for bye in candidates:
                field = [name for name in ranked if name != bye]
                for strict in (True, False):
                    adjacency = {a: {b for b in field if b != a and self._met[frozenset((a, b))] <= most
                                     and (not strict or self._colour_after(a, b) <= 2)} for a in field}
                    start = _perfect_matching(field, adjacency, {})
                    if start is None:
                        continue
                    good = {a: {b for b in adjacency[a] if self._points[a] != self._points[b]
                                or self._colour_after(a, b) <= 1} for a in field}
                    good_start = _perfect_matching(field, good, start)
                    if most > 0:        # a rematch is unavoidable: no lookahead, the first pairing found
                        pairs = next(self._rounds_by_preference(field, adjacency, start, good, good_start, None))
                        return self._balanced(pairs, adjacency, bye, 0, budget), bye
                    try:
                        for pairs in self._rounds_by_preference(field, adjacency, start, good, good_start, budget):
                            if first_found is None:
                                first_found = pairs, bye, adjacency
                            if self._can_finish(pairs, bye, lookahead, budget):
                                return self._balanced(pairs, adjacency, bye, lookahead, budget), bye
                    except _OutOfBudget:
                        if first_found is None:     # the first pairing comes without a search: take it
                            pairs = next(self._rounds_by_preference(field, adjacency, start, good, good_start, None))
                            first_found = pairs, bye, adjacency
                        break
                else:
                    continue
                break               # out of budget: settle for the first pairing found
            if first_found is not None:     # no rematch in this round, though one will come later
                pairs, bye, adjacency = first_found
                return self._balanced(pairs, adjacency, bye, 0, budget), bye
        raise AssertionError("a complete graph always has a perfect matching")

    def _balanced(self, pairs: list[tuple[str, str]], adjacency: Mapping[str, set[str]], bye: str | None,
                  lookahead: int, budget: _Budget) -> list[tuple[str, str]]:
        """``pairs`` with opponents of equal points exchanged between two pairings while that leaves fewer
        players beyond ±1 (rule 5 over rule 4's order), keeps every pair allowed and, with a ``lookahead``,
        the rest of the tournament possible without a rematch."""
        def strays(pair: tuple[str, str]) -> int:
            return int(self._colour_after(*pair) > 1)

        pairs = list(pairs)
        improved = True
        while improved:
            improved = False
            for i, j in combinations(range(len(pairs)), 2):
                (a, b), (c, d) = pairs[i], pairs[j]
                options = []
                if self._points[b] == self._points[d] or self._points[a] == self._points[c]:
                    options.append(((a, d), (c, b)))
                if self._points[b] == self._points[c] or self._points[a] == self._points[d]:
                    options.append(((a, c), (b, d)))
                for one, other in options:
                    if (one[1] not in adjacency[one[0]] or other[1] not in adjacency[other[0]]
                            or strays(one) + strays(other) >= strays(pairs[i]) + strays(pairs[j])):
                        continue
                    trial = [*pairs[:i], one, *pairs[i + 1:j], other, *pairs[j + 1:]]
                    try:
                        if not self._can_finish(trial, bye, lookahead, budget):
                            continue
                    except _OutOfBudget:
                        return self._board_order(pairs)
                    pairs, improved = trial, True
                    break
                if improved:
                    break
        return self._board_order(pairs)

    def _board_order(self, pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """Each pair higher-ranked first, the pairs by their higher-ranked player: top board first."""
        ordered = [(a, b) if self._rank(a) < self._rank(b) else (b, a) for a, b in pairs]
        return sorted(ordered, key=lambda pair: self._rank(pair[0]))

    def _rounds_by_preference(self, field: list[str], adjacency: Mapping[str, set[str]], matching: dict[str, str],
                              good: Mapping[str, set[str]], good_matching: dict[str, str] | None,
                              budget: _Budget | None) -> Iterator[list[tuple[str, str]]]:
        """Every pairing of ``field`` over ``adjacency``, best first: top down, each player's opponents in
        order of preference, skipping any choice that leaves the rest unpairable (so the first comes at once).

        ``matching`` pairs all of ``field`` over ``adjacency``; ``good_matching``, when there is one, over
        ``good`` (the pairs that keep both within ±1 when of equal points): among equally preferred
        opponents, one that leaves the rest such a matching comes first.
        """
        if not field:
            yield []
            return
        top, rest = field[0], field[1:]
        group = [name for name in field if self._points[name] == self._points[top]]
        half = len(group) // 2

        def preference(other: str) -> tuple[int, float, bool, int]:
            if other in group:      # the top half meets the bottom half: S2 in order, then S1 from the bottom
                i = group.index(other)
                place = i - half if i >= half else len(group) + half - i
            else:
                place = rest.index(other)
            return (self._met[frozenset((top, other))], abs(self._points[top] - self._points[other]),
                    self._colour_after(top, other) > 1, place)

        ordered = sorted(adjacency[top] & set(rest), key=preference)
        promoted: dict[str, str] | None = None
        if good_matching is not None and ordered:
            tier = preference(ordered[0])[:3]
            for k, other in enumerate(ordered):
                if preference(other)[:3] != tier:
                    break
                promoted = _without(good_matching, top, other, [name for name in rest if name != other], good)
                if promoted is not None:
                    ordered.insert(0, ordered.pop(k))
                    break
        for number, other in enumerate(ordered):
            if budget is not None:
                budget.spend()
            remaining = [name for name in rest if name != other]
            below = _without(matching, top, other, remaining, adjacency)
            if below is None:
                continue
            below_good = promoted if number == 0 and promoted is not None else _perfect_matching(remaining, good, below)
            for pairs in self._rounds_by_preference(remaining, adjacency, below, good, below_good, budget):
                yield [(top, other), *pairs]

    def _can_finish(self, pairs: list[tuple[str, str]], bye: str | None, rounds: int, budget: _Budget) -> bool:
        """True if, after ``pairs`` and ``bye``, ``rounds`` more rounds fit with no rematch and no second bye."""
        if rounds == 0:
            return True
        names = list(self._players) + ([_PHANTOM] if len(self._players) % 2 else [])
        this_round = {frozenset(pair) for pair in pairs}
        unmet = {a: {b for b in names if b != a and frozenset((a, b)) not in this_round
                     and self._met[frozenset((a, b))] == 0} for a in names}
        if len(self._players) % 2:
            had = set(self._byes) | {bye}
            unmet[_PHANTOM] = {name for name in self._players if name not in had}
            for name in self._players:
                unmet[name].discard(_PHANTOM)
                if name not in had:
                    unmet[name].add(_PHANTOM)
        return _completable(unmet, rounds, budget)

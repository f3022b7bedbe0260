"""The final that settles, pure: round after round of every pair, until the rating order is decided or a game budget ends.

``Final`` is driven like ``Swiss``: ``current_round``, ``record``, ``advance``. Each round every pair
of players meets once, as ``games_per_pairing`` games (an even number: seats alternate, so each
pairing is colour-neutral); the pairings are numbered through the whole final and each starts from
its own seeded pawn-move opening (the runner's ``shared.ladder.pawn_opening(seed, pairing, plies)``:
both colours of a pairing play the same opening). A round's pairings are in an order drawn from
``seed``; the rounds do not depend on the results, so a resumed final that records the stored results
round by round gets the same rounds and stops at the same one.

**When it stops.** After each round the games so far are fitted by Bradley-Terry
(``bradley_terry``: the penalised fit and its profile likelihood intervals) and the players are
ordered by rating. The final is *settled*, and stops, when every pair of neighbours in that order is
**separated**: the interval of their rating difference (``rating_differences``) excludes 0. Else it
plays another round, unless that round would take it past ``max_games``; then it stops unsettled,
and the table says which neighbours are tied.

**Repeated looks.** Looking after every round and stopping at the first look that separates would,
at a fixed 95% per look, declare a tie separated far more often than 5% of the time. Each look is
therefore made at ``1 - ALPHA / looks`` (two-sided), ``looks`` the most rounds the budget allows
(Bonferroni over the looks): the chance that any look wrongly separates a given pair of equal
neighbours is at most ``ALPHA``, whatever the stopping rule. No correction is made for the ``n - 1``
neighbour pairs: among equal players the neighbours in the rating order are the field's closest
pairs, the least likely to look apart (a field of 8 equals: no table of 400 separated any), and a
lone tie among separated bots is separated 1.2% of the time (``bench/final_settles.py``, which also
says how fast a spread field settles and how often in the true order); a field of several ties far
apart could see one of them separated more often than ``ALPHA``.

**One pairing at a time.** A round's pairings come in slates (``current_slates``, the circle method
of ``round_robin``): in a slate nobody plays twice, so a connected bot, which plays one game at a time,
is never asked to play several at once, and a round of ``n`` players is ``n - 1`` slates (one fewer
pairings for an odd ``n``).

``FinalStandings`` is the table of a final: by rating, best first, each row saying whether it is
separated from the next (``Row.separated``). A row's **rank** is 1 + the number of players shown
better than it (``final_ranks``: every pair's difference, not only the neighbours'), so rows share a
rank when no one was shown better than one and not the other: 1, 2, 2, 4. Neighbour ties do not
chain: a player shown worse than the one two rows up ranks below it even if it is tied with the row
just above.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations

from .bradley_terry import LEVEL, Difference, Encounter, fit_ratings, rating_differences
from .field_ratings import PROFILE_PLAYERS
from .pairing import ScheduledGame, pairing_games, round_robin
from .standings import GameResult, Row, Standings, TournamentError, check_players

__all__ = ["Final", "FinalStandings", "ALPHA", "DEFAULT_FINAL_ROUNDS", "default_final_games", "look_level",
           "separations", "final_ranks"]

#: The final's overall chance of calling a tie separated (1 - the table's confidence).
ALPHA = 1.0 - LEVEL
#: Rounds' worth of games in the default budget (``default_final_games``).
DEFAULT_FINAL_ROUNDS = 20


def _pairs(players: int) -> int:
    return players * (players - 1) // 2


def default_final_games(players: int, games_per_pairing: int) -> int:
    """The default game budget: ``DEFAULT_FINAL_ROUNDS`` rounds of every pair playing ``games_per_pairing`` games."""
    return DEFAULT_FINAL_ROUNDS * _pairs(players) * games_per_pairing


def look_level(looks: int, alpha: float = ALPHA) -> float:
    """The confidence level of each of ``looks`` looks that keeps the whole final's error at ``alpha`` (Bonferroni)."""
    if looks < 1:
        raise TournamentError(f"a final looks at its table at least once, got {looks!r} looks")
    return 1.0 - alpha / looks


def separations(players: Sequence[str], results: Sequence[GameResult], level: float,
                ratings: dict[str, float | None] | None = None,
                profile: bool = True) -> tuple[list[str], list[bool | None]]:
    """The players by Bradley-Terry rating, best first, and for each whether it is separated from the next at
    ``level`` (None for the last one).

    Players with no game that counts (no rating) come last, in the given order, and are separated from
    nobody. ``ratings`` orders the rated players when given (a table's own fit), else the difference fit does.
    ``profile`` False: the quadratic intervals of the differences (a live table of a big field; the looks profile).
    """
    encounters = _encounters(results)
    played = {e.first for e in encounters} | {e.second for e in encounters}
    rated = [name for name in players if name in played]
    if ratings is None or any(ratings.get(name) is None for name in rated):
        ratings = _estimates(players, encounters, rated)
    order = sorted(rated, key=lambda name: (-(ratings[name] or 0.0), players.index(name)))
    pairs = list(zip(order, order[1:]))
    found: dict[tuple[str, str], Difference | None] = (
        rating_differences(players, encounters, pairs, level=level, profile=profile) if pairs else {})
    flags: list[bool | None] = []
    for pair in pairs:
        difference = found[pair]
        flags.append(difference is not None and difference.low > 0.0)
    unrated = [name for name in players if name not in played]
    if order:
        flags.append(False if unrated else None)
    flags += [False] * len(unrated)
    if flags:
        flags[-1] = None
    return order + unrated, flags


def final_ranks(players: Sequence[str], results: Sequence[GameResult], order: Sequence[str], level: float, *,
                profile: bool = True) -> list[int]:
    """The rank of each player of ``order`` (best first, as ``separations`` orders them): 1 + the players shown
    better than it at ``level``, every pair's difference looked at (``profile`` False: quadratic intervals).

    Never better than the rank of the row above; players with no game that counts rank after every rated one.
    """
    encounters = _encounters(results)
    played = {e.first for e in encounters} | {e.second for e in encounters}
    rated = [name for name in order if name in played]
    pairs = list(combinations(rated, 2))            # (above, below) in the order
    found = rating_differences(players, encounters, pairs, level=level, profile=profile) if pairs else {}
    better = Counter(below for (above, below), difference in found.items()
                     if difference is not None and difference.low > 0.0)
    ranks: list[int] = []
    for name in order:
        rank = 1 + better[name] if name in played else len(rated) + 1
        ranks.append(max(rank, ranks[-1]) if ranks else rank)
    return ranks


def _encounters(results: Sequence[GameResult]) -> list[Encounter]:
    """Each game that counts as one encounter (a double forfeit was never played: it says nothing)."""
    return [Encounter(r.white, r.black, 1, r.points(0)) for r in results if not r.double_forfeit]


def _estimates(players: Sequence[str], encounters: list[Encounter], rated: list[str]) -> dict[str, float | None]:
    """Each rated player's rating (one fit, no intervals); players not linked by games to the first rated one last."""
    if not rated:
        return {}
    found = fit_ratings(players, encounters, anchor=rated[0])
    return {name: (-math.inf if found[name] is None else found[name]) for name in rated}


class Final:
    """A final of ``players``: rounds of every pair playing ``games_per_pairing`` games (even), until the rating
    order is settled or the next round would pass ``max_games`` (``default_final_games`` if None).

    Driven by ``current_round``, ``record`` and ``advance``; the rules are the module's.
    """

    def __init__(self, players: Sequence[str], games_per_pairing: int = 2, seed: int | None = None,
                 max_games: int | None = None, alpha: float = ALPHA) -> None:
        self._players = check_players(players)
        if (isinstance(games_per_pairing, bool) or not isinstance(games_per_pairing, int) or games_per_pairing < 2
                or games_per_pairing % 2):
            raise TournamentError(f"a final's pairings play an even number of games (colours swapped), at least 2, "
                                  f"got {games_per_pairing!r}")
        self._games_per_pairing = games_per_pairing
        self._per_round = _pairs(len(self._players)) * games_per_pairing
        budget = default_final_games(len(self._players), games_per_pairing) if max_games is None else max_games
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < self._per_round:
            raise TournamentError(f"a final of {len(self._players)} players needs a budget of at least one round "
                                  f"({self._per_round} games), got {budget!r}")
        if not 0.0 < alpha < 1.0:
            raise TournamentError(f"the final's error must be between 0 and 1, got {alpha!r}")
        self._max_games = budget
        #: The most rounds (looks) the budget allows.
        self._looks = budget // self._per_round
        self._level = look_level(self._looks, alpha)
        self._seed = seed
        self._round = 0
        self._finished = False
        self._settled = False
        self._results: list[GameResult] = []
        self._separated: list[bool | None] = []
        self._ranks: list[int] = []
        self._order: list[str] = list(self._players)
        self._start_round()

    # -- state -------------------------------------------------------------------------------------
    @property
    def round(self) -> int:
        """The 0-based number of the current round (the last one once finished)."""
        return self._round

    @property
    def max_rounds(self) -> int:
        """The most rounds the game budget allows: the looks the per-look level is corrected for."""
        return self._looks

    @property
    def max_games(self) -> int:
        """The game budget: no round is started that would pass it."""
        return self._max_games

    @property
    def level(self) -> float:
        """The confidence level of each look (``look_level``): what ``separated`` is decided at."""
        return self._level

    @property
    def games_total(self) -> int | None:
        """Games in the whole final once it is finished; None while it may still go on."""
        return (self._round + 1) * self._per_round if self._finished else None

    @property
    def finished(self) -> bool:
        """True once ``advance`` has stopped the final (settled, or the budget reached)."""
        return self._finished

    @property
    def settled(self) -> bool:
        """True when the final stopped because every pair of neighbours in the rating order is separated."""
        return self._settled

    @property
    def order(self) -> list[str]:
        """The players by rating at the last look, best first (the given order before the first)."""
        return list(self._order)

    @property
    def separated(self) -> list[bool | None]:
        """For each player of ``order``, whether it is separated from the next at the last look (None for the last;
        empty before the first look)."""
        return list(self._separated)

    @property
    def ranks(self) -> list[int]:
        """Each player of ``order``'s rank at the last look (``final_ranks``; empty before the first)."""
        return list(self._ranks)

    @property
    def round_complete(self) -> bool:
        """True when every game of the current round has been recorded (or the final is finished)."""
        return self._finished or len(self._recorded) == len(self._schedule)

    def current_round(self) -> list[ScheduledGame]:
        """Every game of the current round (recorded or not); empty once finished."""
        return [] if self._finished else list(self._schedule)

    def current_slates(self) -> list[list[ScheduledGame]]:
        """The current round's games in slates to play one after another: nobody plays twice in a slate (the
        circle method), the slates together are ``current_round``; empty once finished."""
        if self._finished:
            return []
        slates, start = [], 0
        for pairings in self._slate_sizes:
            end = start + pairings * self._games_per_pairing
            slates.append(self._schedule[start:end])
            start = end
        return slates

    def record(self, result: GameResult) -> None:
        """Count a finished game of the current round; games of a pairing may come in any order."""
        if self._finished:
            raise TournamentError(f"the final is over; cannot record {result.white!r} vs {result.black!r}")
        index = self._index.get(frozenset(result.players))
        if index is None:
            raise TournamentError(f"{result.white!r} vs {result.black!r} is not a pairing of the final")
        seats = result.players
        done = sum(1 for number, s in self._recorded if number == index and s == seats)
        if done >= self._seatings[index][seats]:
            raise TournamentError(f"every game of round {self._round} with {result.white!r} as seat 0 against "
                                  f"{result.black!r} is already recorded ({self._seatings[index][seats]} of them)")
        self._recorded.append((index, seats))
        self._results.append(result)

    def advance(self) -> bool:
        """Look at the table after the current round: True and the next round when the final goes on; False (and
        ``finished``) when it is settled or the next round would pass the budget. The round must be complete."""
        if self._finished:
            return False
        if not self.round_complete:
            raise TournamentError(f"round {self._round} is not finished: {len(self._recorded)} of "
                                  f"{len(self._schedule)} games recorded")
        self._order, self._separated = separations(self._players, self._results, self._level)
        self._ranks = final_ranks(self._players, self._results, self._order, self._level,
                                  profile=len(self._players) <= PROFILE_PLAYERS)
        self._settled = all(flag for flag in self._separated[:-1])
        if self._settled or (self._round + 2) * self._per_round > self._max_games:
            self._finished = True
            return False
        self._round += 1
        self._start_round()
        return True

    # -- one round -----------------------------------------------------------------------------------
    def _start_round(self) -> None:
        names = list(self._players)
        if self._seed is not None:
            random.Random(f"quoridor-final/{self._seed}/{self._round}").shuffle(names)
        slates = [[(game.white, game.black) for game in games] for games in round_robin(names, 1)]
        self._slate_sizes = [len(slate) for slate in slates]
        pairs = [pair for slate in slates for pair in slate]
        first = self._round * len(pairs)
        self._schedule: list[ScheduledGame] = []
        self._seatings: list[Counter[tuple[str, str]]] = []
        for offset, (a, b) in enumerate(pairs):
            listed = (a, b) if (self._round + offset) % 2 == 0 else (b, a)
            games = pairing_games(self._round, first + offset, *listed, self._games_per_pairing)
            self._schedule += games
            self._seatings.append(Counter((g.white, g.black) for g in games))
        self._index = {frozenset(pair): i for i, pair in enumerate(pairs)}
        self._recorded: list[tuple[int, tuple[str, str]]] = []


class FinalStandings(Standings):
    """The table of a final: ordered by Bradley-Terry rating, each row ``separated`` from the next or not at
    ``level`` (the final's per-look level), each row's rank 1 + the players shown better than it (``final_ranks``).

    After a look (``looked``) the table is that look's; between looks it is worked out from the games so far,
    the neighbours' with profile intervals up to ``PROFILE_PLAYERS`` players and quadratic ones above, the ranks'
    every pair with quadratic ones (the live table of a big
    field is rebuilt every second: 40 players' profiles take 0.65 s, their quadratic intervals 30 ms).
    """

    def __init__(self, players: Sequence[str], level: float) -> None:
        super().__init__(players)
        if not 0.0 < level < 1.0:
            raise TournamentError(f"the level must be between 0 and 1, got {level!r}")
        self.level = level
        self._final_rows: tuple[int, list[Row]] = (-1, [])
        self._look: tuple[int, list[str], list[bool | None], list[int]] = (-1, [], [], [])

    def looked(self, order: Sequence[str], separated: Sequence[bool | None], ranks: Sequence[int]) -> None:
        """A look's verdict (``Final.order``, ``Final.separated``, ``Final.ranks``) on the games so far: the table
        until the next game."""
        self._look = (self.games_done, list(order), list(separated), list(ranks))
        self._final_rows = (-1, [])

    def rows(self) -> list[Row]:
        """The final's table, best first (cached per game count; see the class)."""
        if self._final_rows[0] == self.games_done:
            return list(self._final_rows[1])
        by_name = {row.player: row for row in super().rows()}
        rated = {name: row.elo for name, row in by_name.items()}
        if self._look[0] == self.games_done:
            order, flags, ranks = self._look[1], self._look[2], self._look[3]
        else:
            order, flags = separations(self.players, self.results, self.level, rated,
                                       profile=len(self.players) <= PROFILE_PLAYERS)
            ranks = final_ranks(self.players, self.results, order, self.level, profile=False)
        rows = [replace(by_name[name], rank=rank, separated=flag) for name, flag, rank in zip(order, flags, ranks)]
        self._final_rows = (self.games_done, rows)
        return list(rows)

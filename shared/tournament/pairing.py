"""Who plays whom: round-robin schedules (circle method), single-elimination knockouts, and seeding orders."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .standings import GameResult, TournamentError, check_players

__all__ = ["ScheduledGame", "round_robin", "pairing_games", "decide_pairing", "Knockout", "bracket_order",
           "seeding_order", "check_seeds"]


@dataclass(frozen=True)
class ScheduledGame:
    """One game to play: seat 0 (``white``) starts at (5,1) and moves first."""

    round: int
    pairing: int
    game_in_pairing: int
    white: str
    black: str


def _check_games(games_per_pairing: int) -> int:
    if isinstance(games_per_pairing, bool) or not isinstance(games_per_pairing, int) or games_per_pairing < 1:
        raise TournamentError(f"games per pairing must be an integer >= 1, got {games_per_pairing!r}")
    return games_per_pairing


def pairing_games(round_: int, pairing: int, first: str, second: str, games_per_pairing: int) -> list[ScheduledGame]:
    """The ``games_per_pairing`` games of one pairing; ``first`` takes seat 0 in the even-numbered games."""
    return [
        ScheduledGame(round_, pairing, k, *((first, second) if k % 2 == 0 else (second, first)))
        for k in range(_check_games(games_per_pairing))
    ]


def round_robin(players: Sequence[str], games_per_pairing: int, seed: int | None = None) -> list[list[ScheduledGame]]:
    """Every pair of players meets once, as ``games_per_pairing`` games in one round (circle method).

    Nobody plays two pairings in a round; with an odd count one player sits out each round.
    With a ``seed`` the player order is shuffled by ``random.Random(seed)``, else the given order
    is used. Pairings are numbered through the whole tournament.
    """
    names = check_players(players)
    _check_games(games_per_pairing)
    if seed is not None:
        random.Random(seed).shuffle(names)
    circle: list[str | None] = list(names)
    if len(circle) % 2:
        circle.append(None)  # whoever meets None has the bye
    n = len(circle)
    rounds: list[list[ScheduledGame]] = []
    pairing = 0
    for r in range(n - 1):
        games: list[ScheduledGame] = []
        for i in range(n // 2):
            first, second = circle[i], circle[n - 1 - i]
            if i == 0 and r % 2:
                # The fixed player would otherwise be listed first every round; alternate it.
                first, second = second, first
            if first is None or second is None:
                continue
            games += pairing_games(r, pairing, first, second, games_per_pairing)
            pairing += 1
        rounds.append(games)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def seeding_order(players: Sequence[str], ratings: Mapping[str, float | None], seed: int) -> list[str]:
    """``players`` as pairing numbers from ``ratings`` (best first, equal ratings by name); the unrated (None or
    missing) after the rated ones, in the order ``random.Random(seed)`` shuffles them into (from sorted names)."""
    names = check_players(players, minimum=1)
    rated = sorted((name for name in names if ratings.get(name) is not None),
                   key=lambda name: (-(ratings[name] or 0.0), name))
    unrated = sorted(name for name in names if ratings.get(name) is None)
    random.Random(seed).shuffle(unrated)
    return rated + unrated


def check_seeds(players: Sequence[str], seeds: Sequence[str]) -> list[str]:
    """``seeds`` as a list after checking it orders exactly ``players`` (``TournamentError`` in one line if not)."""
    order = list(seeds)
    if sorted(order) != sorted(players):
        missing = sorted(set(players) - set(order))
        extra = sorted(set(order) - set(players))
        raise TournamentError(f"the seeds must order the players exactly once each: missing {missing!r}, "
                              f"not players {extra!r}, in {order!r}")
    return order


def bracket_order(size: int) -> list[int]:
    """The standard bracket of ``size`` slots (a power of 2): seed numbers from 1 in slot order, each adjacent two
    meeting in round 1 (1 v size, then the winner of size/2 v size/2 + 1, ...): the top two seeds meet only in the
    final, the top four only in the semi-finals, and so on."""
    if size < 1 or size & (size - 1):
        raise TournamentError(f"a bracket has a power of 2 slots, got {size!r}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def decide_pairing(first: str, second: str, results: Iterable[GameResult]) -> str:
    """The winner of a knockout pairing: more wins; if equal, less total thinking time over the
    pairing; then fewer violations; if still equal, ``first`` (the player listed first)."""
    wins = {first: 0, second: 0}
    thinking = {first: 0, second: 0}
    violations = {first: 0, second: 0}
    for result in results:
        if set(result.players) != {first, second}:
            raise TournamentError(f"result {result.white!r} vs {result.black!r} is not a game of {first!r} vs {second!r}")
        if result.winner is not None:
            wins[result.players[result.winner]] += 1
        for seat, name in enumerate(result.players):
            thinking[name] += result.thinking_ms[seat]
            violations[name] += result.violations[seat]

    def key(name: str) -> tuple[int, int, int]:
        return -wins[name], thinking[name], violations[name]

    return second if key(second) < key(first) else first


class Knockout:
    """A single-elimination tournament, driven by ``current_round``, ``record`` and ``advance``.

    Each round pairs the remaining players at random (from ``seed``; without one, in the given
    order). An odd player out gets a bye and goes on; nobody gets a second bye while another
    player has had none. A pairing is ``games_per_pairing`` games decided by ``decide_pairing``.

    With ``seeds`` (the players in order of pairing number, best first; ``seed`` is then unused) the
    knockout is a standard bracket instead (``bracket_order``): filled up to a power of 2 with byes,
    which go to the top seeds in round 1; 1 meets the last seed, 2 the one before, and each round's
    winners meet as the bracket says, so the top seeds meet last. The better seed of a pairing is
    listed first (seat 0 in its even-numbered games).
    """

    def __init__(self, players: Sequence[str], games_per_pairing: int, seed: int | None = None,
                 seeds: Sequence[str] | None = None) -> None:
        self._remaining = check_players(players)
        self._games_per_pairing = _check_games(games_per_pairing)
        self._rng = random.Random(seed) if seed is not None and seeds is None else None
        #: The bracket's slots in order (None: a bye), its adjacent two meeting; None without seeds.
        self._bracket: list[str | None] | None = None
        self._seed_number: dict[str, int] = {}
        if seeds is not None:
            order = check_seeds(self._remaining, seeds)
            self._seed_number = {name: i for i, name in enumerate(order)}
            self._remaining = order
            size = 1 << (len(order) - 1).bit_length()
            self._bracket = [order[n - 1] if n <= len(order) else None for n in bracket_order(size)]
        self._round = 0
        self._next_pairing = 0
        self._byes: list[str] = []
        self._eliminated: list[str] = []
        self._champion: str | None = None
        self._start_round()

    def _start_round(self) -> None:
        if self._bracket is not None:
            self._pairings = []
            for first, second in zip(self._bracket[::2], self._bracket[1::2]):
                assert first is not None            # a bye sits only in a pair's second slot, the lower seed's
                if second is None:
                    self._byes.append(first)
                else:
                    better, worse = sorted((first, second), key=self._seed_number.__getitem__)
                    self._pairings.append((better, worse))
        else:
            order = list(self._remaining)
            if self._rng is not None:
                self._rng.shuffle(order)
            if len(order) % 2:
                candidates = [name for name in order if name not in self._byes] or order
                order.remove(candidates[-1])
                self._byes.append(candidates[-1])
            self._pairings = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
        self._schedule: list[ScheduledGame] = []
        #: Per pairing: how many of its games each seating (seat 0, seat 1) has.
        self._seatings: list[Counter[tuple[str, str]]] = []
        for offset, (first, second) in enumerate(self._pairings):
            games = pairing_games(self._round, self._next_pairing + offset, first, second, self._games_per_pairing)
            self._schedule += games
            self._seatings.append(Counter((g.white, g.black) for g in games))
        self._next_pairing += len(self._pairings)
        self._results: list[list[GameResult]] = [[] for _ in self._pairings]
        self._index = {frozenset(pair): i for i, pair in enumerate(self._pairings)}

    @property
    def round(self) -> int:
        """The 0-based number of the current round."""
        return self._round

    @property
    def remaining(self) -> list[str]:
        """The players still in (the current round's players and its bye, or the champion)."""
        return list(self._remaining)

    @property
    def champion(self) -> str | None:
        """The winner, once ``advance`` has left a single player; None before."""
        return self._champion

    @property
    def byes(self) -> list[str]:
        """The players given a bye so far, in order: one per round with an odd count; with seeds, the top seeds that
        wait for round 2 (round 1's only byes)."""
        return list(self._byes)

    @property
    def eliminated(self) -> list[str]:
        """The players knocked out so far, in order of elimination."""
        return list(self._eliminated)

    @property
    def round_complete(self) -> bool:
        """True when every game of the current round has been recorded (or the champion is known)."""
        return self._champion is not None or all(
            len(results) == self._games_per_pairing for results in self._results)

    def current_round(self) -> list[ScheduledGame]:
        """Every game of the current round (recorded or not); empty once there is a champion."""
        return [] if self._champion is not None else list(self._schedule)

    def record(self, result: GameResult) -> None:
        """Count a finished game of the current round; games of a pairing may come in any order."""
        if self._champion is not None:
            raise TournamentError(f"the knockout is over ({self._champion!r} won); cannot record "
                                  f"{result.white!r} vs {result.black!r}")
        index = self._index.get(frozenset(result.players))
        if index is None:
            pairs = ", ".join(f"{a} vs {b}" for a, b in self._pairings)
            raise TournamentError(f"{result.white!r} vs {result.black!r} is not a pairing of round "
                                  f"{self._round}; its pairings are: {pairs}")
        seats = (result.white, result.black)
        scheduled = self._seatings[index]
        recorded = Counter(r.players for r in self._results[index])
        if recorded[seats] >= scheduled[seats]:
            raise TournamentError(f"every scheduled game with {result.white!r} as seat 0 against "
                                  f"{result.black!r} is already recorded ({scheduled[seats]} of them)")
        self._results[index].append(result)

    def advance(self) -> bool:
        """Send each pairing's winner (and the bye) to the next round; False once a champion remains.

        The round must be complete; the losers join ``eliminated`` in pairing order.
        """
        if self._champion is not None:
            return False
        if not self.round_complete:
            done = sum(len(results) for results in self._results)
            raise TournamentError(f"round {self._round} is not finished: {done} of {len(self._schedule)} "
                                  "games recorded")
        losers = []
        for (first, second), results in zip(self._pairings, self._results):
            winner = decide_pairing(first, second, results)
            losers.append(second if winner == first else first)
        self._eliminated += losers
        self._remaining = [name for name in self._remaining if name not in losers]
        if self._bracket is not None:       # each slot pair's winner (or its bye) takes the pair's place
            self._bracket = [first if second is None or second in losers else second
                             for first, second in zip(self._bracket[::2], self._bracket[1::2])]
        if len(self._remaining) == 1:
            self._champion = self._remaining[0]
            return False
        self._round += 1
        self._start_round()
        return True

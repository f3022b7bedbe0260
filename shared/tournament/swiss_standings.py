"""The Swiss system's final order: points (byes included), then Buchholz, then Sonneborn-Berger. Pure.

Buchholz is the sum of the final points of every opponent met (once per pairing); Sonneborn-Berger
the points of the opponents beaten, plus half of those drawn; both divided by the games per
pairing. ``SwissStandings`` is the tournament table in that order; ``swiss_byes`` derives the
byes from the scheduled games, so nothing more needs storing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from .pairing import _check_games
from .standings import Row, Standings, TournamentError, check_players

__all__ = ["SwissStandings", "TieBreaks", "Played", "swiss_tie_breaks", "swiss_byes"]


class Played(Protocol):
    """A finished game as the tie-breaks read it: ``GameResult`` and the store's ``GameRow`` are both."""

    @property
    def players(self) -> tuple[str, str]:
        """``(seat 0, seat 1)``."""
        ...

    def points(self, seat: int) -> float:
        """What seat ``seat`` scored: 1, 0.5 or 0."""
        ...


@dataclass(frozen=True)
class TieBreaks:
    """A player's Swiss score and tie-breaks; larger is better in each."""

    points: float
    buchholz: float
    sonneborn_berger: float

    @property
    def key(self) -> tuple[float, float, float]:
        """``(points, buchholz, sonneborn_berger)``: the Swiss order, to sort descending."""
        return self.points, self.buchholz, self.sonneborn_berger


def swiss_tie_breaks(players: Sequence[str], results: Iterable[Played], byes: Iterable[str] = (),
                     games_per_pairing: int = 1) -> dict[str, TieBreaks]:
    """Each player's points, Buchholz and Sonneborn-Berger, from the finished games and the byes.

    Points: 1 per win, 0.5 per draw, ``games_per_pairing`` per bye. Buchholz: the sum of the final
    points of every opponent met (once per pairing: each game of a pairing counts
    1/``games_per_pairing``). Sonneborn-Berger: the final points of every opponent beaten, plus half
    those of every opponent drawn (per game, likewise divided by ``games_per_pairing``). A bye adds
    nothing to either: there is no opponent.
    """
    names = check_players(players, minimum=1)
    per = _check_games(games_per_pairing)
    points = dict.fromkeys(names, 0.0)
    games: list[tuple[str, str, float]] = []
    for result in results:
        for seat, name in enumerate(result.players):
            if name not in points:
                raise TournamentError(f"{name!r} is not a player of this tournament; players are {names!r}")
            scored = result.points(seat)
            points[name] += scored
            games.append((name, result.players[1 - seat], scored))
    for name in byes:
        if name not in points:
            raise TournamentError(f"a bye for {name!r}, who is not a player of this tournament")
        points[name] += per
    # Sums of halves and quarters are exact; the one division at the end keeps equal sums equal.
    buchholz, sb = dict.fromkeys(names, 0.0), dict.fromkeys(names, 0.0)
    for name, opponent, scored in games:
        buchholz[name] += points[opponent]
        sb[name] += scored * points[opponent]
    return {name: TieBreaks(points[name], buchholz[name] / per, sb[name] / per) for name in names}


class _Seated(Protocol):
    """A scheduled game: ``ScheduledGame`` or the store's ``GameRow``."""

    round: int
    white: str
    black: str


def swiss_byes(players: Sequence[str], games: Iterable[_Seated]) -> list[str]:
    """The byes, derived from the scheduled games (``ScheduledGame`` or the store's ``GameRow``): per round
    that has games, in round order, the player with none."""
    seated: dict[int, set[str]] = defaultdict(set)
    for game in games:
        seated[game.round].update((game.white, game.black))
    return [name for number in sorted(seated) for name in players if name not in seated[number]]


class SwissStandings(Standings):
    """The standings of a Swiss: byes count as points, and ``rows()`` is ordered by points, Buchholz,
    Sonneborn-Berger (then as ``Standings`` orders); each row's ``points`` include the byes and its
    ``sonneborn_berger`` is the Swiss one. A bye is not a game: games, wins and seats leave it out.
    """

    def __init__(self, players: Sequence[str], games_per_pairing: int = 1) -> None:
        super().__init__(players)
        self._games_per_pairing = _check_games(games_per_pairing)
        self._byes: list[str] = []

    @property
    def byes(self) -> list[str]:
        """The byes added so far, in order."""
        return list(self._byes)

    def add_bye(self, player: str) -> None:
        """Count a bye of ``player`` (``games_per_pairing`` points)."""
        if player not in self.players:
            raise TournamentError(f"{player!r} is not in these standings; players are {self.players!r}")
        self._byes.append(player)

    def tie_breaks(self) -> dict[str, TieBreaks]:
        """Every player's points, Buchholz and Sonneborn-Berger so far (``swiss_tie_breaks``)."""
        return swiss_tie_breaks(self.players, self.results, self._byes, self._games_per_pairing)

    def rows(self) -> list[Row]:
        """The table, best first: points, Buchholz, Sonneborn-Berger, then the order of ``Standings.rows``;
        players equal in all of it share a rank."""
        base = super().rows()
        ties = self.tie_breaks()
        place = {row.player: i for i, row in enumerate(base)}
        ordered = sorted(base, key=lambda row: ([-v for v in ties[row.player].key], place[row.player]))
        rows: list[Row] = []
        for i, row in enumerate(ordered):
            before = ordered[i - 1] if i else None
            tied = (before is not None and ties[before.player].key == ties[row.player].key
                    and before.rank == row.rank)
            tie = ties[row.player]
            rows.append(replace(row, rank=rows[-1].rank if tied else i + 1, points=tie.points,
                                sonneborn_berger=tie.sonneborn_berger))
        return rows

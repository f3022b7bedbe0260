"""Game results and the standings table built from them: points, tie-breaks, seats, crosstable."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .bradley_terry import Rating
from .field_ratings import field_ratings

__all__ = ["REASONS", "TournamentError", "GameResult", "Row", "Standings", "check_players", "score_text"]

REASONS = ("goal", "violations", "disconnect", "step_cap", "forfeit")
"""The ways a game can end, as ``GameResult.reason`` names them."""


def score_text(winner: int | None, reason: str | None) -> str:
    """A finished game's score as the tables write it: ``1-0``, ``0-1``, ``½-½``, or ``0-0`` for a double forfeit."""
    if winner is None:
        return "0-0" if reason == "forfeit" else "½-½"
    return "1-0" if winner == 0 else "0-1"


class TournamentError(ValueError):
    """A bad player list, game result or tournament operation; the message quotes the input."""


def check_players(players: Sequence[str], minimum: int = 2) -> list[str]:
    """``players`` as a list after checking they are at least ``minimum`` distinct non-empty names."""
    if isinstance(players, str):
        raise TournamentError(f"players must be a sequence of names, not the string {players!r}")
    names = list(players)
    seen: set[str] = set()
    for name in names:
        if not isinstance(name, str) or not name:
            raise TournamentError(f"player names must be non-empty strings, got {name!r}")
        if name in seen:
            raise TournamentError(f"player names must be distinct, got {name!r} twice in {names!r}")
        seen.add(name)
    if len(names) < minimum:
        raise TournamentError(f"a tournament needs at least {minimum} players, got {len(names)}: {names!r}")
    return names


def _check_pair(value: tuple[int, int], field: str) -> None:
    if (not isinstance(value, tuple) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)):
        raise TournamentError(f"{field} must be a pair of non-negative integers (seat 0, seat 1), got {value!r}")


@dataclass(frozen=True)
class GameResult:
    """One finished game as the standings see it; seat 0 (``white``) started at (5,1) and moved first."""

    white: str
    black: str
    winner: int | None
    reason: str
    thinking_ms: tuple[int, int] = (0, 0)
    violations: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        if not isinstance(self.white, str) or not isinstance(self.black, str) or not self.white or not self.black:
            raise TournamentError(f"players must be non-empty names, got {self.white!r} and {self.black!r}")
        if self.white == self.black:
            raise TournamentError(f"a game needs two different players, got {self.white!r} twice")
        if self.winner not in (0, 1, None) or isinstance(self.winner, bool):
            raise TournamentError(f"winner must be 0, 1 or None (draw), got {self.winner!r}")
        if self.reason not in REASONS:
            raise TournamentError(f"unknown reason {self.reason!r}; expected one of {', '.join(REASONS)}")
        _check_pair(self.thinking_ms, "thinking_ms")
        _check_pair(self.violations, "violations")

    @property
    def players(self) -> tuple[str, str]:
        """``(white, black)``: the players by seat."""
        return self.white, self.black

    @property
    def double_forfeit(self) -> bool:
        """True for a game neither player came to (no winner, reason ``forfeit``): it scores for neither."""
        return self.winner is None and self.reason == "forfeit"

    def points(self, seat: int) -> float:
        """The points seat ``seat`` scored: 1 for a win, 0.5 for a draw, 0 for a loss or a double forfeit."""
        if self.winner is None:
            return 0.0 if self.double_forfeit else 0.5
        return 1.0 if self.winner == seat else 0.0


@dataclass(frozen=True)
class Row:
    """One line of the standings; ``white``/``black`` are (wins, losses, draws) in that seat."""

    rank: int
    player: str
    points: float
    games: int
    wins: int
    losses: int
    draws: int
    white: tuple[int, int, int]
    black: tuple[int, int, int]
    violations: int
    thinking_ms: int
    elo: float | None
    #: How far ``elo``'s 95% interval reaches from it on its longer side: ``elo ± elo_error`` holds the interval.
    elo_error: float | None
    sonneborn_berger: float = 0.0
    #: ``elo``'s 95% profile likelihood interval (``bradley_terry``), not symmetric around it.
    elo_low: float | None = None
    elo_high: float | None = None
    #: A final's table (``final.FinalStandings``): True when this row's rating is shown to be above the next row's,
    #: False when the two are not separated; None for the last row and other formats.
    separated: bool | None = None


class _Tally:
    """Mutable per-player counters; ``by_seat[seat]`` is [wins, losses, draws]."""

    __slots__ = ("by_seat", "violations", "thinking_ms", "opponents")

    def __init__(self) -> None:
        self.by_seat = ([0, 0, 0], [0, 0, 0])
        self.violations = 0
        self.thinking_ms = 0
        # (opponent, points scored) per game, for Sonneborn-Berger.
        self.opponents: list[tuple[str, float]] = []

    def total(self, index: int) -> int:
        return self.by_seat[0][index] + self.by_seat[1][index]

    @property
    def points(self) -> float:
        return self.total(0) + self.total(2) / 2.0


class Standings:
    """The running standings of a tournament between fixed, distinct ``players``."""

    def __init__(self, players: Sequence[str]) -> None:
        self._players = check_players(players, minimum=1)
        self._tally = {name: _Tally() for name in self._players}
        self._results: list[GameResult] = []
        self._ratings: tuple[int, dict[str, Rating]] = (-1, {})

    @property
    def players(self) -> list[str]:
        """The players in the order given."""
        return list(self._players)

    @property
    def games_done(self) -> int:
        """How many results have been added."""
        return len(self._results)

    @property
    def results(self) -> tuple[GameResult, ...]:
        """Every result added, in order."""
        return tuple(self._results)

    def add(self, result: GameResult) -> None:
        """Count one finished game; both players must be in the standings."""
        for name in result.players:
            if name not in self._tally:
                raise TournamentError(f"{name!r} is not in these standings; players are {self._players!r}")
        for seat, name in enumerate(result.players):
            tally = self._tally[name]
            points = result.points(seat)
            outcome = {1.0: 0, 0.0: 1, 0.5: 2}[points]
            tally.by_seat[seat][outcome] += 1
            tally.violations += result.violations[seat]
            tally.thinking_ms += result.thinking_ms[seat]
            tally.opponents.append((result.players[1 - seat], points))
        self._results.append(result)

    def ratings(self) -> dict[str, Rating]:
        """Each player's finite Bradley-Terry rating with its 95% interval (``field_ratings``), cached per game count."""
        if self._ratings[0] != len(self._results):
            # A double forfeit (no point for either) was never played: it says nothing of either player's strength.
            games = [(r.white, r.black, r.points(0)) for r in self._results if r.points(0) + r.points(1) > 0]
            self._ratings = (len(self._results), field_ratings(self._players, games))
        return self._ratings[1]

    def rows(self) -> list[Row]:
        """The table, best first: by points, wins, Sonneborn-Berger, fewer violations, less thinking
        time, then name. Players equal on all but the name share a rank (1, 1, 3). ``elo`` is the finite
        Bradley-Terry rating, ``elo_low``..``elo_high`` its 95% interval and ``elo_error`` its margin (``ratings``)."""
        rated = self.ratings()
        points = {name: tally.points for name, tally in self._tally.items()}
        unranked = []
        for name, tally in self._tally.items():
            # Sonneborn-Berger: the final points of every opponent, weighted by the score against it.
            sb = sum(scored * points[opponent] for opponent, scored in tally.opponents)
            key = (-points[name], -tally.total(0), -sb, tally.violations, tally.thinking_ms)
            unranked.append((key, name, tally, sb))
        unranked.sort(key=lambda item: (item[0], item[1]))
        rows: list[Row] = []
        for position, (key, name, tally, sb) in enumerate(unranked):
            rank = rows[-1].rank if position and unranked[position - 1][0] == key else position + 1
            wins, losses, draws = tally.total(0), tally.total(1), tally.total(2)
            elo = rated.get(name)
            rows.append(Row(
                rank=rank, player=name, points=points[name], games=wins + losses + draws,
                wins=wins, losses=losses, draws=draws,
                white=tuple(tally.by_seat[0]), black=tuple(tally.by_seat[1]),  # type: ignore[arg-type]
                violations=tally.violations, thinking_ms=tally.thinking_ms,
                elo=None if elo is None else elo.rating, elo_error=None if elo is None else elo.margin,
                sonneborn_berger=sb, elo_low=None if elo is None else elo.low, elo_high=None if elo is None else elo.high,
            ))
        return rows

    def crosstable(self) -> dict[str, dict[str, tuple[float, int]]]:
        """``table[row][column]``: (points the row player scored against the column player, games).

        Every player appears as a row and, except itself, as a column; unplayed pairs are (0.0, 0).
        """
        table = {a: {b: (0.0, 0) for b in self._players if b != a} for a in self._players}
        for name, tally in self._tally.items():
            for opponent, scored in tally.opponents:
                points, games = table[name][opponent]
                table[name][opponent] = (points + scored, games + 1)
        return table

"""A local run's results, merged game by game in the process that runs it: per bot, per pairing, per pair.

``RunResults.add`` takes each ``PlayedGame`` as it comes back (from this process or a worker, in
any order): it counts the game in both bots' tallies and in its pairing's W/L/D, and once both
games of a pair are in, the pair's pentanomial class (``shared.tournament.pentanomial``), as
fastchess's scoreboard does. ``encounters`` hands the pairs (and any game left without its
partner) to the Bradley-Terry rating (``shared.tournament.bradley_terry``); ``matrix`` is the
win-rate table of poke-env's ``cross_evaluate``; ``report`` is everything as plain data, for
``--json``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shared.quoridor import step_name
from shared.referee import RefereeSettings
from shared.tournament.bot_analysis import BotAnalysis
from shared.tournament.bradley_terry import Encounter, Rating
from shared.tournament.pentanomial import Pentanomial, pentanomial_elo
from shared.tournament.sprt import Sprt, SprtVerdict

from .match import MatchTally, PlayedGame, tally_game, wilson_interval
from .match_plan import Lineup

__all__ = ["PairingRecord", "GameSummary", "SprtState", "RunResults", "REPORT_FORMAT"]

#: The ``format`` of ``RunResults.report``.
REPORT_FORMAT = "quoridor-match/1"


@dataclass
class PairingRecord:
    """One pairing's results for its first bot: W/L/D over all its games, and the completed pairs."""

    first: int
    second: int
    wins: int = 0
    losses: int = 0
    draws: int = 0
    pentanomial: Pentanomial = field(default_factory=Pentanomial)
    #: The first bot's score in the game of each pair whose partner game is not in yet, by pair number.
    waiting: dict[int, float] = field(default_factory=dict)
    #: The first bot's points in each completed pair, in the order they completed.
    pair_points: list[float] = field(default_factory=list)

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float | None:
        """The first bot's points per game (``None`` before any game)."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else None

    def add(self, pair: int, score: float) -> Pentanomial | None:
        """Count a game the first bot scored ``score`` in; the pair's class if this game completed its pair."""
        if score == 1.0:
            self.wins += 1
        elif score == 0.0:
            self.losses += 1
        else:
            self.draws += 1
        partner = self.waiting.pop(pair, None)
        if partner is None:
            self.waiting[pair] = score
            return None
        completed = Pentanomial.of_pair(partner, score)
        self.pentanomial = self.pentanomial + completed
        self.pair_points.append(partner + score)
        return completed


@dataclass(frozen=True)
class GameSummary:
    """One finished game as the report lists it."""

    number: int
    pairing: tuple[str, str]
    pair: int
    players: tuple[str, str]
    opening: tuple[str, ...]
    winner: str | None
    reason: str
    violations: tuple[int, int]
    thinking_ms: tuple[int, int]
    steps: int
    log: str | None
    #: The bots' labels by seat (``players`` are the names they played under).
    seats: tuple[str, str] = ("", "")


@dataclass(frozen=True)
class SprtState:
    """Where a sequential test stands: its settings, the LLR after the pairs so far, and the verdict."""

    test: Sprt
    llr: float = 0.0
    pairs: int = 0
    verdict: SprtVerdict = SprtVerdict.CONTINUE


class RunResults:
    """Everything a run has played so far (see the module docstring)."""

    def __init__(self, lineup: Lineup, pairings: list[tuple[int, int]]) -> None:
        self.lineup = lineup
        self.tallies = [MatchTally(label) for label in lineup.labels]
        self.pairings = {pairing: PairingRecord(*pairing) for pairing in pairings}
        self.games: list[GameSummary] = []

    def add(self, played: PlayedGame, log: str | None = None) -> Pentanomial | None:
        """Count a finished game (``log``: its log file's name); the pair's class if it completed a pair."""
        job, game = played.job, played.game
        tally_game(game, job.seats, self.tallies)
        winner = game.outcome.winner
        first_seat = 1 if job.swapped else 0
        score = 0.5 if winner is None else 1.0 if winner == first_seat else 0.0
        labels = self.lineup.labels
        self.games.append(GameSummary(
            job.number, (labels[job.pairing[0]], labels[job.pairing[1]]), job.pair, game.players,
            tuple(step_name(step) for step in job.opening), None if winner is None else game.players[winner],
            game.outcome.reason, game.outcome.violations, game.outcome.thinking_ms, len(game.records), log,
            (labels[job.seats[0]], labels[job.seats[1]])))
        return self.pairings[job.pairing].add(job.pair, score)

    @property
    def played(self) -> int:
        """Games counted so far."""
        return len(self.games)

    def encounters(self) -> list[Encounter]:
        """Every completed pair as a two-game encounter, and every game still without its partner as one game."""
        labels = self.lineup.labels
        result = []
        for record in self.pairings.values():
            first, second = labels[record.first], labels[record.second]
            result += [Encounter(first, second, 2, points) for points in record.pair_points]
            result += [Encounter(first, second, 1, score) for score in record.waiting.values()]
        return result

    def matrix(self) -> dict[str, dict[str, float | None]]:
        """``matrix[a][b]``: ``a``'s points per game against ``b`` (``None`` on the diagonal and for bots that never met)."""
        labels = self.lineup.labels
        result: dict[str, dict[str, float | None]] = {a: {b: None for b in labels} for a in labels}
        for record in self.pairings.values():
            score = record.score
            if score is not None:
                result[labels[record.first]][labels[record.second]] = score
                result[labels[record.second]][labels[record.first]] = 1.0 - score
        return result

    def report(self, *, settings: RefereeSettings, seed: int, opening_plies: int, mode: str, opening_walls: bool = True,
               ratings: list[Rating] | None = None, sprt: SprtState | None = None,
               interrupted: bool = False, analyses: dict[str, BotAnalysis] | None = None) -> dict[str, Any]:
        """All the results as plain data (JSON-ready): settings, bots, pairings, ratings, the matrix, every game;
        with ``analyses`` (``--analyse``), each bot's ``analysis``: its accuracy and the worst steps of its lost
        games, each with its log and ply."""
        labels = self.lineup.labels
        bots = []
        for index, tally in enumerate(self.tallies):
            low, high = wilson_interval(tally.score, tally.games)
            bots.append({"bot": tally.label, "spec": self.lineup.specs[index], "games": tally.games,
                         "wins": tally.wins, "losses": tally.losses, "draws": tally.draws,
                         "score": tally.score, "score_interval": [low, high], "violations": tally.violations,
                         "violations_by_cause": dict(tally.causes), "first_reasons": dict(tally.first_reasons),
                         "errors": tally.errors, "thinking_ms": tally.thinking_ms, "steps": tally.steps})
        if analyses is not None:
            for entry in bots:
                found = analyses.get(entry["bot"])
                entry["analysis"] = None if found is None else found.to_json()
        for rating in ratings or []:
            entry = bots[labels.index(rating.player)]
            entry["rating"] = rating.rating
            entry["rating_interval"] = None if rating.low is None else [rating.low, rating.high]
        pairings = []
        for record in self.pairings.values():
            entry: dict[str, Any] = {
                "bots": [labels[record.first], labels[record.second]], "games": record.games,
                "wins": record.wins, "losses": record.losses, "draws": record.draws, "score": record.score,
                "pairs": record.pentanomial.pairs, "pentanomial": list(record.pentanomial.counts),
                "pentanomial_wl_dd": [record.pentanomial.wl, record.pentanomial.dd]}
            if record.pentanomial.pairs:
                elo = pentanomial_elo(record.pentanomial)
                entry["elo"] = {"elo": _finite(elo.elo), "error": elo.error, "nelo": elo.nelo,
                                "nelo_error": elo.nelo_error, "los": elo.los}
            pairings.append(entry)
        result: dict[str, Any] = {
            "format": REPORT_FORMAT, "mode": mode, "interrupted": interrupted, "seed": seed,
            "opening_plies": opening_plies, "opening_walls": opening_walls,
            "settings": {"ruleset": settings.ruleset.name, "time_limit_ms": settings.time_limit_ms,
                         "step_cap": settings.step_cap, "violations_to_lose": settings.violations_to_lose},
            "bots": bots, "pairings": pairings, "matrix": self.matrix(),
            "games": [_game(summary) for summary in sorted(self.games, key=lambda g: g.number)],
        }
        if sprt is not None:
            test = sprt.test
            result["sprt"] = {"elo0": test.elo0, "elo1": test.elo1, "alpha": test.alpha, "beta": test.beta,
                              "model": test.model.value, "llr": sprt.llr, "lower": test.lower, "upper": test.upper,
                              "pairs": sprt.pairs, "verdict": sprt.verdict.value}
        return result


def _finite(value: float) -> float | str:
    """A number for JSON, which has no infinity: ``"inf"``/``"-inf"`` spelled out."""
    return value if abs(value) != float("inf") else ("inf" if value > 0 else "-inf")


def _game(summary: GameSummary) -> dict[str, Any]:
    return {"number": summary.number + 1, "pairing": list(summary.pairing), "pair": summary.pair + 1,
            "players": list(summary.players), "opening": list(summary.opening), "winner": summary.winner,
            "reason": summary.reason, "violations": list(summary.violations),
            "thinking_ms": list(summary.thinking_ms), "steps": summary.steps, "log": summary.log}


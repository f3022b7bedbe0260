"""A bot's analysis over many games: its accuracy, and the worst steps of the games it lost, linked to their positions.

Pure: the callers (``quoridor-match --analyse``'s JSON, the ladder's ``--report``) read or make each game's
``GameAnalysis`` (``shared.analysis``) and hand them in as ``AnalysedGame``s with a link of their own choosing
to the game (a log's path, or a page's address); ``bot_analyses`` sums them up per bot.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from shared.analysis import LABELS, GameAnalysis

__all__ = ["AnalysedGame", "LostStep", "BotAnalysis", "bot_analyses", "WORST_LOST_STEPS", "COUNTED"]

#: How many of a bot's worst steps in its lost games are kept, worst first.
WORST_LOST_STEPS = 5
#: What a bot's steps are counted by: the analysis's labels, and the violations (a timeout, an illegal step).
COUNTED = (*LABELS, "violation")


@dataclass(frozen=True)
class AnalysedGame:
    """One analysed game: its id, players by seat, winner (None: a draw), the analysis, and where to see it."""

    game: str
    players: tuple[str, str]
    winner: int | None
    analysis: GameAnalysis
    #: The game's log file, as the report names it (``replays/…/game003_a_vs_b.csv``); None when there is none.
    log: str | None = None
    #: The page of the game (``/game?game=ID``), for reports the pages read; ``&step=PLY`` is added per step.
    page: str | None = None


@dataclass(frozen=True)
class LostStep:
    """One of a bot's worst steps in a game it lost, and where to see it (the log and ply, or the page at it)."""

    game: str
    ply: int
    played: str
    best: str | None
    drop: float
    label: str
    reason: str | None
    log: str | None = None
    page: str | None = None

    def to_json(self) -> dict[str, Any]:
        """A plain dict for ``--json``."""
        return {"game": self.game, "ply": self.ply, "played": self.played, "best": self.best,
                "drop": round(self.drop, 3), "label": self.label, "reason": self.reason, "log": self.log,
                "page": self.page}


@dataclass(frozen=True)
class BotAnalysis:
    """A bot's analysed games: their mean accuracy, its steps counted by label, and its worst steps in lost games."""

    bot: str
    games: int
    #: The mean of its per-game accuracies (0..100; ``shared.analysis``'s formula); None before any game.
    accuracy: float | None
    counts: dict[str, int] = field(default_factory=dict)
    lost: int = 0
    worst_lost: tuple[LostStep, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """A plain dict for ``--json``."""
        return {"games_analysed": self.games,
                "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
                "counts": dict(self.counts), "lost_games_analysed": self.lost,
                "worst_lost_steps": [step.to_json() for step in self.worst_lost]}


def bot_analyses(games: Iterable[AnalysedGame], bots: Iterable[str] | None = None, *,
                 worst: int = WORST_LOST_STEPS) -> dict[str, BotAnalysis]:
    """Each bot's ``BotAnalysis`` over ``games`` (every bot that played, or just ``bots``, each present even
    without games); a lost game's steps count among the worst when the analysis labelled them."""
    accuracies: dict[str, list[float]] = {}
    counts: dict[str, dict[str, int]] = {}
    lost: dict[str, int] = {}
    steps: dict[str, list[LostStep]] = {}
    for name in bots or ():
        accuracies[name], counts[name], lost[name], steps[name] = [], dict.fromkeys(COUNTED, 0), 0, []
    wanted = None if bots is None else set(accuracies)
    for game in games:
        plies = {ply.ply: ply for ply in game.analysis.plies}
        for seat, name in enumerate(game.players):
            if wanted is not None and name not in wanted:
                continue
            summary = game.analysis.players[seat]
            accuracies.setdefault(name, []).append(summary.accuracy)
            tally = counts.setdefault(name, dict.fromkeys(COUNTED, 0))
            for label in COUNTED:
                tally[label] += summary.counts.get(label, 0)
            lost.setdefault(name, 0)
            found = steps.setdefault(name, [])
            if game.winner is None or game.winner == seat:
                continue
            lost[name] += 1
            for number in summary.worst:
                ply = plies.get(number)
                if ply is None or ply.label is None:
                    continue
                page = None if game.page is None else f"{game.page}&step={ply.ply}"
                found.append(LostStep(game.game, ply.ply, ply.played, ply.best, ply.drop, ply.label, ply.reason,
                                      game.log, page))
    result = {}
    for name, values in accuracies.items():
        ordered = sorted(steps[name], key=lambda s: (-s.drop, s.game, s.ply))
        result[name] = BotAnalysis(name, len(values), sum(values) / len(values) if values else None, counts[name],
                                   lost[name], tuple(ordered[:worst]))
    return result

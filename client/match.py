"""The local match: bots play each other in one process, refereed by the server's own referee.

``play_game`` plays one game between two ``BotDriver``s with ``shared.referee.local.play_local_game``
(``time.perf_counter`` as the clock unless told otherwise); ``play_match`` loads two bot specs and
plays a series, colours alternating, tallying each bot's results and writing every game's log
(the same CSV the server writes). ``quoridor-match`` (``client.match_cli``) is its command line;
the bot benchmarks and tests call ``play_game`` directly.
"""

from __future__ import annotations

import math
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from shared.gamelog import GameHeader, GameLog
from shared.quoridor import Step
from shared.referee import RefereeEvent, RefereeSettings, TurnRequest
from shared.referee.local import LocalGame, play_local_game

from .driver import BotDriver, BotProblem, ProblemKind
from .loader import bot_label, load_bot, resolve_spec
from .logfiles import write_log_atomic
from .notices import Notice, Say, Tone, say_plain

__all__ = ["MatchTally", "match_labels", "play_game", "play_match", "wilson_interval", "TRACEBACKS_SHOWN"]

#: Tracebacks printed per bot and match: a bot that raises on every turn would flood the terminal. A
#: failure from another line of the bot is still shown; repeats are counted and told once at the end.
TRACEBACKS_SHOWN = 3


def wilson_interval(score: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval of a win rate ``score`` (0..1) over ``n`` games."""
    if n == 0:
        return 0.0, 1.0
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class MatchTally:
    """Results of one bot over a match."""

    label: str
    wins: int = 0
    losses: int = 0
    draws: int = 0
    violations: int = 0
    steps: int = 0
    thinking_ms: int = 0
    #: Failures of the bot's hooks (``BotProblem``s), each answered as the driver does.
    errors: int = 0
    reasons: dict[str, int] = field(default_factory=dict)

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        """Points per game (a draw is half a point)."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0


def play_game(drivers: tuple[BotDriver, BotDriver], names: tuple[str, str], settings: RefereeSettings,
              clock: Callable[[], float] = time.perf_counter,
              on_event: Callable[[RefereeEvent], None] | None = None) -> LocalGame:
    """One refereed game, ``drivers`` and ``names`` seat 0 first: each bot is told the limit, begins, plays, ends."""
    for seat, driver in enumerate(drivers):
        driver.tell_time_limit(settings.time_limit_ms)
        driver.begin_game(seat, settings.ruleset)

    def ask(seat: int, request: TurnRequest) -> Step:
        return drivers[seat].ask_now(request.change, request.walls_left, request.time_limit_ms)

    game = play_local_game(names, ask, clock, settings, on_event)
    for driver in drivers:
        driver.end_game()
    return game


def match_labels(specs: tuple[str, str]) -> tuple[str, str]:
    """The two bots' names in a match: their spec labels, ``#1``/``#2`` added when they are the same."""
    labels = (bot_label(specs[0]), bot_label(specs[1]))
    return (labels[0] + "#1", labels[1] + "#2") if labels[0] == labels[1] else labels


def play_match(specs: tuple[str, str], games: int, settings: RefereeSettings, *, log_dir: Path | None,
               say: Say = say_plain, on_game: Callable[[int, LocalGame], None] | None = None,
               ) -> tuple[MatchTally, MatchTally, list[LocalGame]]:
    """Play ``games`` games between two bot specs, colours alternating; returns both tallies and the games.

    A bot's failures are told to ``say`` (tracebacks for the first ``TRACEBACKS_SHOWN``, and for
    each new place in the bot's code; the repeats are counted and told after the last game);
    ``on_game`` hears each game's number (from 0) once it is played and its log written.
    """
    specs = (resolve_spec(specs[0]), resolve_spec(specs[1]))
    labels = match_labels(specs)
    tallies = (MatchTally(labels[0]), MatchTally(labels[1]))
    played: list[LocalGame] = []
    tellers = tuple(_ProblemTeller(tally, say) for tally in tallies)
    drivers = tuple(BotDriver(load_bot(spec, label), teller.told) for spec, label, teller
                    in zip(specs, labels, tellers))
    try:
        for number in range(games):
            order = (0, 1) if number % 2 == 0 else (1, 0)      # who takes seat 0
            game = play_game((drivers[order[0]], drivers[order[1]]), (labels[order[0]], labels[order[1]]), settings)
            played.append(game)
            _tally(game, order, tallies)
            if log_dir is not None:
                _write_log(log_dir / f"game{number + 1:03d}_{labels[order[0]]}_vs_{labels[order[1]]}.csv",
                           game, settings)
            if on_game is not None:
                on_game(number, game)
    finally:
        for driver in drivers:
            driver.close()
        for teller in tellers:
            teller.tell_repeats()
    return tallies[0], tallies[1], played


class _ProblemTeller:
    """Counts a bot's problems in its tally and tells them: each with the bot's traceback while few have been
    shown or it comes from a new place in the bot's code, else counted and told once by ``tell_repeats``."""

    def __init__(self, tally: MatchTally, say: Say) -> None:
        self.tally = tally
        self.say = say
        self.shown = 0
        self.places: set[tuple[str, str, str, int | None]] = set()
        self.repeats: dict[tuple[str, str, str, int | None], tuple[str, int]] = {}

    def told(self, problem: BotProblem) -> None:
        """One failure of the bot's hook (the driver has answered for it)."""
        self.tally.errors += 1
        label = self.tally.label
        if problem.kind is not ProblemKind.RAISED:
            self.say(Notice.of((f"{label}: {problem.message}", Tone.BAD)))
            return
        place = _place(problem)
        if self.shown < TRACEBACKS_SHOWN or place not in self.places:
            self.shown += 1
            self.places.add(place)
            self.say(Notice.of((f"{label}: {problem.message}", Tone.BAD), "\n" + problem.traceback))
            return
        message, count = self.repeats.get(place, (problem.message, 0))
        self.repeats[place] = (message, count + 1)

    def tell_repeats(self) -> None:
        """Tell how many failures were only counted, one line per place in the bot's code."""
        for message, count in self.repeats.values():
            self.say(Notice.of((f"{self.tally.label}: {message} — and {count} more {'time' if count == 1 else 'times'}"
                                " (tracebacks not shown)", Tone.BAD)))
        self.repeats.clear()


def _place(problem: BotProblem) -> tuple[str, str, str, int | None]:
    """Where a raised problem comes from: the hook, the exception's type, and the innermost frame's file and line."""
    error = problem.error
    frames = traceback.extract_tb(error.__traceback__) if error is not None else []
    last = frames[-1] if frames else None
    return (problem.hook, type(error).__name__, last.filename if last else "", last.lineno if last else None)


def _tally(game: LocalGame, order: tuple[int, int], tallies: tuple[MatchTally, MatchTally]) -> None:
    outcome = game.outcome
    for seat, index in enumerate(order):
        tally = tallies[index]
        if outcome.winner is None:
            tally.draws += 1
        elif outcome.winner == seat:
            tally.wins += 1
        else:
            tally.losses += 1
        tally.violations += outcome.violations[seat]
        tally.thinking_ms += outcome.thinking_ms[seat]
        tally.steps += sum(1 for r in game.records if r.player == game.players[seat])
        tally.reasons[outcome.reason] = tally.reasons.get(outcome.reason, 0) + 1


def _write_log(path: Path, game: LocalGame, settings: RefereeSettings) -> None:
    """Write a finished game's log (temporary file, then rename: never a half file)."""
    header = GameHeader(players=game.players, ruleset=settings.ruleset.name,
                        started=datetime.now(UTC).isoformat(timespec="seconds"))
    write_log_atomic(path, GameLog(header, game.records, game.outcome, []))


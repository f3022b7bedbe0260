"""The local match: bots play each other on one machine, refereed by the server's own referee.

``play_game`` plays one game between two ``BotDriver``s with ``shared.referee.local.play_local_game``
(``time.perf_counter`` as the clock unless told otherwise), from the initial position or after an
opening. ``run_games`` plays a run's ``GameJob``s (``client.match_plan``) one after the other in
this process, or several at once in worker processes (``-j``), each worker loading the bots from
their specs; every finished game comes back to the caller in this process, as a ``PlayedGame``.
``play_match`` is the two-bot series on top of it: colours alternating, each bot's results
tallied, every game's log written (the same CSV the server writes). ``quoridor-match``
(``client.match_cli``) is the command line; the bot benchmarks and tests call ``play_game``.

An opening's plies are played *for* the bots by the referee (``GameReferee``'s ``opening``): it
judges and records them like any step (the log shows them as the seats' first rows, 0 ms each),
and each bot hears its own opening turns (``StepJudged.opening_turn``) through its ``observe`` and
``step_sent`` hooks (``BotDriver.hear``), without ``next_step`` being called, so a ``Player``'s
board (``BoardTracker``) holds the opening's walls and pawns when its first real turn comes. A
bot that keeps its own board from ``next_step``'s changes alone learns only what that
first change says (both pawns, the opponent's last wall).
"""

from __future__ import annotations

import atexit
import math
import multiprocessing
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import islice
from pathlib import Path

from shared.gamelog import GameHeader, GameLog
from shared.quoridor import Step
from shared.referee import RefereeEvent, RefereeSettings, StepJudged, TurnRequest
from shared.referee.local import LocalGame, play_local_game

from .driver import BotDriver, BotFailure, BotProblem, ProblemKind
from .loader import BotCrashed, load_bot
from .logfiles import write_log_atomic
from .match_plan import GameJob, Lineup, bot_labels, schedule
from .process_bot import ProcessBot, local_game_over, welcome_for
from .notices import Notice, Say, Tone, say_plain

__all__ = [
    "MatchTally", "ProblemReport", "ProblemTeller", "PlayedGame", "BotRoster", "match_labels", "play_game",
    "play_match", "run_games", "tally_game", "game_log_name", "write_game_log", "wilson_interval",
    "TRACEBACKS_SHOWN", "StopSignal", "sigterm_interrupts",
]

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
    #: The bot's violations by cause (``not_reachable``, ``late``, ...), in the order first seen.
    causes: dict[str, int] = field(default_factory=dict)
    #: For each cause, the first such violation: ``turn N: its reason``.
    first_reasons: dict[str, str] = field(default_factory=dict)

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        """Points per game (a draw is half a point)."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0


# -- one game -----------------------------------------------------------------------------------
def play_game(drivers: tuple[BotDriver, BotDriver], names: tuple[str, str], settings: RefereeSettings,
              clock: Callable[[], float] = time.perf_counter,
              on_event: Callable[[RefereeEvent], None] | None = None,
              opening: Sequence[Step] = ()) -> LocalGame:
    """One refereed game, ``drivers`` and ``names`` seat 0 first: each bot is told the limit, begins, plays, ends.

    The game starts from ``opening``'s plies, played by the referee (see the module docstring for what
    the bots hear of them); ``RefereeError`` (``bad_opening``) when one is illegal.
    """
    for seat, driver in enumerate(drivers):
        driver.tell_time_limit(settings.time_limit_ms)
        if isinstance(driver.bot, ProcessBot):         # its game_start names the opponent, as a server's does
            driver.bot.meet(names[1 - seat])
        driver.begin_game(seat, settings.ruleset)

    def ask(seat: int, request: TurnRequest) -> Step:
        return drivers[seat].ask_now(request.change, request.walls_left, request.time_limit_ms, request.judgement)

    def heard(event: RefereeEvent) -> None:
        if isinstance(event, StepJudged) and event.opening_turn is not None:
            turn = event.opening_turn
            drivers[event.seat].hear(turn.change, turn.walls_left, event.record.step)
        if on_event is not None:
            on_event(event)

    game = play_local_game(names, ask, clock, settings, heard, opening)
    for seat, driver in enumerate(drivers):
        if isinstance(driver.bot, ProcessBot):         # its process hears how the game ended, as from a server
            try:
                driver.bot.game_over(local_game_over(game.final, names, seat))
            except BotFailure:
                pass                                   # its game is over: the next one starts it again
        driver.end_game()
    return game


def match_labels(specs: Sequence[str]) -> tuple[str, ...]:
    """The bots' names in a match: their spec labels, ``#1``/``#2`` added when they are the same."""
    return bot_labels(specs)


# -- a bot's failures ---------------------------------------------------------------------------
#: Where a raised problem comes from: the hook, the exception's type, the innermost frame's file and line.
Place = tuple[str, str, str, int | None]


@dataclass(frozen=True)
class ProblemReport:
    """One failure of a bot's hook as the process running the match hears of it (no exception object:
    it crosses from a worker process)."""

    label: str
    kind: ProblemKind
    message: str
    traceback: str
    place: Place

    @classmethod
    def of(cls, label: str, problem: BotProblem) -> ProblemReport:
        """The report of ``problem``, a failure of the bot playing as ``label``."""
        return cls(label, problem.kind, problem.message, problem.traceback, _place(problem))


class ProblemTeller:
    """Counts a bot's problems in its tally and tells them: each with the bot's traceback while few have been
    shown or it comes from a new place in the bot's code, else counted and told once by ``tell_repeats``."""

    def __init__(self, tally: MatchTally, say: Say) -> None:
        self.tally = tally
        self.say = say
        self.shown = 0
        self.places: set[Place] = set()
        self.repeats: dict[Place, tuple[str, int]] = {}

    def told(self, problem: ProblemReport) -> None:
        """One failure of the bot's hook (the driver has answered for it)."""
        self.tally.errors += 1
        label = self.tally.label
        if problem.kind is not ProblemKind.RAISED:
            self.say(Notice.of((f"{label}: {problem.message}", Tone.BAD)))
            return
        place = problem.place
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


def _place(problem: BotProblem) -> Place:
    """Where a raised problem comes from: the hook, the exception's type, and the innermost frame's file and line."""
    error = problem.error
    frames = traceback.extract_tb(error.__traceback__) if error is not None else []
    last = frames[-1] if frames else None
    return (problem.hook, type(error).__name__, last.filename if last else "", last.lineno if last else None)


# -- playing a run's games ----------------------------------------------------------------------
@dataclass(frozen=True)
class PlayedGame:
    """A job's finished game, and its bots' failures during it (in the order they happened)."""

    job: GameJob
    game: LocalGame
    problems: tuple[ProblemReport, ...] = ()


class BotRoster:
    """The bots of a lineup, each created once (when first needed) and played through its own ``BotDriver``.

    A bot plays all its games through the same object, as on a server (``restart`` between them); a C++ or
    executable bot, one process (``ProcessBot``), told the run's rules when it is created.
    ``close`` ends the drivers (the event loop of an ``async`` bot) and the bots' processes.
    """

    def __init__(self, lineup: Lineup, settings: RefereeSettings,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.lineup = lineup
        self.settings = settings
        self.clock = clock
        self._drivers: dict[int, BotDriver] = {}
        self._problems: list[ProblemReport] = []

    def driver(self, index: int) -> BotDriver:
        """The driver of bot ``index`` (loaded now if it is its first game; ``BotLoadError`` if it cannot be)."""
        if index not in self._drivers:
            label = self.lineup.labels[index]
            bot = load_bot(self.lineup.specs[index], label)
            if isinstance(bot, ProcessBot):
                try:
                    bot.welcome(welcome_for(label, self.settings))
                except BotFailure as exc:
                    bot.close()
                    raise BotCrashed(f"{label}: {exc}") from None
            self._drivers[index] = BotDriver(bot, lambda problem: self._problems.append(ProblemReport.of(label, problem)))
        return self._drivers[index]

    def play(self, job: GameJob) -> PlayedGame:
        """Play ``job``'s game."""
        seats = job.seats
        drivers = (self.driver(seats[0]), self.driver(seats[1]))
        self._problems = []
        names = (self.lineup.labels[seats[0]], self.lineup.labels[seats[1]])
        game = play_game(drivers, names, self.settings, self.clock, opening=job.opening)
        return PlayedGame(job, game, tuple(self._problems))

    def close(self) -> None:
        """Close every driver and end every bot's process; safe to call twice."""
        for driver in self._drivers.values():
            driver.close()
            if isinstance(driver.bot, ProcessBot):
                driver.bot.close()
        self._drivers.clear()


#: The worker process's roster (``_start_worker`` sets it; one per process).
_worker_roster: BotRoster | None = None


def _start_worker(lineup: Lineup, settings: RefereeSettings) -> None:
    """A worker process begins: Ctrl-C is the parent's to handle (it stops the workers), bots load on demand."""
    global _worker_roster
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_roster = BotRoster(lineup, settings)
    atexit.register(_worker_roster.close)


def _play_in_worker(job: GameJob) -> PlayedGame:
    """Play ``job`` in this worker process, with its bots."""
    if _worker_roster is None:   # pragma: no cover - the pool's initializer always runs first
        raise RuntimeError("a worker played a game before it was started")
    return _worker_roster.play(job)


#: Told each finished game in the calling process; returns False to stop the run.
OnPlayed = Callable[[PlayedGame], bool]


def run_games(lineup: Lineup, settings: RefereeSettings, jobs: Iterable[GameJob], on_played: OnPlayed, *,
              workers: int = 1) -> bool:
    """Play ``jobs`` in order, ``workers`` games at once; ``on_played`` hears each game as it finishes.

    With one worker the games are played in this process, one after the other; with more, each
    in a worker process (started afresh, the bots loaded there from their specs), and
    ``on_played`` hears them in the order they finish. Returns True when every job was played,
    False when ``on_played`` stopped the run: games still being played are then abandoned (their
    workers are stopped). On Ctrl-C (``KeyboardInterrupt``) the workers are stopped likewise and
    the interrupt goes on to the caller; so does an exception raised in a worker.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers!r}")
    if workers == 1:
        roster = BotRoster(lineup, settings)
        try:
            for job in jobs:
                if not on_played(roster.play(job)):
                    return False
            return True
        finally:
            roster.close()
    return _run_in_processes(lineup, settings, iter(jobs), on_played, workers)


def _run_in_processes(lineup: Lineup, settings: RefereeSettings, jobs: Iterable[GameJob], on_played: OnPlayed,
                      workers: int) -> bool:
    ours_before = set(multiprocessing.active_children())
    # "spawn": a fresh interpreter per worker, never a fork of this process and its threads (the progress bar's).
    executor = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_start_worker, initargs=(lineup, settings))
    pending: set[Future[PlayedGame]] = set()
    completed = False
    try:
        while True:
            for job in islice(jobs, workers - len(pending)):
                pending.add(executor.submit(_play_in_worker, job))
            if not pending:
                completed = True
                return True
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: f.result().job.number):
                if not on_played(future.result()):
                    return False
    finally:
        if completed:
            executor.shutdown(wait=True)
        else:
            executor.shutdown(wait=False, cancel_futures=True)
            _stop_children(ours_before)


def _stop_children(ours_before: set[multiprocessing.process.BaseProcess], within_s: float = 5.0) -> None:
    """Terminate and join the child processes started since ``ours_before`` was taken.

    The pool's manager thread may still be starting a worker as the run stops: those are looked for
    again until none is left (for up to ``within_s``).
    """
    until = time.monotonic() + within_s
    while (children := set(multiprocessing.active_children()) - ours_before) and time.monotonic() < until:
        for process in children:
            process.terminate()
        for process in children:
            process.join(max(0.0, until - time.monotonic()))
        time.sleep(0.01)


# -- tallies and logs ---------------------------------------------------------------------------
def tally_game(game: LocalGame, seats: tuple[int, int], tallies: Sequence[MatchTally]) -> None:
    """Count a finished game in the tallies of the bots in seat 0 and seat 1 (``seats``: indices into ``tallies``)."""
    outcome = game.outcome
    for seat, index in enumerate(seats):
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
        for record, cause in zip(game.records, game.causes):
            if cause is not None and record.player == game.players[seat]:
                tally.causes[str(cause)] = tally.causes.get(str(cause), 0) + 1
                tally.first_reasons.setdefault(str(cause), f"turn {record.turn}: {record.reason}")


def game_log_name(job: GameJob, game: LocalGame) -> str:
    """The file name of a game's log: ``game<number>_<seat 0>_vs_<seat 1>.csv`` (numbered from 1)."""
    return f"game{job.number + 1:03d}_{game.players[0]}_vs_{game.players[1]}.csv"


def write_game_log(path: Path, game: LocalGame, settings: RefereeSettings) -> None:
    """Write a finished game's log (temporary file, then rename: never a half file)."""
    header = GameHeader(players=game.players, ruleset=settings.ruleset.name,
                        started=datetime.now(UTC).isoformat(timespec="seconds"))
    write_log_atomic(path, GameLog(header, game.records, game.outcome, []))


def play_match(specs: tuple[str, str], games: int, settings: RefereeSettings, *, log_dir: Path | None,
               say: Say = say_plain, on_game: Callable[[int, LocalGame], None] | None = None,
               ) -> tuple[MatchTally, MatchTally, list[LocalGame]]:
    """Play ``games`` games between two bot specs, colours alternating; returns both tallies and the games.

    A bot's failures are told to ``say`` after each game (tracebacks for the first
    ``TRACEBACKS_SHOWN``, and for each new place in the bot's code; the repeats are counted and
    told after the last game); ``on_game`` hears each game's number (from 0) once it is played
    and its log written.
    """
    lineup = Lineup.of(specs)
    tallies = (MatchTally(lineup.labels[0]), MatchTally(lineup.labels[1]))
    tellers = {tally.label: ProblemTeller(tally, say) for tally in tallies}
    played: list[LocalGame] = []

    def take(result: PlayedGame) -> bool:
        for problem in result.problems:
            tellers[problem.label].told(problem)
        tally_game(result.game, result.job.seats, tallies)
        played.append(result.game)
        if log_dir is not None:
            write_game_log(log_dir / game_log_name(result.job, result.game), result.game, settings)
        if on_game is not None:
            on_game(result.job.number, result.game)
        return True

    try:
        run_games(lineup, settings, schedule([(0, 1)], games, ruleset=settings.ruleset), take)
    finally:
        for teller in tellers.values():
            teller.tell_repeats()
    return tallies[0], tallies[1], played


class StopSignal:
    """Whether SIGTERM stopped the run (``sigterm_interrupts``)."""

    def __init__(self) -> None:
        self.received = False


@contextmanager
def sigterm_interrupts() -> Iterator[StopSignal]:
    """While inside, SIGTERM stops the run as Ctrl-C does: the workers and the bots' processes are stopped and
    the results so far shown and written (else they would be left running). In a thread other than the main
    one, where no handler can be set, nothing changes."""
    stop = StopSignal()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def interrupt(signum: int, frame: object) -> None:
        stop.received = True
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGTERM, previous)

"""``quoridor-match``: play bots against each other in one process with the server's own referee.

No network: ``shared.referee.play_local_game`` referees, the clock is ``time.perf_counter``,
colours alternate, a table of results with win rates and 95% (Wilson) intervals is printed,
and every game's log is written (the same CSV the server writes). Each bot's ``time_limit_ms``
is set to the ``-t`` limit. A bot's error and traceback are printed as they are (never as markup).
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table
from rich.text import Text

from server.logfile import write_log_atomic
from shared.gamelog import GameHeader, GameLog
from shared.quoridor import RULESETS, Step, find_ruleset
from shared.referee import RefereeSettings, TurnRequest
from shared.referee.local import LocalGame, play_local_game

from .commands import installed_command
from .loader import BotLoadError, bot_label, load_bot
from .player import set_time_limit
from .runner import bot_traceback

__all__ = ["main", "wilson_interval", "MatchTally", "play_match"]


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


class _Seat:
    """A bot as the local referee sees it: board tracking, sync or async answers, errors caught."""

    def __init__(self, bot: Any, label: str, runner: asyncio.Runner, console: Console) -> None:
        self.bot, self.label, self.runner, self.console = bot, label, runner, console
        self.errors = 0

    def ask(self, request: TurnRequest) -> Step:
        observe = getattr(self.bot, "observe", None)
        if observe is not None:
            observe(request.change, request.walls_left)
        set_time_limit(self.bot, request.time_limit_ms)
        method = getattr(self.bot, "next_step", None) or getattr(self.bot, "nextStep")
        try:
            result = method(request.change)
            if inspect.isawaitable(result):
                result = self.runner.run(result)
        except Exception as exc:  # noqa: BLE001 - a bot's bug is a violation, not a crash
            self.errors += 1
            if self.errors <= 3:
                self.console.print(Text.assemble((f"{self.label} raised {type(exc).__name__}: {exc}", "red"),
                                                 "\n" + bot_traceback(exc)), soft_wrap=True)
            result = Step()
        if not isinstance(result, Step):
            self.errors += 1
            self.console.print(Text(f"{self.label}.next_step returned {result!r}, not a Step", "red"), soft_wrap=True)
            result = Step()
        sent = getattr(getattr(self.bot, "tracker", None), "sent", None)
        if sent is not None:
            sent(result)
        return result


def play_match(specs: tuple[str, str], games: int, settings: RefereeSettings, *, log_dir: Path | None,
               console: Console, progress: bool = True) -> tuple[MatchTally, MatchTally, list[LocalGame]]:
    """Play ``games`` games between two bot specs, alternating colours; returns both tallies and the games."""
    labels = (bot_label(specs[0]), bot_label(specs[1]))
    if labels[0] == labels[1]:
        labels = (labels[0] + "#1", labels[1] + "#2")
    tallies = (MatchTally(labels[0]), MatchTally(labels[1]))
    played: list[LocalGame] = []
    with asyncio.Runner() as runner:
        seats = [_Seat(load_bot(spec, label), label, runner, console) for spec, label in zip(specs, labels)]
        with Progress(console=console, transient=True, disable=not progress) as bar:
            task = bar.add_task(escape(f"{labels[0]} vs {labels[1]}"), total=games)
            for number in range(games):
                order = (0, 1) if number % 2 == 0 else (1, 0)      # who takes seat 0
                for seat, index in enumerate(order):
                    set_time_limit(seats[index].bot, settings.time_limit_ms)
                    begin = getattr(seats[index].bot, "begin_game", None)
                    if begin is not None:
                        begin(seat, settings.ruleset)
                game = play_local_game((labels[order[0]], labels[order[1]]),
                                       lambda seat, req: seats[order[seat]].ask(req), time.perf_counter, settings)
                played.append(game)
                _tally(game, order, tallies)
                for index in order:
                    restart = getattr(seats[index].bot, "restart", None)
                    if restart is not None:
                        restart()
                if log_dir is not None:
                    _write_log(log_dir / f"game{number + 1:03d}_{labels[order[0]]}_vs_{labels[order[1]]}.csv",
                               game, settings)
                bar.advance(task)
        for tally, seat in zip(tallies, seats):
            tally.errors = seat.errors
    return tallies[0], tallies[1], played


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


def results_table(tallies: Sequence[MatchTally]) -> Table:
    """The results as a rich table (fits 80 columns)."""
    table = Table(title="local match")
    for column in ("bot", "games", "W/L/D", "score", "95% CI", "ms/step", "viol.", "errors"):
        table.add_column(column, justify="left" if column == "bot" else "right", no_wrap=True)
    for t in tallies:
        low, high = wilson_interval(t.score, t.games)
        table.add_row(Text(t.label), str(t.games), f"{t.wins}/{t.losses}/{t.draws}", f"{t.score:.0%}",
                      f"{low:.0%}-{high:.0%}", f"{t.thinking_ms / max(t.steps, 1):.1f}", str(t.violations),
                      str(t.errors))
    return table


def build_parser() -> argparse.ArgumentParser:
    """The argument parser."""
    p = argparse.ArgumentParser(
        prog="quoridor-match", description="Play two bots against each other locally (no server), "
                                           "with the server's referee; prints win rates and writes the logs.",
        epilog="example: quoridor-match strong mybot.py:MyPlayer -g 20")
    p.add_argument("bots", nargs=2, metavar="BOT", help="built-in name, FILE.py:CLASS or MODULE:CLASS")
    p.add_argument("-g", "--games", type=int, default=10, help="games to play, colours alternating (default 10)")
    p.add_argument("-t", "--time-limit", type=int, default=1000, metavar="MS",
                   help="thinking time limit per step (default 1000; 0 = none)")
    p.add_argument("--ruleset", choices=sorted(RULESETS), default="course", help="rules (default course)")
    p.add_argument("--step-cap", type=int, default=100, help="steps per player per game (default 100)")
    p.add_argument("--log-dir", type=Path, default=None,
                   help="where the logs go (default replays/local-<date>-<time>/); 'none' to skip")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run a local match; 0 on success, 2 for bad options."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.time_limit < 0 or args.step_cap < 1:
        parser.error("--time-limit must be 0 or more and --step-cap at least 1")
    settings = RefereeSettings(find_ruleset(args.ruleset), args.time_limit or None, 3, args.step_cap)
    log_dir = args.log_dir
    if log_dir is None:
        log_dir = Path("replays") / datetime.now().strftime("local-%Y%m%d-%H%M%S")
    elif str(log_dir) == "none":
        log_dir = None
    console = Console()
    try:
        for spec in args.bots:             # fail early, with the reason, before any game is played
            load_bot(spec, "check")
        if log_dir is not None:
            log_dir.mkdir(parents=True, exist_ok=True)
        first, second, _ = play_match((args.bots[0], args.bots[1]), args.games, settings, log_dir=log_dir,
                                      console=console)
    except BotLoadError as exc:
        parser.error(str(exc))
    except OSError as exc:
        console.print(Text(f"cannot write logs to {log_dir}: {exc.strerror}", "red"))
        return 1
    console.print(results_table([first, second]))
    if log_dir is not None:
        console.print(Text(f"logs in {log_dir}/ — replay one with: {installed_command('quoridor-replay')} "
                           f"{log_dir}/<game>.csv"), soft_wrap=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

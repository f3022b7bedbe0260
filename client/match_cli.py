"""``quoridor-match``: local games between bots (``client.match``) on one machine, in the terminal.

Two bots play a match; three or more a round robin; ``--gauntlet A`` plays A against each of
the others; ``--sprt ELO0 ELO1`` plays two bots until the sequential test decides. Every pairing
plays colour-swapped pairs of games, from a seeded random opening of ``--openings`` plies when
asked (``client.openings``); ``-j N`` plays N games at once in worker processes.

It checks every bot spec before any game (a bot whose own code raises while it is loaded or
created gets one line: its ``file:line`` and the exception), shows a live progress bar, prints
each bot's failures as they come (its own traceback, as it is: never read as markup; repeats
counted) and, with ``--sprt``, the log-likelihood ratio against its bounds as pairs complete.
At the end: the results table (two bots: W/L/D, score with its 95% Wilson interval, thinking
time, violations, errors, and the pentanomial Elo; more bots: W/L/D, score and interval, and a
Bradley-Terry rating with its 95% likelihood interval, anchored at ``random`` when it plays, else at
the first bot), the win-rate matrix, the SPRT's verdict, where the logs are and how to replay
one; ``--json FILE`` writes all of it (and every game) as JSON. Each bot's ``time_limit_ms`` is
set to the ``-t`` limit. ``--analyse`` then analyses every game's log with the engine (``-j`` at once; each
analysis kept beside its log, as ``quoridor-analyse`` keeps it) and prints, and adds to the JSON, each bot's
accuracy and the worst steps of the games it lost, each with its log and ply (opt-in: about a second a game).

Exit codes: 0 the games were played and no bot's code failed, 1 a bot's code failed during the
games (raised, or returned no ``Step``) or the logs could not be written, 2 bad options or a bot
that cannot be loaded, 130 interrupted (Ctrl-C; the results so far are shown and written), 143 stopped by
SIGTERM (the same, and no bot or worker process is left running).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from shared.quoridor import RULESETS, find_ruleset
from shared.tournament.bot_analysis import AnalysedGame, BotAnalysis, bot_analyses
from shared.referee import RefereeSettings
from shared.tournament.bradley_terry import Rating, rate
from shared.tournament.pentanomial import PentanomialElo, pentanomial_elo
from shared.tournament.sprt import Sprt, SprtModel, SprtVerdict

from .analyse_cli import analyse_files
from .commands import installed_command
from .loader import BotCrashed, BotLoadError, load_bot
from .logfiles import new_run_folder
from .match import (
    MatchTally, PlayedGame, ProblemTeller, StopSignal, game_log_name, run_games, sigterm_interrupts, wilson_interval,
    write_game_log,
)
from .match_plan import Lineup, board_keepers, gauntlet_pairings, round_robin_pairings, schedule
from .match_results import RunResults, SprtState
from .process_bot import ProcessBot
from .render import notice_printer

__all__ = ["main", "build_parser", "results_table", "standings_table", "matrix_table", "sprt_line", "elo_line",
           "violation_lines", "run_match", "run_local", "show_results", "rating_anchor", "RunPlan", "RunOutcome",
           "analyse_run", "analysis_lines"]

#: Where each run's own log folder is made when ``--log-dir`` does not say.
RUNS_DIR = Path("replays")
#: Most games of an SPRT when ``-g`` does not say.
SPRT_GAMES = 1000


# -- renderables (pure: state in, table out) ----------------------------------------------------------
def results_table(tallies: Sequence[MatchTally]) -> Table:
    """The results of a two-bot match as a rich table (fits 80 columns)."""
    table = Table(title="local match")
    for column in ("bot", "games", "W/L/D", "score", "95% CI", "ms/step", "viol.", "errors"):
        table.add_column(column, justify="left" if column == "bot" else "right", no_wrap=True)
    for t in tallies:
        low, high = wilson_interval(t.score, t.games)
        table.add_row(Text(t.label), str(t.games), f"{t.wins}/{t.losses}/{t.draws}", f"{t.score:.0%}",
                      f"{low:.0%}-{high:.0%}", f"{t.thinking_ms / max(t.steps, 1):.1f}", str(t.violations),
                      str(t.errors))
    return table


#: Tables without side borders and with single spaces of padding: nine columns fit 80 characters.
_COMPACT: dict[str, Any] = {"box": box.SIMPLE_HEAD, "show_edge": False, "pad_edge": False, "collapse_padding": True}


def _signed(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:+.0f}" if round(value) else "0"


def standings_table(tallies: Sequence[MatchTally], ratings: Sequence[Rating], title: str = "standings",
                    anchor: str | None = None) -> Table:
    """Bots ranked by rating: W/L/D, score with its 95% interval, rating with its 95% interval (fits 80 columns).

    The ``anchor`` bot (rated 0 by definition) shows "anchor" for its interval.
    """
    table = Table(title=title, **_COMPACT)
    for column in ("#", "bot", "W/L/D", "score", "95% CI", "rating", "95% CI", "viol.", "errors"):
        # Only the name may wrap: a long one folds onto a second line, the numbers keep their width.
        table.add_column(column, justify="left" if column == "bot" else "right", no_wrap=column != "bot",
                         overflow="fold")
    by_label = {r.player: r for r in ratings}
    order = sorted(tallies, key=lambda t: (by_label[t.label].rating is None,
                                          -(by_label[t.label].rating or 0.0), -t.score))
    for rank, t in enumerate(order, 1):
        r = by_label[t.label]
        low, high = wilson_interval(t.score, t.games)
        if r.rating is None:
            interval = "-"
        elif t.label == anchor:
            interval = "anchor"
        else:
            interval = f"{_signed(r.low)}..{_signed(r.high)}"
        table.add_row(str(rank), Text(t.label), f"{t.wins}/{t.losses}/{t.draws}", f"{t.score:.0%}",
                      f"{low:.0%}-{high:.0%}", _signed(r.rating), interval, str(t.violations), str(t.errors))
    return table


def matrix_table(labels: Sequence[str], matrix: dict[str, dict[str, float | None]]) -> Table:
    """The win-rate matrix: row bot's points per game against column bot (columns numbered as the rows)."""
    table = Table(title="score: row vs column", **_COMPACT)
    table.add_column("bot", overflow="fold")
    for number in range(1, len(labels) + 1):
        table.add_column(str(number), justify="right", no_wrap=True)
    for number, row in enumerate(labels, 1):
        cells = ["·" if row == column else "" if matrix[row][column] is None else f"{matrix[row][column]:.0%}"
                 for column in labels]
        table.add_row(Text(f"{number} {row}"), *cells)
    return table


def elo_line(first: str, second: str, elo: PentanomialElo, counts: Sequence[int]) -> str:
    """One line of a pairing's pentanomial Elo: ``a vs b: Elo +35 ± 48, nElo ..., LOS 92%, 5 pairs, Ptnml(0-2) [...]``."""
    if abs(elo.elo) == float("inf"):
        value = ("+inf (won every pair)" if elo.elo > 0 else "-inf (lost every pair)")
    else:
        value = f"{elo.elo:+.1f}" + (f" ± {elo.error:.1f}" if elo.error is not None else " (interval too wide)")
    nelo = f", nElo {elo.nelo:+.1f} ± {elo.nelo_error:.1f}" if elo.nelo is not None and elo.nelo_error is not None \
        else ""
    pairs = f"{elo.pairs} pair" + ("" if elo.pairs == 1 else "s")
    return (f"{first} vs {second}: Elo {value}{nelo}, LOS {elo.los:.1%}, {pairs}, "
            f"Ptnml(0-2) [{', '.join(str(n) for n in counts)}]")


def sprt_line(state: SprtState, games: int) -> str:
    """The test as it stands: ``LLR +1.23 (41.8%) [-2.94, 2.94], 24 games``, as fastchess prints it."""
    test = state.test
    return f"LLR {state.llr:+.2f} ({test.fraction(state.llr):.1%}) [{test.lower:.2f}, {test.upper:.2f}], {games} games"


def _verdict_text(state: SprtState, first: str, second: str, games: int) -> Text:
    test = state.test
    hypotheses = f"SPRT [{test.elo0:g}, {test.elo1:g}] {test.model.value}, alpha {test.alpha:g}, beta {test.beta:g}"
    if state.verdict is SprtVerdict.H1:
        return Text(f"{hypotheses}: H1 accepted after {games} games (LLR {state.llr:.2f} >= {test.upper:.2f}): "
                    f"{first} is {test.elo1:g} Elo better than {second} rather than {test.elo0:g}", "green")
    if state.verdict is SprtVerdict.H0:
        return Text(f"{hypotheses}: H0 accepted after {games} games (LLR {state.llr:.2f} <= {test.lower:.2f}): "
                    f"{first} is {test.elo0:g} Elo better than {second} (or less) rather than {test.elo1:g}",
                    "yellow")
    return Text(f"{hypotheses}: undecided after {games} games (LLR {state.llr:.2f} between "
                f"{test.lower:.2f} and {test.upper:.2f}); play more games (-g) to decide", "yellow")


# -- running ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RunPlan:
    """What the command line asked for: the bots, who meets whom and how."""

    mode: str                      # "match", "round robin", "gauntlet" or "sprt"
    lineup: Lineup
    pairings: list[tuple[int, int]]
    games_per_pairing: int
    settings: RefereeSettings
    workers: int = 1
    opening_plies: int = 0
    seed: int = 0
    sprt: Sprt | None = None
    log_dir: Path | None = None
    #: False when a bot runs as a process of its own: its openings are pawn moves only (``board_keepers``).
    opening_walls: bool = True


@dataclass
class RunOutcome:
    """What a run played: the results, the SPRT's state, and whether Ctrl-C cut it short."""

    results: RunResults
    sprt: SprtState | None
    interrupted: bool


def run_local(plan: RunPlan, console: Console, *, report_every_s: float = 1.0,
              clock: Callable[[], float] = time.monotonic) -> RunOutcome:
    """Play ``plan`` with a live progress bar, the bots' failures and (SPRT) the LLR printed on ``console``.

    An SPRT's line is printed when a pair completes and ``report_every_s`` have passed since the
    last one, and always when the test decides. Ctrl-C stops the run: the outcome says so.
    """
    results = RunResults(plan.lineup, plan.pairings)
    say = notice_printer(console)
    tellers = {tally.label: ProblemTeller(tally, say) for tally in results.tallies}
    sprt = SprtState(plan.sprt) if plan.sprt is not None else None
    last_line: float | None = None
    jobs = schedule(plan.pairings, plan.games_per_pairing, seed=plan.seed, opening_plies=plan.opening_plies,
                    ruleset=plan.settings.ruleset, opening_walls=plan.opening_walls)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    interrupted = False
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(escape(plan.mode), total=plan.games_per_pairing * len(plan.pairings))

        def take(played: PlayedGame) -> bool:
            """Tell the game's failures, write its log, count it; follow the SPRT (False: it has decided)."""
            nonlocal sprt, last_line
            for problem in played.problems:
                tellers[problem.label].told(problem)
            log = None
            if plan.log_dir is not None:
                log = game_log_name(played.job, played.game)
                write_game_log(plan.log_dir / log, played.game, plan.settings)
            completed = results.add(played, log)
            bar.advance(task)
            if sprt is None or completed is None:
                return True
            penta = results.pairings[plan.pairings[0]].pentanomial
            llr = sprt.test.llr(penta)
            sprt = SprtState(sprt.test, llr, penta.pairs, sprt.test.verdict(llr))
            bar.update(task, description=escape(f"sprt  LLR {llr:+.2f} [{sprt.test.lower:.2f}, {sprt.test.upper:.2f}]"))
            now = clock()
            if sprt.verdict is not SprtVerdict.CONTINUE or last_line is None or now - last_line >= report_every_s:
                last_line = now
                elo = pentanomial_elo(penta)
                elo_text = f"{elo.elo:+.0f}" + (f"±{elo.error:.0f}" if elo.error is not None else "")
                console.print(Text(f"{sprt_line(sprt, results.played)}  Elo {elo_text}  "
                                   f"Ptnml [{', '.join(str(n) for n in penta.counts)}]"))
            return sprt.verdict is SprtVerdict.CONTINUE

        try:
            run_games(plan.lineup, plan.settings, jobs, take, workers=plan.workers)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            for teller in tellers.values():
                teller.tell_repeats()
    return RunOutcome(results, sprt, interrupted)


def run_match(specs: tuple[str, str], games: int, settings: RefereeSettings, log_dir: Path | None,
              console: Console) -> tuple[MatchTally, MatchTally]:
    """Two bots, ``games`` games, colours alternating, with the progress bar and failures on ``console``."""
    lineup = Lineup.of(specs)
    outcome = run_local(RunPlan("match", lineup, [(0, 1)], games, settings, log_dir=log_dir), console)
    return outcome.results.tallies[0], outcome.results.tallies[1]


def rating_anchor(labels: Sequence[str]) -> str:
    """The bot rated 0: ``random`` when it plays, else the first bot."""
    return "random" if "random" in labels else labels[0]


def show_results(plan: RunPlan, outcome: RunOutcome, console: Console) -> list[Rating] | None:
    """Print the final tables (and the SPRT's verdict); the ratings when the run rates its bots."""
    results = outcome.results
    labels = plan.lineup.labels
    if outcome.interrupted:
        console.print(Text(f"interrupted after {results.played} games: the results so far", "yellow"))
    ratings = None
    if len(plan.lineup.labels) == 2:
        console.print(results_table(results.tallies))
        record = results.pairings[(0, 1)]
        if record.pentanomial.pairs:
            console.print(Text(elo_line(labels[0], labels[1], pentanomial_elo(record.pentanomial),
                                        record.pentanomial.counts)))
    else:
        anchor = rating_anchor(labels)
        ratings = rate(list(labels), results.encounters(), anchor=anchor)
        console.print(standings_table(results.tallies, ratings, f"{plan.mode} — ratings: Bradley-Terry, {anchor} = 0",
                                      anchor))
        console.print(matrix_table(labels, results.matrix()))
    for line in violation_lines(results.tallies):
        console.print(Text(line), soft_wrap=True)
    if outcome.sprt is not None:
        console.print(_verdict_text(outcome.sprt, labels[0], labels[1], results.played))
    return ratings


def violation_lines(tallies: Sequence[MatchTally]) -> list[str]:
    """Each bot's violations by cause, with the first reason of each: why its steps did not stand."""
    lines = []
    for tally in tallies:
        if not tally.causes:
            continue
        lines.append(f"{tally.label}: {sum(tally.causes.values())} violations by cause")
        lines += [f"  {cause} x{count} (first: {tally.first_reasons[cause]})" for cause, count in tally.causes.items()]
    return lines


def analyse_run(results: RunResults, log_dir: Path, console: Console, *, jobs: int = 1) -> dict[str, BotAnalysis]:
    """Analyse the logs of ``results``' games in ``log_dir`` (``jobs`` at once, each kept beside its log); each bot's
    accuracy and the worst steps of its lost games. A log that cannot be analysed is said in one line."""
    summaries = [game for game in sorted(results.games, key=lambda g: g.number) if game.log is not None]
    paths = [log_dir / game.log for game in summaries if game.log is not None]
    done = analyse_files(paths, jobs=jobs, console=console,
                         on_error=lambda message: console.print(Text(f"analysis: {message}", "red"), soft_wrap=True))
    by_path = {result.path: result.analysis for result in done}
    games = []
    for summary, path in zip(summaries, paths):
        analysis = by_path.get(path)
        if analysis is None:
            continue
        winner = None if summary.winner is None else summary.players.index(summary.winner)
        games.append(AnalysedGame(path.name, summary.seats, winner, analysis, log=str(path)))
    return bot_analyses(games, results.lineup.labels)


def analysis_lines(analyses: dict[str, BotAnalysis], command: str = "quoridor-replay") -> list[str]:
    """Each bot's accuracy and counts, then the worst steps of its lost games, each with the command that shows it."""
    lines = []
    for bot, found in analyses.items():
        if not found.games:
            continue
        counts = ", ".join(f"{plural} {found.counts.get(label, 0)}" for label, plural in
                           (("blunder", "blunders"), ("mistake", "mistakes"), ("inaccuracy", "inaccuracies")))
        lines.append(f"{bot}: accuracy {found.accuracy:.1f}% over {found.games} games ({counts}); "
                     f"{found.lost} lost" + (", its worst steps in them:" if found.worst_lost else ""))
        for step in found.worst_lost:
            best = f" (best {step.best})" if step.best and step.best != step.played else ""
            lines.append(f"  {step.game} step {step.ply}: {step.played or 'nothing'}{best}, {step.label}"
                         + (f": {step.reason}" if step.reason else "")
                         + (f"  → {command} {step.log} --analyse --step {step.ply}" if step.log else ""))
    return lines


# -- the command line ---------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    """The argument parser."""
    p = argparse.ArgumentParser(
        prog="quoridor-match",
        description="Play bots against each other locally (no server), with the server's referee: two bots play a "
                    "match, three or more a round robin; prints results and ratings and writes the logs.",
        epilog="examples: quoridor-match strong mybot.py:MyPlayer -g 20 | quoridor-match random runner defender "
               "strong -g 20 -j 2 --openings 4 | quoridor-match --gauntlet mybot.py random runner strong | "
               "quoridor-match mybot.py strong --sprt 0 50 --openings 4 -j 2 | quoridor-match "
               "QuoridorClient/MyPlayer.cpp runner | quoridor-match --gauntlet MyPlayer.cpp:MyPlayer mybot.py ./mybot "
               "strong")
    p.add_argument("bots", nargs="+", metavar="BOT",
                   help="built-in name, FILE.py (its one bot class), FILE.py:CLASS, MODULE:CLASS, a C++ bot "
                        "(MyPlayer.cpp or MyPlayer.cpp:CLASS: built with g++ -O2 and cached) or an executable that "
                        "speaks the hosted-bot channel (./mybot, docs/hosted-bots.md)")
    p.add_argument("--gauntlet", metavar="BOT", help="play BOT against each of the other bots (and no other games)")
    p.add_argument("-g", "--games", type=int, default=None,
                   help=f"games per pairing, in colour-swapped pairs (default 10; with --sprt the most games, "
                        f"default {SPRT_GAMES})")
    p.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                   help="games at once, each in its own process (default 1: one after the other, in this process)")
    p.add_argument("--openings", type=int, default=0, metavar="PLIES",
                   help="random legal plies played before the bots take over, the same for both games of a pair "
                        "(default 0: the initial position); pawn moves only when a C++ bot or a program plays, "
                        "since it cannot be told an opening's walls")
    p.add_argument("--seed", type=int, default=None, help="seed of the openings (default: a new one, printed)")
    p.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"),
                   help="two bots: stop when the sequential test decides between H0 (the first bot is ELO0 Elo "
                        "better) and H1 (ELO1 better)")
    p.add_argument("--alpha", type=float, default=0.05, help="SPRT: the chance of accepting H1 wrongly (0.05)")
    p.add_argument("--beta", type=float, default=0.05, help="SPRT: the chance of accepting H0 wrongly (0.05)")
    p.add_argument("--sprt-model", choices=[m.value for m in SprtModel], default=SprtModel.NORMALIZED.value,
                   help="SPRT: what ELO0 and ELO1 measure, as in fastchess: normalized Elo (nElo, the default) "
                        "or logistic Elo")
    p.add_argument("--json", type=Path, default=None, metavar="FILE", help="also write every result to FILE as JSON")
    p.add_argument("--analyse", "--analyze", action="store_true",
                   help="after the games, analyse every log with the engine (-j at once, about a second a game): each "
                        "bot's accuracy and the worst steps of its lost games, printed and in --json")
    p.add_argument("-t", "--time-limit", type=int, default=1000, metavar="MS",
                   help="thinking time limit per step (default 1000; 0 = none)")
    p.add_argument("--ruleset", choices=sorted(RULESETS), default="course", help="rules (default course)")
    p.add_argument("--step-cap", type=int, default=100, help="steps per player per game (default 100)")
    p.add_argument("--log-dir", type=Path, default=None,
                   help="where the logs go (default replays/local-<date>-<time>/); 'none' to skip")
    return p


def _plan(parser: argparse.ArgumentParser, args: argparse.Namespace, settings: RefereeSettings,
          log_dir: Path | None) -> RunPlan:
    """The run the options ask for (``parser.error`` for a combination that makes no sense)."""
    specs = ([args.gauntlet] if args.gauntlet else []) + list(args.bots)
    if len(specs) < 2:
        parser.error("give at least two bots (or --gauntlet BOT and at least one other)")
    sprt = None
    if args.sprt is not None:
        if len(specs) != 2:
            parser.error("--sprt plays exactly two bots")
        try:
            sprt = Sprt(args.sprt[0], args.sprt[1], args.alpha, args.beta, SprtModel(args.sprt_model))
        except ValueError as exc:
            parser.error(f"--sprt: {exc}")
    games = args.games if args.games is not None else SPRT_GAMES if sprt else 10
    if games < 1:
        parser.error("--games must be at least 1")
    if args.jobs < 1 or args.openings < 0:
        parser.error("--jobs must be at least 1 and --openings 0 or more")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    lineup = Lineup.of(specs)
    if sprt is not None:
        mode, pairings = "sprt", [(0, 1)]
    elif args.gauntlet:
        mode, pairings = "gauntlet", gauntlet_pairings(len(specs))
    elif len(specs) == 2:
        mode, pairings = "match", [(0, 1)]
    else:
        mode, pairings = "round robin", round_robin_pairings(len(specs))
    return RunPlan(mode, lineup, pairings, games, settings, args.jobs, args.openings, seed, sprt, log_dir,
                   opening_walls=not board_keepers(lineup.labels, lineup.specs))


def _announce(plan: RunPlan, console: Console) -> None:
    """One line: what is played, with the seed that repeats its openings."""
    bots = len(plan.lineup.labels)
    what = {"match": "a match", "round robin": f"a round robin of {bots} bots",
            "gauntlet": f"a gauntlet: {plan.lineup.labels[0]} against {bots - 1} bots",
            "sprt": f"an SPRT of {plan.lineup.labels[0]} against {plan.lineup.labels[1]}"}[plan.mode]
    per = "at most " if plan.sprt else ""
    games = f"{per}{plan.games_per_pairing} games" + (f" per pairing ({len(plan.pairings)} pairings)"
                                                        if len(plan.pairings) > 1 else "")
    opening = f"openings of {plan.opening_plies} plies" if plan.opening_plies else "no openings"
    if plan.opening_plies and not plan.opening_walls:
        keepers = ", ".join(board_keepers(plan.lineup.labels, plan.lineup.specs))
        opening += f" (pawn moves only: {keepers} cannot be told an opening's walls)"
    processes = f"{plan.workers} games at once" if plan.workers > 1 else "one game at a time"
    console.print(Text(f"{what}: {games}, {opening}, seed {plan.seed}, {processes}"))
    if not plan.opening_plies and plan.mode != "match":
        console.print(Text("(without --openings, bots that always choose alike play the same game in every pair, "
                           "and the intervals say nothing)", "dim"))


def main(argv: Sequence[str] | None = None, *, now: Callable[[], datetime] = datetime.now) -> int:
    """Run local games; the exit code as the module doc says (0 when no bot's code failed).

    Without ``--log-dir`` the logs go to a new folder of the run's own, named by ``now()``
    (``replays/local-<date>-<time>``, numbered when a run started in the same second has it).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.time_limit < 0 or args.step_cap < 1:
        parser.error("--time-limit must be 0 or more and --step-cap at least 1")
    settings = RefereeSettings(find_ruleset(args.ruleset), args.time_limit or None, 3, args.step_cap)
    log_dir = args.log_dir
    if log_dir is None:
        log_dir = RUNS_DIR / now().strftime("local-%Y%m%d-%H%M%S")       # what an early error names
    elif str(log_dir) == "none":
        log_dir = None
    if args.analyse and log_dir is None:
        parser.error("--analyse reads the games' logs: it cannot go with --log-dir none")
    console = Console()
    with sigterm_interrupts() as stop:
        return _run(parser, args, settings, log_dir, console, stop, now)


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace, settings: RefereeSettings,
         log_dir: Path | None, console: Console, stop: StopSignal, now: Callable[[], datetime]) -> int:
    """``main``'s run, once the options are read: check the bots, play, show and write the results."""
    try:
        plan = _plan(parser, args, settings, log_dir)
        for spec in plan.lineup.specs:     # fail early, with the reason, before any game is played
            checked = load_bot(spec, "check")          # a C++ bot is built now (cached for the games)
            if isinstance(checked, ProcessBot):
                checked.close()
        if args.log_dir is None:           # made only now: a run refused above leaves no empty folder
            log_dir = new_run_folder(RUNS_DIR, "local-", now())
            plan = replace(plan, log_dir=log_dir)
        elif log_dir is not None:
            log_dir.mkdir(parents=True, exist_ok=True)
        if len(plan.lineup.labels) > 2 or plan.opening_plies or plan.workers > 1 or plan.sprt:
            _announce(plan, console)
        outcome = run_local(plan, console)
    except BotCrashed as exc:              # the bot's bug, not the command line's: no usage line
        parser.exit(2, f"{parser.prog}: error: {exc}\n")
    except BotLoadError as exc:
        parser.error(str(exc))
    except OSError as exc:
        console.print(Text(f"cannot write logs to {log_dir}: {exc.strerror}", "red"))
        return 1
    ratings = show_results(plan, outcome, console)
    if log_dir is not None:
        console.print(Text(f"logs in {log_dir}/ — replay one with: {installed_command('quoridor-replay')} "
                           f"{log_dir}/<game>.csv"), soft_wrap=True)
    analyses = None
    if args.analyse and log_dir is not None and not outcome.interrupted:
        try:
            analyses = analyse_run(outcome.results, log_dir, console, jobs=plan.workers)
        except KeyboardInterrupt:
            console.print(Text("analysis interrupted: the results are written without it", "yellow"))
        else:
            for line in analysis_lines(analyses, installed_command("quoridor-replay")):
                console.print(Text(line), soft_wrap=True)
    if args.json is not None:
        report = outcome.results.report(settings=settings, seed=plan.seed, opening_plies=plan.opening_plies,
                                        opening_walls=plan.opening_walls, mode=plan.mode, ratings=ratings,
                                        sprt=outcome.sprt, interrupted=outcome.interrupted, analyses=analyses)
        try:
            args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            console.print(Text(f"cannot write {args.json}: {exc.strerror}", "red"))
            return 1
        console.print(Text(f"results in {args.json}"), soft_wrap=True)
    failed = [t for t in outcome.results.tallies if t.errors]
    for tally in failed:
        console.print(Text(f"quoridor-match: {tally.label}'s code failed {tally.errors} "
                           f"{'time' if tally.errors == 1 else 'times'} (see above)", "red"), soft_wrap=True)
    if outcome.interrupted:
        return 143 if stop.received else 130
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

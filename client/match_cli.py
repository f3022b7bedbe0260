"""``quoridor-match``: the command line of the local match (``client.match``), in the terminal.

It parses the options, checks both bot specs before any game (a bot whose own code raises while
it is loaded or created gets one line: its ``file:line`` and the exception), shows a progress bar
while the games are played, prints each bot's failures as they happen (its own traceback, as it
is: never read as markup; repeats counted) and then a table of results with win rates and 95%
(Wilson) intervals, and says where the logs are and how to replay one. Each bot's
``time_limit_ms`` is set to the ``-t`` limit.

Exit codes: 0 the games were played and no bot's code failed, 1 a bot's code failed during the
games (raised, or returned no ``Step``) or the logs could not be written, 2 bad options or a bot
that cannot be loaded.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table
from rich.text import Text

from shared.quoridor import RULESETS, find_ruleset
from shared.referee import RefereeSettings

from .commands import installed_command
from .loader import BotCrashed, BotLoadError, load_bot, resolve_spec
from .match import MatchTally, match_labels, play_match, wilson_interval
from .render import notice_printer

__all__ = ["main", "build_parser", "results_table", "run_match"]


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


def run_match(specs: tuple[str, str], games: int, settings: RefereeSettings, log_dir: Path | None,
              console: Console) -> tuple[MatchTally, MatchTally]:
    """``play_match`` with a progress bar (gone once done) and the bots' failures printed on ``console``."""
    labels = match_labels(specs)
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task(escape(f"{labels[0]} vs {labels[1]}"), total=games)
        first, second, _ = play_match(specs, games, settings, log_dir=log_dir, say=notice_printer(console),
                                      on_game=lambda number, game: bar.advance(task))
    return first, second


def build_parser() -> argparse.ArgumentParser:
    """The argument parser."""
    p = argparse.ArgumentParser(
        prog="quoridor-match", description="Play two bots against each other locally (no server), "
                                           "with the server's referee; prints win rates and writes the logs.",
        epilog="example: quoridor-match strong mybot.py:MyPlayer -g 20")
    p.add_argument("bots", nargs=2, metavar="BOT",
                   help="built-in name, FILE.py (its one bot class), FILE.py:CLASS or MODULE:CLASS")
    p.add_argument("-g", "--games", type=int, default=10, help="games to play, colours alternating (default 10)")
    p.add_argument("-t", "--time-limit", type=int, default=1000, metavar="MS",
                   help="thinking time limit per step (default 1000; 0 = none)")
    p.add_argument("--ruleset", choices=sorted(RULESETS), default="course", help="rules (default course)")
    p.add_argument("--step-cap", type=int, default=100, help="steps per player per game (default 100)")
    p.add_argument("--log-dir", type=Path, default=None,
                   help="where the logs go (default replays/local-<date>-<time>/); 'none' to skip")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run a local match; the exit code as the module doc says (0 when no bot's code failed)."""
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
        specs = (resolve_spec(args.bots[0]), resolve_spec(args.bots[1]))
        for spec in specs:                 # fail early, with the reason, before any game is played
            load_bot(spec, "check")
        if log_dir is not None:
            log_dir.mkdir(parents=True, exist_ok=True)
        first, second = run_match(specs, args.games, settings, log_dir, console)
    except BotCrashed as exc:              # the bot's bug, not the command line's: no usage line
        parser.exit(2, f"{parser.prog}: error: {exc}\n")
    except BotLoadError as exc:
        parser.error(str(exc))
    except OSError as exc:
        console.print(Text(f"cannot write logs to {log_dir}: {exc.strerror}", "red"))
        return 1
    console.print(results_table([first, second]))
    if log_dir is not None:
        console.print(Text(f"logs in {log_dir}/ — replay one with: {installed_command('quoridor-replay')} "
                           f"{log_dir}/<game>.csv"), soft_wrap=True)
    failed = [t for t in (first, second) if t.errors]
    for tally in failed:
        console.print(Text(f"quoridor-match: {tally.label}'s code failed {tally.errors} "
                           f"{'time' if tally.errors == 1 else 'times'} (see above)", "red"), soft_wrap=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

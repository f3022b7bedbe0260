"""``quoridor-replay``: replay a game log, list a folder of them, export to SVG/HTML, or watch a server live.

``--analyse`` adds the engine's analysis of a log (``shared.analysis``): on the screen, the evaluation graph and
the labels in the step list, made in a worker thread while the game can be stepped through; with ``--print``, a
text report; ``--json``, the analysis's JSON on stdout; with ``--html``, the page carries it (``--html`` alone carries
only a kept one). An up-to-date analysis kept beside the log
(``<log>.analysis.json``, written by ``quoridor-analyse`` and the server) is read instead of made again.

Exit codes: 0 done, 1 a file that is not a game log (or a server that cannot be watched), 2 a
usage error. Errors are one line on stderr, never a traceback. When stdout is not a terminal,
``--print`` is implied (there is no screen to be interactive on). Printed output is plain text,
without colour codes, even on a terminal; the interactive screen has the colours.

Every mode is a source joined to a view by a ``ReplayController``: a log file to the screen, to
the text view or to the exports; a live server to the screen or to the line-per-step view.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from shared.gamelog import LogFormatError

from .analysed import AnalysedLog, analyse_log_file
from .analysis_view import render_ply_note, render_report
from .controller import ReplayController, StepOutOfRange
from .export import ExportError, HtmlView, SvgView, kept_analysis
from .listing import FolderError, list_folder
from .sources import LiveSource, LiveSourceError, LogFileSource
from .views import GameView, LineView, TextView, print_listing, render_frame, render_title

__all__ = ["main", "build_parser"]

_PROG = "quoridor-replay"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser."""
    p = argparse.ArgumentParser(
        prog=_PROG, description="Replay Quoridor game logs in the terminal (ours, the old server's and the old "
                                "client's), list a tournament's games, export SVG/HTML, or watch games live.",
        epilog="examples: quoridor-replay replays/tournament-20240501-120000/t1-r1-p1-g1_alice_vs_bob.csv   |   "
               "quoridor-replay replays/tournament-20240501-120000/   |   quoridor-replay replays/   |   "
               "quoridor-replay game.csv --print --step 12   |   "
               "quoridor-replay game.csv --svg game.svg --html game.html   |   "
               "quoridor-replay game.csv --analyse   |   quoridor-replay game.csv --analyse --print   |   "
               "quoridor-replay --live ws://127.0.0.1:19330/")
    p.add_argument("path", nargs="?", type=Path, help="a game log (.csv), or a folder of logs (a tournament's)")
    p.add_argument("--live", metavar="URL", help="watch the games in progress on a server, as a spectator")
    p.add_argument("--print", dest="print_", action="store_true",
                   help="write plain text to stdout instead of opening the screen: every step, or the --step one "
                        "(implied when stdout is not a terminal)")
    p.add_argument("--step", type=int, metavar="N", help="the step to show or export (0 = the start)")
    p.add_argument("--svg", type=Path, metavar="FILE", help="export to SVG: the --step position, else the whole game")
    p.add_argument("--html", type=Path, metavar="FILE", help="export to HTML: the --step position, else the whole game")
    p.add_argument("--key", default="spectator", help="the key to say hello with in --live mode (default 'spectator')")
    p.add_argument("--analyse", "--analyze", action="store_true",
                   help="analyse the game with the engine: the evaluation graph and each step's label (inaccuracy, "
                        "mistake, blunder) beside the engine's best step; with --print a text report (each player's "
                        "accuracy, the worst steps and why)")
    p.add_argument("--json", action="store_true",
                   help="write the game's analysis to stdout as JSON (implies --analyse)")
    p.add_argument("--nodes", type=int, metavar="N", default=None,
                   help="with --analyse: the engine's budget in nodes per position (default: the engine's own, "
                        "the same on every machine)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (argparse exits with 2 on a usage error)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if (args.path is None) == (args.live is None):
        parser.error("give a game log or a folder of logs, or --live URL (one of them)")
    if args.step is not None and args.step < 0:
        parser.error(f"--step must be 0 or more, got {args.step}")
    args.analyse = args.analyse or args.json
    if args.nodes is not None and (not args.analyse or args.nodes < 1):
        parser.error("--nodes takes a number of 1 or more and goes with --analyse")
    if args.analyse and args.live is not None:
        parser.error("--analyse takes a game log, not --live")
    if args.json and (args.svg or args.html):
        parser.error("--json writes the analysis to stdout: without --svg or --html")
    console = Console(highlight=False, color_system=None)    # what is printed is plain text, on a terminal too
    interactive = not (args.print_ or args.svg or args.html) and sys.stdout.isatty() and sys.stdin.isatty()
    try:
        if args.live is not None:
            return _live(args, parser, console, interactive)
        if args.path.is_dir():
            if args.analyse:
                parser.error("--analyse takes a game log, not a folder: quoridor-analyse FOLDER analyses every log "
                             "in it")
            return _folder(args, parser, console, interactive)
        if args.analyse and not (args.svg or args.html):
            return _analyse(args, console, interactive and not args.json)
        return _file(args, console, interactive)
    except (LogFormatError, FolderError, ExportError, LiveSourceError) as exc:
        print(f"{_PROG}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def _file(args: argparse.Namespace, console: Console, interactive: bool) -> int:
    source = LogFileSource(args.path)
    views: list[GameView] = [SvgView(path) for path in [args.svg] if path] + \
        [HtmlView(path, _html_analysis(args)) for path in [args.html] if path]
    if args.print_ or not views:
        views.insert(0, TextView(console))
    joined = [ReplayController(source, view) for view in views]
    if args.step is not None:
        try:
            for controller in joined:
                controller.goto(args.step)
        except StepOutOfRange as exc:
            print(f"{_PROG}: {args.path}: {exc}", file=sys.stderr)
            return 2
    if interactive:
        from .app import ReplayApp      # Textual only when there is a screen to use it on
        return ReplayApp(source, step=args.step).run() or 0
    for controller in joined:
        if args.step is None:
            controller.show_game()
        else:
            controller.show()
    for path in (args.svg, args.html):
        if path:
            print(f"wrote {path}", file=sys.stderr)
    return 0


def _html_analysis(args: argparse.Namespace) -> dict[str, Any] | None:
    """The analysis an ``--html`` page carries: made now with ``--analyse`` (or the up-to-date one kept beside the
    log), else the kept one if there is one."""
    if not args.analyse:
        return kept_analysis(args.path)
    return _analyse_with_bar(args.path, {} if args.nodes is None else {"nodes": args.nodes}).analysis.to_json()


def _analyse(args: argparse.Namespace, console: Console, interactive: bool) -> int:
    """``--analyse``: the screen with the analysis made in a worker thread, else the report or the JSON."""
    source = LogFileSource(args.path)         # a bad file fails here, in one line, before any analysis
    nodes = {} if args.nodes is None else {"nodes": args.nodes}
    if interactive:
        from .app import ReplayApp
        return ReplayApp(source, step=args.step,
                         analyser=lambda progress: analyse_log_file(args.path, progress=progress, **nodes).analysis
                         ).run() or 0
    game = next(iter(source.games.values()))
    if args.step is not None and not 0 <= args.step <= game.last_step:
        print(f"{_PROG}: {args.path}: no step {args.step}: this game shows steps 0 to {game.last_step}",
              file=sys.stderr)
        return 2
    analysis = _analyse_with_bar(args.path, nodes).analysis
    if args.json:
        sys.stdout.write(json.dumps(analysis.to_json(), indent=1) + "\n")
        return 0
    if args.step is not None:      # the board at that step, and what the analysis says of it
        console.print(render_frame(game, args.step - game.first_step))
        console.print(render_ply_note(analysis, args.step), soft_wrap=True)
        return 0
    # Not wrapped: a step's line stays one line, for grep; the graph is as wide as the console.
    console.print(render_report(analysis, render_title(game), width=min(console.width, 100)), soft_wrap=True)
    return 0


def _analyse_with_bar(path: Path, nodes: dict[str, int]) -> AnalysedLog:
    """Analyse the log at ``path``, with a progress bar on stderr when it is a terminal."""
    err = Console(stderr=True)
    if not err.is_terminal:
        return analyse_log_file(path, **nodes)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
    with Progress(TextColumn("analysing"), BarColumn(), MofNCompleteColumn(), TextColumn("steps"), console=err,
                  transient=True) as bar:
        task = bar.add_task("analysing", total=None)
        return analyse_log_file(path, progress=lambda done, total: bar.update(task, completed=done, total=total),
                                **nodes)


def _folder(args: argparse.Namespace, parser: argparse.ArgumentParser, console: Console, interactive: bool) -> int:
    if args.step is not None or args.svg or args.html:
        parser.error("--step, --svg and --html take a game log, not a folder: list it, then pick a file")
    entries = list_folder(args.path)
    if interactive:
        from .app import ReplayApp
        return ReplayApp(entries=entries, folder=args.path).run() or 0
    print_listing(console, entries, f"{len(entries)} games in {args.path}")
    return 0


def _live(args: argparse.Namespace, parser: argparse.ArgumentParser, console: Console, interactive: bool) -> int:
    if args.step is not None or args.svg or args.html:
        parser.error("--step, --svg and --html take a game log, not --live")
    if not args.live.startswith(("ws://", "wss://")):
        parser.error(f"--live takes a websocket URL like ws://127.0.0.1:19330/, got {args.live!r}")
    source = LiveSource(args.live, key=args.key)
    if interactive:
        from .app import ReplayApp
        return ReplayApp(source).run() or 0
    return asyncio.run(_print_live(source, console))


async def _print_live(source: LiveSource, console: Console) -> int:
    """One line per step of every game (the line view), until the tournament is over; then the final table."""
    console.print(Text(f"watching {source.url} (Ctrl-C to stop)"))
    await ReplayController(source, LineView(console), every_frame=True).run()
    if source.over:
        console.print(Text(f"tournament {source.tournament} is over"))
        for row in source.standings:
            console.print(Text(f"{row.rank:>3}. {row.player}  {row.points:g} points "
                               f"({row.wins} won, {row.losses} lost, {row.draws} drawn)"))
    else:
        console.print(Text("the server closed the connection"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""``quoridor-replay``: replay a game log, list a folder of them, export to SVG/HTML, or watch a server live.

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
import sys
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.text import Text

from shared.gamelog import LogFormatError

from .controller import ReplayController, StepOutOfRange
from .export import ExportError, HtmlView, SvgView
from .listing import FolderError, list_folder
from .sources import LiveSource, LiveSourceError, LogFileSource
from .views import GameView, LineView, TextView, print_listing

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
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (argparse exits with 2 on a usage error)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if (args.path is None) == (args.live is None):
        parser.error("give a game log or a folder of logs, or --live URL (one of them)")
    if args.step is not None and args.step < 0:
        parser.error(f"--step must be 0 or more, got {args.step}")
    console = Console(highlight=False, color_system=None)    # what is printed is plain text, on a terminal too
    interactive = not (args.print_ or args.svg or args.html) and sys.stdout.isatty() and sys.stdin.isatty()
    try:
        if args.live is not None:
            return _live(args, parser, console, interactive)
        if args.path.is_dir():
            return _folder(args, parser, console, interactive)
        return _file(args, console, interactive)
    except (LogFormatError, FolderError, ExportError, LiveSourceError) as exc:
        print(f"{_PROG}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def _file(args: argparse.Namespace, console: Console, interactive: bool) -> int:
    source = LogFileSource(args.path)
    views: list[GameView] = [SvgView(path) for path in [args.svg] if path] + \
        [HtmlView(path) for path in [args.html] if path]
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

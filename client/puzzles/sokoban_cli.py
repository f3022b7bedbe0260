"""``quoridor-puzzle sokoban``: play, show, check, solve and build Sokoban levels in the terminal.

FILE is an XSB file, or the name of a bundled collection (``quoridor-puzzle sokoban list``).
Levels are numbered from 1 here, as in the collections' own headings. Exit codes: 0 done,
1 a bad file or level (or no solution / a failing answer), 2 a usage error, 130 a solve stopped
by Ctrl-C. ``solve`` says its time limit, then its progress on standard error (states searched,
seconds spent) at least once a second: one line rewritten in place on a terminal, a line a
report otherwise.
"""

from __future__ import annotations

import time

import argparse
import sys
from importlib.resources.abc import Traversable
from itertools import islice
from pathlib import Path
from typing import TextIO

from rich.console import Console

from shared.sokoban import (Collection, Level, LevelError, LurdError, SokobanError, from_solution, judge,
                            parse_level, solve, split_lines)
from shared.sokoban.bundled import bundled_collections
from shared.sokoban.progress import SolveProgress

from .sokoban_render import board_text

__all__ = ["add_subcommand", "load_collection", "load_level", "ProgressLine",
           "progress_text"]


class SourceError(ValueError):
    """A FILE argument that is neither a readable file nor a bundled collection."""


def _bundled(name: str) -> Traversable | None:
    wanted = name.lower()
    for known, entry in bundled_collections().items():
        stem, _, count = known.rpartition("_")
        if wanted == known.lower() or (count.isdigit() and wanted == stem.lower()):
            return entry
    return None


def load_collection(source: str) -> Collection:
    """The collection in the file ``source`` or the bundled collection of that name; ``SourceError`` otherwise."""
    path = Path(source)
    try:
        if path.is_file():
            return Collection(path.read_text(encoding="utf-8", errors="replace"), path.stem)
    except OSError as exc:
        raise SourceError(f"cannot read {source!r}: {exc.strerror}") from None
    entry = _bundled(source)
    if entry is None:
        raise SourceError(f"{source!r} is neither a file nor a bundled collection "
                          f"({', '.join(bundled_collections())})")
    return Collection(entry.read_text(encoding="utf-8"), source)


def load_level(source: str, number: int) -> Level:
    """Level ``number`` (from 1) of ``source``; a file is streamed up to that level, nothing before it is parsed."""
    if number < 1:
        raise SourceError(f"level numbers start at 1, got {number}")
    path = Path(source)
    if path.is_file():
        try:
            with path.open(encoding="utf-8", errors="replace") as handle:
                text = next(islice(split_lines(handle), number - 1, None), None)
        except OSError as exc:
            raise SourceError(f"cannot read {source!r}: {exc.strerror}") from None
        if text is None:
            raise SourceError(f"{source} has fewer than {number} levels")
        return parse_level(text)
    collection = load_collection(source)
    if number > len(collection):
        raise SourceError(f"{source} has {len(collection)} levels; there is no level {number}")
    return collection.level(number - 1)


# -- commands --------------------------------------------------------------------------------
def _console() -> Console:
    return Console(highlight=False)


def _show(args: argparse.Namespace) -> int:
    level = load_level(args.file, args.level)
    console = _console()
    if level.title:
        console.print(level.title)
    console.print(board_text(level))
    console.print(f"{level.width}x{level.height}, {level.box_count} boxes")
    return 0


def _list(args: argparse.Namespace) -> int:
    console = _console()
    if args.file is None:
        for name, entry in bundled_collections().items():
            console.print(f"{name}  ({len(Collection(entry.read_text(encoding='utf-8')))} levels)")
        return 0
    collection = load_collection(args.file)
    bad = 0
    for number, result in enumerate(collection.results(), 1):
        if isinstance(result, LevelError):
            bad += 1
            console.print(f"{number:4}  error: {result}")
        else:
            console.print(f"{number:4}  {result.width}x{result.height}  {result.box_count:3} boxes  {result.title or ''}")
    return 1 if bad else 0


def _check(args: argparse.Namespace) -> int:
    level = load_level(args.file, args.level)
    verdict = judge(level, args.solution)
    if not verdict.valid:
        print(f"invalid: {verdict.reason}")
        return 1
    state = "solved" if verdict.solved else f"not solved ({verdict.reason})"
    print(f"{state}: {verdict.moves} moves, {verdict.pushes} pushes")
    return 0 if verdict.solved else 1


def progress_text(progress: SolveProgress) -> str:
    """A solve's progress in words: states searched, seconds spent out of the limit."""
    return f"searching: {progress.nodes:,} states, {progress.seconds:.1f} s of {progress.time_limit:g} s"


class ProgressLine:
    """Prints a solve's progress on ``stream``: one line rewritten in place on a terminal, a line a report otherwise."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.live = stream.isatty()
        self.shown = 0          # characters of the live line on the screen

    def update(self, progress: SolveProgress) -> None:
        """Show ``progress`` (``solve``'s callback)."""
        text = progress_text(progress)
        if self.live:
            self.stream.write("\r" + text.ljust(self.shown))
            self.shown = len(text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def close(self) -> None:
        """Wipe the live line, so what is printed next starts on a clean line."""
        if self.shown:
            self.stream.write("\r" + " " * self.shown + "\r")
            self.stream.flush()
            self.shown = 0


def _solve(args: argparse.Namespace) -> int:
    level = load_level(args.file, args.level)
    print(f"solving level {args.level} of {args.file}: time limit {args.time_limit:g} s (Ctrl-C stops)",
          file=sys.stderr, flush=True)
    line = ProgressLine(sys.stderr)
    try:
        result = solve(level, time_limit=args.time_limit, progress=line.update, clock=time.monotonic)
    except KeyboardInterrupt:
        line.close()
        print("stopped: no solution yet", file=sys.stderr)
        return 130
    line.close()
    if not result.solved:
        why = {"unsolvable": "the level has no solution", "time_limit": f"no solution within {args.time_limit:g} s",
               "node_limit": "no solution within the node limit"}[result.status]
        print(f"{why} ({result.nodes} states searched)")
        return 1
    print(result.lurd)
    print(f"{result.moves} moves, {result.pushes} pushes ({result.nodes} states, {result.seconds:.2f} s)",
          file=sys.stderr)
    return 0


def _build(args: argparse.Namespace) -> int:
    level = from_solution(args.solution)
    print(level.to_xsb(), end="")
    return 0


def _play(args: argparse.Namespace) -> int:
    collection = load_collection(args.file)
    if not 1 <= args.level <= len(collection):
        raise SourceError(f"{args.file} has {len(collection)} levels; there is no level {args.level}")
    from .sokoban_app import SokobanApp     # Textual starts only for play
    SokobanApp(collection, args.level - 1, push_rows=args.push_rows).run()
    return 0


def _guarded(command):
    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except (SourceError, SokobanError) as exc:
            kind = "bad answer" if isinstance(exc, LurdError) else "error"
            print(f"quoridor-puzzle sokoban: {kind}: {exc}", file=sys.stderr)
            return 1
    return run


def add_subcommand(subparsers: argparse._SubParsersAction) -> None:
    """Register ``sokoban`` and its commands (play, show, list, check, solve, build)."""
    parser = subparsers.add_parser("sokoban", help="Sokoban: play, check and solve XSB levels",
                                   description="Play, check and solve Sokoban levels (XSB files or bundled "
                                               "collections; levels numbered from 1).")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def level_args(command: argparse.ArgumentParser) -> None:
        command.add_argument("file", metavar="FILE", help="an XSB file or a bundled collection name")
        command.add_argument("--level", "-n", type=int, default=1, metavar="N", help="level number, from 1 (default 1)")

    play = commands.add_parser("play", help="play in the terminal (arrows, u undo, r redo, Esc Esc restart, n/p levels, "
                                               "? help)")
    level_args(play)
    play.add_argument("--push-rows", action="store_true", help="variant: push whole rows of boxes")
    play.set_defaults(func=_guarded(_play))

    show = commands.add_parser("show", help="print a level")
    level_args(show)
    show.set_defaults(func=_guarded(_show))

    listing = commands.add_parser("list", help="list the levels of FILE, or the bundled collections")
    listing.add_argument("file", metavar="FILE", nargs="?", help="an XSB file or a bundled collection name")
    listing.set_defaults(func=_guarded(_list))

    check = commands.add_parser("check", help="judge a LURD solution (l u r d moves, L U R D pushes)")
    level_args(check)
    check.add_argument("solution", metavar="LURD", help="the solution")
    check.set_defaults(func=_guarded(_check))

    solver = commands.add_parser("solve", help="search for a solution and print it as LURD")
    level_args(solver)
    solver.add_argument("--time-limit", type=float, default=60.0, metavar="S",
                        help="seconds to search (default 60); progress is shown on standard error")
    solver.set_defaults(func=_guarded(_solve))

    build = commands.add_parser("build", help="print the level that a LURD solution describes")
    build.add_argument("solution", metavar="LURD", help="a solution: its pushes define the boxes and goals")
    build.set_defaults(func=_guarded(_build))
    parser.set_defaults(func=_guarded(lambda args: parser.error("a command is needed")))

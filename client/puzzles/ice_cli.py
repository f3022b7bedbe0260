"""``quoridor-puzzle ice``: play, solve, generate and check ice mazes.

    quoridor-puzzle ice play [FILE] [--difficulty D] [--size N] [--seed S]
        # arrows slide, u undo, r redo, Esc Esc restart, s optimal route, ? help, q quit
    quoridor-puzzle ice solve FILE                          # the optimal route, drawn on the maze
    quoridor-puzzle ice generate [--difficulty D] [--size N] [--height H] [--seed S] [--unsolvable | --any]
    quoridor-puzzle ice check FILE ANSWER                   # ANSWER like "urdlur"

A generated maze's side is drawn from its difficulty's sides (by default ``kata``: 10 to 34, the
kata's random tests) unless ``--size`` says, and its optimal route takes at least the
difficulty's moves (easy 4, normal 8, hard 12, hell 16, kata 8) unless ``--min-moves`` says.
A maze file holds the kata's characters (``S E x #`` and spaces for ice), one row a line;
``--pad`` pads short lines with ice for files whose trailing spaces an editor removed. ``-``
reads standard input. Exit status: 0 done, 1 unreadable or invalid file, 2 bad usage.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from shared.ice import (DIFFICULTIES, KATA_SIDES, MAX_SIDE, MIN_SIDE, IceGeneratorError, IceMaze, IceMazeError,
                        best_route, check_answer, generate_maze, parse_maze)

from .ice_app import IceApp, render_maze

__all__ = ["add_subcommand", "load_maze", "MazeFileError"]

_PROG = "quoridor-puzzle ice"


class MazeFileError(ValueError):
    """A maze file that cannot be read or is not a valid maze (the message names the file)."""


def load_maze(path: str, *, pad: bool = False) -> IceMaze:
    """Read and parse a maze file (``-`` for standard input); ``MazeFileError`` on any failure."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise MazeFileError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise MazeFileError(f"{path}: not a UTF-8 text file") from None
    if pad:
        lines = text.rstrip("\n").split("\n")
        width = max(len(line.rstrip("\r")) for line in lines)
        text = "\n".join(line.rstrip("\r").ljust(width) for line in lines)
    try:
        return parse_maze(text)
    except IceMazeError as exc:
        raise MazeFileError(f"{path}: {exc}") from None


def add_subcommand(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``ice`` and its commands on ``subparsers`` (from ``quoridor-puzzle``)."""
    parser = subparsers.add_parser("ice", help="the ice maze: slide to the end in the fewest moves",
                                   description="Ice mazes: slide until something stops you; reach E in the "
                                               "fewest moves, then the shortest distance.")
    parser.set_defaults(func=lambda args: _usage(parser))
    commands = parser.add_subparsers(dest="ice_command", metavar="COMMAND", required=True)

    play = commands.add_parser("play", help="play a maze (from a file, or generated)")
    play.add_argument("file", nargs="?", help="a maze file (default: a generated maze)")
    _generator_options(play)
    play.add_argument("--pad", action="store_true", help="pad short lines with ice")
    play.set_defaults(func=_play, parser=play)

    solve = commands.add_parser("solve", help="print an optimal route of a maze file")
    solve.add_argument("file", help="a maze file, or - for standard input")
    solve.add_argument("--pad", action="store_true", help="pad short lines with ice")
    solve.set_defaults(func=_solve, parser=solve)

    generate = commands.add_parser("generate", help="print a random maze")
    _generator_options(generate)
    which = generate.add_mutually_exclusive_group()
    which.add_argument("--unsolvable", action="store_true", help="a maze whose end cannot be reached")
    which.add_argument("--any", action="store_true", help="solvable or not, as the draw falls")
    generate.set_defaults(func=_generate, parser=generate)

    check = commands.add_parser("check", help="judge an answer (letters u d l r) for a maze file")
    check.add_argument("file", help="a maze file, or - for standard input")
    check.add_argument("answer", help='the moves, e.g. "urdlur" (or "u r d l u r")')
    check.add_argument("--pad", action="store_true", help="pad short lines with ice")
    check.set_defaults(func=_check, parser=check)
    return parser


def _generator_options(parser: argparse.ArgumentParser) -> None:
    levels = "; ".join(f"{d.name}: sides {d.sides[0]}-{d.sides[1]}, {d.min_moves}+ moves"
                       for d in DIFFICULTIES.values())
    parser.add_argument("--difficulty", choices=list(DIFFICULTIES), default="kata",
                        help=f"the sides drawn and the fewest moves of the optimal route ({levels}; default kata)")
    parser.add_argument("--size", type=int, help=f"the side (or width) of a generated maze, {MIN_SIDE} to {MAX_SIDE} "
                        f"(default: drawn from {KATA_SIDES[0]} to {KATA_SIDES[1]} like the kata's random tests, "
                        "or from the sides of the --difficulty asked; the same --seed draws the same side)")
    parser.add_argument("--min-moves", type=int, metavar="N",
                        help="the fewest moves the optimal route may take (default: the difficulty's)")
    parser.add_argument("--height", type=int, help="the height, when not square (default: the width)")
    parser.add_argument("--seed", type=int, help="a seed, to get the same maze again")
    parser.add_argument("--ice", type=float, default=0.75, help="share of ice cells (default 0.75)")
    parser.add_argument("--obstacle", type=float, default=0.20, help="share of obstacles (default 0.20)")
    parser.add_argument("--sticky", type=float, default=0.05, help="share of x cells (default 0.05)")


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_usage(sys.stderr)
    return 2


def _fail(message: str) -> int:
    print(f"{_PROG}: {message}", file=sys.stderr)
    return 1


def _generated(args: argparse.Namespace, solvable: bool | None) -> IceMaze:
    try:
        return generate_maze(args.size, args.height, ice=args.ice, obstacle=args.obstacle, sticky=args.sticky,
                             seed=args.seed, solvable=solvable, difficulty=args.difficulty, min_moves=args.min_moves)
    except IceGeneratorError as exc:
        args.parser.error(str(exc))     # exits with status 2
        raise


def _play(args: argparse.Namespace) -> int:
    try:
        maze = load_maze(args.file, pad=args.pad) if args.file else _generated(args, True)
    except MazeFileError as exc:
        return _fail(str(exc))
    IceApp(maze, title=f"ice maze {args.file or f'{maze.width}x{maze.height}'}").run()
    return 0


def _solve(args: argparse.Namespace) -> int:
    try:
        maze = load_maze(args.file, pad=args.pad)
    except MazeFileError as exc:
        return _fail(str(exc))
    route = best_route(maze)
    console = Console(highlight=False)
    if route is None:
        console.print("no route: E cannot be reached")
        console.print(render_maze(maze), soft_wrap=True)
        return 0
    console.print(f"route: {' '.join(route.letters)}")
    console.print(f"moves {route.moves}, distance {route.distance}")
    console.print(render_maze(maze, stops=route.stops), soft_wrap=True)
    return 0


def _generate(args: argparse.Namespace) -> int:
    maze = _generated(args, None if args.any else not args.unsolvable)
    sys.stdout.write(maze.render() + "\n")
    return 0


def _check(args: argparse.Namespace) -> int:
    try:
        maze = load_maze(args.file, pad=args.pad)
    except MazeFileError as exc:
        return _fail(str(exc))
    verdict = check_answer(maze, [c for c in args.answer if not c.isspace() and c != ","])
    if not verdict.valid:
        print(f"invalid: {verdict.reason}")
    elif not verdict.reached:
        print(f"valid but unsolved: {verdict.reason}")
    else:
        best = verdict.best or (0, 0)
        quality = "optimal" if verdict.optimal else f"not optimal: the best takes {best[0]} moves, distance {best[1]}"
        print(f"solved in {verdict.moves} moves, distance {verdict.distance}; {quality}")
    return 0

"""``quoridor-puzzle circuit``: play, solve and generate circuit-repair levels.

    quoridor-puzzle circuit play [FILE] [--difficulty D] [--size N] [--seed S]
        # arrows move the cursor, Space/Enter turn, l lock, u undo, r redo, Esc Esc restart, h hint, ? help, q quit
    quoridor-puzzle circuit solve FILE       # the rotations that connect it, drawn
    quoridor-puzzle circuit generate [--difficulty D] [--size N] [--seed S] [--solution]

A level file holds the text form, one row a line: ``.`` empty, or ``S`` source, ``T``
terminal, ``I`` straight, ``L`` corner followed by the rotation in degrees (``L90``). ``-``
reads standard input. Exit status: 0 done, 1 unreadable or invalid file, 2 bad usage.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from shared.circuit import (DIFFICULTIES, Circuit, CircuitFormatError, CircuitGeneratorError, CircuitLevel,
                            generate_level, parse_circuit, solved)

from .circuit_app import CircuitApp, render_circuit

__all__ = ["add_subcommand", "load_circuit", "CircuitFileError"]

_PROG = "quoridor-puzzle circuit"


class CircuitFileError(ValueError):
    """A level file that cannot be read or is not a valid circuit (the message names the file)."""


def load_circuit(path: str) -> Circuit:
    """Read and parse a level file (``-`` for standard input); ``CircuitFileError`` on any failure."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CircuitFileError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise CircuitFileError(f"{path}: not a UTF-8 text file") from None
    try:
        return parse_circuit(text)
    except CircuitFormatError as exc:
        raise CircuitFileError(f"{path}: {exc}") from None


def add_subcommand(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``circuit`` and its commands on ``subparsers`` (from ``quoridor-puzzle``)."""
    parser = subparsers.add_parser("circuit", help="circuit repair: turn tiles to wire the source to the terminal",
                                   description="Circuit repair: turn the tiles so that the source and the "
                                               "terminal are connected.")
    parser.set_defaults(func=lambda args: _usage(parser))
    commands = parser.add_subparsers(dest="circuit_command", metavar="COMMAND", required=True)

    play = commands.add_parser("play", help="play a level (from a file, or generated)")
    play.add_argument("file", nargs="?", help="a level file (default: a generated level)")
    _generator_options(play)
    play.set_defaults(func=_play, parser=play)

    solve = commands.add_parser("solve", help="print the rotations that connect a level file")
    solve.add_argument("file", help="a level file, or - for standard input")
    solve.set_defaults(func=_solve, parser=solve)

    generate = commands.add_parser("generate", help="print a generated level in the text form")
    _generator_options(generate)
    generate.add_argument("--solution", action="store_true", help="print the solution after the level")
    generate.set_defaults(func=_generate, parser=generate)
    return parser


def _generator_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--difficulty", choices=list(DIFFICULTIES), default="normal", help="default: normal")
    parser.add_argument("--size", type=int, help="the grid side (default: drawn from the difficulty's range)")
    parser.add_argument("--seed", type=int, help="a seed, to get the same level again")


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_usage(sys.stderr)
    return 2


def _fail(message: str) -> int:
    print(f"{_PROG}: {message}", file=sys.stderr)
    return 1


def _generated(args: argparse.Namespace) -> CircuitLevel:
    try:
        return generate_level(args.difficulty, seed=args.seed, size=args.size)
    except CircuitGeneratorError as exc:
        args.parser.error(str(exc))     # exits with status 2
        raise


def _play(args: argparse.Namespace) -> int:
    try:
        circuit = load_circuit(args.file) if args.file else _generated(args).initial
    except CircuitFileError as exc:
        return _fail(str(exc))
    CircuitApp(circuit, title=f"circuit {args.file or args.difficulty}").run()
    return 0


def _solve(args: argparse.Namespace) -> int:
    try:
        circuit = load_circuit(args.file)
    except CircuitFileError as exc:
        return _fail(str(exc))
    console = Console(highlight=False)
    fixed = solved(circuit)
    if fixed is None:
        console.print("no solution: no turning of the tiles connects the source and the terminal")
        console.print(render_circuit(circuit), soft_wrap=True)
        return 0
    console.print(f"rotations: {circuit.clicks_to(fixed)} quarter turns")
    for pos in circuit.movable():
        if circuit[pos] != fixed[pos]:
            console.print(f"  row {pos.row}, column {pos.col}: {circuit[pos].rotation} -> {fixed[pos].rotation}")
    console.print(fixed.render(), soft_wrap=True)
    console.print(render_circuit(fixed), soft_wrap=True)
    return 0


def _generate(args: argparse.Namespace) -> int:
    level = _generated(args)
    sys.stdout.write(level.initial.render() + "\n")
    if args.solution:
        sys.stdout.write("\n" + level.solution.render() + "\n")
    return 0

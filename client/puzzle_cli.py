"""``quoridor-puzzle``: play and solve the side-room puzzles in the terminal.

Each puzzle contributes a subcommand from its own module in ``client/puzzles/`` (a function
``add_subcommand(subparsers)`` that registers its parser and sets ``func`` on it), so a new
puzzle is one module and one line in ``PUZZLES``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

__all__ = ["main", "PUZZLES"]

#: Subcommand -> module that registers it.
PUZZLES: dict[str, str] = {
    "sokoban": "client.puzzles.sokoban_cli",
    "ice": "client.puzzles.ice_cli",
    "circuit": "client.puzzles.circuit_cli",
}


def build_parser() -> argparse.ArgumentParser:
    """The parser with every puzzle's subcommand."""
    parser = argparse.ArgumentParser(prog="quoridor-puzzle",
                                     description="Play and solve the Quoridor Arena side-room puzzles.")
    subparsers = parser.add_subparsers(dest="puzzle", metavar="PUZZLE", required=True)
    for name, module_name in PUZZLES.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        module.add_subcommand(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a puzzle subcommand; returns its exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())

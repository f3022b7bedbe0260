"""Pieces of the command lines that the server's and the client's commands share (argparse).

An argparse action, no logic: what it writes is argparse's kind of output, a note on stderr while the
command line is parsed, as argparse's own usage errors.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

__all__ = ["DeprecatedAlias"]


class DeprecatedAlias(argparse.Action):
    """An old spelling of an option: still works, and says in one line (on stderr) what to type instead."""

    def __init__(self, option_strings: Sequence[str], dest: str, *, instead: str, why: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, default=argparse.SUPPRESS, help=argparse.SUPPRESS, **kwargs)
        self.instead, self.why = instead, why

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        print(f"{parser.prog}: note: {option_string} is deprecated ({self.why}); use {self.instead}", file=sys.stderr)
        setattr(namespace, self.dest, values)

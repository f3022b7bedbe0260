"""Pieces of the command lines that the server's and the client's commands share (argparse). Pure: nothing here
writes; a command prints what they leave (``deprecation_notes``) itself.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

__all__ = ["DeprecatedAlias", "deprecation_notes"]

#: Where ``DeprecatedAlias`` leaves its notes on the parsed namespace.
_NOTES = "_deprecation_notes"


class DeprecatedAlias(argparse.Action):
    """An old spelling of an option: still works, and leaves a one-line note of what to type instead
    (``deprecation_notes``)."""

    def __init__(self, option_strings: Sequence[str], dest: str, *, instead: str, why: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, default=argparse.SUPPRESS, help=argparse.SUPPRESS, **kwargs)
        self.instead, self.why = instead, why

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        notes = getattr(namespace, _NOTES, [])
        notes.append(f"{parser.prog}: note: {option_string} is deprecated ({self.why}); use {self.instead}")
        setattr(namespace, _NOTES, notes)
        setattr(namespace, self.dest, values)


def deprecation_notes(args: argparse.Namespace) -> list[str]:
    """The notes the deprecated options used in ``args`` left, one line each, for the command to print on stderr."""
    return list(getattr(args, _NOTES, []))

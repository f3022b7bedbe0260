"""``Notice``: a line the client tells its user, as text parts with a tone each and no terminal styling.

The runner and the local match say what happens through notices handed to a ``Say`` callable;
the command lines decide how a tone looks (``client.render.render_notice``). Text that comes
from a bot or a server goes into a notice as it is and is never read as markup.
"""

from __future__ import annotations

import enum
import sys
from collections.abc import Callable
from dataclasses import dataclass

from shared.quoridor import Cause, Step, step_name

__all__ = ["Tone", "Notice", "Say", "say_plain", "violation_text"]


class Tone(enum.Enum):
    """What a part of a notice means, for its look."""

    PLAIN = "plain"
    NAME = "name"          # a player's name, emphasised
    GOOD = "good"          # a won game
    BAD = "bad"            # an error, a lost game
    CAUTION = "caution"    # a warning, a drawn game
    QUIET = "quiet"        # a note of something expected (a late answer discarded), a countdown


@dataclass(frozen=True)
class Notice:
    """One line (or a few, with a traceback) for the user: ``(text, tone)`` parts in order.

    A ``live`` notice is a status that the next one replaces (a countdown): a terminal shows it on
    one line rewritten in place, plain output only now and then (``client.render.notice_printer``).
    """

    parts: tuple[tuple[str, Tone], ...]
    live: bool = False

    @classmethod
    def of(cls, *parts: str | tuple[str, Tone], live: bool = False) -> Notice:
        """A notice from plain strings and ``(text, tone)`` pairs."""
        return cls(tuple((part, Tone.PLAIN) if isinstance(part, str) else part for part in parts), live)

    @property
    def text(self) -> str:
        """The notice as plain text."""
        return "".join(text for text, _ in self.parts)


#: Where notices go.
Say = Callable[[Notice], None]


def say_plain(notice: Notice) -> None:
    """Print a notice as plain text on standard error (the default when no terminal UI is given).

    Live notices (a countdown) are left out: a line per second would bury the rest.
    """
    if not notice.live:
        print(notice.text, file=sys.stderr, flush=True)


def violation_text(turn: int, cause: Cause | str, reason: str, step: Step | None = None) -> str:
    """The line that tells a bot's author why the step of ``turn`` was a violation.

    ``turn 12: your step a5 was illegal: a5 is not reachable in one step from e1``, or for a late
    one ``turn 7: too late: answered after 1,203 ms; the limit is 1,000 ms``. ``step`` (what the bot
    sent, when known) is named in notation; an empty step or one off the board is not named.
    """
    if cause == Cause.LATE:
        return f"turn {turn}: too late: {reason}"
    name = ""
    if step is not None:
        try:
            name = step_name(step)
        except ValueError:          # NotationError: a target off the board has no name; the reason quotes it
            name = ""
    what = f"your step {name}" if name and name != "-" else "your step"
    return f"turn {turn}: {what} was illegal: {reason}"

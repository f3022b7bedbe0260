"""The built-in bots' reference ratings on the ladder's scale (``random`` = 0), and where a rating stands among them.

Like CodinGame's league bosses: a bot's report says "beats defender (+1,123), not yet strong (+1,690)".
The figures are not guessed: ``bench/reference_ratings.py`` plays the built-in bots (and bridges of graded
strength between them, so that every gap is measured by games rather than by the fit's prior) under the
ladder's conditions and fits the ladder's Bradley-Terry model; ``REFERENCE_COMMAND`` says which run made
them, ``REFERENCE_CONDITIONS`` under what. Run the bench again after changing a built-in bot: it prints
the new figures beside these, and with ``--write`` the literal to paste here.

Pure: no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["ReferenceRating", "REFERENCE", "REFERENCE_COMMAND", "REFERENCE_CONDITIONS", "OFF_SCALE", "standing"]


@dataclass(frozen=True, slots=True)
class ReferenceRating:
    """A built-in bot's rating on the ladder's scale with its 95% interval (``low <= rating <= high``)."""

    bot: str
    rating: float
    low: float
    high: float


#: The run that made the figures below (its command, date and load average).
REFERENCE_COMMAND = "bench/reference_ratings.py (2026-11-27, load 5.70)"
#: The conditions of that run: the ladder's.
REFERENCE_CONDITIONS = ("each pair of games from 4 random pawn moves (the ladder's openings); strong searching "
                        "1,500 nodes a step (what its 200 ms on the ladder reach on a quiet machine), the other bots "
                        "on no clock; no violations")
#: The built-in bots, weakest first.
REFERENCE: tuple[ReferenceRating, ...] = (
    ReferenceRating("random", 0, 0, 0),
    ReferenceRating("runner", 1278, 1165, 1398),
    ReferenceRating("blocker", 1647, 1520, 1781),
    ReferenceRating("defender", 1942, 1803, 2088),
    ReferenceRating("strong", 2511, 2356, 2673),
)


def _elo(value: float) -> str:
    """``+1,123``: a rating in whole Elo with its sign."""
    return f"{value:+,.0f}"


def _named(refs: Sequence[ReferenceRating]) -> str:
    return ", ".join(f"{ref.bot} ({_elo(ref.rating)})" for ref in refs)


#: The line for a table whose ratings are not on the reference bots' scale.
OFF_SCALE = ("not placed among the reference bots: the ladder's table is on their scale only when random plays "
             "there (its ratings are centred now); seat it with --resident random")


def standing(rating: float | None, low: float | None = None, high: float | None = None,
             references: Sequence[ReferenceRating] = REFERENCE, *, on_scale: bool = True) -> str:
    """Where a published rating (with its interval ``low..high``) stands among ``references``, in one line:
    ``beats defender (+1,123), not yet strong (+1,690)``; ``about level with X`` for each reference rating its
    interval holds. ``not rated yet`` without a rating; ``OFF_SCALE`` when the table is not anchored on random
    (``on_scale`` False: a centred table's ratings are not comparable with the references')."""
    if not on_scale:
        return OFF_SCALE
    if rating is None:
        return "not rated yet (no games that link it to random on the ladder's table)"
    low = rating if low is None else low
    high = rating if high is None else high
    refs = sorted(references, key=lambda ref: ref.rating)
    below = [ref for ref in refs if ref.rating < low]
    level = [ref for ref in refs if low <= ref.rating <= high]
    above = [ref for ref in refs if ref.rating > high]
    parts = []
    if below:
        parts.append(f"beats {_named(below[-1:])}" + (", the strongest reference bot" if not level and not above
                                                      else ""))
    if level:
        parts.append(f"about level with {_named(level)}")
    if above:
        parts.append(f"not yet {_named(above[:1])}" + (", the weakest reference bot" if not below and not level
                                                       else ""))
    return ", ".join(parts) if parts else "no reference bots to compare with"

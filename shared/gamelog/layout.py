"""Where each row of a log lands in its file, as ``format_log`` writes it. Pure arithmetic on the log's parts.

Its own module so that a replay of a log built in memory (``replay.Replay``) can name the lines of its
rows without the CSV reader and writer (``csvformat``), which replays every log it reads.
"""

from __future__ import annotations

from .records import GameHeader, GameLog

__all__ = ["HEADER_KEYS", "TOTAL_KEYS", "header_rows", "row_lines"]

#: The header's optional metadata rows, in the order written, after ``format``, both players and ``ruleset``.
HEADER_KEYS = ("game", "tournament", "started", "clock")
#: The per-seat totals written before the ``result`` row, one row per seat each.
TOTAL_KEYS = ("violations", "thinking_ms")


def header_rows(header: GameHeader) -> int:
    """The metadata rows of ``header``: format, both players, ruleset, and each optional key that is set."""
    return 4 + sum(getattr(header, key) is not None for key in HEADER_KEYS)


def row_lines(log: GameLog) -> tuple[list[int], int | None]:
    """The file lines ``format_log`` gives each step row and the result row (``None`` when unfinished)."""
    first = 2 + header_rows(log.header)
    steps = [first + i for i in range(len(log.steps))]
    result = None if log.outcome is None else \
        first + len(log.steps) + 2 * len(TOTAL_KEYS) + (2 if log.outcome.cpu_ms is not None else 0) \
        + (2 if log.outcome.wall_ms is not None else 0)
    return steps, result

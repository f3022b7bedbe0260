"""``RowFormatter``: one game's step rows as ``format_row`` writes them, with the game's names checked once. Pure.

A server writes a row per step of every game it plays, on a thread that holds the GIL its event
loop needs meanwhile; ``bench/log_rows.py`` measures both ways.
"""

from __future__ import annotations

from ..quoridor import NO_LOCATION, NO_WALL
from .csvformat import format_row
from .records import GameHeader, StepRecord, log_safe_name

__all__ = ["RowFormatter"]


class RowFormatter:
    """``format_row`` for one game's rows, with the seat column filled: each player's name is checked
    and spelled once, not on every row (a server writes a row per step of every game it plays).

    ``formatter(record)`` equals ``format_row(record, seat=header.seat(record.player))``, and raises
    the same ``ValueError`` for a player who is not in the game.
    """

    def __init__(self, header: GameHeader) -> None:
        self.header = header
        #: Per player name: the row's start (``name,``) and its seat's columns (``,seat,,,``). Names
        #: CSV would quote are left out: their rows take ``format_row``'s own path.
        self._players = {name: (f"{log_safe_name(name)},", f",{seat},,,")
                         for seat, name in enumerate(header.players) if '"' not in name}

    def __call__(self, record: StepRecord) -> str:
        """``record``'s row, line break included."""
        known = self._players.get(record.player)
        reason = record.reason
        if known is None or "," in reason or "%" in reason or '"' in reason:
            return format_row(record, seat=self.header.seat(record.player))
        start, seat = known
        step = record.step
        if step.new_loc.is_valid():         # canonical_step: a cell and a wall together are the move
            loc, wall = step.new_loc, NO_WALL
        elif not step.new_wall.is_none():
            loc, wall = NO_LOCATION, step.new_wall
        else:
            loc, wall = step
        thinking, turn = record.thinking_ms, record.turn
        return (f"{start}{loc.x},{loc.y},{wall.start.x},{wall.start.y},{wall.stop.x},{wall.stop.y},"
                f"{int(record.status)},{'' if thinking is None else thinking},{'' if turn is None else turn}"
                f"{seat}{reason}\n")

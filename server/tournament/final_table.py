"""``FinalTables``: the ``tournament_over`` frame each connection is sent at the end, in O(N) bytes over all of them.

A player is sent the top of the table (``TOP_ROWS``) and then its own row when it is below, with
``players`` saying how long the whole table is; spectators (the pages show the whole final table),
and players that sent ``final_table_request``, are sent every row. Each shared frame is serialised
once; a player's own frame is the top's frame with its row spliced in, so the end of a tournament
of N players costs one row's serialisation per player, not the whole table's (1,000 players: 1,002
frames of 206 KB each, 207 MB in one pass, until then).
"""

from __future__ import annotations

from functools import cached_property

from shared.protocol import StandingRow, TournamentOver

from server.net.connection import Encoded

__all__ = ["FinalTables", "TOP_ROWS"]

#: Rows of the top of the final table every player is sent (then its own row, when it is below them).
TOP_ROWS = 10
#: What follows the rows in a ``tournament_over`` frame (the champion's name, a JSON string, cannot hold it:
#: its quotes are escaped).
_AFTER_ROWS = b'],"champion":'


class FinalTables:
    """The ``tournament_over`` frames of one tournament's end: ``whole`` (every row), ``top``, and ``for_player``."""

    def __init__(self, tournament: str, rows: list[StandingRow], champion: str | None, top: int = TOP_ROWS) -> None:
        self.tournament = tournament
        self.rows = rows
        self.champion = champion
        self.top_rows = max(0, top)
        self._place = {row.player: i for i, row in enumerate(rows)}

    def message(self, rows: list[StandingRow]) -> TournamentOver:
        """The ``tournament_over`` that carries ``rows`` (built without validation: the rows are the server's own)."""
        return TournamentOver.model_construct(tournament=self.tournament, rows=rows, champion=self.champion,
                                              players=len(self.rows))

    @cached_property
    def whole(self) -> Encoded:
        """Every row: the spectators' frame, and a player's that asked for it (serialised once)."""
        return Encoded.of(self.message(self.rows))

    @cached_property
    def top(self) -> Encoded:
        """The top rows only: a top player's frame, or a connection's that is no player (serialised once)."""
        return Encoded.of(self.message(self.rows[:self.top_rows]))

    @cached_property
    def _split(self) -> tuple[bytes, bytes]:
        """``top``'s payload cut where the rows end: a player's frame is the first part, its row, the second."""
        payload = self.top.payload
        end = payload.rindex(_AFTER_ROWS)
        return payload[:end] + (b"," if self.top_rows else b""), payload[end:]

    def for_player(self, player: str | None) -> Encoded:
        """What ``player`` is sent: ``top``, with its own row after the top rows when it is below them."""
        place = self._place.get(player) if player is not None else None
        if place is None or place < self.top_rows:
            return self.top
        own = self.rows[place]
        head, tail = self._split
        return Encoded(self.message([*self.rows[:self.top_rows], own]), head + own.model_dump_json().encode() + tail)

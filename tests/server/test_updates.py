"""The standings rows the server sends are what the protocol model makes of the table, field for field."""

from __future__ import annotations

import math

from server.updates import standing_rows
from shared.protocol import StandingRow, dump
from shared.tournament import GameResult, Standings


def test_standing_rows_are_the_validated_models_rows():
    standings = Standings(["ann", "bob", "cid", "dee"])
    standings.add(GameResult("ann", "bob", 0, "goal", (1500, 2500), (0, 1)))
    standings.add(GameResult("cid", "dee", None, "step_cap", (9000, 9000)))     # a draw: half points
    standings.add(GameResult("bob", "cid", 1, "violations", (300, 200), (3, 0)))
    rows = standing_rows(standings)
    assert [r.player for r in rows] == [r.player for r in standings.rows()]
    for sent, table in zip(rows, standings.rows()):
        validated = StandingRow(rank=table.rank, player=table.player, points=table.points, games=table.games,
                                wins=table.wins, losses=table.losses, draws=table.draws, seat0=list(table.white),
                                seat1=list(table.black),
                                elo=table.elo if table.elo is not None and math.isfinite(table.elo) else None,
                                elo_error=(table.elo_error if table.elo_error is not None
                                           and math.isfinite(table.elo_error) else None),
                                violations=table.violations, thinking_ms=table.thinking_ms)
        assert dump(sent) == dump(validated)

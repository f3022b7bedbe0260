"""What spectators and players are told as a tournament goes: ``game_update`` and standings rows.

Pure builders from the referee's events and the standings to protocol messages; no I/O.
"""

from __future__ import annotations

import math

from shared.protocol import BoardState, GameUpdate, StandingRow, cell, wall
from shared.quoridor import Step, step_name
from shared.referee import StepJudged
from shared.tournament import Standings

__all__ = ["game_update", "standing_rows"]


def game_update(game: str, players: tuple[str, str], judged: StepJudged, over: bool) -> GameUpdate:
    """The ``game_update`` for one judged step of ``game``: the step, its status, both clocks, the board."""
    record, pos = judged.record, judged.position
    step = record.step
    return GameUpdate(
        game=game, players=players, turn=record.turn or 0, seat=judged.seat,
        move=cell(step.new_loc) if step.is_move() else None,
        wall=None if step.is_move() else wall(step.new_wall),
        notation=_notation(step), status=int(record.status), clocks_ms=judged.clocks_ms,
        board=BoardState(pawns=(cell(pos.pawn(0)), cell(pos.pawn(1))), walls=[wall(w) for w in pos.walls],
                         walls_left=pos.walls_left),
        over=over, reason=record.reason, thinking_ms=record.thinking_ms)


def standing_rows(standings: Standings) -> list[StandingRow]:
    """The standings as protocol rows, best first (an infinite Elo is sent as null: JSON has no infinity).

    Built without validation (``model_construct``, values of the right types from ``Standings``):
    validating a thousand rows held up every game for 17 ms per broadcast.
    """
    return [StandingRow.model_construct(
        rank=r.rank, player=r.player, points=float(r.points), games=r.games, wins=r.wins, losses=r.losses,
        draws=r.draws, seat0=list(r.white), seat1=list(r.black), elo=_finite(r.elo), elo_error=_finite(r.elo_error),
        violations=r.violations, thinking_ms=r.thinking_ms) for r in standings.rows()]


def _notation(step: Step) -> str:
    try:
        return step_name(step)
    except ValueError:          # an empty or malformed step has no algebraic name
        return "?"


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None

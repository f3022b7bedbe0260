"""What spectators and players are told as a tournament goes: ``game_update`` and standings rows.

Pure builders from the referee's events and the standings to protocol messages; no I/O.
"""

from __future__ import annotations

import math

from shared.protocol import BoardState, GameUpdate, StandingRow, Wall, cell, wall
from shared.quoridor import Position, Step, step_name
from shared.referee import StepJudged
from shared.tournament import Standings

__all__ = ["game_update", "standing_rows"]


def game_update(game: str, players: tuple[str, str], judged: StepJudged, over: bool) -> GameUpdate:
    """The ``game_update`` for one judged step of ``game``: the step, its status, both clocks, the board.

    Built without validation (``model_construct``, values of the right types from the referee), as
    ``standing_rows`` is, and the walls kept by wall set: it is built in the step's own callback,
    before the next turn is sent, for every step of a watched game (17 us, against 29 us validated
    with every wall listed anew). ``tests/server/test_updates.py`` checks it against the validated
    model on played games.
    """
    record, pos = judged.record, judged.position
    step = record.step
    is_move = step.is_move()
    board = BoardState.model_construct(pawns=(cell(pos.pawn(0)), cell(pos.pawn(1))), walls=_walls(pos),
                                       walls_left=tuple(pos.walls_left))
    return GameUpdate.model_construct(
        type="game_update", game=game, players=tuple(players), turn=record.turn or 0, seat=judged.seat,
        move=cell(step.new_loc) if is_move else None, wall=None if is_move else wall(step.new_wall),
        notation=_notation(step), status=int(record.status), clocks_ms=tuple(judged.clocks_ms), board=board,
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


#: The wire walls of the wall sets seen lately, by the position's wall bitmasks: ``Position.walls`` looks at
#: all 200 slots (16 us), and most steps leave the walls as they were.
_WALLS: dict[tuple[int, int], tuple[Wall, ...]] = {}
_WALLS_KEPT = 4096


def _walls(pos: Position) -> list[Wall]:
    key = (pos.h_walls, pos.v_walls)
    walls = _WALLS.get(key)
    if walls is None:
        if len(_WALLS) >= _WALLS_KEPT:
            _WALLS.clear()
        walls = _WALLS[key] = tuple(w for w in map(wall, pos.walls) if w is not None)
    return list(walls)


def _notation(step: Step) -> str:
    try:
        return step_name(step)
    except ValueError:          # an empty or malformed step has no algebraic name
        return "?"


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None

"""What spectators and players are told as a tournament goes: ``game_update`` and standings rows.

Pure builders from the referee's events and the standings to protocol messages; no I/O.
"""

from __future__ import annotations

import math

from shared.protocol import BoardState, GameUpdate, StandingRow, Wall, cell, json_string, wall, wall_json
from shared.quoridor import Position, Step, step_name
from shared.referee import StepJudged
from shared.tournament import Standings

__all__ = ["game_update", "game_update_frame", "game_start_frame", "standing_rows"]


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


def game_start_frame(game: str, opponent: str, seat: int) -> bytes:
    """``dump(GameStart(game=game, opponent=opponent, seat=seat))``, character for character, written directly and
    UTF-8 encoded: every game's start sends two, and a round of 500 games starts at once (the model's validation and
    dump took about half of a start's work on the event loop). ``tests/server/test_updates.py`` checks it against
    the validated model."""
    return (f'{{"type":"game_start","game":{json_string(game)},"opponent":{json_string(opponent)},'
            f'"seat":{seat}}}').encode()


def game_update_frame(game: str, players: tuple[str, str], judged: StepJudged, over: bool) -> bytes:
    """``dump(game_update(...))`` for the same facts, character for character, written directly and UTF-8 encoded.

    Every step of a watched game is sent as one, from the step's own callback: at 100 spectators of
    50 games, building and dumping the model took a third of the server's time for a step. The
    values come from the referee, so there is nothing to validate; ``tests/server/test_updates.py``
    checks it against the validated model on played games.
    """
    record, pos = judged.record, judged.position
    step = record.step
    if step.is_move():
        x, y = step.new_loc
        move, placed = f"[{x},{y}]", "null"
    else:
        move, placed = "null", wall_json(step.new_wall)
    (x0, y0), (x1, y1) = pos.pawn(0), pos.pawn(1)
    left0, left1 = pos.walls_left
    clock0, clock1 = judged.clocks_ms
    thinking = "null" if record.thinking_ms is None else record.thinking_ms
    return (f'{{"type":"game_update","game":{json_string(game)},"players":[{json_string(players[0])},'
            f'{json_string(players[1])}],"turn":{record.turn or 0},"seat":{judged.seat},"move":{move},'
            f'"wall":{placed},"notation":{json_string(_notation(step))},"status":{int(record.status)},'
            f'"clocks_ms":[{clock0},{clock1}],"board":{{"pawns":[[{x0},{y0}],[{x1},{y1}]],'
            f'"walls":{_walls_json(pos)},"walls_left":[{left0},{left1}]}},"over":{"true" if over else "false"},'
            f'"reason":{json_string(record.reason)},"thinking_ms":{thinking}}}').encode()


def standing_rows(standings: Standings) -> list[StandingRow]:
    """The standings as protocol rows, best first (an infinite Elo is sent as null: JSON has no infinity).

    Built without validation (``model_construct``, values of the right types from ``Standings``):
    validating a thousand rows held up every game for 17 ms per broadcast.
    """
    return [StandingRow.model_construct(
        rank=r.rank, player=r.player, points=float(r.points), games=r.games, wins=r.wins, losses=r.losses,
        draws=r.draws, seat0=list(r.white), seat1=list(r.black), elo=_finite(r.elo), elo_error=_finite(r.elo_error),
        elo_low=_finite(r.elo_low), elo_high=_finite(r.elo_high), violations=r.violations, thinking_ms=r.thinking_ms,
        separated=r.separated) for r in standings.rows()]


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


#: The same walls as JSON text, by the position's wall bitmasks (kept as ``_WALLS`` is).
_WALLS_JSON: dict[tuple[int, int], str] = {}


def _walls_json(pos: Position) -> str:
    key = (pos.h_walls, pos.v_walls)
    text = _WALLS_JSON.get(key)
    if text is None:
        if len(_WALLS_JSON) >= _WALLS_KEPT:
            _WALLS_JSON.clear()
        text = _WALLS_JSON[key] = "[" + ",".join(wall_json(bar) for bar in pos.walls if not bar.is_none()) + "]"
    return text


def _notation(step: Step) -> str:
    try:
        return step_name(step)
    except ValueError:          # an empty or malformed step has no algebraic name
        return "?"


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None

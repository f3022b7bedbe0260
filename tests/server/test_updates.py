"""What the server sends spectators is what the protocol models make of the referee's facts, field for field."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

from server.games.updates import game_start_frame, game_update, game_update_frame, standing_rows
from shared.gamelog.records import StepRecord
from shared.protocol import BoardState, GameStart, GameUpdate, StandingRow, cell, dump, parse_server, wall
from shared.quoridor import GameStatus, Position, Step, step_name
from shared.referee import StepJudged
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
                                elo_low=table.elo_low, elo_high=table.elo_high,
                                violations=table.violations, thinking_ms=table.thinking_ms)
        assert dump(sent) == dump(validated)
        assert sent.elo_low <= sent.elo <= sent.elo_high          # the interval goes out with its estimate


def notation(step: Step) -> str:
    try:
        return step_name(step)
    except ValueError:
        return "?"


def validated_update(game: str, players: tuple[str, str], judged: StepJudged, over: bool) -> GameUpdate:
    """The obvious, validated ``game_update``: the model built from the referee's facts."""
    record, pos, step = judged.record, judged.position, judged.record.step
    return GameUpdate(game=game, players=players, turn=record.turn or 0, seat=judged.seat,
                      move=cell(step.new_loc) if step.is_move() else None,
                      wall=None if step.is_move() else wall(step.new_wall),
                      notation=notation(step),
                      status=int(record.status), clocks_ms=judged.clocks_ms,
                      board=BoardState(pawns=(cell(pos.pawn(0)), cell(pos.pawn(1))),
                                       walls=[wall(w) for w in pos.walls], walls_left=pos.walls_left),
                      over=over, reason=record.reason, thinking_ms=record.thinking_ms)


def played_steps(seed: int) -> Iterator[tuple[str, StepJudged, bool]]:
    """(game id, judged step, whether it ended the game) for every step of 20 random games, walls and all."""
    rng = random.Random(seed)
    for game in range(20):
        pos, clocks = Position.initial(), [0, 0]
        for turn in range(60):
            seat = turn % 2
            steps = pos.legal_steps()
            walls = [s for s in steps if not s.is_move()]
            step = rng.choice(walls if walls and rng.random() < 0.4 else [s for s in steps if s.is_move()])
            pos = pos.play(step)
            thinking = rng.randrange(1, 900)
            clocks[seat] += thinking
            status = GameStatus.WIN if pos.is_over() else GameStatus.OK
            record = StepRecord(f"p{seat}", step, status, thinking, turn)
            yield f"g{game}", StepJudged(seat, record, pos, (clocks[0], clocks[1])), pos.is_over()
            if pos.is_over():
                break


def test_game_updates_are_the_validated_models_on_played_games():
    players = ("ann", "bob")
    for game, judged, over in played_steps(16):
        assert dump(game_update(game, players, judged, over)) == dump(
            validated_update(game, players, judged, over)), f"{game}, turn {judged.record.turn}"
    empty = StepJudged(1, StepRecord("bob", Step(), GameStatus.TIMEOUT, 1000, 3, "late"), Position.initial(), (5, 1000))
    assert dump(game_update("g", ("ann", "bob"), empty, False)) == dump(validated_update("g", ("ann", "bob"), empty,
                                                                                         False))


def test_update_frames_are_the_validated_models_frames_on_played_games():
    players = ("ann", "bøb \"the\" builder")
    for game, judged, over in played_steps(17):
        assert game_update_frame(game, players, judged, over) == dump(
            validated_update(game, players, judged, over)).encode(), f"{game}, turn {judged.record.turn}"
    # A violation: no step, its reason (quotes, a backslash, non-ASCII kept), no thinking time known.
    late = StepJudged(1, StepRecord("bob", Step(), GameStatus.TIMEOUT, None, 3, 'late "again" \\ ß'),
                      Position.initial(), (5, 1000))
    assert game_update_frame("g", ("ann", "bob"), late, True) == dump(
        validated_update("g", ("ann", "bob"), late, True)).encode()


def test_game_start_frames_are_the_validated_models_frames():
    names = ["t1-r1-p1-g1", "bob", "Zoë, the \"quick\" one", "tab\there", "back\\slash", "日本", "%2C,;"]
    for game in names:
        for opponent in names:
            for seat in (0, 1):
                frame = game_start_frame(game, opponent, seat)
                assert frame == dump(GameStart(game=game, opponent=opponent, seat=seat)).encode()
                assert parse_server(frame.decode()) == GameStart(game=game, opponent=opponent, seat=seat)

"""A game played again from the start (its worker died) is shown from its new start, never after the old steps."""

from __future__ import annotations

from server.web import WebDesk
from shared.gamelog import GameOutcome, StepRecord
from shared.quoridor import GameStatus, Location, Position, Step
from shared.referee import StepJudged

PLAYERS = ("amy", "bob")


def walk(turns: int) -> list[StepJudged]:
    """The first ``turns`` steps of a game where both pawns walk straight ahead."""
    position, steps = Position.initial(), []
    for turn in range(turns):
        seat = position.turn
        pawn = position.pawn(seat)
        step = Step(Location(pawn[0], pawn[1] + (1 if seat == 0 else -1)))
        position = position.apply(step)
        record = StepRecord(PLAYERS[seat], step, GameStatus.OK, 5, turn)
        steps.append(StepJudged(seat, record, position, (5 * (turn // 2 + 1), 5 * ((turn + 1) // 2))))
    return steps


def test_a_restarted_game_forgets_its_first_attempt(tmp_path):
    desk = WebDesk(tmp_path)
    for judged in walk(5):                          # attempt 1: five steps, then its worker dies
        desk.step("g1", PLAYERS, judged, None)
    desk.restart("g1")
    record = desk.live_record("g1")
    assert record is not None and record.steps == [] and record.live
    for judged in walk(3):                          # attempt 2 from the start
        desk.step("g1", PLAYERS, judged, None)
    record = desk.live_record("g1")
    assert record is not None and [s.turn for s in record.steps] == [0, 1, 2]
    assert [u.turn for u in desk.running()] == [2]


def test_a_restart_of_a_game_shown_as_over_shows_it_in_progress_again(tmp_path):
    desk = WebDesk(tmp_path)
    steps = walk(2)
    desk.step("g1", PLAYERS, steps[0], None)
    desk.step("g1", PLAYERS, steps[1], None, GameOutcome(1, "disconnect", (5, 5), (0, 0)))
    desk.restart("g1")
    desk.step("g1", PLAYERS, steps[0], None)
    record = desk.live_record("g1")
    assert record is not None and record.live and record.result is None and len(record.steps) == 1
    desk.restart("unknown")                         # a game the pages never saw: nothing to forget
    assert desk.live_record("unknown") is None

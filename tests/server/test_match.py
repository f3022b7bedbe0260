"""``MatchRunner`` moves messages between two seats and the referee, and tells each seat how it ended.

Driven with seats that record what they are sent (no sockets): the runner must send each turn
to the right seat, refuse what the referee refuses (saying why), end on a disconnect or a
forfeit, write the log, store the result before anyone hears ``game_over``, and build every
``game_over`` the same way.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from server.games.match import MatchResult, MatchRunner, game_over
from shared.gamelog import parse_log
from shared.quoridor import GameStatus, Step
from shared.referee import GameReferee, RefereeSettings, TurnRequest
from tests.clocks import TickingClock
from tests.server.conftest import SocketlessSeat as Seat, bounded


def runner(tmp_path: Path, *seats: Seat, **settings) -> MatchRunner:
    return MatchRunner("g1", seats, RefereeSettings(**settings), tmp_path / "g1.csv")  # type: ignore[arg-type]


async def test_turns_alternate_and_each_step_is_judged_as_it_is_submitted(tmp_path):
    white, black = Seat("white"), Seat("black")
    match = runner(tmp_path, white, black, step_cap=2)
    game = asyncio.create_task(match.run())
    first = await bounded(white.turns.get(), 5)
    assert (first.seat, first.turn) == (0, 0) and white.started == [("g1", "black", 0)]
    assert match.submit_step(0, 0, Step.move(5, 2), time.monotonic()) is None
    second = await bounded(black.turns.get(), 5)
    assert (second.seat, second.turn, second.change.enemy_loc.y) == (1, 1, 2)
    for seat, turn, step, queue in ((1, 1, Step.move(5, 8), white.turns), (0, 2, Step.move(5, 3), black.turns)):
        assert match.submit_step(seat, turn, step, time.monotonic()) is None
        await bounded(queue.get(), 5)
    match.submit_step(1, 3, Step.move(5, 7), time.monotonic())
    result = await bounded(game, 5)
    assert result.outcome.reason == "step_cap" and result.steps == 4
    assert len(parse_log(result.log_path.read_text(encoding="utf-8")).steps) == 4
    # In the game until its game_over is sent, then free for the next one.
    assert white.in_game_when_told and black.in_game_when_told
    assert white.games == {} and black.games == {}


async def test_a_step_the_referee_cannot_take_is_refused_with_its_reason_and_changes_nothing(tmp_path):
    white, black = Seat("white"), Seat("black")
    match = runner(tmp_path, white, black)
    game = asyncio.create_task(match.run())
    await bounded(white.turns.get(), 5)
    code, message = match.submit_step(1, 0, Step.move(5, 8), time.monotonic())
    assert code == "not_your_turn" and "turn 0" in message
    assert match.submit_step(0, 0, Step.move(5, 2), time.monotonic()) is None
    code, _ = match.submit_step(0, 0, Step.move(5, 3), time.monotonic())   # the same answer again
    assert code == "stale_turn" and match.referee.position.pawn(0).y == 2
    match.submit_disconnect(1)
    await bounded(game, 5)
    assert match.submit_step(1, 1, Step.move(5, 8), time.monotonic())[0] == "wrong_game"


async def test_a_disconnect_ends_the_game_and_both_seats_hear_how(tmp_path):
    white, black = Seat("white"), Seat("black")
    match = runner(tmp_path, white, black)
    game = asyncio.create_task(match.run())
    await bounded(white.turns.get(), 5)
    match.submit_disconnect(0)
    result = await bounded(game, 5)
    assert (result.outcome.winner, result.outcome.reason) == (1, "disconnect")
    assert [(o.result, o.status, o.reason, o.winner) for o in (white.over[0], black.over[0])] == [
        ("loss", GameStatus.LOST, "disconnect", "black"), ("win", GameStatus.ENEMY_CLOSED, "disconnect", "black")]


async def test_a_seat_that_is_not_there_at_the_start_loses_by_disconnect(tmp_path):
    white, black = Seat("white"), Seat("black", present=False)
    result = await bounded(runner(tmp_path, white, black).run(), 5)
    assert (result.outcome.winner, result.outcome.reason) == (0, "disconnect")


async def test_a_forfeit_goes_through_the_referee(tmp_path):
    white, black = Seat("white"), Seat("black")
    match = runner(tmp_path, white, black)
    game = asyncio.create_task(match.run())
    await bounded(white.turns.get(), 5)
    match.submit_forfeit(0)
    result = await bounded(game, 5)
    assert (result.outcome.winner, result.outcome.reason) == (1, "forfeit")
    assert match.referee.outcome == result.outcome


async def test_the_result_is_stored_before_anyone_hears_game_over(tmp_path):
    white, black = Seat("white"), Seat("black")
    stored: list[tuple[MatchResult, float, int]] = []

    async def store(result: MatchResult) -> None:
        stored.append((result, time.monotonic(), len(white.over) + len(black.over)))

    match = runner(tmp_path, white, black)
    game = asyncio.create_task(match.run(on_result=store))
    await bounded(white.turns.get(), 5)
    match.submit_disconnect(1)
    await bounded(game, 5)
    [(result, at, told)] = stored
    assert told == 0 and white.heard_over_at >= at and result.outcome.reason == "disconnect"


def test_game_over_is_built_for_each_seat_from_the_referees_end():
    referee = GameReferee(("ann", "bob"))
    referee.start()
    finished = referee.disconnect(0)[-1]
    frames = [game_over("g7", referee.players, finished, seat, Path("r/g7.csv")) for seat in (0, 1)]
    assert [(f.result, f.status, f.winner, f.reason, f.log) for f in frames] == [
        ("loss", GameStatus.LOST, "bob", "disconnect", "r/g7.csv"),
        ("win", GameStatus.ENEMY_CLOSED, "bob", "disconnect", "r/g7.csv")]
    draw = GameReferee(("ann", "bob")).abandon()[-1]
    unlogged = game_over("g8", ("ann", "bob"), draw, 1, None)
    assert (unlogged.result, unlogged.status, unlogged.winner, unlogged.log, unlogged.thinking_ms) == (
        "draw", GameStatus.NONE, None, None, None)


class ClockedSeat(Seat):
    """A ``Seat`` whose turns leave at a reading of ``clock`` (a bot's clock starts on the match's clock)."""

    def __init__(self, name: str, clock: TickingClock) -> None:
        super().__init__(name)
        self.clock = clock

    def send_turn(self, game: str, request: TurnRequest) -> float | None:
        super().send_turn(game, request)
        return self.clock()


async def test_deadlines_are_read_on_the_clock_the_match_is_given(tmp_path):
    # Far from the machine's clock, and 100 s per reading: a minute's limit is past at the next reading.
    clock = TickingClock(100.0, start=1e9)
    white, black = ClockedSeat("white", clock), ClockedSeat("black", clock)
    match = MatchRunner("g1", (white, black), RefereeSettings(time_limit_ms=60_000, step_cap=1),  # type: ignore[arg-type]
                        tmp_path / "g1.csv", clock=clock)
    await bounded(match.run(), 5)       # at once: on the machine's clock no deadline is near
    assert [(r.status, r.thinking_ms) for r in match.referee.records] == [(GameStatus.TIMEOUT, 60_000)] * 2

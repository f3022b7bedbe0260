"""``BoardTracker``: a seat's board rebuilt from the changes it is told is the referee's board."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.quoridor import (
    BLOCK_SUM, COURSE, STANDARD, ChessboardChange, GameStatus, Step, parse_square, parse_step, parse_wall,
)
from shared.referee import GameFinished, GameReferee, RefereeSettings, TurnRequest
from shared.referee.tracker import BoardTracker

def change(status: GameStatus, mine: str, theirs: str, wall: str | None = None) -> ChessboardChange:
    """What a seat is told: its previous step's status, both pawns, the opponent's new wall."""
    step = parse_step(wall) if wall else Step()
    return ChessboardChange(status, parse_square(mine), parse_square(theirs), step.new_wall)


def test_a_fresh_tracker_knows_no_position_and_no_seat():
    tracker = BoardTracker()
    assert tracker.position is None and tracker.seat is None


@pytest.mark.parametrize("mine, theirs, seat", [("e1", "e9", 0), ("e9", "e2", 1)])
def test_the_seat_is_read_off_the_first_change_when_not_given(mine, theirs, seat):
    tracker = BoardTracker()
    pos = tracker.update(change(GameStatus.OK, mine, theirs))
    assert tracker.seat == seat
    assert pos.turn == seat and pos.pawn(seat) == parse_square(mine) and pos.pawn(1 - seat) == parse_square(theirs)


def test_a_seat_given_at_reset_is_kept():
    tracker = BoardTracker()
    tracker.reset(1)
    assert tracker.update(change(GameStatus.OK, "e9", "e2")).turn == 1


def test_the_opponents_wall_is_on_the_board_at_once():
    tracker = BoardTracker()
    tracker.reset(1)
    pos = tracker.update(change(GameStatus.OK, "e9", "e1", "d5h"), (10, 9))
    assert pos.has_wall(parse_wall("d5h")) and pos.walls_left == (9, 10)


def test_my_wall_joins_the_board_once_the_next_change_says_it_was_accepted():
    tracker = BoardTracker()
    tracker.update(change(GameStatus.OK, "e1", "e9"))
    tracker.sent(parse_step("d5h"))
    assert not tracker.position.has_wall(parse_wall("d5h"))      # not before it is confirmed
    pos = tracker.update(change(GameStatus.OK, "e1", "e8"), (9, 10))
    assert pos.has_wall(parse_wall("d5h")) and pos.walls_left == (9, 10)


@pytest.mark.parametrize("status", [GameStatus.INVALID_STEP, GameStatus.TIMEOUT])
def test_a_wall_the_referee_refused_never_joins_the_board(status):
    tracker = BoardTracker()
    tracker.update(change(GameStatus.OK, "e1", "e9"))
    tracker.sent(parse_step("d5h"))
    pos = tracker.update(change(status, "e1", "e8"))
    assert pos.walls == [] and pos.walls_left == (BLOCK_SUM, BLOCK_SUM)


def test_a_move_adds_no_wall():
    tracker = BoardTracker()
    tracker.update(change(GameStatus.OK, "e1", "e9"))
    tracker.sent(parse_step("e2"))
    assert tracker.update(change(GameStatus.OK, "e2", "e8")).walls == []


def test_walls_left_are_counted_from_the_walls_placed_without_the_servers_figures():
    tracker = BoardTracker()        # the legacy protocol: no walls_left in a change
    tracker.update(change(GameStatus.OK, "e1", "e9"))
    tracker.sent(parse_step("a1h"))
    pos = tracker.update(change(GameStatus.OK, "e1", "e9", "c3v"))
    assert pos.walls_left == (BLOCK_SUM - 1, BLOCK_SUM - 1)


def test_reset_forgets_the_game():
    tracker = BoardTracker()
    tracker.update(change(GameStatus.OK, "e1", "e9", "d5h"))
    tracker.sent(parse_step("a1h"))
    tracker.reset()
    assert tracker.position is None and tracker.seat is None
    pos = tracker.update(change(GameStatus.OK, "e9", "e1"))     # the next game, on the other seat
    assert tracker.seat == 1 and pos.walls == []


def test_the_position_is_under_the_trackers_ruleset():
    assert BoardTracker(STANDARD).update(change(GameStatus.OK, "e1", "e9")).ruleset is STANDARD
    assert BoardTracker().update(change(GameStatus.OK, "e1", "e9")).ruleset is COURSE


def follow(seed: int, rate_bad: float) -> int:
    """Play a random game with the referee; both seats' trackers must see its board every turn. Turns played."""
    rng = random.Random(seed)
    referee = GameReferee(("a", "b"), RefereeSettings(time_limit_ms=None))
    trackers = (BoardTracker(), BoardTracker())
    legacy = (BoardTracker(), BoardTracker())              # told no walls_left: they count them
    events, now, turns = referee.start(), 0.0, 0
    while True:
        request = next((e for e in events if isinstance(e, TurnRequest)), None)
        if request is None:
            assert any(isinstance(e, GameFinished) for e in events)
            return turns
        seat = request.seat
        assert trackers[seat].update(request.change, request.walls_left) == referee.position
        assert legacy[seat].update(request.change) == referee.position
        pos = referee.position
        if rng.random() < rate_bad:                        # a violation: a wall where one stands, or nothing
            step = Step(new_wall=rng.choice(pos.walls)) if pos.walls else Step()
        else:
            walls = pos.legal_walls() if rng.random() < 0.3 else []
            moves = pos.legal_moves()
            step = Step(new_wall=rng.choice(walls)) if walls else Step(rng.choice(moves)) if moves else Step()
        trackers[seat].sent(step)
        legacy[seat].sent(step)
        referee.clock_started(request.turn, now)
        now += 0.001
        events = referee.receive_step(seat, request.turn, step, now)
        turns += 1


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([0.0, 0.05]))
def test_both_seats_see_the_referees_board_all_game(seed, rate_bad):
    assert follow(seed, rate_bad) > 0


def test_a_long_game_with_walls_and_violations_is_followed_to_its_end():
    assert follow(2024, 0.05) >= 10

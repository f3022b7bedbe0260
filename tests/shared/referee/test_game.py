"""The referee state machine, driven by steps and times only (no sockets, no clock)."""

import re

import pytest

from shared.quoridor import STANDARD, BlockBar, GameStatus, Location, Position, Step, parse_step
from shared.referee import (
    DRAW_STATUS, VIOLATIONS_TO_LOSE, Cause, GameFinished, GameReferee, RefereeError, RefereeSettings, StepJudged,
    StepVerdict, Termination, TurnRequest,
)


def turns(events):
    return [e for e in events if isinstance(e, TurnRequest)]


def finished(events):
    return next((e for e in events if isinstance(e, GameFinished)), None)


class Driver:
    """Feeds a referee: every turn is sent at time t and answered ``think`` seconds later."""

    def __init__(self, opening=(), **settings):
        self.ref = GameReferee(("alice", "bob"), RefereeSettings(**settings), opening)
        self.now = 100.0
        self.events = self.ref.start()
        self.pending = turns(self.events)[-1]
        self.ref.clock_started(self.pending.turn, self.now)

    def play(self, step, think=0.010, turn=None):
        self.now += think
        self.events = self.ref.receive_step(self.pending.seat, self.pending.turn if turn is None else turn,
                                            step, self.now)
        self._next()
        return self.events

    def timeout(self, after):
        self.now += after
        self.events = self.ref.time_out(self.now)
        self._next()
        return self.events

    def _next(self):
        nxt = turns(self.events)
        if nxt:
            self.pending = nxt[-1]
            self.now += 0.002       # the server's own delay before the turn goes out: never charged
            self.ref.clock_started(self.pending.turn, self.now)


def test_the_first_turn_goes_to_seat_0_with_the_start_position():
    d = Driver()
    t = d.pending
    assert (t.seat, t.turn) == (0, 0)
    assert t.change.status is GameStatus.OK
    assert (t.change.my_loc, t.change.enemy_loc) == (Location(5, 1), Location(5, 9))
    assert t.change.new_enemy_wall.is_none() and t.walls_left == (10, 10) and t.time_limit_ms == 1000


def test_turns_alternate_and_carry_the_opponents_new_wall():
    d = Driver()
    d.play(parse_step("e2"))
    assert (d.pending.seat, d.pending.turn) == (1, 1)
    assert d.pending.change.my_loc == Location(5, 9) and d.pending.change.enemy_loc == Location(5, 2)
    assert d.pending.change.new_enemy_wall.is_none()
    d.play(Step.wall(6, 3, 4, 3))           # reversed end points: normalised
    assert d.pending.seat == 0
    assert d.pending.change.new_enemy_wall == BlockBar.of(4, 3, 6, 3)
    assert d.pending.walls_left == (10, 9)
    d.play(parse_step("d2"))
    assert d.pending.change.new_enemy_wall.is_none()   # opponent moved: no wall


def test_a_violation_changes_nothing_and_its_status_comes_back_to_its_author():
    d = Driver()
    events = d.play(Step.move(5, 3))           # two cells: invalid
    judged = [e for e in events if isinstance(e, StepJudged)][0]
    assert judged.record.status is GameStatus.INVALID_STEP
    assert d.ref.position.pawn(0) == Location(5, 1)
    assert d.pending.seat == 1 and d.pending.change.status is GameStatus.OK
    d.play(parse_step("e8"))
    assert d.pending.seat == 0 and d.pending.change.status is GameStatus.INVALID_STEP
    d.play(parse_step("e2"))
    d.play(parse_step("e7"))
    assert d.pending.change.status is GameStatus.OK


def test_a_wall_with_none_left_is_insufficient_block():
    d = Driver()
    d.ref.position = d.ref.position.setup(walls_left=(0, 10))
    d.play(parse_step("e5h"))
    assert d.ref.records[-1].status is GameStatus.INSUFFICIENT_BLOCK


def test_the_third_violation_loses_with_rules_breaker():
    d = Driver()
    for _ in range(2):
        d.play(Step())
        d.play(parse_step("e8") if d.ref.position.pawn(1) == Location(5, 9) else parse_step("e9"))
    events = d.play(Step())
    end = finished(events)
    assert end.outcome.winner == 1 and end.outcome.reason == "violations"
    assert end.statuses == (GameStatus.RULES_BREAKER, GameStatus.WIN)
    assert d.ref.records[-1].status is GameStatus.RULES_BREAKER
    assert d.ref.violations == (3, 0)
    with pytest.raises(RefereeError) as info:
        d.ref.receive_step(1, d.pending.turn, parse_step("e8"), d.now)
    assert info.value.code == "wrong_game"


def test_reaching_the_goal_row_wins():
    d = Driver()
    moves0 = ["e2", "e3", "e4", "e5"]
    moves1 = ["d9", "d8", "d7", "d6"]
    for a, b in zip(moves0, moves1):
        d.play(parse_step(a))
        d.play(parse_step(b))
    for a, b in zip(["e6", "e7", "e8"], ["d5", "d4", "d3"]):
        d.play(parse_step(a))
        d.play(parse_step(b))
    end = finished(d.play(parse_step("e9")))
    assert end.outcome.winner == 0 and end.outcome.reason == "goal"
    assert end.statuses == (GameStatus.WIN, GameStatus.LOST)
    assert d.ref.records[-1].status is GameStatus.WIN and d.ref.is_over


def test_a_late_step_is_a_timeout_and_is_discarded():
    d = Driver()
    events = d.play(parse_step("e2"), think=1.0)      # exactly the limit: too late ("1 s or more")
    assert d.ref.records[-1].status is GameStatus.TIMEOUT
    assert d.ref.position.pawn(0) == Location(5, 1)
    assert d.pending.seat == 1
    assert [e for e in events if isinstance(e, StepJudged)][0].record.thinking_ms == 1000


def test_a_step_just_inside_the_limit_counts():
    d = Driver()
    d.play(parse_step("e2"), think=0.999)
    assert d.ref.records[-1].status is GameStatus.OK and d.ref.position.pawn(0) == Location(5, 2)


def test_no_answer_times_out_at_the_deadline_and_a_late_answer_is_stale():
    d = Driver()
    assert d.ref.time_out(d.now + 0.5) == []                   # before the deadline: nothing
    assert d.ref.deadline() == pytest.approx(d.now + 1.0)
    d.timeout(1.05)
    assert d.ref.records[-1].status is GameStatus.TIMEOUT and d.ref.records[-1].step == Step()
    assert d.pending.seat == 1
    with pytest.raises(RefereeError) as info:                    # seat 0's answer to turn 0 arrives late
        d.ref.receive_step(0, 0, parse_step("e2"), d.now)
    assert info.value.code in ("not_your_turn", "stale_turn")
    d.play(parse_step("e8"))
    assert d.pending.seat == 0 and d.pending.change.status is GameStatus.TIMEOUT
    with pytest.raises(RefereeError) as info:                    # an old turn number for the current seat
        d.ref.receive_step(0, 0, parse_step("e2"), d.now)
    assert info.value.code == "stale_turn"
    assert d.ref.position.pawn(0) == Location(5, 1)


def test_the_servers_delay_is_never_charged():
    d = Driver()
    d.play(parse_step("e2"), think=0.010)
    d.play(parse_step("e8"), think=0.020)
    assert d.ref.clocks_ms == (10, 20)      # the 2 ms between answer and next turn are not counted


def test_no_time_limit_on_a_debugging_server():
    d = Driver(time_limit_ms=None)
    assert d.pending.time_limit_ms is None and d.ref.deadline() is None
    d.play(parse_step("e2"), think=30.0)
    assert d.ref.records[-1].status is GameStatus.OK


def test_not_your_turn():
    d = Driver()
    with pytest.raises(RefereeError) as info:
        d.ref.receive_step(1, 0, parse_step("e8"), d.now)
    assert info.value.code == "not_your_turn"


def shuffle(d: Driver, n: int, think0: float, think1: float):
    """Both pawns walk sideways on their home rows for n steps each."""
    for _ in range(n):
        if d.ref.is_over:
            break
        x = d.ref.position.pawn(0).x
        d.play(Step.move(x + 1 if x < 9 else x - 1, 1) if x % 2 else Step.move(x - 1, 1), think=think0)
        if d.ref.is_over:
            break
        x = d.ref.position.pawn(1).x
        d.play(Step.move(x + 1 if x < 9 else x - 1, 9) if x % 2 else Step.move(x - 1, 9), think=think1)


def test_the_step_cap_gives_the_win_to_the_faster_thinker():
    d = Driver(step_cap=5)
    shuffle(d, 5, 0.020, 0.010)
    end = finished(d.events)
    assert end.outcome.reason == "step_cap" and end.outcome.winner == 1
    assert d.ref.steps_made == (5, 5) and end.outcome.thinking_ms == (100, 50)
    assert d.ref.records[-1].status is GameStatus.WIN   # seat 1 made the last step and wins
    judged = [e for e in d.events if isinstance(e, StepJudged)]
    assert judged[-1].record.status is GameStatus.WIN  # the event (and so the log row) says it too


def test_the_step_cap_with_equal_times_is_a_draw():
    d = Driver(step_cap=4)
    shuffle(d, 4, 0.010, 0.010)
    end = finished(d.events)
    assert end.outcome.winner is None and end.statuses == (DRAW_STATUS, DRAW_STATUS)


def test_violations_count_as_steps_for_the_cap():
    d = Driver(step_cap=2, violations_to_lose=5)
    d.play(Step(), think=0.001)
    d.play(Step(), think=0.002)
    d.play(Step(), think=0.001)
    end = finished(d.play(Step(), think=0.002))
    assert end.outcome.reason == "step_cap" and end.outcome.winner == 0


def test_disconnect_gives_the_win_to_the_other_seat():
    d = Driver()
    d.play(parse_step("e2"))
    end = finished(d.ref.disconnect(1))
    assert end.outcome.winner == 0 and end.outcome.reason == "disconnect"
    assert end.statuses[0] is GameStatus.ENEMY_CLOSED
    assert d.ref.disconnect(0) == [] and d.ref.deadline() is None


def test_forfeit():
    d = Driver()
    end = finished(d.ref.forfeit(0))
    assert end.outcome.winner == 1 and end.outcome.reason == "forfeit"


def test_step_with_both_a_cell_and_a_wall_is_logged_as_a_move():
    d = Driver()
    d.play(Step(Location(5, 2), BlockBar.of(0, 8, 2, 8)))
    assert d.ref.records[-1].step == Step.move(5, 2)
    assert d.pending.change.new_enemy_wall.is_none()


def test_standard_rules_are_enforced_when_asked():
    d = Driver(ruleset=STANDARD)
    d.play(parse_step("e5h"))
    d.play(parse_step("e5v"))               # crossing: illegal in standard
    assert d.ref.records[-1].status is GameStatus.INVALID_STEP


def test_settings_are_validated():
    with pytest.raises(ValueError, match="time limit"):
        RefereeSettings(time_limit_ms=0)
    with pytest.raises(ValueError, match="step cap"):
        RefereeSettings(step_cap=0)


# -- what the events say, so that no transport re-derives it --------------------------------------

def judged(events):
    return [e for e in events if isinstance(e, StepJudged)]


def test_a_step_that_stands_has_no_cause():
    d = Driver()
    [step] = judged(d.play(parse_step("e2")))
    assert (step.cause, step.reason, step.late) == (None, "", False)


def test_an_illegal_step_carries_its_cause_and_the_rules_reason():
    d = Driver()
    [step] = judged(d.play(parse_step("a5")))
    assert step.cause is Cause.NOT_REACHABLE and step.illegal and not step.late
    assert step.reason == "a5 is not reachable in one step from e1"
    assert step.record.reason == step.reason          # the log row keeps it


def test_a_step_that_stands_leaves_the_log_row_without_a_reason():
    d = Driver()
    [step] = judged(d.play(parse_step("e2")))
    assert step.record.reason == "" and not step.illegal


def test_a_wall_with_none_left_has_its_own_cause():
    d = Driver()
    d.ref.position = d.ref.position.setup(walls_left=(0, 10))
    [step] = judged(d.play(parse_step("e5h")))
    assert step.cause is Cause.NO_WALLS_LEFT and step.record.status is GameStatus.INSUFFICIENT_BLOCK


# -- what each seat is told of its previous step --------------------------------------------------

def test_the_next_turn_of_a_seat_that_played_a5_from_e1_says_why_it_was_illegal():
    d = Driver()
    assert d.pending.judgement is None                              # the first turn
    d.play(parse_step("a5"), think=0.012)
    assert d.pending.seat == 1 and d.pending.judgement is None      # the opponent's previous step: none
    d.play(parse_step("e8"))
    assert d.pending.seat == 0 and d.pending.change.status is GameStatus.INVALID_STEP
    assert d.pending.judgement == StepVerdict(GameStatus.INVALID_STEP, Cause.NOT_REACHABLE,
                                              "a5 is not reachable in one step from e1", 12)
    d.play(parse_step("e2"))
    d.play(parse_step("e7"))
    assert d.pending.change.status is GameStatus.OK and d.pending.judgement is None   # told once, then it stood


def test_the_next_turn_after_a_late_step_says_how_late():
    d = Driver()
    d.play(parse_step("e2"), think=1.2034)
    d.play(parse_step("e8"))
    verdict = d.pending.judgement
    assert verdict is not None and verdict.late and verdict.cause is Cause.LATE
    assert (verdict.status, verdict.reason, verdict.thinking_ms) == (
        GameStatus.TIMEOUT, "answered after 1,203 ms; the limit is 1,000 ms", 1203)


def test_the_next_turn_after_no_answer_says_so():
    d = Driver()
    d.timeout(1.5)
    d.play(parse_step("e8"))
    assert d.pending.judgement == StepVerdict(GameStatus.TIMEOUT, Cause.LATE,
                                              "no answer within the limit of 1,000 ms", 1500)


def test_the_losing_violation_is_told_with_the_end():
    d = Driver()
    d.play(parse_step("e1h"))
    for answer in ("e8", "e7"):
        d.play(parse_step(answer))
        d.play(Step())                                          # violations 1 and 2
    d.play(parse_step("e6"))
    end = finished(d.play(parse_step("e1h"), think=0.004))     # the same wall again: the 3rd violation
    assert end.termination is Termination.VIOLATIONS and d.ref.records[-1].status is GameStatus.RULES_BREAKER
    assert d.ref.records[-1].reason == "wall e1h is already placed"
    assert end.judgements == (StepVerdict(GameStatus.INVALID_STEP, Cause.WALL_EXISTS,
                                          "wall e1h is already placed", 4), None)


def test_a_violation_the_game_ended_right_after_is_told_with_the_end():
    d = Driver()
    d.play(Step())                                 # seat 0's empty step, then seat 1 leaves before seat 0 hears
    end = finished(d.ref.disconnect(1))
    assert end.judgements[0] == StepVerdict(GameStatus.INVALID_STEP, Cause.EMPTY_STEP,
                                            "empty step: neither a move nor a wall", 10)
    assert end.judgements[1] is None


def test_a_game_without_violations_ends_with_nothing_untold():
    d = Driver()
    d.play(parse_step("e2"))
    assert finished(d.ref.disconnect(1)).judgements == (None, None)


def test_a_late_step_carries_how_late_it_was():
    d = Driver()
    [step] = judged(d.play(parse_step("e2"), think=1.2034))
    assert step.cause is Cause.LATE and step.late
    assert step.reason == "answered after 1,203 ms; the limit is 1,000 ms"


def test_a_silent_seat_times_out_with_a_reason():
    d = Driver()
    [step] = judged(d.timeout(1.5))
    assert step.late and step.reason == "no answer within the limit of 1,000 ms"


def test_a_timeout_that_is_the_third_violation_is_recorded_as_rules_breaker_but_still_late():
    d = Driver()
    for _ in range(2):
        d.timeout(1.0)
        d.play(parse_step("e8") if d.ref.position.pawn(1) == Location(5, 9) else parse_step("e9"))
    events = d.timeout(1.0)
    [step] = judged(events)
    assert step.record.status is GameStatus.RULES_BREAKER and step.late
    assert finished(events).termination is Termination.VIOLATIONS


@pytest.mark.parametrize("end, termination", [
    (lambda d: d.ref.disconnect(1), Termination.DISCONNECT),
    (lambda d: d.ref.forfeit(1), Termination.FORFEIT),
])
def test_the_end_carries_its_termination_and_each_seats_result(end, termination):
    d = Driver()
    over = finished(end(d))
    assert over.termination is termination and over.outcome.reason == termination.value
    assert (over.result(0), over.result(1)) == ("win", "loss")


def test_a_game_neither_seat_came_to_is_a_draw_by_forfeit():
    ref = GameReferee(("alice", "bob"))
    over = finished(ref.abandon())
    assert over.termination is Termination.FORFEIT and over.outcome.winner is None
    assert over.statuses == (DRAW_STATUS, DRAW_STATUS) and (over.result(0), over.result(1)) == ("draw", "draw")
    assert ref.abandon() == [] and ref.forfeit(0) == []


def test_an_answer_to_an_old_turn_is_stale_whoever_moves_now():
    d = Driver()
    d.timeout(1.5)                                  # seat 0's turn 0 passed; seat 1 to move
    with pytest.raises(RefereeError) as info:
        d.ref.receive_step(0, 0, parse_step("e2"), d.now)
    assert info.value.code == "stale_turn"          # not "not your turn": it is a late answer
    d.play(parse_step("e8"))
    with pytest.raises(RefereeError) as again:      # a duplicate of an answer already taken
        d.ref.receive_step(1, 1, parse_step("e7"), d.now)
    assert again.value.code == "stale_turn"


def test_the_violation_limit_is_the_one_constant():
    assert RefereeSettings().violations_to_lose == VIOLATIONS_TO_LOSE == 3


# -- openings: plies the referee plays before the first turn a seat is sent ----------------------------
def plies(text):
    return tuple(parse_step(name) for name in text.split())


def test_an_opening_is_judged_and_recorded_as_the_first_steps_then_the_seat_to_move_gets_the_first_turn():
    opening = plies("e2 e8 c3h")
    ref = GameReferee(("alice", "bob"), opening=opening)
    events = ref.start()
    played = judged(events)
    assert [(e.seat, e.record.player, e.record.turn, e.record.step, e.record.status, e.record.thinking_ms, e.cause)
            for e in played] == [(0, "alice", 0, opening[0], GameStatus.OK, 0, None),
                                 (1, "bob", 1, opening[1], GameStatus.OK, 0, None),
                                 (0, "alice", 2, opening[2], GameStatus.OK, 0, None)]
    assert ref.records == [e.record for e in played]                   # the log's first rows
    assert all(e.opening for e in played) and played[-1].position == Position.initial().play(opening[0]).play(
        opening[1]).play(opening[2])
    assert ref.clocks_ms == (0, 0) and ref.steps_made == (2, 1) and ref.violations == (0, 0)
    # Each ply carries the turn it answered, as its seat would have been told it.
    assert [(e.opening_turn.seat, e.opening_turn.turn) for e in played] == [(0, 0), (1, 1), (0, 2)]
    told = played[2].opening_turn.change
    assert (told.my_loc, told.enemy_loc) == (Location(5, 2), Location(5, 8))
    # Then the first turn a seat is sent: bob's, with alice's opening wall and the pawns after the opening.
    [first] = turns(events)
    assert events[-1] is first and (first.seat, first.turn) == (1, 3)
    assert (first.change.status, first.change.my_loc, first.change.enemy_loc) == (
        GameStatus.OK, Location(5, 8), Location(5, 2))
    assert first.change.new_enemy_wall == BlockBar.of(2, 3, 4, 3) and first.walls_left == (10, 9)
    assert first.judgement is None and ref.deadline() is None          # no clock ran during the opening


def test_after_an_opening_the_bots_play_on_and_the_opening_turns_are_over():
    d = Driver(opening=plies("e2 e8"))
    assert (d.pending.seat, d.pending.turn) == (0, 2) and d.pending.change.enemy_loc == Location(5, 8)
    with pytest.raises(RefereeError) as info:                          # answering a turn the referee played
        d.ref.receive_step(0, 0, parse_step("e3"), d.now)
    assert info.value.code == "stale_turn"
    [step] = judged(d.play(parse_step("e3"), think=0.25))
    assert not step.opening and step.record.thinking_ms == 250 and d.ref.clocks_ms == (250, 0)
    assert (d.pending.seat, d.pending.turn) == (1, 3) and d.pending.change.enemy_loc == Location(5, 3)


@pytest.mark.parametrize("opening, message", [
    ("e3", "the opening's ply 1 of 1 (e3) is illegal: e3 is not reachable in one step from e1"),
    ("c3h e8 c3h", "the opening's ply 3 of 3 (c3h) is illegal: "),
    ("e2 d9 e3 d8 e4 d7 e5 d6 e6 d5 e7 d4 e8 d3 e9 d2", "the opening's ply 16 of 16 (d2) comes after the game is won"),
])
def test_a_bad_opening_is_an_error_when_the_referee_is_made_never_a_violation(opening, message):
    with pytest.raises(RefereeError, match=re.escape(message)) as info:
        GameReferee(("alice", "bob"), opening=plies(opening))
    assert info.value.code == "bad_opening" and isinstance(info.value, ValueError)


def test_an_opening_that_ends_the_game_ends_it_at_the_start_as_any_step_would():
    won = GameReferee(("alice", "bob"), opening=plies("e2 d9 e3 d8 e4 d7 e5 d6 e6 d5 e7 d4 e8 d3 e9"))
    end = finished(won.start())
    assert end.termination is Termination.GOAL and end.outcome.winner == 0 and len(won.records) == 15
    capped = GameReferee(("alice", "bob"), RefereeSettings(step_cap=1), plies("e2 e8 e3"))
    events = capped.start()
    assert finished(events).termination is Termination.STEP_CAP and not turns(events)
    assert len(capped.records) == 2 and finished(events).outcome.winner is None     # 0 ms each: a draw

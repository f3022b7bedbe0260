"""Each violation's cause found again in a written log equals the cause the referee gave it as it judged the step."""

from __future__ import annotations

from shared.gamelog import GameHeader, GameLog, format_log, parse_log, replay, violation_causes
from shared.quoridor import Cause, GameStatus, Step, parse_step
from shared.referee import GameFinished, GameReferee, RefereeSettings, StepJudged, TurnRequest


class Driver:
    """Plays a referee on a made-up clock: each turn answered ``think`` seconds after it went out, or timed out."""

    def __init__(self) -> None:
        self.ref = GameReferee(("alice", "bob"), RefereeSettings(time_limit_ms=1000))
        self.now = 10.0
        self.judged: list[StepJudged] = []
        self.over: GameFinished | None = None
        self._take(self.ref.start())

    def _take(self, events: list) -> None:
        self.judged += [e for e in events if isinstance(e, StepJudged)]
        self.over = next((e for e in events if isinstance(e, GameFinished)), self.over)
        turns = [e for e in events if isinstance(e, TurnRequest)]
        if turns:
            self.turn = turns[-1]
            self.ref.clock_started(self.turn.turn, self.now)

    def play(self, step: Step, think: float = 0.01) -> None:
        self.now += think
        self._take(self.ref.receive_step(self.turn.seat, self.turn.turn, step, self.now))

    def time_out(self) -> None:
        self.now += 2.0
        self._take(self.ref.time_out(self.now))

    def log(self) -> GameLog:
        assert self.over is not None
        written = format_log(GameLog(GameHeader(("alice", "bob")), list(self.ref.records), self.over.outcome))
        return parse_log(written, name="game.csv")      # read back from its CSV text, as from a file


def test_the_causes_read_back_from_a_log_are_the_referees_for_every_kind_of_violation():
    d = Driver()
    d.play(parse_step("e3"))                 # alice: two cells at once (not reachable)
    d.play(Step.wall(1, 9, 3, 9))             # bob: a wall on the border
    d.play(parse_step("e2"), think=1.5)       # alice: a legal step, but late
    d.time_out()                              # bob: no answer at all
    d.play(parse_step("e2"))                  # alice: stands
    d.play(parse_step("e8"))                  # bob: stands
    d.play(parse_step("e4"), think=1.2)       # alice's 3rd violation, late with an illegal step: late, RulesBreaker
    assert d.over is not None and d.over.outcome.reason == "violations"
    referee = ([j.cause for j in d.judged if j.seat == 0 and j.cause is not None],
               [j.cause for j in d.judged if j.seat == 1 and j.cause is not None])
    assert referee == ([Cause.NOT_REACHABLE, Cause.LATE, Cause.LATE], [Cause.WALL_ON_BORDER, Cause.LATE])
    log = d.log()
    assert log.steps[-1].status is GameStatus.RULES_BREAKER
    assert violation_causes(replay(log)) == (tuple(referee[0]), tuple(referee[1]))


def test_a_game_lost_by_an_illegal_third_step_names_that_steps_rule():
    d = Driver()
    for bob in ("e8", "e7"):
        d.play(Step.move(5, 1))               # alice: onto her own cell
        d.play(parse_step(bob))
    d.play(Step())                            # alice: the empty step, on time
    assert d.over is not None and d.over.outcome.violations == (3, 0)
    assert violation_causes(replay(d.log())) == ((Cause.OWN_CELL, Cause.OWN_CELL, Cause.EMPTY_STEP), ())


def test_an_older_log_without_reasons_reads_an_empty_losing_step_as_a_timeout():
    d = Driver()
    d.time_out()
    d.play(parse_step("e8"))
    d.time_out()
    d.play(parse_step("e7"))
    d.time_out()
    log = d.log()
    bare = GameLog(log.header, [type(r)(r.player, r.step, r.status, r.thinking_ms, r.turn) for r in log.steps],
                   log.outcome)
    assert violation_causes(replay(bare)) == ((Cause.LATE,) * 3, ())

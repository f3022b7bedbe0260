"""Replaying a game log through the rules core: the position after every row, and where the log disagrees.

Each row is checked against ``quoridor-rules.md`` in the position reached so far:

* rows alternate, seat 0 first; no row follows the row that ended the game (nor the step cap);
* an Ok, Win or Lost row must be a legal step, and is applied; Ok must not reach the goal row,
  Win must (or end the game at the step cap, where Win/Lost go by thinking time);
* an EnemyClosed row ends the game: it is the status a seat is told when its opponent left, so
  its player wins by ``disconnect`` (our server writes no row for that, only the outcome
  ``disconnect`` naming the same winner); a step it carries must be legal and is applied;
* an InvalidStep or InsufficientBlock row must be judged so by the rules and changes nothing;
  a Timeout row changes nothing; the violation that loses the game must be RulesBreaker;
* a finished log's outcome must agree with its rows (winner, reason, totals).

A disagreement becomes a ``LogProblem`` naming the line. The rules stop checking at the first one
in the rows (``disagreement``), keeping every position up to it; that row and the later ones are
then drawn as the log gives them, the old viewer's way (``asgiven``), as ``unverified`` steps,
until a row that cannot be drawn even so (``halt``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from ..quoridor import (
    STEP_CAP, VIOLATIONS_TO_LOSE, GameStatus, Judgement, Position, Ruleset, Step, find_ruleset, step_name,
)
from .asgiven import Undrawable, draw_as_given
from .layout import row_lines
from .records import GameLog, LogProblem, StepRecord

__all__ = ["Replay", "ReplayStep", "replay", "validate", "final_position", "VIOLATIONS_TO_LOSE", "STEP_CAP"]


_S = GameStatus
_NAMES = {_S.OK: "Ok", _S.WIN: "Win", _S.LOST: "Lost", _S.TIMEOUT: "Timeout", _S.ENEMY_CLOSED: "EnemyClosed",
          _S.RULES_BREAKER: "RulesBreaker", _S.INSUFFICIENT_BLOCK: "InsufficientBlock",
          _S.INVALID_STEP: "InvalidStep", _S.NONE: "None"}
_APPLIED = (_S.OK, _S.WIN, _S.LOST)
_VIOLATIONS = (_S.TIMEOUT, _S.INVALID_STEP, _S.INSUFFICIENT_BLOCK)


def _status(status: GameStatus) -> str:
    return f"{int(status)} ({_NAMES[status]})"


def _describe(step: Step) -> str:
    """The step in words: ``the empty step``, ``a move to e2 (5,2)``, ``the wall e7h ((4,7),(6,7))``."""
    if not step.is_move() and not step.new_wall.is_nan():
        step = Step(new_wall=step.new_wall)     # as the rules read it: a cell off the board is no move
    try:
        name = step_name(step)
    except ValueError:        # off the board or not a real wall: no notation, show the numbers
        return f"a {step}"
    if name == "-":
        return "the empty step"
    return f"a move to {name} {step.new_loc}" if step.is_move() else f"the wall {name} {step.new_wall}"


def _misjudged(record: StepRecord, judgement: Judgement) -> str:
    """Why a row's status is not the rules' verdict on its step, in plain words."""
    verdict = "legal" if judgement.ok else f"status {_status(judgement.status)}: {judgement.reason}"
    return (f"{record.player!r} sent {_describe(record.step)}: the log says status {_status(record.status)}, "
            f"but by the rules it is {verdict}")


class ReplayStep(NamedTuple):
    """One replayed row: the record, the position after it, the rules core's verdict, its line and seat.

    ``judgement`` is ``None`` for Timeout and RulesBreaker rows, whose step the rules do not judge,
    and for unverified rows (``verified`` False: drawn as the log gives them, past a disagreement).
    """

    record: StepRecord
    position: Position
    judgement: Judgement | None
    line: int
    seat: int
    verified: bool = True


class _Disagreement(Exception):
    """Internal: the current row disagrees with the rules; the message says how."""


class Replay:
    """A log replayed row by row; iterate for the ``ReplayStep`` of each row that agrees with the rules.

    After construction: ``problems`` (empty when the whole log agrees), ``position`` (after the last
    agreeing row), per-seat ``violations``, ``thinking_ms`` (known times summed) and ``steps_made``,
    and ``winner``/``reason``: the end the rows show, else the log's outcome (``reason`` is ``None``
    when neither says the game ended); all of these go by the agreeing rows only.

    Past a disagreement: ``disagreement`` (the first row that disagrees, also ``problems[0]``),
    ``unverified`` (that row and the later ones drawn as the log gives them), ``halt`` (the row
    that cannot be drawn even so, which ends the replay; ``None`` when every row was drawn) and
    ``shown_position`` (the board after the last row drawn; ``position`` when the log agrees), and
    ``claimed``: the end the log's last row claims, ``(winner seat, reason)``, when the rules could
    not check it (it is unverified, and the log has no outcome); ``None`` otherwise.
    """

    def __init__(self, log: GameLog, ruleset: Ruleset | None = None, *,
                 violations_to_lose: int = VIOLATIONS_TO_LOSE, step_cap: int | None = STEP_CAP) -> None:
        self.log = log
        self.ruleset = ruleset if ruleset is not None else find_ruleset(log.header.ruleset)
        self.violations_to_lose = violations_to_lose
        # An outcome that says "step cap" tells where the cap was; trust it over the default.
        outcome = log.outcome
        self.step_cap = None if outcome is not None and outcome.reason == "step_cap" else step_cap
        self.steps: list[ReplayStep] = []
        self.problems: list[LogProblem] = []
        self.disagreement: LogProblem | None = None
        self.unverified: list[ReplayStep] = []
        self.halt: LogProblem | None = None
        self.position = Position.initial(self.ruleset)
        self.violations = (0, 0)
        self.thinking_ms = (0, 0)
        self.steps_made = (0, 0)
        self.winner: int | None = None
        self.reason: str | None = None
        self._ended_line: int | None = None
        self._last_turn: tuple[int, int] | None = None
        self._lines, self._outcome_line = self._file_lines()
        for index, record in enumerate(log.steps):
            try:
                self._replay_row(record, self._lines[index])
            except _Disagreement as exc:
                self.disagreement = LogProblem(self._lines[index], str(exc))
                self.problems.append(self.disagreement)
                break
        else:
            self._check_outcome()
        self.shown_position = self._draw_rest(len(self.steps))
        self.claimed = self._claimed_end()
        if self.reason is None and outcome is not None:
            self.winner, self.reason = outcome.winner, outcome.reason

    def _file_lines(self) -> tuple[list[int], int]:
        log = self.log
        if len(log.step_lines) == len(log.steps) and (log.outcome is None or log.outcome_line is not None):
            return list(log.step_lines), log.outcome_line or 0
        steps, result = row_lines(log)     # a log built in memory: the lines format_log gives it
        return steps, result or 0

    def __iter__(self) -> Iterator[ReplayStep]:
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    @property
    def complete(self) -> bool:
        """True when every row (and the outcome) agrees with the rules."""
        return not self.problems

    def _draw_rest(self, start: int) -> Position:
        """Draw rows ``start`` on as the log gives them (after a disagreement); the board after the last."""
        position, players = self.position, self.log.header.players
        for index in range(start, len(self.log.steps)):
            record, line = self.log.steps[index], self._lines[index]
            try:
                if record.player not in players:
                    raise Undrawable(f"{record.player!r} is not a player of this game")
                seat = players.index(record.player)
                position = draw_as_given(position, seat, record.step, record.status)
            except Undrawable as exc:
                self.halt = LogProblem(line, f"the row of {record.player!r} cannot be drawn even as the log "
                                             f"gives it: {exc}; the replay stops here")
                break
            self.unverified.append(ReplayStep(record, position, None, line, seat, verified=False))
        return position

    def _claimed_end(self) -> tuple[int, str] | None:
        """The end the last row claims by its status, when it was drawn unchecked and nothing else says how
        the game ended: Win (goal, or the step cap off the goal row), Lost, RulesBreaker, EnemyClosed."""
        if self.reason is not None or self.log.outcome is not None or self.halt is not None or not self.unverified:
            return None
        last = self.unverified[-1]
        seat, status = last.seat, last.record.status
        if status is _S.WIN:
            return seat, "goal" if last.position.winner() == seat else "step_cap"
        if status is _S.LOST:
            return 1 - seat, "step_cap"
        if status is _S.RULES_BREAKER:
            return 1 - seat, "violations"
        if status is _S.ENEMY_CLOSED:
            return seat, "disconnect"
        return None

    # -- one row --------------------------------------------------------------------------
    def _replay_row(self, record: StepRecord, line: int) -> None:
        players = self.log.header.players
        if self._ended_line is not None:
            raise _Disagreement(f"a step by {record.player!r} after the game ended on line {self._ended_line}")
        if record.player not in players:
            raise _Disagreement(f"{record.player!r} is not a player of this game ({players[0]!r} and {players[1]!r})")
        seat, pos = players.index(record.player), self.position
        if seat != pos.turn:
            raise _Disagreement(f"{record.player!r} (seat {seat}) plays out of turn: it is {players[pos.turn]!r}'s "
                                f"turn (seat {pos.turn}){' and seat 0 moves first' if not self.steps else ''}")
        if record.turn is not None and self._last_turn is not None and record.turn <= self._last_turn[0]:
            raise _Disagreement(f"turn number {record.turn} does not follow turn {self._last_turn[0]} "
                                f"of line {self._last_turn[1]}")
        status, step = record.status, record.step
        violations = list(self.violations)
        made = list(self.steps_made)
        made[seat] += 1
        judgement: Judgement | None = None
        if status in _APPLIED:
            judgement = pos.judge(step)
            if not judgement.ok:
                raise _Disagreement(_misjudged(record, judgement))
            pos = pos.apply(step)
            self._check_end(record, seat, pos, made, line)
        elif status in _VIOLATIONS:
            if status is not _S.TIMEOUT:
                judgement = pos.judge(step)
                if judgement.status is not status:
                    raise _Disagreement(_misjudged(record, judgement))
            violations[seat] += 1
            if violations[seat] >= self.violations_to_lose:
                raise _Disagreement(f"violation {violations[seat]} of {record.player!r} loses the game, so its "
                                    f"status must be {_status(_S.RULES_BREAKER)}, not {_status(status)}")
            pos = pos.pass_turn()
        elif status is _S.ENEMY_CLOSED:
            if not step.is_nan():
                judgement = pos.judge(step)
                if not judgement.ok:
                    raise _Disagreement(_misjudged(record, judgement))
            pos = pos.apply(step) if not step.is_nan() else pos.pass_turn()
            self.winner, self.reason, self._ended_line = seat, "disconnect", line
        elif status is _S.RULES_BREAKER:
            violations[seat] += 1
            if violations[seat] != self.violations_to_lose:
                raise _Disagreement(f"status {_status(status)} on violation {violations[seat]} of {record.player!r}; "
                                    f"violation {self.violations_to_lose} is the one that loses")
            pos = pos.pass_turn()
            self.winner, self.reason, self._ended_line = 1 - seat, "violations", line
        else:
            raise _Disagreement(f"status {_status(status)} is not the status of a step")
        if self.step_cap is not None and min(made) >= self.step_cap and self._ended_line is None:
            self._ended_line = line   # the step cap ends the game even when this row did not say so
        self.position, self.violations, self.steps_made = pos, (violations[0], violations[1]), (made[0], made[1])
        if record.thinking_ms is not None:
            times = list(self.thinking_ms)
            times[seat] += record.thinking_ms
            self.thinking_ms = (times[0], times[1])
        if record.turn is not None:
            self._last_turn = (record.turn, line)
        self.steps.append(ReplayStep(record, pos, judgement, line, seat))

    def _check_end(self, record: StepRecord, seat: int, after: Position, made: list[int], line: int) -> None:
        """After an applied step: Ok must not reach the goal; Win must, unless the step cap ends the game."""
        reached = after.winner() == seat
        status = record.status
        if status is _S.OK:
            if reached:
                raise _Disagreement(f"{record.player!r} reaches its goal row with {_describe(record.step)}, "
                                    f"so the status must be {_status(_S.WIN)}, not {_status(status)}")
            return
        if status is _S.WIN and reached:
            self.winner, self.reason, self._ended_line = seat, "goal", line
            return
        if reached:
            raise _Disagreement(f"{record.player!r} reaches its goal row with {_describe(record.step)}, "
                                f"so the status must be {_status(_S.WIN)}, not {_status(status)}")
        outcome = self.log.outcome
        at_cap = (outcome is not None and outcome.reason == "step_cap") or \
            (self.step_cap is not None and min(made) >= self.step_cap)
        if not at_cap:
            raise _Disagreement(f"status {_status(status)}, but {_describe(record.step)} by {record.player!r} "
                                "does not reach the goal row and the step cap is not reached")
        self.winner = seat if status is _S.WIN else 1 - seat
        self.reason, self._ended_line = "step_cap", line

    # -- the outcome ----------------------------------------------------------------------
    def _check_outcome(self) -> None:
        """A finished log's outcome must agree with what the rows show; each disagreement is a problem."""
        outcome = self.log.outcome
        if outcome is None:
            return
        line, found = self._outcome_line, []
        if outcome.violations != self.violations:
            found.append(f"the outcome counts violations {outcome.violations}, the rows {self.violations}")
        if all(r.thinking_ms is not None for r in self.log.steps) and outcome.thinking_ms != self.thinking_ms:
            found.append(f"the outcome's thinking times {outcome.thinking_ms} ms are not the rows' sums "
                         f"{self.thinking_ms} ms")
        reason = outcome.reason
        if self.reason is not None and self.reason != reason:
            found.append(f"the outcome says {reason!r}, but the rows end the game by {self.reason!r} "
                         f"on line {self._ended_line}")
        elif self.reason is not None and self.winner != outcome.winner:
            found.append(f"the outcome names winner {outcome.winner}, but the rows make seat {self.winner} win")
        elif self.reason is None and reason in ("goal", "violations"):
            found.append(f"the outcome says {reason!r}, but no row ends the game that way")
        if reason == "step_cap":
            t0, t1 = outcome.thinking_ms
            expected = None if t0 == t1 else (0 if t0 < t1 else 1)
            if outcome.winner != expected:
                found.append(f"at the step cap the smaller thinking time wins ({t0} ms against {t1} ms), "
                             f"so the winner is {'nobody' if expected is None else f'seat {expected}'}, "
                             f"not {'nobody' if outcome.winner is None else f'seat {outcome.winner}'}")
            if self.steps_made[0] != self.steps_made[1]:
                found.append(f"the outcome says 'step_cap', but the seats made {self.steps_made[0]} and "
                             f"{self.steps_made[1]} steps")
        self.problems.extend(LogProblem(line, message) for message in found)


def replay(log: GameLog, ruleset: Ruleset | None = None, *, violations_to_lose: int = VIOLATIONS_TO_LOSE,
           step_cap: int | None = STEP_CAP) -> Replay:
    """Replay ``log`` under ``ruleset`` (default: the header's); never raises for a disagreement.

    ``violations_to_lose`` and ``step_cap`` are the referee's settings (the handout's by default;
    ``step_cap=None`` checks no cap).
    """
    return Replay(log, ruleset, violations_to_lose=violations_to_lose, step_cap=step_cap)


def validate(log: GameLog, ruleset: Ruleset | None = None, **settings: int | None) -> list[LogProblem]:
    """The lines of ``log`` that disagree with the rules (empty when it replays cleanly)."""
    return replay(log, ruleset, **settings).problems  # type: ignore[arg-type]


def final_position(log: GameLog, ruleset: Ruleset | None = None, **settings: int | None) -> Position:
    """The position after the last row of ``log`` that agrees with the rules (see ``Replay.shown_position``)."""
    return replay(log, ruleset, **settings).position  # type: ignore[arg-type]

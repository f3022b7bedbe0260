"""``GameReferee``: the pure state machine of one game, fed steps and the times they arrived.

It never reads a clock and never touches a socket: the transport (websocket server, legacy
TCP port, in-process local match) feeds it what happened with the time it happened and sends
what it returns. The rules it enforces are ``quoridor-rules.md``:

* every step is judged by the rules core; a violating step changes nothing and the turn passes;
* each seat's next ``turn`` carries the status of its own previous step and, when that step was a
  violation, the ``StepVerdict`` on it (cause and reason); a verdict no turn could carry any more
  (the game ended first) comes with the end;
* thinking time runs from the moment the ``turn`` was *sent* (``clock_started``) to the moment
  the answer *arrived*; an answer at or after the limit is a Timeout violation and is discarded,
  and so is an answer carrying an old turn number (it can never count for a later turn);
* two options of the organiser's (issue 31): on the ``cpu`` clock, a step that comes with the CPU
  time its bot used for it (a hosted bot's, measured by the server) is judged by that CPU time
  against the limit, and by its wall time against a cap (``wall_cap_ms``), so a busy host costs it
  nothing; a step without one (a connected player) is judged on the wall clock as always. With a
  time bank, the time a seat leaves unused is kept, up to ``time_bank_ms``, for its later steps: a
  turn allows the limit plus the bank, and a step that takes more than the limit draws on it;
* the 3rd violation of a seat (``VIOLATIONS_TO_LOSE``) loses the game (RulesBreaker);
* each seat makes at most ``step_cap`` steps (violations count); when both have, the smaller
  total thinking time wins, equal to the millisecond is a draw;
* a seat that disconnects loses (EnemyClosed to the other); a seat that never shows up forfeits,
  and a game neither seat shows up for is a draw.

A game may start from an ``opening``: a few plies both games of a colour-swapped pair start
from (the ladder's ``shared.ladder.pawn_opening``, ``quoridor-match --openings``). ``start``
plays them itself before the first ``turn`` a bot is sent: each is judged and recorded like any
step, in 0 ms, as the first rows of the log, and the first turn a bot gets carries the position
after them (the opponent's last opening wall included). A ply the rules refuse is a
``RefereeError`` (``bad_opening``) when the referee is made, never a violation charged to a seat.

Its events say everything the transports need, so none of them re-derives a fact beside it: a
judged step carries its ``Cause`` (``late``, or the rule it broke: ``not_reachable``,
``wall_overlaps``, ...) and the reason for people; the end carries the ``Termination``, each
seat's status and result, and each seat's last verdict that no turn told it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Literal, get_args

from ..gamelog.records import GameOutcome, StepRecord
from ..quoridor import (
    COURSE, STEP_CAP, VIOLATIONS_TO_LOSE, Cause, GameStatus, IllegalStepError, Position, Ruleset, StepVerdict,
    step_name,
)
from ..quoridor.geometry import H_STEPS, MOVE_STEPS, V_STEPS, cell_index, wall_slot
from ..quoridor.types import NO_WALL, BlockBar, ChessboardChange, Step

__all__ = [
    "RefereeSettings", "GameReferee", "RefereeError", "TurnRequest", "StepJudged", "GameFinished",
    "RefereeEvent", "DRAW_STATUS", "VIOLATIONS_TO_LOSE", "STEP_CAP", "Termination", "Cause", "SeatResult",
    "StepVerdict", "StepClock", "WALL_CAP_FACTOR",
]

#: Status sent to both seats of a drawn game (the rules' "None": neither won nor lost).
DRAW_STATUS = GameStatus.NONE
#: A game's result for one seat.
SeatResult = Literal["win", "loss", "draw"]
#: What a step's thinking time is: its wall time, or (where the transport measured it) the CPU time it used.
StepClock = Literal["wall", "cpu"]
#: The wall-time cap of a CPU-judged turn, as a multiple of the time it allows, when not given.
WALL_CAP_FACTOR = 3


class Termination(StrEnum):
    """Why a game ended (the values are the logs' and the protocol's ``reason`` strings)."""

    GOAL = "goal"                  #: a pawn reached its goal row
    VIOLATIONS = "violations"      #: a seat's 3rd violation
    DISCONNECT = "disconnect"      #: a seat's connection closed mid-game
    STEP_CAP = "step_cap"          #: both seats made their steps; the smaller thinking time won
    FORFEIT = "forfeit"            #: a seat never came to play (or was removed from the contest)


@dataclass(frozen=True, slots=True)
class RefereeSettings:
    """The rules a game is refereed by."""

    ruleset: Ruleset = COURSE
    #: Thinking time limit per step in milliseconds; ``None`` = no limit (debugging server).
    time_limit_ms: int | None = 1000
    #: The violation that loses the game (the 3rd).
    violations_to_lose: int = VIOLATIONS_TO_LOSE
    #: Steps each seat may make in one game.
    step_cap: int = STEP_CAP
    #: ``cpu``: a step that comes with its CPU time is judged by it (``--hosted-clock cpu``); ``wall``: by wall time.
    clock: StepClock = "wall"
    #: On the ``cpu`` clock, the wall time a turn may take at most (ms); ``None``: 3 times what the turn allows.
    wall_cap_ms: int | None = None
    #: Unused thinking time a seat keeps for its later steps, up to this many ms (``--time-bank``; 0: none).
    time_bank_ms: int = 0

    def __post_init__(self) -> None:
        if self.time_limit_ms is not None and self.time_limit_ms <= 0:
            raise ValueError(f"time limit must be positive (or None for no limit), got {self.time_limit_ms}")
        if self.violations_to_lose < 1:
            raise ValueError(f"violations to lose must be at least 1, got {self.violations_to_lose}")
        if self.step_cap < 1:
            raise ValueError(f"step cap must be at least 1, got {self.step_cap}")
        if self.clock not in get_args(StepClock):
            raise ValueError(f"the clock must be 'wall' or 'cpu', got {self.clock!r}")
        if self.wall_cap_ms is not None and self.wall_cap_ms <= 0:
            raise ValueError(f"the wall-time cap must be positive (or None), got {self.wall_cap_ms}")
        if self.time_bank_ms < 0:
            raise ValueError(f"the time bank must be 0 or more ms, got {self.time_bank_ms}")

    def turn_wall_cap_ms(self, allowed_ms: int | None) -> int | None:
        """The wall time a CPU-judged turn that allows ``allowed_ms`` may take (``None``: no limit)."""
        if allowed_ms is None:
            return None
        return self.wall_cap_ms if self.wall_cap_ms is not None else WALL_CAP_FACTOR * allowed_ms


class RefereeError(ValueError):
    """A step the referee cannot take at all (not a rules violation): carries a protocol error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class TurnRequest:
    """Send ``turn`` to ``seat``: it is its move; then call ``clock_started`` when it is on the wire.

    ``judgement`` is the verdict on the seat's previous step (its turn was ``turn - 2``) when that
    step was a violation: ``change.status`` with the cause and the reason; ``None`` when it stood
    or there was none.
    """

    seat: int
    turn: int
    change: ChessboardChange
    walls_left: tuple[int, int]   # the receiver's, then the opponent's
    time_limit_ms: int | None     # what this step may take: the limit plus the seat's time bank
    judgement: StepVerdict | None = None


@dataclass(frozen=True, slots=True)
class StepJudged:
    """A step (or a timeout) was judged and recorded; for logs, spectators and the contest's rules.

    ``cause`` is None for a step that stood; for a violation it says why: ``late``, or the rule the
    step broke (also when it was the 3rd violation, recorded as RulesBreaker), and ``reason`` says
    it for people (the record keeps it for the log).
    """

    seat: int
    record: StepRecord
    position: Position            # the position after it
    clocks_ms: tuple[int, int]    # total thinking time per seat so far
    cause: Cause | None = None
    reason: str = ""
    #: For a ply of the game's opening (played by the referee, no seat asked): the turn it answered, as the
    #: seat would have been told it; ``None`` for a step a seat sent (or a timeout).
    opening_turn: TurnRequest | None = None

    @property
    def opening(self) -> bool:
        """True when the step was a ply of the game's opening, played by the referee for the seat."""
        return self.opening_turn is not None

    @property
    def late(self) -> bool:
        """True when the step was a timeout (whatever status the record shows)."""
        return self.cause is Cause.LATE

    @property
    def illegal(self) -> bool:
        """True when the step broke a rule (whatever status the record shows)."""
        return self.cause is not None and self.cause is not Cause.LATE


@dataclass(frozen=True, slots=True)
class GameFinished:
    """The game is over: why, what each seat is told (Win, Lost, EnemyClosed, RulesBreaker, None) and its result.

    ``judgements`` holds, per seat, the verdict on its last step when that was a violation no
    ``turn`` told it of (the 3rd violation that lost the game, or one the game ended right after).
    """

    outcome: GameOutcome
    statuses: tuple[GameStatus, GameStatus]
    termination: Termination
    judgements: tuple[StepVerdict | None, StepVerdict | None] = (None, None)

    def result(self, seat: int) -> SeatResult:
        """``seat``'s result: win, loss or draw."""
        winner = self.outcome.winner
        return "draw" if winner is None else ("win" if winner == seat else "loss")


RefereeEvent = TurnRequest | StepJudged | GameFinished


def _interned_wall(step: Step) -> Step:
    """The rules core's interned step equal to the legal wall ``step`` (its ends in the normalised order), else
    ``step`` itself: a record keeps the wall as the player wrote it."""
    place = wall_slot(step.new_wall)
    assert place is not None                        # a legal wall lies on the board
    horizontal, slot = place
    interned = (H_STEPS if horizontal else V_STEPS)[slot]
    return interned if interned == step else step


@dataclass(slots=True)
class _Seat:
    steps: int = 0
    violations: int = 0
    thinking_ms: int = 0
    #: Unused time kept for later steps (ms, up to ``time_bank_ms``).
    bank_ms: float = 0.0
    last_status: GameStatus = GameStatus.OK
    last_wall: BlockBar = NO_WALL
    #: The verdict on the seat's last step when it was a violation, until a turn (or the end) tells it.
    untold: StepVerdict | None = None


@dataclass
class GameReferee:
    """One game between ``players`` (seat 0 first), from ``opening``'s plies; see the module docstring for the rules.

    Raises ``RefereeError`` (``bad_opening``) when a ply of ``opening`` is illegal where it is played.
    """

    players: tuple[str, str]
    settings: RefereeSettings = field(default_factory=RefereeSettings)
    #: Plies the game starts from, played by the referee at ``start`` (seat 0's first); ``()``: none.
    opening: tuple[Step, ...] = ()
    position: Position = field(init=False)
    records: list[StepRecord] = field(init=False, default_factory=list)
    outcome: GameOutcome | None = field(init=False, default=None)
    turn: int = field(init=False, default=-1)
    clock_start: float | None = field(init=False, default=None)
    _seats: tuple[_Seat, _Seat] = field(init=False)

    def __post_init__(self) -> None:
        self.position = Position.initial(self.settings.ruleset)
        self._seats = (_Seat(), _Seat())
        self.opening = tuple(self.opening)
        position = self.position
        for ply, step in enumerate(self.opening):
            if position.is_over():
                raise RefereeError("bad_opening", f"the opening's ply {ply + 1} of {len(self.opening)} "
                                                  f"({step_name(step)}) comes after the game is won")
            try:
                position = position.play(step)
            except IllegalStepError as exc:
                raise RefereeError("bad_opening", f"the opening's ply {ply + 1} of {len(self.opening)} "
                                                  f"({step_name(step)}) is illegal: {exc.judgement.reason}") from None

    # -- reading ----------------------------------------------------------------------
    @property
    def mover(self) -> int:
        """The seat whose turn it is."""
        return self.position.turn

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.outcome is not None

    @property
    def clocks_ms(self) -> tuple[int, int]:
        """Total thinking time charged to each seat, in whole milliseconds."""
        return self._seats[0].thinking_ms, self._seats[1].thinking_ms

    @property
    def violations(self) -> tuple[int, int]:
        """Violations of each seat so far."""
        return self._seats[0].violations, self._seats[1].violations

    @property
    def steps_made(self) -> tuple[int, int]:
        """Steps each seat has made (violations included)."""
        return self._seats[0].steps, self._seats[1].steps

    @property
    def banks_ms(self) -> tuple[int, int]:
        """Each seat's time bank now, in whole milliseconds (0 without ``time_bank_ms``)."""
        return round(self._seats[0].bank_ms), round(self._seats[1].bank_ms)

    def allowed_ms(self, seat: int) -> float | None:
        """The thinking time ``seat``'s next step may take: the limit plus its bank (``None``: no limit)."""
        limit = self.settings.time_limit_ms
        return None if limit is None else limit + self._seats[seat].bank_ms

    def deadline(self) -> float | None:
        """When the current turn times out (same clock as the times fed in), or ``None``; on the ``cpu`` clock,
        the turn's wall-time cap (its CPU time is judged when the step arrives)."""
        if self.is_over or self.clock_start is None:
            return None
        allowed = self.allowed_ms(self.mover)
        if allowed is None:
            return None
        if self.settings.clock == "cpu":
            cap = self.settings.turn_wall_cap_ms(int(allowed))
            assert cap is not None
            return self.clock_start + cap / 1000
        return self.clock_start + allowed / 1000

    # -- driving ----------------------------------------------------------------------
    def start(self) -> list[RefereeEvent]:
        """Begin the game: play the opening's plies (each judged, 0 ms, ``StepJudged.opening``), then the first
        ``turn`` goes to the seat to move (seat 0 without an opening)."""
        if self.turn != -1:
            raise RefereeError("already_started", "the game has already started")
        events: list[RefereeEvent] = []
        request = self._next_turn()
        for step in self.opening:
            judged, *after = self._apply(step, 0)     # the step's StepJudged, then the next turn (or the end)
            assert isinstance(judged, StepJudged)
            events.append(replace(judged, opening_turn=request))
            if self.is_over:                          # an opening longer than the step cap allows
                return events + after
            assert isinstance(after[0], TurnRequest)
            request = after[0]
        return [*events, request]

    def clock_started(self, turn: int, at: float) -> None:
        """The ``turn`` numbered ``turn`` went on the wire at ``at``: the mover's clock runs from here."""
        if turn == self.turn and not self.is_over:
            self.clock_start = at

    def receive_step(self, seat: int, turn: int, step: Step, arrived_at: float,
                     cpu_s: float | None = None) -> list[RefereeEvent]:
        """Judge a step from ``seat`` answering ``turn`` that arrived at ``arrived_at`` (``cpu_s``: the CPU seconds
        its bot used for it, where the transport measured them; judged by them on the ``cpu`` clock).

        Raises ``RefereeError`` (codes ``wrong_game``, ``not_your_turn``, ``stale_turn``) for a
        step that cannot be taken at all; such a step changes nothing and is no violation. An
        answer to an old turn of the seat's own is ``stale_turn`` whoever moves now: it is a late
        answer (docs/protocol.md, Timing), already paid for as a timeout.
        """
        # The hot path of every step: attributes read directly rather than through the properties above.
        if self.outcome is not None:
            raise RefereeError("wrong_game", "that game is over")
        if turn < self.turn:
            raise RefereeError("stale_turn", f"step answers turn {turn}, but the current turn is {self.turn}"
                                             " (a late answer is discarded)")
        if seat != self.position.turn:
            raise RefereeError("not_your_turn", f"it is not your turn (turn {self.turn} belongs to the other player)")
        if turn != self.turn or self.clock_start is None:
            raise RefereeError("stale_turn", f"step answers turn {turn}, but the current turn is {self.turn}"
                                             " (a late answer is discarded)")
        wall_s = arrived_at - self.clock_start
        allowed = self.allowed_ms(seat)
        if self.settings.clock == "cpu" and cpu_s is not None:
            thinking_ms = max(0, round(cpu_s * 1000))
            cap = self.settings.turn_wall_cap_ms(None if allowed is None else int(allowed))
            late = f"used {thinking_ms:,} ms of CPU time; {self._allows(seat)}" \
                if allowed is not None and cpu_s >= allowed / 1000 else \
                f"answered after {max(0, round(wall_s * 1000)):,} ms of wall time; the cap is {cap:,} ms" \
                if cap is not None and wall_s >= cap / 1000 else None
            used_s = cpu_s
        else:
            thinking_ms = max(0, round(wall_s * 1000))
            late = f"answered after {thinking_ms:,} ms; {self._allows(seat)}" \
                if allowed is not None and wall_s >= allowed / 1000 else None
            used_s = wall_s
        if late is not None:
            self._seats[seat].bank_ms = 0.0          # a late step used all the time it had
            return self._violation(GameStatus.TIMEOUT, step, thinking_ms, Cause.LATE, late)
        judgement = self.position.judge(step)
        if self.settings.time_bank_ms:
            self._bank(seat, used_s * 1000)
        if not judgement.ok:
            assert judgement.cause is not None      # the rules give every illegal step its cause
            return self._violation(judgement.status, step, thinking_ms, judgement.cause, judgement.reason)
        return self._apply(step, thinking_ms)

    def _allows(self, seat: int) -> str:
        limit = self.settings.time_limit_ms
        bank = self._seats[seat].bank_ms
        return f"the limit is {limit:,} ms" + (f" and its bank held {round(bank):,} ms" if bank >= 1 else "")

    def _bank(self, seat: int, used_ms: float) -> None:
        """``seat``'s step took ``used_ms``: keep what it left of the limit (or draw what it took beyond it)."""
        limit, most = self.settings.time_limit_ms, self.settings.time_bank_ms
        if limit is not None and most:
            me = self._seats[seat]
            me.bank_ms = max(0.0, min(float(most), me.bank_ms + limit - used_ms))

    def time_out(self, now: float) -> list[RefereeEvent]:
        """The deadline passed with no answer: a Timeout violation, the turn passes. No-op before the deadline."""
        deadline = self.deadline()
        if deadline is None or now < deadline:
            return []
        start = self.clock_start
        assert start is not None                      # a deadline runs from a turn on the wire
        thinking_ms = max(0, round((now - start) * 1000))
        me = self._seats[self.mover]
        if self.settings.clock == "cpu":
            reason = f"no answer within the wall-time cap of {round((deadline - start) * 1000):,} ms"
        else:
            reason = f"no answer within the limit of {self.settings.time_limit_ms:,} ms" + (
                f" and its bank of {round(me.bank_ms):,} ms" if me.bank_ms >= 1 else "")
        me.bank_ms = 0.0                              # a timeout used all the time it had
        return self._violation(GameStatus.TIMEOUT, Step(), thinking_ms, Cause.LATE, reason)

    def disconnect(self, seat: int) -> list[RefereeEvent]:
        """``seat`` left (closed, crashed): the other seat wins with EnemyClosed."""
        if self.is_over:
            return []
        return self._finish(1 - seat, Termination.DISCONNECT, winner_status=GameStatus.ENEMY_CLOSED)

    def forfeit(self, seat: int) -> list[RefereeEvent]:
        """``seat`` is not there to play (removed, never came back): the other seat wins."""
        if self.is_over:
            return []
        return self._finish(1 - seat, Termination.FORFEIT, winner_status=GameStatus.ENEMY_CLOSED)

    def abandon(self) -> list[RefereeEvent]:
        """Neither seat is there to play: a draw by forfeit."""
        if self.is_over:
            return []
        return self._finish(None, Termination.FORFEIT)

    # -- internals ----------------------------------------------------------------------
    def _record(self, seat: int, step: Step, status: GameStatus, thinking_ms: int, reason: str = "") -> StepRecord:
        record = StepRecord(self.players[seat], step, status, thinking_ms, self.turn, reason)
        self.records.append(record)
        return record

    def _violation(self, status: GameStatus, step: Step, thinking_ms: int, cause: Cause,
                   reason: str) -> list[RefereeEvent]:
        seat = self.mover
        me = self._seats[seat]
        me.steps += 1
        me.violations += 1
        me.thinking_ms += thinking_ms
        me.last_status = status
        me.last_wall = NO_WALL
        me.untold = StepVerdict(status, cause, reason, thinking_ms)
        if me.violations >= self.settings.violations_to_lose:
            record = self._record(seat, step, GameStatus.RULES_BREAKER, thinking_ms, reason)
            self.position = self.position.pass_turn()
            events: list[RefereeEvent] = [StepJudged(seat, record, self.position, self.clocks_ms, cause, reason)]
            return events + self._finish(1 - seat, Termination.VIOLATIONS, loser_status=GameStatus.RULES_BREAKER)
        self.position = self.position.pass_turn()
        return self._after_step(seat, step, status, thinking_ms, cause, reason)

    def _apply(self, step: Step, thinking_ms: int) -> list[RefereeEvent]:
        seat = self.position.turn
        me = self._seats[seat]
        me.steps += 1
        me.thinking_ms += thinking_ms
        me.last_status = GameStatus.OK
        me.untold = None
        # Rule 5: a cell and a wall together count as a move; the wall is ignored. The step kept is the
        # rules core's interned one of the same value: a game's records share them (no objects for the
        # collector to scan per step) and the position applies them without decoding.
        if step.is_move():
            step = MOVE_STEPS[cell_index(*step.new_loc)]
            me.last_wall = NO_WALL
        else:
            step = _interned_wall(step)
            me.last_wall = step.new_wall.normalized()
        self.position = self.position.apply(step)
        if self.position.winner() == seat:
            record = self._record(seat, step, GameStatus.WIN, thinking_ms)
            return [StepJudged(seat, record, self.position, self.clocks_ms), *self._finish(seat, Termination.GOAL)]
        return self._after_step(seat, step, GameStatus.OK, thinking_ms)

    def _after_step(self, seat: int, step: Step, status: GameStatus, thinking_ms: int, cause: Cause | None = None,
                    reason: str = "") -> list[RefereeEvent]:
        """Record a step that did not end the game by itself; then the step cap, or the next turn."""
        cap = self.settings.step_cap
        if self._seats[0].steps >= cap and self._seats[1].steps >= cap:
            t0, t1 = self.clocks_ms
            winner = None if t0 == t1 else (0 if t0 < t1 else 1)
            if winner is not None and not status.is_violation:   # the row that ends the game says who won
                status = GameStatus.WIN if seat == winner else GameStatus.LOST
            record = self._record(seat, step, status, thinking_ms, reason)
            judged = StepJudged(seat, record, self.position, self.clocks_ms, cause, reason)
            return [judged, *self._finish(winner, Termination.STEP_CAP)]
        record = self._record(seat, step, status, thinking_ms, reason)
        return [StepJudged(seat, record, self.position, self.clocks_ms, cause, reason), self._next_turn()]

    def _next_turn(self) -> TurnRequest:
        self.turn += 1
        self.clock_start = None
        position = self.position
        seat = position.turn
        me, other = self._seats[seat], self._seats[1 - seat]
        change = ChessboardChange(me.last_status, position.pawn(seat), position.pawn(1 - seat), other.last_wall)
        left = position.walls_left
        told, me.untold = me.untold, None
        limit = self.settings.time_limit_ms
        return TurnRequest(seat, self.turn, change, (left[seat], left[1 - seat]),
                           None if limit is None else round(limit + me.bank_ms), told)

    def _finish(self, winner: int | None, termination: Termination, *, winner_status: GameStatus = GameStatus.WIN,
                loser_status: GameStatus = GameStatus.LOST) -> list[RefereeEvent]:
        self.clock_start = None
        self.outcome = GameOutcome(winner, termination.value, self.clocks_ms, self.violations)
        if winner is None:
            statuses = (DRAW_STATUS, DRAW_STATUS)
        else:
            statuses = (winner_status, loser_status) if winner == 0 else (loser_status, winner_status)
        untold = (self._seats[0].untold, self._seats[1].untold)
        return [GameFinished(self.outcome, statuses, termination, untold)]

"""``GameRecorder``: one game's log rebuilt from what a player hears, for ``saveLog`` (``--save-log``).

Before each of its turns a player is told both pawns, the wall the opponent placed last and
the status of its own previous step; ``game_over`` says who won and why. From that the
recorder rebuilds every row of the game, seat 0 first, in the replay CSV format
(``spec/replay-csv.md``, written by ``shared.gamelog``), players named as the server named them.

What a player cannot see, and how the log shows it:

* an opponent's violation (its pawn did not move and it placed no wall) is an empty step with
  status InvalidStep (7): the player is not told what was sent or why it was refused;
* the player's own violations carry the referee's reason, told in its next ``turn`` (the last
  one in ``game_over``); a server that does not tell it leaves the reason empty;
* the status of the player's own last step is never sent in a turn: ``game_over`` says it when
  it was a violation; from a server that does not, the client judges it itself (Timeout when it
  measured the time limit or more; the server's clock may differ);
* the opponent's last step of a game ended by the step cap (when it moved last) is unknown
  and left out;
* rows carry no thinking time; the totals in the outcome rows come from ``game_over``.

A game the player joined part-way (or whose frames disagree with the rebuilt board) gets no log.
Writing the log to a file is ``client.logfiles``' business.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from shared.gamelog import GameHeader, GameLog, GameOutcome, StepRecord, canonical_step, check_player_name
from shared.protocol import GameOver, Turn, to_blockbar, to_location
from shared.quoridor import GameStatus, Position, Ruleset, Step

__all__ = ["GameRecorder"]

_S = GameStatus


class _Lost(Exception):
    """The recorder can no longer follow the game."""


@dataclass(frozen=True)
class _Sent:
    step: Step
    turn: int
    elapsed_ms: float
    time_limit_ms: int | None


class GameRecorder:
    """Follows one game from seat ``seat``; ``turn``, ``sent`` and ``finish`` feed it, ``log`` reads it."""

    def __init__(self, game: str, me: str, opponent: str, seat: int, ruleset: Ruleset) -> None:
        self.game = game
        self.seat = seat
        if not _usable(me, opponent):
            me, opponent = "Me", "Enemy"        # the old client's names, when the server's cannot name the seats
        self.players = (me, opponent) if seat == 0 else (opponent, me)
        self.ruleset = ruleset
        self.started = datetime.now(UTC)
        self.position = Position.initial(ruleset)
        self.records: list[StepRecord] = []
        self.violations = [0, 0]
        self.next_turn = 0
        self.pending: _Sent | None = None
        self.outcome: GameOutcome | None = None
        #: Why no log can be written (``None`` while the game is followed).
        self.broken: str | None = None

    # -- feeding ---------------------------------------------------------------------------
    def turn(self, frame: Turn) -> None:
        """A ``turn`` for this player: its previous step's status, and the opponent's step since."""
        if self.broken is not None:
            return
        try:
            if self.pending is not None:
                pending, self.pending = self.pending, None
                self._mine(pending, GameStatus(frame.status), frame.judgement.reason if frame.judgement else "")
            if self.position.turn != self.seat:
                self._theirs(frame)
            self._check(frame)
        except _Lost as exc:
            self.broken = str(exc)

    def sent(self, step: Step, turn: int, elapsed_ms: float, time_limit_ms: int | None) -> None:
        """The player answered turn ``turn`` with ``step`` after ``elapsed_ms``."""
        if self.broken is None:
            self.pending = _Sent(step, turn, elapsed_ms, time_limit_ms)

    def finish(self, over: GameOver) -> GameStatus | None:
        """The game ended; returns the status of this player's last step (never sent in a turn), if it made one."""
        won, lost = over.result == "win", over.result == "loss"
        me, op = self.seat, 1 - self.seat
        times = over.thinking_ms or (0, 0)
        self.outcome = GameOutcome(me if won else op if lost else None, over.reason,
                                   (times[0], times[1]) if me == 0 else (times[1], times[0]), (0, 0))
        pending, self.pending = self.pending, None
        last: GameStatus | None = None
        if pending is not None and self.broken is None:
            last = self._last_status(over, pending)
        elif over.status == _S.RULES_BREAKER:
            last = _S.RULES_BREAKER
        if self.broken is None:
            try:
                if pending is not None and last is not None:
                    self._mine(pending, last, over.judgement.reason if over.judgement else "")
                if self.position.turn == op:
                    self._last_of_theirs(over)
            except _Lost as exc:
                self.broken = str(exc)
        self.outcome = GameOutcome(self.outcome.winner, self.outcome.reason, self.outcome.thinking_ms,
                                   (self.violations[0], self.violations[1]))
        return last

    def _last_status(self, over: GameOver, pending: _Sent) -> GameStatus:
        """The status of this player's last step, from how the game ended, or as ``game_over`` says, or else
        judged here."""
        if over.reason == "violations" and over.result == "loss":
            return _S.RULES_BREAKER
        if over.reason == "goal" and over.result == "win":
            return _S.WIN
        if over.judgement is not None:
            return GameStatus(over.judgement.status)
        # A server that tells the judgement and sent none says the step stood; an older one says nothing.
        status = _S.OK if "judgement" in over.model_fields_set else _judge(self.position, pending)
        if over.reason == "step_cap" and self.seat == 1 and not status.is_violation and over.result != "draw":
            status = _S.WIN if over.result == "win" else _S.LOST    # the row that ends the game says who won
        return status

    # -- reading ---------------------------------------------------------------------------
    def log(self) -> GameLog | None:
        """The finished game's log; ``None`` when it could not be followed or no step was played."""
        if self.broken is not None or not self.records or self.outcome is None:
            return None
        try:
            header = GameHeader(self.players, self.ruleset.name, game=self.game,
                                started=self.started.isoformat(timespec="seconds"))
        except ValueError as exc:
            self.broken = str(exc)
            return None
        return GameLog(header, list(self.records), self.outcome)

    # -- internals ---------------------------------------------------------------------------
    def _row(self, seat: int, step: Step, status: GameStatus, turn: int, reason: str = "") -> None:
        if turn != self.next_turn:
            raise _Lost(f"turn {turn} does not follow turn {self.next_turn - 1}")
        pos = self.position
        if status in (_S.OK, _S.WIN, _S.LOST):
            if not pos.is_legal(step):
                raise _Lost(f"the step {step} of turn {turn} was accepted but is illegal on the rebuilt board")
            self.position = pos.apply(canonical_step(step))
        else:
            if status.is_violation or status is _S.RULES_BREAKER:
                self.violations[seat] += 1
            self.position = pos.pass_turn()
        self.records.append(StepRecord(self.players[seat], step, status, None, turn, reason))
        self.next_turn = turn + 1

    def _mine(self, sent: _Sent, status: GameStatus, reason: str = "") -> None:
        self._row(self.seat, sent.step, status, sent.turn, reason)

    def _theirs(self, frame: Turn) -> None:
        op = 1 - self.seat
        wall, loc = to_blockbar(frame.enemy_wall), to_location(frame.enemy_loc)
        if not wall.is_none():
            self._row(op, Step(new_wall=wall), _S.OK, self.next_turn)
        elif loc != self.position.pawn(op):
            self._row(op, Step(loc), _S.OK, self.next_turn)
        else:
            self._row(op, Step(), _S.INVALID_STEP, self.next_turn)

    def _last_of_theirs(self, over: GameOver) -> None:
        """The opponent's step that ended the game, when it can be known."""
        op = 1 - self.seat
        if over.reason == "violations" and over.result == "win":
            self._row(op, Step(), _S.RULES_BREAKER, self.next_turn)
        elif over.reason == "goal" and over.result == "loss":
            pos = self.position
            goals = [loc for loc in pos.legal_moves() if pos.apply(Step(loc)).winner() == op]
            if not goals:
                raise _Lost("the opponent won, but no move of its reaches its goal row on the rebuilt board")
            # Straight ahead when it can: two goal cells are reachable only by jumping round this pawn.
            goals.sort(key=lambda loc: (loc.x != pos.pawn(op).x, loc))
            self._row(op, Step(goals[0]), _S.WIN, self.next_turn)

    def _check(self, frame: Turn) -> None:
        pos, me, op = self.position, self.seat, 1 - self.seat
        if frame.turn != self.next_turn:
            raise _Lost(f"joined at turn {frame.turn}, not at the start of the game")
        if (pos.turn != me or pos.pawn(me) != to_location(frame.my_loc) or pos.pawn(op) != to_location(frame.enemy_loc)
                or (pos.walls_left[me], pos.walls_left[op]) != tuple(frame.walls_left)):
            raise _Lost(f"turn {frame.turn} does not match the rebuilt board")


def _usable(me: str, opponent: str) -> bool:
    """True when both names can name a seat in a log (distinct, no control characters or outer blanks)."""
    try:
        check_player_name(me)
        check_player_name(opponent)
    except ValueError:
        return False
    return me != opponent


def _judge(pos: Position, sent: _Sent) -> GameStatus:
    """How the referee most likely judged ``sent``: Timeout when too late, else the rules' verdict."""
    if sent.time_limit_ms is not None and sent.elapsed_ms >= sent.time_limit_ms:
        return _S.TIMEOUT
    return pos.judge(sent.step).status


"""``MatchRunner``: drives one ``GameReferee`` between two seats; it only moves messages.

Everything that happens to a game is handled the moment it happens, on the event loop: the
connection that read a step calls ``submit_step``, which feeds the referee and sends what it
returns (the opponent's ``turn``, log rows, spectators' updates) in the same call. There is no
inbox and no task switch per step, and the referee has one owner (the event loop thread), so
there are no races. Things that happen *during* a dispatch (a turn that cannot be sent, a
player removed by a hook) are queued and handled right after it. ``run`` starts the game, waits
for its end, writes the log, stores the result and then announces it (``game_over``, built by
``game_over`` for every way a game can end, forfeits included).

Fairness: the server never charges its own delays to a bot. A step is judged by the time its
bytes arrived (stamped by the transport before anything else), its clock starts when its
``turn`` is on the wire, and a timeout is charged exactly the limit, never the grace
(``grace_s``: how long past the deadline the timer waits, so that a step read in the same pass
of the event loop as the timer still counts).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from shared.gamelog import GameHeader, GameOutcome
from shared.protocol import GameOver, step_judgement
from shared.quoridor import Step
from shared.referee import GameFinished, GameReferee, RefereeError, RefereeEvent, RefereeSettings, StepJudged, TurnRequest

from server.logs.batcher import RowBatcher
from server.logs.logfile import LiveLogWriter
from server.timestamps import utc_now

__all__ = ["MatchRunner", "MatchResult", "Seat", "Refusal", "game_over"]

log = logging.getLogger("quoridor.server")

StepHook = Callable[["MatchRunner", StepJudged], None]
#: Why a step could not be taken at all: a protocol error code and a message for people.
Refusal = tuple[str, str]


class Seat(Protocol):
    """A player as a match sees it, whatever plays it: a connected bot, a legacy bot, a hosted or handed-in bot's
    process, a ladder player in several games (``server.seats.players.PlayerSession`` and its subclasses).

    The match enters the seat in its game before the game starts (from then on, steps the seat's connection reads
    for ``match.game_id`` reach ``match.submit_step`` as ``seat``) and takes it out once the game is over and
    announced; in between it only sends the three frames of a game.
    """

    name: str

    def enter(self, match: MatchRunner, seat: int) -> None:
        """``match`` starts with this player as ``seat``: route its steps for that game there."""
        ...

    def leave(self, match: MatchRunner) -> None:
        """``match`` is over (or was stopped): route no more steps there."""
        ...

    async def send_game_start(self, game: str, opponent: str, seat: int) -> bool:
        """Announce the game; False when the player is not there."""
        ...

    def send_turn(self, game: str, request: TurnRequest) -> float | None:
        """Write a turn now; when it went on the wire (the match's clock), or None when the player is gone."""
        ...

    async def send_game_over(self, message: GameOver) -> bool:
        """Tell the player how its game ended."""
        ...


def game_over(game_id: str, players: tuple[str, str], finished: GameFinished, seat: int,
              log_path: Path | None) -> GameOver:
    """The ``game_over`` frame telling ``seat`` how the game ended (with the verdict on its last step when no
    turn told it): the one place it is built."""
    outcome = finished.outcome
    return GameOver(game=game_id, status=int(finished.statuses[seat]), result=finished.result(seat),
                    reason=finished.termination.value,
                    winner=None if outcome.winner is None else players[outcome.winner],
                    log=None if log_path is None else str(log_path),
                    thinking_ms=None if log_path is None else (outcome.thinking_ms[seat],
                                                               outcome.thinking_ms[1 - seat]),
                    judgement=step_judgement(finished.judgements[seat]))


@dataclass(frozen=True)
class MatchResult:
    """How a game ended, where its log is, and when it ran."""

    game_id: str
    outcome: GameOutcome
    log_path: Path
    started_at: str
    ended_at: str
    steps: int


class MatchRunner:
    """One game: the referee (which plays ``opening``'s plies), its two sessions (seat 0 first), its timer and its log.

    The log is written through ``rows`` (a ``RowBatcher``, shared by a tournament's games): its rows
    land in play order and before its end, which is synced on ``executor``. Its deadlines are read on
    ``clock``, the clock of the seats' ``send_turn`` and of the steps' arrival stamps.
    """

    def __init__(self, game_id: str, sessions: tuple[Seat, Seat], referee: RefereeSettings,
                 log_path: Path, *, executor: Executor | None = None, grace_s: float = 0.05,
                 tournament: str | None = None, on_step: StepHook | None = None, opening: Sequence[Step] = (),
                 rows: RowBatcher | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.game_id = game_id
        self.sessions = sessions
        self.referee = GameReferee((sessions[0].name, sessions[1].name), referee, tuple(opening))
        self.log_path = log_path
        self.executor = executor
        #: The game logs' writer (shared by a tournament's games: their rows go out together, and the
        #: logs of games that end together share one sync on ``executor``).
        self.rows = rows if rows is not None else RowBatcher(executor, clock=clock)
        self.grace_s = grace_s
        self._clock = clock
        self.tournament = tournament
        self.on_step = on_step
        self.started_at = utc_now()
        self._writer: LiveLogWriter | None = None
        self._ended: asyncio.Future[GameFinished] | None = None
        self._dispatching = False
        self._queued: deque[Callable[[], list[RefereeEvent]]] = deque()
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at = 0.0

    # -- fed by the connection handlers ------------------------------------------------------
    def submit_step(self, seat: int, turn: int, step: Step, arrived_at: float, *,
                    cpu_s: float | None = None) -> Refusal | None:
        """A step from ``seat`` for ``turn`` arrived at ``arrived_at`` (monotonic clock; ``cpu_s``: the CPU seconds
        a hosted bot used for it): judge it now.

        Returns why it could not be taken at all (an old turn, not this seat's turn, the game is
        over): such a step changes nothing, and the caller answers the client.
        """
        if not self._running():
            return "wrong_game", f"game {self.game_id} is over"
        if self._dispatching:               # never from a socket's callback; kept in order all the same
            self._handle(lambda: self._judge(seat, turn, step, arrived_at, cpu_s))
            return None
        try:
            events = self.referee.receive_step(seat, turn, step, arrived_at, cpu_s)
        except RefereeError as exc:
            return exc.code, exc.message
        self._drain(events)
        return None

    def _judge(self, seat: int, turn: int, step: Step, arrived_at: float,
               cpu_s: float | None = None) -> list[RefereeEvent]:
        try:
            return self.referee.receive_step(seat, turn, step, arrived_at, cpu_s)
        except RefereeError:
            return []

    def submit_disconnect(self, seat: int) -> None:
        """``seat``'s connection closed."""
        if self._running():
            self._handle(lambda: self.referee.disconnect(seat))

    def submit_forfeit(self, seat: int) -> None:
        """``seat`` is removed from the contest: it loses this game."""
        if self._running():
            self._handle(lambda: self.referee.forfeit(seat))

    def _running(self) -> bool:
        return self._ended is not None and not self._ended.done()

    # -- the game ---------------------------------------------------------------------------
    async def run(self, on_result: Callable[[MatchResult], Awaitable[None]] | None = None) -> MatchResult:
        """Play the game to its end and return the result (the log is complete on disk by then).

        ``on_result`` (storing the result) runs before the players are told: once a bot has heard
        ``game_over``, a crash of the server can no longer make it play that game again.
        """
        ref = self.referee
        header = GameHeader(players=ref.players, ruleset=ref.settings.ruleset.name, game=self.game_id,
                            tournament=self.tournament, started=self.started_at,
                            clock="cpu" if ref.settings.clock == "cpu" else None)
        self._writer = writer = self.rows.open(self.log_path, header)
        for seat, session in enumerate(self.sessions):
            session.enter(self, seat)
        self._ended = asyncio.get_running_loop().create_future()
        try:
            absent = [seat for seat in (0, 1) if not await self.sessions[seat].send_game_start(
                self.game_id, self.sessions[1 - seat].name, seat)]
            # Neither came (no hosted bot started): a double forfeit, no winner (the first turn would make one).
            self._handle(ref.abandon if len(absent) == 2 else ref.start)
            for seat in absent:
                self.submit_disconnect(seat)
            try:
                finished = await self._ended
            finally:
                self._disarm()
                if not self._ended.done():
                    self._ended.cancel()
            await self.rows.finish(writer, finished.outcome)     # its last rows first, then the finished log
            result = MatchResult(self.game_id, finished.outcome, self.log_path, self.started_at, utc_now(),
                                 len(ref.records))
            if on_result is not None:
                await on_result(result)
            await self._announce(finished)
        finally:
            for session in self.sessions:       # in the game until its game_over is sent (a step now is refused)
                session.leave(self)
        return result

    def _handle(self, produce: Callable[[], list[RefereeEvent]]) -> None:
        """Feed the referee (``produce`` calls it) and dispatch its events; calls made meanwhile queue up."""
        self._queued.append(produce)
        if not self._dispatching:
            self._drain(None)

    def _drain(self, events: list[RefereeEvent] | None) -> None:
        """Dispatch ``events`` (produced already: a step judged in its socket's callback, the hot path), then
        every call queued meanwhile; a bug ends the game."""
        self._dispatching = True
        try:
            if events is not None:
                self._dispatch(events)
            while self._queued and self._running():
                self._dispatch(self._queued.popleft()())
        except Exception as exc:  # noqa: BLE001 - a bug must end this game (run raises it), not hang it
            assert self._ended is not None
            if not self._ended.done():
                self._ended.set_exception(exc)
        finally:
            self._dispatching = False
            self._queued.clear()

    def _dispatch(self, events: list[RefereeEvent]) -> None:
        """Send turns, write log rows, feed spectators; the game's end settles ``run``.

        The log (``rows.add``) and the spectators (``on_step``) hear of a step after the next turn is
        on the wire: a bot's clock never waits for the server's bookkeeping.
        """
        judged: list[StepJudged] = []
        for event in events:
            if isinstance(event, StepJudged):
                judged.append(event)
            elif isinstance(event, TurnRequest):
                sent_at = self.sessions[event.seat].send_turn(self.game_id, event)
                if sent_at is None:
                    self.submit_disconnect(event.seat)     # queued: handled after these events
                else:
                    self.referee.clock_started(event.turn, sent_at)
                    self._arm()
            elif isinstance(event, GameFinished):
                self._disarm()
                assert self._ended is not None
                self._ended.set_result(event)
        for event in judged:
            assert self._writer is not None
            self.rows.add(self._writer, event.record)
        if self.on_step is not None:
            for event in judged:
                self.on_step(self, event)

    # -- the deadline -------------------------------------------------------------------------
    def _arm(self) -> None:
        """Make sure a timer fires by the current deadline plus the grace.

        Deadlines only move later, so a timer already set earlier is kept: when it fires it finds
        the later deadline and sets itself again. A game of quick answers re-arms about once per
        time limit instead of once per step.
        """
        deadline = self.referee.deadline()
        if deadline is None:
            return
        wake = deadline + self.grace_s
        if self._timer is None or self._timer_at > wake:
            self._set_timer(wake)

    def _set_timer(self, at: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        # Deadlines are on ``clock``; the loop's own clock may differ, so go by "how long from now".
        self._timer = asyncio.get_running_loop().call_later(max(at - self._clock(), 0.0), self._on_timer)
        self._timer_at = at

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _on_timer(self) -> None:
        self._timer = None
        if not self._running():
            return
        deadline = self.referee.deadline()
        if deadline is None:
            return
        now = self._clock()
        wake = deadline + self.grace_s
        if now < wake:
            self._set_timer(wake)
            return
        # Charged exactly the limit: the grace and the server's lag are the server's delays.
        self._handle(lambda: self.referee.time_out(deadline))

    async def _announce(self, finished: GameFinished) -> None:
        for seat, session in enumerate(self.sessions):
            await session.send_game_over(game_over(self.game_id, self.referee.players, finished, seat, self.log_path))

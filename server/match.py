"""``MatchRunner``: drives one ``GameReferee`` between two player sessions, in one asyncio task.

Readers never judge anything: they stamp the arrival time and drop the step into the game's
inbox. This task owns the referee, so there are no races; it arms the deadline from the moment
each ``turn`` went on the wire (plus a small grace), writes the log row by row off the event loop,
feeds spectators, and returns the outcome.

Fairness: the server never charges its own delays to a bot. A step is judged by the time its
bytes arrived, not by when this task got round to it; when the deadline passes, a step of the
mover's that arrived in time but is still on its way through the server (stamped, not yet routed)
is waited for; and a timeout is charged exactly the limit, never the grace or the server's lag.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from shared.gamelog import GameHeader, GameOutcome
from shared.protocol import GameOver
from shared.quoridor import Step
from shared.referee import GameFinished, GameReferee, RefereeError, RefereeEvent, RefereeSettings, StepJudged, TurnRequest

from .log_batcher import RowBatcher
from .logfile import LiveLogWriter
from .players import PlayerSession

__all__ = ["MatchRunner", "MatchResult"]

log = logging.getLogger("quoridor.server")

StepHook = Callable[["MatchRunner", StepJudged], None]
_Item = tuple[str, int, int, Step, float]
#: How long past the deadline a step that arrived in time may take to get through a busy server.
IN_FLIGHT_PATIENCE_S = 1.0


@dataclass(frozen=True)
class MatchResult:
    """How a game ended, where its log is, and when it ran."""

    game_id: str
    outcome: GameOutcome
    log_path: Path
    started_at: str
    ended_at: str
    steps: int


def _utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class MatchRunner:
    """One game: the referee, its two sessions (seat 0 first), its inbox and its log.

    ``executor`` runs the log writes; it must run jobs in the order given (one thread), so that
    rows land in play order.
    """

    def __init__(self, game_id: str, sessions: tuple[PlayerSession, PlayerSession], referee: RefereeSettings,
                 log_path: Path, *, executor: Executor | None = None, grace_s: float = 0.05,
                 tournament: str | None = None, on_step: StepHook | None = None,
                 on_error: Callable[[PlayerSession, str, str], Awaitable[None]] | None = None,
                 rows: RowBatcher | None = None) -> None:
        self.game_id = game_id
        self.sessions = sessions
        self.referee = GameReferee((sessions[0].name, sessions[1].name), referee)
        self.log_path = log_path
        self.executor = executor
        #: Where log rows go (shared by a tournament's games, so that all their rows go in one job).
        self.rows = rows if rows is not None else RowBatcher(executor)
        self.grace_s = grace_s
        self.tournament = tournament
        self.on_step = on_step
        self.on_error = on_error
        self.inbox: asyncio.Queue[_Item] = asyncio.Queue()
        self.started_at = _utc_now()
        #: True while the events of a timeout are dispatched (the 3rd violation is recorded as RulesBreaker).
        self.timed_out = False

    # -- fed by the connection handlers ------------------------------------------------------
    def submit_step(self, seat: int, turn: int, step: Step, arrived_at: float) -> None:
        """A step from ``seat`` for ``turn`` arrived at ``arrived_at`` (monotonic clock)."""
        self.inbox.put_nowait(("step", seat, turn, step, arrived_at))

    def submit_disconnect(self, seat: int) -> None:
        """``seat``'s connection closed."""
        self.inbox.put_nowait(("gone", seat, -1, Step(), time.monotonic()))

    def submit_forfeit(self, seat: int) -> None:
        """``seat`` is removed from the contest: it loses this game."""
        self.inbox.put_nowait(("forfeit", seat, -1, Step(), time.monotonic()))

    # -- the game task ----------------------------------------------------------------------
    async def run(self, on_result: Callable[[MatchResult], Awaitable[None]] | None = None) -> MatchResult:
        """Play the game to its end and return the result (the log is complete on disk by then).

        ``on_result`` (storing the result) runs before the players are told: once a bot has heard
        ``game_over``, a crash of the server can no longer make it play that game again.
        """
        ref = self.referee
        header = GameHeader(players=ref.players, ruleset=ref.settings.ruleset.name, game=self.game_id,
                            tournament=self.tournament, started=self.started_at)
        writer = await self._io(LiveLogWriter, self.log_path, header)
        for seat, session in enumerate(self.sessions):
            session.match, session.seat = self, seat
        try:
            for seat in (0, 1):
                if not await self.sessions[seat].send_game_start(self.game_id, self.sessions[1 - seat].name, seat):
                    self.submit_disconnect(seat)
            finished = await self._dispatch(ref.start(), writer)
            while finished is None:
                finished = await self._dispatch(await self._next_events(), writer)
        finally:
            for session in self.sessions:
                if session.match is self:
                    session.match, session.seat = None, None
        self.rows.flush()                           # the game's last rows go before finish (one thread, FIFO)
        await self._io(writer.finish, finished.outcome)
        result = MatchResult(self.game_id, finished.outcome, self.log_path, self.started_at, _utc_now(),
                             len(ref.records))
        if on_result is not None:
            await on_result(result)
        await self._announce(finished)
        return result

    async def _next_events(self) -> list[RefereeEvent]:
        """Wait for the next thing that happens to the game and feed it to the referee."""
        ref = self.referee
        while True:
            deadline = ref.deadline()
            self.timed_out = False
            try:
                kind, seat, turn, step, at = await self._next_item(deadline)
            except TimeoutError:
                assert deadline is not None      # only a running clock times out
                self.timed_out = True
                # Charged exactly the limit: the grace and the server's lag are the server's delays.
                return ref.time_out(deadline)
            if kind == "gone":
                return ref.disconnect(seat)
            if kind == "forfeit":
                return ref.forfeit(seat)
            limit = ref.settings.time_limit_ms
            start = ref.clock_start
            # The referee's own test for a late step, so that kick-after-timeouts counts what it counts.
            late = (limit is not None and start is not None and seat == ref.mover and turn == ref.turn
                    and at - start >= limit / 1000)
            try:
                events = ref.receive_step(seat, turn, step, at)
            except RefereeError as exc:
                code, message = exc.code, exc.message
                if code == "not_your_turn" and turn < ref.turn:
                    # An answer to an old turn of its own that arrives during the opponent's turn is a
                    # late answer (docs/protocol.md, Timing), whose turn it now is does not matter.
                    code, message = "stale_turn", (f"step answers turn {turn}, but the current turn is {ref.turn}"
                                                   " (a late answer is discarded)")
                if self.on_error is not None:
                    await self.on_error(self.sessions[seat], code, message)
                continue
            self.timed_out = late
            return events

    async def _next_item(self, deadline: float | None) -> _Item:
        """The next inbox item; ``TimeoutError`` when the deadline (plus grace) passed with no step in time."""
        if deadline is None:
            return await self.inbox.get()
        wake = deadline + self.grace_s
        give_up = wake + IN_FLIGHT_PATIENCE_S
        while True:
            try:
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation.
                async with asyncio.timeout(max(wake - time.monotonic(), 0)):
                    return await self.inbox.get()
            except TimeoutError:
                pass
            if not self.inbox.empty():      # put there as the timer fired
                return self.inbox.get_nowait()
            # A frame of the mover's stamped before the deadline but whose reader has not run yet
            # (a busy event loop): its lateness would be the server's, so wait for it to be routed.
            pending = self.sessions[self.referee.mover].pending_since()
            now = time.monotonic()
            if pending is None or pending >= deadline or now >= give_up:
                raise TimeoutError
            wake = min(now + 0.005, give_up)

    async def _dispatch(self, events: list[RefereeEvent], writer: LiveLogWriter) -> GameFinished | None:
        """Send turns, write log rows, feed spectators; returns the end of the game when it comes."""
        finished = None
        for event in events:
            if isinstance(event, StepJudged):
                self.rows.add(writer, event.record)
                if self.on_step is not None:
                    self.on_step(self, event)
            elif isinstance(event, TurnRequest):
                sent_at = await self.sessions[event.seat].send_turn(self.game_id, event)
                if sent_at is None:
                    self.submit_disconnect(event.seat)
                else:
                    self.referee.clock_started(event.turn, sent_at)
            elif isinstance(event, GameFinished):
                finished = event
        return finished

    async def _announce(self, finished: GameFinished) -> None:
        outcome = finished.outcome
        winner = None if outcome.winner is None else self.referee.players[outcome.winner]
        for seat, session in enumerate(self.sessions):
            result = "draw" if outcome.winner is None else ("win" if outcome.winner == seat else "loss")
            await session.send_game_over(GameOver(
                game=self.game_id, status=int(finished.statuses[seat]), result=result, reason=outcome.reason,
                winner=winner, log=str(self.log_path),
                thinking_ms=(outcome.thinking_ms[seat], outcome.thinking_ms[1 - seat])))

    # -- file work off the event loop ---------------------------------------------------------
    async def _io(self, function, *args):  # type: ignore[no-untyped-def]
        return await asyncio.get_running_loop().run_in_executor(self.executor, function, *args)


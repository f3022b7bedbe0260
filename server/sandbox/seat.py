"""``HostedSeat``: a hosted bot as a player of the tournament, the ladder or a validation game.

A hosted bot's process is a connection like any other: a ``HostedPeer`` is bound to a
``PlayerSession`` (a ``HostedSeat``, or the ladder's ``LadderSession`` for a resident) exactly as a
websocket is. The frames a match sends (``welcome``, ``game_start``, ``turn``, ``game_over``) go to
the bot's stdin as lines, and each ``step`` line it writes goes through ``PlayerSession.submit``,
the one step pipeline of websocket and legacy players, stamped with the time its bytes were read.
The referee, the logs and the spectators see no difference between a hosted bot and a connected one.

A bot computes only on its own clock: its process tree is frozen from the moment its step for the turn
it was sent is read (or that turn's time ran out, or its game ended) until its next ``turn`` goes out,
and from its start until its first. Each step's wall time (from the ``turn`` written to the step read)
and the CPU time its whole process tree used meanwhile are kept per (game, turn) in the peer's
``timings``; with ``cpu_judged`` the step goes to the referee with that CPU time (``--hosted-clock cpu``).
When the process ends (a limit, a crash) the session is unbound, so its game in progress ends as a
disconnect, and ``end`` says why (``memory_limit``, ``crashed: ...``).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from shared.protocol import (
    ErrorMessage, GameOver, ProtocolError, ProtocolModel, RulesInfo, StepMessage, Welcome, dump, parse_client, to_step,
)
from shared.quoridor import BLOCK_SUM
from shared.referee import RefereeSettings

from server.net.connection import Encoded, Gathered
from server.seats.players import PlayerSession
from server.sandbox.causes import BotEnd
from server.sandbox.process import HostedBot

__all__ = ["HostedSeat", "HostedPeer", "StepTiming", "welcome_for", "STRIKES_TO_STOP"]

#: Lines in a row that are no acceptable step after which the bot is stopped (as a websocket is closed).
STRIKES_TO_STOP = 10
#: Timings kept per peer (a resident plays for days: the oldest are dropped).
_TIMINGS_KEPT = 10_000
_TURN_PREFIX = '{"type":"turn",'


@dataclass(frozen=True)
class StepTiming:
    """One step of a hosted bot: its wall time and the CPU time its process used for it, in ms."""

    game: str
    turn: int
    wall_ms: float
    cpu_ms: float | None


def welcome_for(name: str, referee: RefereeSettings, server: str = "quoridor-arena (hosted)") -> Welcome:
    """The ``welcome`` a hosted bot gets: the rules its games are played by."""
    rules = RulesInfo(ruleset=referee.ruleset.name, time_limit_ms=referee.time_limit_ms,
                      violations_allowed=referee.violations_to_lose, step_cap=referee.step_cap,
                      walls_per_player=BLOCK_SUM)
    return Welcome(player=name, server=server, rules=rules)


class HostedPeer:
    """A hosted bot's process as a connection (``server.net.connection.Connection``): frames become lines on its
    stdin, its step lines go into its session's ``submit``."""

    def __init__(self, bot: HostedBot, session: PlayerSession | None = None, *,
                 referee: RefereeSettings | None = None) -> None:
        self.bot = bot
        #: The rules of its games, for their clock: on the ``cpu`` clock its steps go to the referee with the CPU
        #: time its tree used for them, and a turn lasts up to its wall-time cap (``None``: the wall clock).
        self.referee = referee
        #: The session this process plays for (bound by the caller, as a connection is).
        self.session = session
        self.address = "hosted"
        #: How the process ended (``None`` while it runs).
        self.end: BotEnd | None = None
        #: Each step's wall and CPU time, in play order (the newest ``_TIMINGS_KEPT``).
        self.timings: list[StepTiming] = []
        #: What the last refused lines were refused for (for the report).
        self.refusals: list[str] = []
        self._strikes = 0
        self._turn_at: dict[tuple[str, int], tuple[float, float | None]] = {}
        self._expiry: dict[tuple[str, int], asyncio.TimerHandle] = {}     # each turn's end, to freeze the bot then
        bot.on_line = self._on_line
        bot.on_exit = self._on_exit

    @property
    def closed(self) -> bool:
        """True once the process ended, or the server stopped it (no new game may start meanwhile)."""
        return self.bot.ended is not None or self.bot.stopping

    def send_now(self, message: object) -> bool:
        """Write a frame (a ready-made text, or a protocol model) as one line; False when the bot is gone.

        A ``turn`` notes when it went out and the bot's CPU time then (its step's timing), and thaws the bot;
        any other frame sent while the bot has no turn to answer leaves it frozen (its ``welcome``, a game's end).
        """
        if isinstance(message, str):
            if message.startswith(_TURN_PREFIX):
                self._turn_sent(message)
            return self.bot.send(message)
        if isinstance(message, GameOver):
            for key in [k for k in self._turn_at if k[0] == message.game]:
                self._answered(key)
        if not self._turn_at:
            self.bot.freeze()
        if isinstance(message, Encoded):
            return self.bot.send(message.payload.decode())
        if not isinstance(message, ProtocolModel):
            raise TypeError(f"a hosted bot is sent frames, not {type(message).__name__}")
        return self.bot.send(dump(message))

    def send_latest(self, kind: Hashable, message: Encoded) -> bool:
        """Standings and game updates are not a bot's business: ignored (as on the legacy port)."""
        return not self.closed

    def send_latest_many(self, gathered: Gathered) -> None:
        """Game updates are not a bot's business: ignored."""

    def forget_latest(self, kind: Hashable) -> None:
        """A bot is sent no latest-state messages: nothing to forget."""

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Stop the process (its games in progress end as a disconnect); ``reason`` is how it ended."""
        self.bot.stop(BotEnd("ok", f"closed by the server: {reason}" if reason else "closed by the server"))

    def tell(self, code: str, message: str, frame_type: str | None = None) -> None:
        """Send an ``error`` frame (no strike). A bot the ladder pauses is restarted: it cannot reconnect itself."""
        self.send_now(ErrorMessage(code=code, message=message, frame_type=frame_type))
        if code == "paused":
            self.bot.stop(BotEnd("ok", f"paused by the ladder ({message}); it starts afresh"))

    def _turn_sent(self, frame: str) -> None:
        turn: dict[str, Any] = json.loads(frame)
        key = turn["game"], turn["turn"]
        self._turn_at[key] = (self.bot.clock(), self.bot.cpu_seconds())     # frozen: nothing ran since its step
        self.bot.thaw()
        limit_ms = turn.get("time_limit_ms")
        if limit_ms and self.referee is not None and self.referee.clock == "cpu":
            limit_ms = self.referee.turn_wall_cap_ms(limit_ms)
        if limit_ms:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return
            self._expiry[key] = loop.call_later(limit_ms / 1000, self._turn_over, key)   # its time is up: so is its CPU

    @property
    def cpu_judged(self) -> bool:
        """True when its steps are judged by their CPU time (``--hosted-clock cpu``)."""
        return self.referee is not None and self.referee.clock == "cpu"

    def _turn_over(self, key: tuple[str, int]) -> None:
        """``key``'s turn ran out unanswered: its time is over, so is the bot's computing (once no other turn of a
        game of its waits for it)."""
        if self._answered(key) is not None and not self._turn_at:
            self.bot.freeze()

    def _answered(self, key: tuple[str, int]) -> tuple[float, float | None] | None:
        """``key``'s turn needs no answer any more: when it went out and the CPU time then (``None``: not awaited)."""
        expiry = self._expiry.pop(key, None)
        if expiry is not None:
            expiry.cancel()
        return self._turn_at.pop(key, None)

    # -- what the bot writes -----------------------------------------------------------------------
    def _on_line(self, text: str, arrived_at: float) -> None:
        try:
            message = parse_client(text)
        except ProtocolError as exc:
            self.bot.charge_output(len(text))
            self._refuse(exc.code, exc.message, exc.frame_type)
            return
        if not isinstance(message, StepMessage):
            self._refuse("unknown_type", f"a hosted bot sends only step lines, not {message.type!r}", message.type)
            return
        sent = self._answered((message.game, message.turn))
        if sent is not None and not self._turn_at:
            self.bot.freeze()                  # its answer is in: it computes no more until its next turn
        cpu = self.bot.cpu_seconds() if sent is not None else None
        used_s = None if cpu is None or sent is None or sent[1] is None else max(0.0, cpu - sent[1])
        session = self.session
        refusal = ("wrong_game", "no game in progress") if session is None else \
            session.submit(message.game, message.turn, to_step(message), arrived_at,
                           cpu_s=used_s if self.cpu_judged else None)
        if refusal is not None:
            self._refuse(*refusal, "step")
            return
        self._strikes = 0
        if sent is not None:
            cpu_ms = None if used_s is None else used_s * 1000
            self.timings.append(StepTiming(message.game, message.turn, (arrived_at - sent[0]) * 1000, cpu_ms))
            if len(self.timings) > _TIMINGS_KEPT:
                del self.timings[:len(self.timings) - _TIMINGS_KEPT]

    def _refuse(self, code: str, message: str, frame_type: str | None) -> None:
        self.refusals = (self.refusals + [f"{code}: {message}"])[-5:]
        self.send_now(ErrorMessage(code=code, message=message, frame_type=frame_type))
        self._strikes += 1
        if self._strikes >= STRIKES_TO_STOP:
            self.bot.stop(BotEnd("crashed", f"wrote {STRIKES_TO_STOP} lines in a row that were no acceptable step "
                                            f"(the last: {message})"))

    def _on_exit(self, end: BotEnd) -> None:
        self.end = end
        if self.session is not None:
            self.session.unbind(self)          # its games in progress end as a disconnect

    def timing(self, game: str, turn: int) -> StepTiming | None:
        """The wall and CPU time of the bot's step for ``game``'s ``turn`` (``None`` when it sent none)."""
        return next((t for t in reversed(self.timings) if t.game == game and t.turn == turn), None)


class HostedSeat(PlayerSession):
    """A player whose games are played by a ``HostedBot`` process (start it with ``start``)."""

    def __init__(self, name: str, bot: HostedBot, referee: RefereeSettings, *, key: str | None = None) -> None:
        super().__init__(key or f"hosted-{name}", name, clock=bot.clock)
        self.bot = bot
        self.referee_settings = referee
        self.hosted_peer = HostedPeer(bot, self, referee=referee)

    async def start(self) -> BotEnd | None:
        """Start the bot's process and wait until it is loaded: ``None`` then (it is bound), else why it failed."""
        failed = await self.bot.start()
        if failed is not None:
            self.hosted_peer.end = failed
            return failed
        self.bind(self.hosted_peer)
        self.hosted_peer.send_now(welcome_for(self.name, self.referee_settings))
        return None

    async def close(self, end: BotEnd | None = None) -> BotEnd:
        """Stop the process (its game in progress, if any, is lost as a disconnect); how it ended."""
        return await self.bot.close(end)

    @property
    def end(self) -> BotEnd | None:
        """How the bot's process ended (``None`` while it runs)."""
        return self.hosted_peer.end

    @property
    def timings(self) -> list[StepTiming]:
        """Each step's wall and CPU time, in play order."""
        return self.hosted_peer.timings

    def timing(self, game: str, turn: int) -> StepTiming | None:
        """The wall and CPU time of the bot's step for ``game``'s ``turn`` (``None`` when it sent none)."""
        return self.hosted_peer.timing(game, turn)

"""``PlayerSession``: a player as the tournament knows it, across reconnects and transports.

A session outlives its connections: a player who drops mid-tournament may come back with the
same key and is bound to the same session. It is the one seat type (``server.games.match.Seat``):
a match enters it in its game (``enter``), sends it the game's frames (``send_*``) and takes it out
(``leave``); a ladder player holds several games at once, a tournament player one. Every step a
player sends, over a websocket, the legacy TCP port or a hosted bot's pipe, reaches its game
through one call, ``submit``, which walks to the referee once and returns its verdict. Another
transport is a ``Connection`` (``server.net.connection``); another way to send a game's frames
(the legacy port's board changes) is one subclass.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from shared.protocol import GameOver, turn_frame
from shared.quoridor import Step
from shared.referee import TurnRequest

from server.games.match import MatchRunner, Refusal
from server.games.updates import game_start_frame
from server.net.connection import Connection, Encoded

__all__ = ["PlayerSession"]


class PlayerSession:
    """One seat-holder: a key, a display name, the current connection (if any) and the current game."""

    def __init__(self, key: str, name: str, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.key = key
        self.name = name
        #: The connection now bound: a websocket, the legacy port's or a hosted bot's process.
        self.peer: Connection | None = None
        #: The games this player is in now, by id: the match and this player's seat in it (``enter``).
        self.games: dict[str, tuple[MatchRunner, int]] = {}
        self.timeouts = 0
        self.kicked = False
        #: True once the player missed a game's rejoin wait: its later games are forfeited at once until it is back.
        self.gone_for_good = False
        self.present = asyncio.Event()
        #: The clock ``send_turn`` reads (the clock of the matches' deadlines and of the arrival stamps).
        self.clock = clock

    # -- presence -------------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        """True while a live connection is bound to this session."""
        return self.peer is not None and not self.peer.closed

    @property
    def playing(self) -> bool:
        """True while this player is in a game (from its start until its ``game_over`` is sent)."""
        return bool(self.games)

    def bind(self, peer: Connection) -> None:
        """Attach a (new) connection."""
        self.peer = peer
        self.gone_for_good = False
        self.present.set()

    def unbind(self, peer: Connection) -> None:
        """Detach ``peer`` if it is the current connection; every game in progress hears of it (EnemyClosed)."""
        if self.peer is not peer:
            return
        self.peer = None
        self.present.clear()
        for match, seat in list(self.games.values()):
            match.submit_disconnect(seat)

    async def wait_present(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for a connection; True when one is bound."""
        if self.connected:
            return True
        try:
            async with asyncio.timeout(timeout):   # not wait_for, which can swallow a cancellation on 3.11
                await self.present.wait()
        except TimeoutError:
            return False
        return self.connected

    # -- the seat a match enters ----------------------------------------------------------
    def enter(self, match: MatchRunner, seat: int) -> None:
        """``match`` starts with this player as ``seat``: its steps for that game go there."""
        self.games[match.game_id] = (match, seat)

    def leave(self, match: MatchRunner) -> None:
        """``match`` is over: its steps go nowhere now."""
        if self.games.get(match.game_id, (None, 0))[0] is match:
            del self.games[match.game_id]

    # -- the one way in for steps ---------------------------------------------------------
    def submit(self, game: str, turn: int, step: Step, arrived_at: float, *,
               cpu_s: float | None = None) -> Refusal | None:
        """A step for ``game``'s ``turn`` that arrived at ``arrived_at``, judged at once; None when the game took it
        (it was the answer the game awaited), else why it could not be taken (nothing changed). ``cpu_s``: the CPU
        seconds a hosted bot used for it (judged by them on the ``cpu`` clock)."""
        entry = self.games.get(game)
        if entry is None:
            return "wrong_game", f"you have no game {game!r} in progress"
        match, seat = entry
        return match.submit_step(seat, turn, step, arrived_at, cpu_s=cpu_s)

    # -- what a match sends -------------------------------------------------------------
    async def send_game_start(self, game: str, opponent: str, seat: int) -> bool:
        """Announce a new game; False when the player is not connected."""
        return self._send(Encoded(None, game_start_frame(game, opponent, seat)))

    def send_turn(self, game: str, request: TurnRequest) -> float | None:
        """Write a ``turn`` now (it is the hot path); the time it went on the wire, or ``None`` when gone."""
        peer = self.peer
        frame = turn_frame(game, request.turn, request.change, request.walls_left, request.time_limit_ms,
                           request.judgement)
        if peer is None or not peer.send_now(frame):
            return None
        return self.clock()

    async def send_game_over(self, message: GameOver) -> bool:
        """Tell the player its game ended."""
        return self._send(message)

    def _send(self, message: object) -> bool:
        peer = self.peer
        return peer is not None and peer.send_now(message)

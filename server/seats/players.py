"""``PlayerSession``: a player as the tournament knows it, across reconnects and transports.

A session outlives its connections: a player who drops mid-tournament may come back with the
same key and is bound to the same session. Every step a player sends, over a websocket or the
legacy TCP port, reaches its game through one method, ``submit``: the game and turn are checked
there once (by the match and its referee). The match talks to seats only through the
``send_*`` methods, so another transport (the legacy TCP port) is one subclass.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from shared.protocol import GameOver, GameStart, turn_frame
from shared.quoridor import Step
from shared.referee import TurnRequest

from server.games.match import MatchRunner, Refusal

__all__ = ["PlayerSession"]


class PlayerSession:
    """One seat-holder: a key, a display name, the current connection (if any) and the current game."""

    def __init__(self, key: str, name: str) -> None:
        self.key = key
        self.name = name
        #: The connection now bound (``server.net.connection.Peer`` or ``server.net.legacy.LegacyPeer``).
        self.peer: Any = None
        self.match: MatchRunner | None = None
        self.seat: int | None = None
        self.timeouts = 0
        self.kicked = False
        #: True once the player missed a game's rejoin wait: its later games are forfeited at once until it is back.
        self.gone_for_good = False
        self.present = asyncio.Event()

    # -- presence -------------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        """True while a live connection is bound to this session."""
        return self.peer is not None and not self.peer.closed

    def bind(self, peer: Any) -> None:
        """Attach a (new) connection."""
        self.peer = peer
        self.gone_for_good = False
        self.present.set()

    def unbind(self, peer: Any) -> None:
        """Detach ``peer`` if it is the current connection; tell the game in progress."""
        if self.peer is not peer:
            return
        self.peer = None
        self.present.clear()
        if self.match is not None and self.seat is not None:
            self.match.submit_disconnect(self.seat)

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

    # -- the one way in for steps ---------------------------------------------------------
    def submit(self, game: str, turn: int, step: Step, arrived_at: float) -> Refusal | None:
        """A step for ``game``'s ``turn`` that arrived at ``arrived_at``; why it could not be taken, or None."""
        match, seat = self.match, self.seat
        if match is None or seat is None or match.game_id != game:
            return "wrong_game", f"you have no game {game!r} in progress"
        return match.submit_step(seat, turn, step, arrived_at)

    def awaits(self, game: str, turn: int) -> bool:
        """True when this player's game waits for exactly this answer (exempt from the rate limit)."""
        match, seat = self.match, self.seat
        return match is not None and seat is not None and match.game_id == game and match.awaits(seat, turn)

    # -- what a match sends -------------------------------------------------------------
    async def send_game_start(self, game: str, opponent: str, seat: int) -> bool:
        """Announce a new game; False when the player is not connected."""
        return self._send(GameStart(game=game, opponent=opponent, seat=seat))

    def send_turn(self, game: str, request: TurnRequest) -> float | None:
        """Write a ``turn`` now (it is the hot path); the time it went on the wire, or ``None`` when gone."""
        peer = self.peer
        frame = turn_frame(game, request.turn, request.change, request.walls_left, request.time_limit_ms,
                           request.judgement)
        if peer is None or not peer.send_now(frame):
            return None
        return time.monotonic()

    async def send_game_over(self, message: GameOver) -> bool:
        """Tell the player its game ended."""
        return self._send(message)

    def _send(self, message: object) -> bool:
        peer = self.peer
        return peer is not None and peer.send_now(message)

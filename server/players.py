"""``PlayerSession``: a player as the tournament knows it, across reconnects and transports.

A session outlives its connections: a player who drops mid-tournament may come back with the
same key and is bound to the same session. The match runner talks to seats only through the
``send_*`` methods, so another transport (the legacy TCP port) is one subclass.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from shared.protocol import GameOver, GameStart, ProtocolError, StepMessage, parse_client, to_step, turn_frame
from shared.referee import TurnRequest

from .connection import FastLane, Peer

if TYPE_CHECKING:
    from .match import MatchRunner

__all__ = ["PlayerSession", "step_lane"]


class PlayerSession:
    """One seat-holder: a key, a display name, the current connection (if any) and the current game."""

    def __init__(self, key: str, name: str) -> None:
        self.key = key
        self.name = name
        self.peer: Peer | None = None
        self.match: MatchRunner | None = None
        self.seat: int | None = None
        self.timeouts = 0
        self.kicked = False
        self.present = asyncio.Event()

    # -- presence -------------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        """True while a live connection is bound to this session."""
        return self.peer is not None and not self.peer.closed

    def bind(self, peer: Peer) -> None:
        """Attach a (new) connection."""
        self.peer = peer
        self.present.set()

    def unbind(self, peer: Peer) -> None:
        """Detach ``peer`` if it is the current connection; tell the game in progress."""
        if self.peer is not peer:
            return
        self.peer = None
        self.present.clear()
        if self.match is not None and self.seat is not None:
            self.match.submit_disconnect(self.seat)

    def awaited(self) -> bool:
        """True while this player's game waits for its step: that frame is never refused for the rate."""
        match, seat = self.match, self.seat
        return match is not None and seat is not None and not match.referee.is_over and match.referee.mover == seat

    def pending_since(self) -> float | None:
        """Arrival time of the oldest frame this player sent that the server has not read yet, if any."""
        peer = self.peer
        return None if peer is None else peer.ws.pending_since()

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

    # -- what a match sends -------------------------------------------------------------
    async def send_game_start(self, game: str, opponent: str, seat: int) -> bool:
        """Announce a new game; False when the player is not connected."""
        return await self._send(GameStart(game=game, opponent=opponent, seat=seat))

    def send_turn(self, game: str, request: TurnRequest) -> float | None:
        """Write a ``turn`` now (no awaiting: it is the hot path); the time it went on the wire, or ``None`` when gone."""
        peer = self.peer
        frame = turn_frame(game, request.turn, request.change, request.walls_left, request.time_limit_ms)
        if peer is None or not peer.send_now(frame):
            return None
        return time.monotonic()

    def tell(self, code: str, message: str) -> None:
        """Tell the player at once that a step of its could not be taken (an ``error`` frame, no strike)."""
        if self.peer is not None:
            self.peer.tell(code, message, "step")

    async def send_game_over(self, message: GameOver) -> bool:
        """Tell the player its game ended."""
        return await self._send(message)

    async def _send(self, message: object) -> bool:
        peer = self.peer
        return peer is not None and peer.send_now(message)


def step_lane(peer: Peer, session: PlayerSession, limit: int) -> FastLane:
    """What takes a player's steps as they arrive: a valid step for the game awaiting it is routed at once.

    Anything else (another frame, a bad one, a step out of turn) is left to the reader, which
    answers it as usual: this only skips the queue for frames that need no answer.
    """
    def take(data: bytes, arrived: float) -> bool:
        match = session.match
        if match is None or len(data) > limit or not session.awaited():
            return False
        try:
            message = parse_client(str(data, "utf-8"))
        except (UnicodeDecodeError, ProtocolError):
            return False
        if not isinstance(message, StepMessage) or message.game != match.game_id:
            return False
        match.submit_step(session.seat, message.turn, to_step(message), arrived)  # type: ignore[arg-type]
        peer.good_frame()
        return True
    return take

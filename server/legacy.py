"""The legacy TCP port: the course's C++ bots, unchanged, in the same tournaments as websocket bots.

``legacy-tcp.md`` gives the frames (``shared.legacy``). A legacy player is a ``PlayerSession``
whose ``send_*`` methods write binary frames, so the lobby, the referee, the time limit and the
logs are the very same. The protocol has no turn numbers: each step answers the oldest board
change not yet answered, so a late answer is matched to its own (expired) turn and discarded,
never applied to a later one. Garbage, a wrong frame id or a short read at close disconnects that
client only; its opponent wins with EnemyClosed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from shared.legacy import (
    KeyFrame, LegacyDecoder, LegacyProtocolError, StepFrame, encode_board_change, encode_close, name_from_key,
)
from shared.protocol import GameOver, TournamentOver
from shared.quoridor import NO_LOCATION, NO_WALL, GameStatus
from shared.quoridor.types import ChessboardChange
from shared.referee import TurnRequest

from .players import PlayerSession

__all__ = ["LegacySession", "LegacyPeer", "LegacyProtocol", "FINAL_STATUS_FOR_DRAW"]

log = logging.getLogger("quoridor.server")

#: The old client only restarts on Win, Lost, EnemyClosed or RulesBreaker; a draw is reported as Lost.
FINAL_STATUS_FOR_DRAW = GameStatus.LOST


class LegacyPeer:
    """A legacy TCP connection, with the small interface the server uses for any connection."""

    def __init__(self, transport: asyncio.Transport, debug: bool = False) -> None:
        self.transport = transport
        self.debug = debug
        peer = transport.get_extra_info("peername")
        self.address: str = peer[0] if isinstance(peer, tuple) else str(peer)
        self.closed = False
        self.strikes = 0

    def write(self, data: bytes) -> bool:
        """Write raw bytes; False when the connection is gone."""
        if self.closed or self.transport.is_closing():
            self.closed = True
            return False
        self.transport.write(data)
        return True

    async def send(self, message: Any) -> bool:
        """Only the end of the contest means anything to a legacy client: the close frame."""
        if isinstance(message, TournamentOver):
            return self.write(encode_close())
        return not self.closed

    async def error(self, code: str, message: str, frame_type: str | None = None) -> bool:
        """The legacy protocol has no error frame: log it, keep the connection."""
        log.info("legacy %s: %s (%s)", self.address, message, code)
        return True

    async def close(self, code: int = 1000, reason: str = "") -> None:
        """Close the socket (idempotent)."""
        self.closed = True
        if not self.transport.is_closing():
            self.transport.close()


class LegacySession(PlayerSession):
    """A player on the legacy port: turns become 44-byte board changes."""

    def __init__(self, key: str, name: str) -> None:
        super().__init__(key, name)
        self.expected: deque[int] = deque()   # turn numbers sent and not yet answered, oldest first

    async def send_game_start(self, game: str, opponent: str, seat: int) -> bool:
        """No such frame in the legacy protocol: the first board change starts the game."""
        self.expected.clear()
        return self.connected

    async def send_turn(self, game: str, request: TurnRequest) -> float | None:
        """Write the board change; the clock starts when it is on the wire."""
        peer = self.peer
        if not isinstance(peer, LegacyPeer) or not peer.write(encode_board_change(request.change)):
            return None
        self.expected.append(request.turn)
        return time.monotonic()

    async def send_game_over(self, message: GameOver) -> bool:
        """A final board change: the game result with every location -1 (the client then restarts)."""
        self.expected.clear()
        peer = self.peer
        status = GameStatus(message.status)
        if status is GameStatus.NONE:
            status = FINAL_STATUS_FOR_DRAW
        change = ChessboardChange(status, NO_LOCATION, NO_LOCATION, NO_WALL)
        return isinstance(peer, LegacyPeer) and peer.write(encode_board_change(change))

    def take_step(self, frame: StepFrame, arrived_at: float) -> None:
        """A step frame arrived: it answers the oldest unanswered board change."""
        turn = self.expected.popleft() if self.expected else -1
        if self.match is not None and self.seat is not None:
            self.match.submit_step(self.seat, turn, frame.step(), arrived_at)


class LegacyProtocol(asyncio.Protocol):
    """One legacy TCP connection: stamps arrivals in ``data_received``, decodes, admits, routes."""

    def __init__(self, admit: Callable[[str, LegacyPeer], LegacySession | None],
                 leave: Callable[[LegacySession, LegacyPeer], None], *, key_timeout_s: float = 10.0,
                 debug: bool = False, on_open: Callable[[LegacyPeer], bool] | None = None,
                 on_close: Callable[[LegacyPeer], None] | None = None) -> None:
        self.admit = admit
        self.leave = leave
        self.key_timeout_s = key_timeout_s
        self.debug = debug
        self.on_open = on_open
        self.on_close = on_close
        self.decoder = LegacyDecoder()
        self.peer: LegacyPeer | None = None
        self.session: LegacySession | None = None
        self._key_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.peer = LegacyPeer(transport, self.debug)  # type: ignore[arg-type]
        if self.on_open is not None and not self.on_open(self.peer):
            transport.close()
            return
        loop = asyncio.get_running_loop()
        self._key_timer = loop.call_later(self.key_timeout_s, self._drop, "no key frame in time")

    def data_received(self, data: bytes) -> None:
        arrived = time.monotonic()        # the earliest moment the server sees these bytes
        assert self.peer is not None
        try:
            frames = self.decoder.feed(data)
        except LegacyProtocolError as exc:
            self._drop(str(exc))
            return
        for frame in frames:
            if isinstance(frame, KeyFrame):
                self._admit(frame.key)
                if self.session is None:
                    return
            elif self.session is not None:
                self.session.take_step(frame, arrived)

    def _admit(self, key: str) -> None:
        if self._key_timer is not None:
            self._key_timer.cancel()
        assert self.peer is not None
        self.session = self.admit(key, self.peer)
        if self.session is None:
            self._drop(f"key {name_from_key(key)!r} refused")

    def _drop(self, reason: str) -> None:
        log.warning("legacy client %s dropped: %s", self.peer.address if self.peer else "?", reason)
        if self.peer is not None:
            self.peer.closed = True
            self.peer.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._key_timer is not None:
            self._key_timer.cancel()
        if self.decoder.pending:
            log.warning("legacy client closed with %d bytes of a partial frame", self.decoder.pending)
        if self.peer is not None:
            self.peer.closed = True
            if self.on_close is not None:
                self.on_close(self.peer)
            if self.session is not None:
                self.leave(self.session, self.peer)

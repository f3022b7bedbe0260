"""The legacy TCP port: the course's C++ bots, unchanged, in the same tournaments as websocket bots.

``legacy-tcp.md`` gives the frames (``shared.legacy``). A legacy player is a ``PlayerSession``
whose ``send_*`` methods write binary frames, so the lobby, the referee, the time limit and the
logs are the very same. The protocol has no turn numbers, but the old client answers every board
change that is not final with exactly one step, in order: so each step answers the oldest board
change not yet answered. The server remembers those as (game, turn) across games, and a late
answer is matched to its own expired turn (even one of a game already over) and discarded, never
applied to a later one. Garbage, a wrong frame id, a step under another key or a short read at
close disconnects that client only; its opponent wins with EnemyClosed. Its steps reach their game
the same way a websocket player's do (``PlayerSession.submit``), stamped as they are read.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable, Hashable
from typing import Any

from shared.legacy import (
    KeyFrame, LegacyDecoder, LegacyProtocolError, StepFrame, encode_board_change, encode_close, name_from_key,
)
from shared.protocol import GameOver, TournamentOver
from shared.quoridor import NO_LOCATION, NO_WALL, GameStatus
from shared.quoridor.types import ChessboardChange
from shared.referee import TurnRequest

from server.net.arrivals import ARRIVALS
from server.net.connection import Encoded, Gathered
from server.seats.lobby import AdmissionError, Lobby
from server.seats.players import PlayerSession

__all__ = ["LegacySession", "LegacyPeer", "LegacyProtocol", "LegacyPort", "FINAL_STATUS_FOR_DRAW", "legacy_identity"]

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
        if self.debug:
            log.info("-> legacy %s %s", self.address, data.hex())
        self.transport.write(data)
        return True

    def send_now(self, message: Any) -> bool:
        """Only the end of the contest means anything to a legacy client: the close frame; the rest is ignored."""
        if isinstance(message, Encoded):
            message = message.message
        if isinstance(message, TournamentOver):
            return self.write(encode_close())
        return not self.closed

    def send_latest(self, kind: Hashable, message: Encoded) -> bool:
        """Standings and game updates mean nothing to a legacy client: ignored."""
        return not self.closed

    def send_latest_many(self, gathered: Gathered) -> None:
        """Game updates mean nothing to a legacy client: ignored."""

    def forget_latest(self, kind: Hashable) -> None:
        """A legacy client is sent no latest-state messages: nothing to forget."""

    def tell(self, code: str, message: str, frame_type: str | None = None) -> None:
        """The legacy protocol has no error frame: log it."""
        log.info("legacy %s: %s (%s)", self.address, message, code)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close the socket (idempotent)."""
        self.closed = True
        if not self.transport.is_closing():
            self.transport.close()


class LegacySession(PlayerSession):
    """A player on the legacy port: turns become 44-byte board changes."""

    def __init__(self, key: str, name: str) -> None:
        super().__init__(key, name)
        #: (game, turn) of the board changes sent and not answered yet, oldest first.
        self.expected: deque[tuple[str, int]] = deque()

    def bind(self, peer: Any) -> None:
        """A new connection answers only what is sent to it from now on."""
        self.expected.clear()
        super().bind(peer)

    async def send_game_start(self, game: str, opponent: str, seat: int) -> bool:
        """No such frame in the legacy protocol: the first board change starts the game."""
        return self.connected

    def send_turn(self, game: str, request: TurnRequest) -> float | None:
        """Write the board change; the clock starts when it is on the wire."""
        peer = self.peer
        if not isinstance(peer, LegacyPeer) or not peer.write(encode_board_change(request.change)):
            return None
        self.expected.append((game, request.turn))
        return time.monotonic()

    async def send_game_over(self, message: GameOver) -> bool:
        """A final board change: the game result with every location -1 (the client then restarts)."""
        peer = self.peer
        status = GameStatus(message.status)
        if status is GameStatus.NONE:
            status = FINAL_STATUS_FOR_DRAW
        change = ChessboardChange(status, NO_LOCATION, NO_LOCATION, NO_WALL)
        return isinstance(peer, LegacyPeer) and peer.write(encode_board_change(change))

    def take_step(self, frame: StepFrame, arrived_at: float) -> None:
        """A step frame arrived: it answers the oldest unanswered board change (a stale one is dropped)."""
        if not self.expected:
            log.info("legacy %s: a step that answers no board change; discarded", self.name)
            return
        game, turn = self.expected.popleft()
        refused = self.submit(game, turn, frame.step(), arrived_at)
        if refused is not None:
            log.info("legacy %s: step for %s turn %d discarded: %s", self.name, game, turn, refused[1])


class LegacyProtocol(asyncio.Protocol):
    """One legacy TCP connection: stamps arrivals in ``data_received``, decodes, admits, routes."""

    def __init__(self, port: LegacyPort) -> None:
        self.port = port
        self.decoder = LegacyDecoder()
        self.peer: LegacyPeer | None = None
        self.session: LegacySession | None = None
        self._key_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.peer = LegacyPeer(transport, self.port.debug)  # type: ignore[arg-type]
        if not self.port.on_open(self.peer):
            transport.abort()               # refused: no file descriptor is kept for it
            return
        loop = asyncio.get_running_loop()
        self._key_timer = loop.call_later(self.port.key_timeout_s, self._drop, "no key frame in time")

    def data_received(self, data: bytes) -> None:
        arrived = ARRIVALS.now()          # when this pass of the loop began reading: see server.net.arrivals
        assert self.peer is not None
        try:
            frames = self.decoder.feed(data)
        except LegacyProtocolError as exc:
            self._drop(str(exc))
            return
        for frame in frames:
            if self.port.debug:
                log.info("<- legacy %s %s", self.peer.address, frame)
            if isinstance(frame, KeyFrame):
                self._admit(frame.key)
                if self.session is None:
                    return
            elif frame.key != self.decoder.key:
                self._drop("a step frame under another key than the connection's")
                return
            elif self.session is not None:
                self.session.take_step(frame, arrived)

    def _admit(self, key: str) -> None:
        if self._key_timer is not None:
            self._key_timer.cancel()
        assert self.peer is not None
        self.session = self.port.admit(key, self.peer)
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
            self.port.on_close(self.peer)
            if self.session is not None:
                self.port.leave(self.session, self.peer)


def legacy_identity(key: str, roster: dict[str, str] | None) -> tuple[str, str]:
    """The lobby key and the display name of a legacy key frame.

    Without a roster the whole key is the lobby key (two bots on one machine share it and get
    ``NAME``, ``NAME_1``, as the old server named them) and the name is the text before the first
    ``_``. With a roster, that text is the player key the student configured (the old client
    sent it uppercased), looked up without regard to case; the roster gives the name.
    """
    player_key = name_from_key(key)
    if roster is None:
        return key, player_key
    listed = next((k for k in roster if k.upper() == player_key.upper()), player_key)
    return listed, roster.get(listed, player_key)


class LegacyPort:
    """The ``--legacy-port`` listener's admission: legacy key frames take seats in the server's lobby."""

    def __init__(self, lobby: Callable[[], Lobby], roster: dict[str, str] | None, *,
                 on_admit: Callable[[LegacySession, LegacyPeer], None], key_timeout_s: float, debug: bool,
                 on_open: Callable[[LegacyPeer], bool], on_close: Callable[[LegacyPeer], None]) -> None:
        """``on_open`` counts a new connection (False refuses it); ``on_admit`` is told of a seated one."""
        self.lobby = lobby
        self.roster = roster
        self.on_admit = on_admit
        self.key_timeout_s = key_timeout_s
        self.debug = debug
        self.on_open = on_open
        self.on_close = on_close

    def protocol(self) -> LegacyProtocol:
        """A protocol instance for one new TCP connection (the ``create_server`` factory)."""
        return LegacyProtocol(self)

    def admit(self, key: str, peer: LegacyPeer) -> LegacySession | None:
        """Seat a legacy client; None (and a log line: the protocol has no error frame) when refused."""
        lobby_key, name = legacy_identity(key, self.roster)
        try:
            session = self.lobby().admit(lobby_key, name, peer, LegacySession)
        except AdmissionError as exc:
            log.warning("legacy client %s (%s) refused: %s", peer.address, name, exc.message)
            return None
        assert isinstance(session, LegacySession)
        self.on_admit(session, peer)
        return session

    def leave(self, session: LegacySession, peer: LegacyPeer) -> None:
        """The TCP connection closed: as a websocket closing, the seat waits for a comeback or is freed."""
        self.lobby().leave(session, peer)  # type: ignore[arg-type]

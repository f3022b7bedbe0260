"""The legacy TCP port's players: the course's C++ bots, unchanged, in the same tournaments as websocket bots.

``legacy-tcp.md`` gives the frames (``shared.legacy``). A legacy player is a ``PlayerSession``
whose ``send_*`` methods write binary frames, so the lobby, the referee, the time limit and the
logs are the very same. The protocol has no turn numbers, but the old client answers every board
change that is not final with exactly one step, in order: so each step answers the oldest board
change not yet answered. The server remembers those as (game, turn) across games, and a late
answer is matched to its own expired turn (even one of a game already over) and discarded, never
applied to a later one. Its steps reach their game the same way a websocket player's do
(``PlayerSession.submit``), stamped as they are read (``server.net.legacy.LegacyProtocol``).
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable

from shared.legacy import StepFrame, encode_board_change, name_from_key
from shared.protocol import GameOver
from shared.quoridor import NO_LOCATION, NO_WALL, GameStatus
from shared.quoridor.types import ChessboardChange
from shared.referee import TurnRequest

from server.net.admission import WrongKeys
from server.net.arrivals import ARRIVALS, ArrivalClock
from server.net.connection import Connection
from server.net.legacy import LegacyPeer, LegacyPlayer, LegacyProtocol
from server.seats.lobby import AdmissionError, Lobby
from server.seats.players import PlayerSession

__all__ = ["LegacySession", "LegacyPort", "FINAL_STATUS_FOR_DRAW", "legacy_identity"]

log = logging.getLogger("quoridor.server")

#: The old client only restarts on Win, Lost, EnemyClosed or RulesBreaker; a draw is reported as Lost.
FINAL_STATUS_FOR_DRAW = GameStatus.LOST


class LegacySession(PlayerSession):
    """A player on the legacy port: turns become 44-byte board changes."""

    def __init__(self, key: str, name: str, *, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(key, name, clock=clock)
        #: (game, turn) of the board changes sent and not answered yet, oldest first.
        self.expected: deque[tuple[str, int]] = deque()

    def bind(self, peer: Connection) -> None:
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
        return self.clock()

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


class _WrongKey:
    """What a legacy connection whose key is not on the roster holds while its refusal waits: its steps go nowhere."""

    def take_step(self, frame: StepFrame, arrived_at: float) -> None:
        """Ignored: the connection is closed once its wait is over."""


class LegacyPort:
    """The ``--legacy-port`` listener's admission: legacy key frames take seats in the server's lobby."""

    def __init__(self, lobby: Callable[[], Lobby], roster: dict[str, str] | None, *,
                 on_admit: Callable[[LegacySession, LegacyPeer], None], key_timeout_s: float, debug: bool,
                 on_open: Callable[[LegacyPeer], bool], on_close: Callable[[LegacyPeer], None],
                 arrivals: ArrivalClock = ARRIVALS, wrong_keys: WrongKeys | None = None) -> None:
        """``on_open`` counts a new connection (False refuses it); ``on_admit`` is told of a seated one; ``arrivals``
        stamps the steps read (the server's arrival clock, which its websocket links share); ``wrong_keys`` slows
        down the keys not on the roster (the server's, shared with its websockets)."""
        self.wrong_keys = wrong_keys if wrong_keys is not None else WrongKeys(clock=arrivals.clock)
        self.lobby = lobby
        self.arrivals = arrivals
        self.roster = roster
        self.on_admit = on_admit
        self.key_timeout_s = key_timeout_s
        self.debug = debug
        self.on_open = on_open
        self.on_close = on_close

    def protocol(self) -> LegacyProtocol:
        """A protocol instance for one new TCP connection (the ``create_server`` factory)."""
        return LegacyProtocol(self)

    def admit(self, key: str, peer: LegacyPeer) -> LegacyPlayer | None:
        """Seat a legacy client; None (and a log line: the protocol has no error frame) when refused; a key not on
        the roster is refused by ``wrong_keys`` (at once, or held and closed after its address's delay)."""
        if peer in self.wrong_keys.held:    # another key frame while its wrong key waits: not another guess
            return _WrongKey()
        lobby_key, name = legacy_identity(key, self.roster)
        try:
            session = self.lobby().admit(lobby_key, name, peer, LegacySession)
        except AdmissionError as exc:
            if exc.code == "unknown_key":
                self.wrong_keys.refuse(peer, f"{name!r} refused: {exc.message}")
                return _WrongKey() if peer in self.wrong_keys.held else None
            log.warning("legacy client %s (%s) refused: %s", peer.address, name, exc.message)
            return None
        assert isinstance(session, LegacySession)
        self.on_admit(session, peer)
        return session

    def leave(self, player: LegacyPlayer, peer: LegacyPeer) -> None:
        """The TCP connection closed: as a websocket closing, the seat waits for a comeback or is freed."""
        if isinstance(player, LegacySession):
            self.lobby().leave(player, peer)

"""``Router``: every websocket connection's frames, from the first byte to the close, in the callbacks that read them.

It is the ``LinkHandler`` of ``server.net.wire``: a link's events arrive here and are handled at
once, with no task per connection. A connection first says ``hello`` (within
``hello_timeout_s``), then is a player (its steps go to its game through
``PlayerSession.submit``, one call that returns the game's verdict), a spectator (``watch``), or a puzzle-room user (its frames go to the
``PuzzleDesk``, answered in order by one small task per connection), or a submitter handing a bot
in (its hello and frames go to the ``SubmissionDesk``).

Every frame passes the same checks, in this order, each cheap before the next:

1. the rate, one check per frame: every frame takes a token, except the one step the player's game
   is waiting for (a fast bot is never refused into a timeout); a player in a game pays once its
   frame is known not to be that step (the step walks into its game once, and the verdict says);
   frames over the rate are refused, and a connection refused ``strikes_to_close`` times is closed;
2. the size, then the syntax (``parse_client``);
3. what the frame asks: a step the game cannot take (an old turn, a duplicate, another game),
   a frame of the wrong room or role, earns a strike; ``strikes_to_close`` bad frames in a row
   close the connection.
A problem in one connection's handling closes that connection only.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from websockets.http11 import Request, Response

from shared.protocol import (
    FinalTableRequest, Hello, OrganiserRequest, ProtocolError, StepMessage, Watch, Welcome, parse_client, to_step,
)

from server.net.connection import CLOSE_POLICY, CLOSE_TRY_LATER, Connection, Peer
from server.net.connections import Connections
from server.seats.lobby import AdmissionError, Lobby
from server.seats.players import PlayerSession
from server.rooms.desk import PUZZLE_FRAMES, PuzzleDesk
from server.rooms import RoomContext, RoomError
from server.settings import ServerSettings
from server.submissions.desk import SUBMISSION_FRAMES, SubmissionDesk
from server.web import WebDesk, answer_http
from server.web.desk import WEB_FRAMES
from server.web.http import forbidden_origin, is_upgrade
from server.web.organiser import ORGANISER_INTERVAL_S, OrganiserDesk, WrongKey
from server.net.origins import OriginCheck
from server.net.wire import WebSocketLink

__all__ = ["Router", "PUZZLE_BACKLOG"]

log = logging.getLogger("quoridor.server")

#: Puzzle frames one connection may have waiting for the room (beyond them: ``busy``).
PUZZLE_BACKLOG = 8
#: Refused origins remembered so that each is logged once (beyond them, the set starts again).
ORIGINS_LOGGED = 256


class _Client:
    """The router's state for one connection, beside its ``Peer``."""

    __slots__ = ("ready", "session", "room", "hello_timer", "puzzles", "puzzle_task", "final_table", "organiser_at",
                 "organiser_task")

    def __init__(self) -> None:
        self.ready = False
        #: The player sent ``final_table_request``: its ``tournament_over`` carries every row.
        self.final_table = False
        self.session: PlayerSession | None = None
        self.room: RoomContext | None = None
        self.hello_timer: asyncio.TimerHandle | None = None
        self.puzzles: deque[Any] = deque()
        self.puzzle_task: asyncio.Task[None] | None = None
        #: When its last ``organiser_request`` was taken (its arrival stamp), and the task answering it.
        self.organiser_at: float | None = None
        self.organiser_task: asyncio.Task[None] | None = None


class Router:
    """Admits, checks and routes the frames of every websocket connection of one server.

    ``clock`` is the clock of the links' arrival stamps (``server.net.arrivals``); each ``Peer`` reads it.
    """

    def __init__(self, settings: ServerSettings, connections: Connections, lobby: Callable[[], Lobby],
                 desk: PuzzleDesk, welcome: Callable[[str], Welcome], say: Callable[[str], None],
                 web: WebDesk | None = None, submissions: SubmissionDesk | None = None, *,
                 organiser: OrganiserDesk | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.clock = clock
        self.limits = settings.limits
        self.connections = connections
        self.lobby = lobby
        self.desk = desk
        self.welcome = welcome
        self.say = say
        self.web = web
        self.submissions = submissions
        self.organiser = organiser
        self.origins = OriginCheck(settings.allowed_origins)
        self._origins_logged: set[str] = set()
        self._clients: dict[Peer, _Client] = {}

    def links(self) -> list[WebSocketLink]:
        """The links open now."""
        return [peer.link for peer in self._clients]  # type: ignore[misc]

    def wants_final_table(self, conn: Connection) -> bool:
        """True when ``conn`` is a player that asked for the whole final table (``final_table_request``)."""
        client = self._clients.get(conn)  # type: ignore[call-overload]    # a legacy or hosted peer: None
        return client is not None and client.final_table

    # -- the link's events ------------------------------------------------------------------
    def opened(self, link: WebSocketLink) -> bool:
        """Count a new TCP connection; False when it is over a connection limit."""
        peer = Peer(link, self.limits, debug=self.settings.debug, clock=self.clock)
        if not self.connections.add(peer):
            log.info("refused a connection from %s: too many connections (from that address, or in all)",
                     link.address)
            return False
        link.peer = peer
        self._clients[peer] = _Client()
        return True

    def request(self, link: WebSocketLink, request: Request) -> Response | None:
        """A websocket handshake goes on (None) unless a page of a foreign origin opened it (403,
        ``server.net.origins``); any other GET gets a page or a file (``server.web.http``)."""
        headers = request.headers
        if is_upgrade(request):
            origin = headers.get("Origin")
            if self.origins.admits(origin, headers.get("Host")):
                return None
            if origin not in self._origins_logged:     # one line per origin, not per reconnecting page
                if len(self._origins_logged) >= ORIGINS_LOGGED:
                    self._origins_logged.clear()
                self._origins_logged.add(str(origin))
                log.warning("refused a websocket from %s opened by a page of %r (not this server's; "
                            "--allow-origin %s would let it in)", link.address, origin, origin)
            return forbidden_origin(headers.get("Host"))
        if self.web is None:
            return None
        return answer_http(request, self.web.analyses)

    def ready(self, link: WebSocketLink) -> None:
        """The handshake is done: the connection has ``hello_timeout_s`` to say hello."""
        peer: Peer = link.peer
        client = self._clients[peer]
        client.ready = True
        client.hello_timer = asyncio.get_running_loop().call_later(self.limits.hello_timeout_s, self._no_hello, peer)

    def drained(self, link: WebSocketLink) -> None:
        """The client reads again: it gets the newest of what it missed."""
        link.peer.drained()

    def closed(self, link: WebSocketLink) -> None:
        """The connection is gone: stop counting it, free or keep its seat, stop its puzzle work."""
        peer: Peer = link.peer
        client = self._clients.pop(peer, None)
        peer.closed = True
        self.connections.remove(peer)
        if client is None:
            return
        if client.hello_timer is not None:
            client.hello_timer.cancel()
        if client.puzzle_task is not None:
            client.puzzle_task.cancel()
        if client.organiser_task is not None:
            client.organiser_task.cancel()
        if client.session is not None:
            self.lobby().leave(client.session, peer)
        if not client.ready:                # a health check, a port scan, a client that gave up: one quiet line
            log.info("%s closed before finishing a websocket handshake", peer.address)

    def received(self, link: WebSocketLink, payload: bytes, text: bool, arrived: float) -> None:
        """One complete message: the checks of the module docstring, then its route."""
        peer: Peer = link.peer
        client = self._clients.get(peer)
        if client is None or peer.closed or (peer.role is None and peer in self.connections.wrong_keys.held):
            return                          # gone, or a wrong key waiting for its answer: nothing more is read
        if peer.debug:
            log.info("<- %s %s", peer.address, payload[:1000].decode(errors="replace") if text
                     else f"<{len(payload)} bytes>")
        try:
            self._received(peer, client, payload, text, arrived)
        except Exception:  # noqa: BLE001 - one broken connection must never take the server down
            log.exception("handling a frame from %s failed; closing that connection", peer.address)
            peer.close(1011, "internal error")

    # -- the checks -------------------------------------------------------------------------
    def _received(self, peer: Peer, client: _Client, payload: bytes, text: bool, arrived: float) -> None:
        session = client.session
        # A player in a game pays the rate once its frame is known not to be the step its game awaits: the one
        # frame that never spends it (a fast bot is never refused into a timeout). Anyone else pays first.
        deferred = session is not None and session.playing
        if not deferred and not peer.allow(arrived):
            self._flooded(peer, arrived)
            return
        try:
            message = parse_client(self._payload(peer, client, payload, text))
        except ProtocolError as exc:
            if deferred and not peer.allow(arrived):
                self._flooded(peer, arrived)
            elif exc.code == "protocol_version" and peer.role is None:
                # A client that speaks another version cannot go on: say so and close (docs/protocol.md).
                peer.tell(exc.code, exc.message, exc.frame_type)
                peer.close(CLOSE_POLICY, "unsupported protocol version")
            else:
                self._strike(peer, exc.code, exc.message, exc.frame_type)
            return
        if deferred:
            assert session is not None
            refusal = None
            if isinstance(message, StepMessage):
                # The step walks into its game once; the verdict says whether it was the awaited answer.
                refusal = session.submit(message.game, message.turn, to_step(message), arrived)
                if refusal is None:
                    peer.good_frame()
                    return
            if not peer.allow(arrived):
                self._flooded(peer, arrived)
                return
            if refusal is not None:
                self._strike(peer, *refusal, message.type)
                return
        greeted = peer.role is not None
        problem = self._route(peer, client, message, arrived)
        if problem is None:
            if greeted:                     # a hello does not forgive the bad frames before it
                peer.good_frame()
        else:
            self._strike(peer, *problem, message.type)

    def _payload(self, peer: Peer, client: _Client, payload: bytes, text: bool) -> str | bytes:
        """The frame to parse; ``ProtocolError`` (``frame_too_large``, ``bad_json``) when it is too big or not text."""
        limit = self.limits.max_puzzle_frame_bytes if client.room is not None else self.limits.max_frame_bytes
        if (len(payload) > limit and peer.role == "spectator" and self.web is not None
                and b'"log_upload"' in payload):
            limit = self.limits.max_puzzle_frame_bytes     # an uploaded log (read, never stored)
        if len(payload) > limit:
            raise ProtocolError("frame_too_large", f"frames may be at most {limit} bytes (got {len(payload)})")
        return _text(payload) if text else payload

    def _strike(self, peer: Peer, code: str, message: str, frame_type: str | None = None) -> None:
        if not peer.strike(code, message, frame_type):
            peer.close(CLOSE_POLICY, "too many bad frames")

    def _flooded(self, peer: Peer, arrived: float) -> None:
        if peer.flooding(arrived):
            peer.tell("rate_limited", "too many messages, again and again; closing")
            peer.close(CLOSE_POLICY, "flooding")
        else:
            peer.tell("rate_limited", "too many messages; slow down")

    # -- routes -----------------------------------------------------------------------------
    def _route(self, peer: Peer, client: _Client, message: Any, arrived: float) -> tuple[str, str] | None:
        """Deliver one parsed frame; ``(code, message)`` when it cannot be taken (a strike)."""
        if peer.role is None:
            if isinstance(message, Hello):
                self._hello(peer, client, message)
                return None
            return "hello_first", "say hello first: {\"type\": \"hello\", ...}"
        if isinstance(message, Hello):
            return "already_hello", "this connection has already said hello"
        if isinstance(message, StepMessage):
            if client.session is None:
                return "not_a_player", "only quoridor players send steps (this connection is a spectator or in a puzzle room)"
            return client.session.submit(message.game, message.turn, to_step(message), arrived)
        if isinstance(message, Watch):
            return self._watch(peer, message)
        if isinstance(message, FinalTableRequest):
            return self._final_table(client)
        if isinstance(message, OrganiserRequest):
            return self._organiser(peer, client, message, arrived)
        if self.submissions is not None and (peer.role == "submitter" or isinstance(message, SUBMISSION_FRAMES)):
            return self.submissions.take(peer, client.room, message)
        if client.room is not None and isinstance(message, PUZZLE_FRAMES):
            return self._puzzle(peer, client, message)
        if isinstance(message, WEB_FRAMES):
            return self._page(peer, client, message)
        return "wrong_room", (f"{message.type!r} frames belong to the puzzle rooms; open another connection "
                              "with hello room 'sokoban', 'ice' or 'circuit'")

    def _hello(self, peer: Peer, client: _Client, hello: Hello) -> None:
        """Admit a connection as a player, a spectator or a puzzle-room user; a refusal closes it."""
        if client.hello_timer is not None:
            client.hello_timer.cancel()
            client.hello_timer = None
        if hello.role == "submitter":       # server.submissions.desk; its RoomContext gets a room's frame size
            if self.submissions is None:
                self._refuse(peer, "room_unavailable", "this server takes no bots handed in as files")
            else:
                client.room = self.submissions.admit(peer, hello)
            return
        refusal = self._admission_problem(hello)
        if refusal is not None:
            self._refuse(peer, *refusal)
            return
        roster = self.settings.roster
        anonymous = hello.role == "spectator" or (hello.room != "quoridor" and roster is None)
        if not self.connections.settle(peer, anonymous=anonymous):
            self._refuse(peer, "too_many_connections",
                         f"{self.limits.max_anonymous_per_address} spectators are connected from your address already;"
                         " close some and try again", CLOSE_TRY_LATER)
            return
        peer.anonymous = anonymous
        if hello.room != "quoridor":
            name = roster[hello.key] if roster is not None else (hello.name or hello.key)
            client.room, peer.role = RoomContext(name), hello.room
            peer.send_now(self.welcome(name))
            self.say(f"{name} entered the {hello.room} room from {peer.address}")
        elif hello.role == "player":
            try:
                if self.settings.ladder:        # server.ladder.runner.LadderLobby: the version and games at once count
                    session = self.lobby().admit(hello.key, hello.name, peer, version=hello.version,
                                                 concurrency=hello.concurrency)
                else:
                    session = self.lobby().admit(hello.key, hello.name, peer)
            except AdmissionError as exc:
                self._refuse(peer, exc.code, exc.message)
                return
            client.session, peer.role = session, "player"
            self.connections.greeted.add(peer)
            peer.send_now(self.welcome(session.name))
            wanted = roster[hello.key] if roster is not None else (hello.name or hello.key)
            renamed = f" (as {session.name!r}: names hold no commas in the logs)" if "," in wanted else ""
            self.say(f"{session.name} joined from {peer.address}{renamed}")
        else:
            peer.role = "spectator"
            self.connections.spectate(peer)
            self.connections.greeted.add(peer)
            peer.send_now(self.welcome("spectator"))
            if self.web is not None:        # what the server shows (its lobby, say), then the standings
                for frame in self.web.greeting():
                    peer.send_now(frame)

    def _admission_problem(self, hello: Hello) -> tuple[str, str] | None:
        if hello.room != "quoridor":
            if not self.desk.serves(hello.room):
                return "room_unavailable", f"room {hello.room!r} is not served here"
            if hello.role == "spectator":
                return "room_unavailable", (f"there is nothing to watch in room {hello.room!r}: "
                                            "spectators watch the quoridor room")
            roster = self.settings.roster
            if roster is not None and hello.key not in roster:
                return "unknown_key", "this server admits only the keys on its roster"
        elif hello.role == "player" and self.settings.puzzles_only:
            return "room_unavailable", ("this server plays no tournament (-n 0): it serves only "
                                        "the puzzle rooms sokoban, ice and circuit")
        return None

    def _refuse(self, peer: Peer, code: str, message: str, close_code: int = CLOSE_POLICY) -> None:
        if code == "unknown_key":           # slowed down per address (server.net.admission)
            self.connections.wrong_keys.refuse(peer, message)
            return
        peer.tell(code, message, "hello")
        peer.close(close_code, code)

    def _no_hello(self, peer: Peer) -> None:
        client = self._clients.get(peer)
        if client is not None:
            client.hello_timer = None
        if peer.role is None and not peer.closed:
            peer.tell("hello_first", "no hello received in time; closing")
            peer.close(CLOSE_POLICY, "no hello")

    def _watch(self, peer: Peer, message: Watch) -> tuple[str, str] | None:
        watched = self.connections.spectators.get(peer)
        if watched is None:
            return "not_a_spectator", "only spectators can watch; connect with role 'spectator'"
        most = self.limits.watched_games
        if message.game not in watched and len(watched) >= most:
            return "invalid_fields", f"a spectator may watch at most {most} games; watch \"*\" for all of them"
        self.connections.watch(peer, message.game)
        peer.batch_updates = peer.batch_updates or message.batch
        if self.web is not None:            # the boards so far, so a page draws at once
            for update in self.web.running():
                if message.game in ("*", update.game):
                    peer.send_now(update)
        return None

    def _final_table(self, client: _Client) -> tuple[str, str] | None:
        """A player asks for every row of the final table in its ``tournament_over``: taken once per connection."""
        if client.session is None:
            return "not_a_player", ("only a player of the tournament asks for the final table; a spectator is sent "
                                    "every row")
        if self.settings.ladder:
            return "room_unavailable", ("the practice ladder never ends: it has no final table (its table comes as "
                                        "standings)")
        if client.final_table:
            return "already_asked", ("the final table was already asked for on this connection: it comes once, at "
                                     "the end")
        client.final_table = True
        return None

    # -- the organiser's page ----------------------------------------------------------------
    def _organiser(self, peer: Peer, client: _Client, message: OrganiserRequest,
                   arrived: float) -> tuple[str, str] | None:
        """A page asks for the organiser's rows with a key (``server.web.organiser``): one at a time per connection, at
        most one every ``ORGANISER_INTERVAL_S``; a wrong key is refused as a wrong hello key is (slowed, then closed)."""
        if self.organiser is None or not self.organiser.enabled:
            return "room_unavailable", ("this server has no organiser's page: start it with --organiser-key KEY (or a "
                                        "roster line 'KEY NAME organiser')")
        if peer.role != "spectator":
            return "not_a_spectator", "only a page (a spectator) asks for the organiser's page"
        if peer in self.connections.wrong_keys.held:
            return None                     # its wrong key's answer is on the way: nothing more is taken
        if client.organiser_task is not None:
            return "busy", "the organiser's page is being read for this connection already; wait for it"
        if client.organiser_at is not None and arrived - client.organiser_at < ORGANISER_INTERVAL_S:
            return "rate_limited", (f"the organiser's page may be asked for once every {ORGANISER_INTERVAL_S:g} s on "
                                    "a connection; wait a moment")
        client.organiser_at = arrived
        client.organiser_task = asyncio.get_running_loop().create_task(self._answer_organiser(peer, client, message))
        return None

    async def _answer_organiser(self, peer: Peer, client: _Client, message: OrganiserRequest) -> None:
        assert self.organiser is not None
        try:
            answer = await self.organiser.answer(message.key)
        except WrongKey as exc:
            self.connections.wrong_keys.refuse(peer, str(exc), message.type)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - as in _answer_puzzles: a broken answer closes this connection only
            log.exception("answering an organiser_request from %s failed; closing that connection", peer.address)
            peer.close(1011, "internal error")
        else:
            if not peer.closed:
                peer.send_now(answer)
        finally:
            client.organiser_task = None

    # -- the pages' frames -------------------------------------------------------------------
    def _page(self, peer: Peer, client: _Client, message: Any) -> tuple[str, str] | None:
        """A page's request (``server.web``): a live game's record at once, anything else queued."""
        if self.web is None:
            return "unknown_type", f"this server serves no pages: {message.type!r} is not answered here"
        if peer.role != "spectator":
            return "not_a_spectator", "only spectators send page requests; connect with role 'spectator'"
        record = self.web.live_record(message.game) if isinstance(message, WEB_FRAMES[0]) else None
        if record is not None:              # built now, so the game_updates that follow come after it
            peer.send_now(record)
            return None
        return self._puzzle(peer, client, message)

    # -- puzzle rooms -----------------------------------------------------------------------
    def _puzzle(self, peer: Peer, client: _Client, message: Any) -> tuple[str, str] | None:
        """Queue a puzzle frame for the room; its answers go out in the order the frames came."""
        if len(client.puzzles) >= PUZZLE_BACKLOG:
            return "busy", (f"{PUZZLE_BACKLOG} requests are waiting for the {peer.role} room already; "
                            "wait for their answers")
        client.puzzles.append(message)
        if client.puzzle_task is None:
            client.puzzle_task = asyncio.get_running_loop().create_task(self._answer_puzzles(peer, client))
        return None

    async def _answer_puzzles(self, peer: Peer, client: _Client) -> None:
        assert peer.role is not None
        try:
            while client.puzzles and not peer.closed:
                message = client.puzzles[0]
                try:
                    if client.room is None:
                        assert self.web is not None
                        reply = await self.web.answer(message)
                    else:
                        reply = await self.desk.answer(peer.role, client.room, message)
                except ProtocolError as exc:
                    self._strike(peer, exc.code, exc.message, message.type)
                except RoomError as exc:
                    if exc.code == "busy":      # back-pressure, not misbehaviour: no strike
                        peer.tell(exc.code, exc.message, message.type)
                    else:
                        self._strike(peer, exc.code, exc.message, message.type)
                except Exception:  # noqa: BLE001 - as in received: a broken answer closes this connection only
                    log.exception("answering a %s frame from %s failed; closing that connection",
                                  message.type, peer.address)
                    peer.close(1011, "internal error")
                    return
                else:
                    peer.send_now(reply)
                client.puzzles.popleft()
        finally:
            client.puzzle_task = None


def _text(payload: bytes) -> str:
    """A text frame's payload as text; ``ProtocolError`` (``bad_json``) when it is not UTF-8."""
    try:
        return payload.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProtocolError("bad_json", f"the frame is not UTF-8 text (byte {exc.start})") from None

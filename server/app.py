"""``ArenaServer``: the websocket server — connections, hello, players, spectators, one tournament.

Each connection is one task (``_handle``) that only parses, checks and routes frames; games run
in their own tasks (``MatchRunner``), puzzle frames go to the ``PuzzleDesk``. A handler that fails
closes its own connection only.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import random
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, serve
from websockets.exceptions import ConnectionClosed

from shared.protocol import (
    Hello, ProtocolError, RulesInfo, Standings as StandingsMessage, StepMessage, TournamentOver, Watch, Welcome,
    parse_client, to_step,
)
from shared.quoridor import BLOCK_SUM
from shared.referee import StepJudged
from shared.tournament import Standings

from . import __version__
from .batching import ThreadBatcher, run_in_one_transaction
from .connection import Peer, TimedConnection
from .connections import Connections
from .legacy import LegacyPeer, LegacyPort, LegacySession
from .lobby import AdmissionError, Lobby
from .match import MatchRunner
from .players import PlayerSession, step_lane
from .puzzle_desk import PUZZLE_FRAMES, PuzzleDesk
from .rooms import RoomContext, RoomError
from .settings import ServerSettings
from .store import ResultStore
from .tournament import Reporter, TournamentRunner
from .updates import game_update, standing_rows

__all__ = ["ArenaServer", "SilentReporter"]

log = logging.getLogger("quoridor.server")


#: Bytes per second the standings broadcasts may take: a big table to many clients is written at
#: this pace and sent less often (1,000 players: about 180 KB to each, every 45 s instead of every
#: second; a class of 40: 7 KB each, every second). Written all at once, such a table made a burst
#: of 180 MB that held up every game's clock for seconds.
STANDINGS_BYTES_PER_S = 4 * 1024 * 1024

#: Seconds a closing handshake may take: by then everything is saved, so a client that does not
#: answer it must not hold the server up (websockets waits 10 s by default).
CLOSE_TIMEOUT_S = 2.0


class _Drop(Exception):
    """The connection broke the protocol once too often (or fatally): close it."""


class SilentReporter:
    """A reporter that shows nothing (tests, embedding)."""

    def __getattr__(self, name: str) -> Any:
        def nothing(*args: Any, **kwargs: Any) -> None:
            return None
        setattr(self, name, nothing)    # found directly from now on: game_step is called every step
        return nothing


class ArenaServer:
    """Serve one tournament: wait for the players, run it, record it, say goodbye."""

    def __init__(self, settings: ServerSettings, reporter: Reporter | None = None) -> None:
        self.settings = settings
        self.reporter: Reporter = reporter or SilentReporter()  # type: ignore[assignment]
        self.server: Server | None = None
        self.legacy_server: asyncio.Server | None = None
        self.connections = Connections(settings.limits, paced_bytes_per_s=STANDINGS_BYTES_PER_S)
        self._standings: Standings | None = None            # the latest, not yet broadcast
        self._standings_timer: asyncio.TimerHandle | None = None
        self._standings_sent = -math.inf
        self._standings_cost_s = 0.0                          # the last broadcast's bytes / the budget
        self.lobby = Lobby(settings.players, settings.roster)
        self.desk = PuzzleDesk(settings.data_dir / "puzzles.db")
        self.store: ResultStore | None = None
        self.tournament_id: int | None = None
        self.folder: Path | None = None
        self.runner: TournamentRunner | None = None
        self.done = asyncio.Event()
        self._closed = False
        self._db_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="quoridor-db")
        self._log_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="quoridor-logs")

    # -- lifecycle --------------------------------------------------------------------------
    async def start(self) -> None:
        """Open the store (resuming when asked) and start listening; on failure, close what was opened."""
        try:
            await self._start()
        except BaseException:
            await self.close()
            raise

    async def _start(self) -> None:
        s = self.settings
        self.store = await self._io(ResultStore, s.data_dir / "arena.db")
        self._store_calls = ThreadBatcher(self._db_thread, partial(run_in_one_transaction, self.store))
        if s.resume:
            row = await self._io(self.store.latest_unfinished)
            if row is None:
                raise ValueError(f"--resume: no unfinished tournament in {s.data_dir / 'arena.db'}; start without it")
            self.tournament_id, self.folder = row.id, s.data_dir / row.name
            self.settings, ignored = s.resumed(row.settings, len(row.players))
            if ignored:
                self.reporter.message("resuming with the tournament's own settings; ignored: " + ", ".join(ignored))
            reset = await self._io(self.store.reset_unfinished, row.id)
            self.lobby = Lobby(len(row.players), s.roster, expected=row.players)
            self.reporter.message(f"resuming {row.name}: {reset} unfinished game(s) will be played again")
        await self.desk.open()
        try:
            self.server = await serve(self._handle, s.host, s.port, create_connection=TimedConnection,
                                      max_size=max(s.limits.max_frame_bytes, s.limits.max_puzzle_frame_bytes),
                                      ping_interval=20, ping_timeout=20, close_timeout=CLOSE_TIMEOUT_S,
                                      compression=None)   # frames of ~200 bytes: deflate costs CPU, saves nothing
        except OSError as exc:
            raise ValueError(f"cannot listen on {s.host}:{s.port} for websockets: {exc.strerror or exc}; "
                             "is another server running there? choose another -p") from None
        if s.legacy_port is not None:
            port = LegacyPort(lambda: self.lobby, s.roster, on_admit=self._admitted_legacy,
                              key_timeout_s=s.limits.hello_timeout_s, debug=s.debug,
                              on_open=self.connections.add, on_close=self.connections.remove)
            try:
                self.legacy_server = await asyncio.get_running_loop().create_server(port.protocol, s.host,
                                                                                    s.legacy_port)
            except OSError as exc:
                raise ValueError(f"cannot listen on {s.host}:{s.legacy_port} for the legacy TCP port: "
                                 f"{exc.strerror or exc}; choose another --legacy-port") from None
            self.reporter.message(f"legacy TCP port for the course's C++ clients: {s.host}:{self.legacy_port}")
        if s.puzzles_only:
            self.reporter.message(f"listening on ws://{s.host}:{self.port}/ — serving the puzzle rooms "
                                  f"({', '.join(self.desk.rooms)}); no tournament. Ctrl-C stops.")
        else:
            self.reporter.message(f"listening on ws://{s.host}:{self.port}/ — waiting for "
                                  f"{self.lobby.seats if self.lobby.expected is None else len(self.lobby.expected)}"
                                  " players")

    @property
    def port(self) -> int:
        """The port actually bound (useful with port 0)."""
        assert self.server is not None
        return self.server.sockets[0].getsockname()[1]

    @property
    def legacy_port(self) -> int | None:
        """The legacy TCP port actually bound, or None when it is off."""
        if self.legacy_server is None:
            return None
        return self.legacy_server.sockets[0].getsockname()[1]

    async def run_tournament(self) -> Standings:
        """Wait until every seat is taken, play the tournament, export results, close connections."""
        if self.server is None:
            await self.start()
        assert self.store is not None
        # A seated player may leave between the last seat being taken and this task waking up:
        # start only when every seat is still taken at the moment the doors close.
        while not self.lobby.full.is_set():
            await self.lobby.full.wait()
        sessions = self.lobby.start()
        if self.tournament_id is None:
            s = self.settings
            name = s.tournament_name or datetime.now(UTC).strftime("tournament-%Y%m%d-%H%M%S")
            seed = s.seed if s.seed is not None else random.SystemRandom().randrange(2 ** 31)
            config = json.loads(s.model_dump_json(exclude={"roster"}))
            self.tournament_id = await self._io(self.store.create_tournament, name, s.format, s.games_per_pairing,
                                                seed, [x.name for x in sessions], config)
            self.folder = s.data_dir / name
        assert self.folder is not None
        await self._io(self.folder.mkdir, 0o755, True, True)
        self.runner = TournamentRunner(
            self.settings, self.store, self.tournament_id, self.folder, sessions, io=self._store_call,
            executor=self._log_thread, reporter=self.reporter, broadcast=self._broadcast_standings,
            on_step=self._spectate)
        standings = await self.runner.run()
        rows = standing_rows(standings)
        await self._io(self.store.finish_tournament, self.tournament_id, [r.model_dump() for r in rows])
        files = await self._io(self.store.export, self.tournament_id, self.folder)
        self.reporter.tournament_finished(standings, list(files))
        if self._standings_timer is not None:          # the final table goes in tournament_over
            self._standings_timer.cancel()
            self._standings_timer = None
        goodbye = TournamentOver(tournament=self.folder.name, rows=rows)
        await self.connections.send_all(goodbye)
        await self.connections.close_all(1000, "tournament over")
        self.done.set()
        return standings

    async def serve_forever(self) -> None:
        """Serve the puzzle rooms (and refuse seats) until cancelled: the ``-n 0`` server."""
        if self.server is None:
            await self.start()
        await asyncio.Event().wait()

    async def close(self) -> None:
        """Stop listening, close every connection and the store (idempotent)."""
        if self._closed:
            return
        self._closed = True
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
        if self.legacy_server is not None:
            self.legacy_server.close()
            for conn in [c for c in self.connections.open if isinstance(c, LegacyPeer)]:
                await conn.close()
            await self.legacy_server.wait_closed()
        if self.store is not None:
            await self._io(self.store.close)
        await self.desk.close()
        self._db_thread.shutdown(wait=True)
        self._log_thread.shutdown(wait=True)

    async def __aenter__(self) -> ArenaServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _io(self, function: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a blocking store/file call on the database thread, keeping the event loop free."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db_thread, lambda: function(*args, **kwargs))

    async def _store_call(self, function: Any, *args: Any, **kwargs: Any) -> Any:
        """A store call of the games (start, result, reads) on the database thread; the calls that queue
        up while it works go together in one transaction (``ResultStore.batch``): one sync to disk."""
        return await self._store_calls.submit((function, args, kwargs))

    # -- connections ----------------------------------------------------------------------
    def _admitted_legacy(self, session: LegacySession, peer: LegacyPeer) -> None:
        self.connections.greeted.add(peer)    # it hears the end of the contest (the close frame)
        self.reporter.message(f"{session.name} joined from {peer.address} (legacy TCP)")

    async def _handle(self, ws: TimedConnection) -> None:
        peer = Peer(ws, self.settings.limits, debug=self.settings.debug)
        if not self.connections.add(peer):
            await peer.error("too_many_connections", "too many connections; close some and try again")
            await peer.close(1013, "too many connections")
            return
        session: PlayerSession | None = None
        room: RoomContext | None = None
        try:
            hello = await self._hello(peer)
            if hello is None:
                return
            if hello.room != "quoridor":
                room = await self._enter_room(peer, hello)
                if room is None:
                    return
            elif hello.role == "player":
                session = await self._admit(peer, hello)
                if session is None:
                    return
            else:
                self.connections.spectators[peer] = set()
                self.connections.greeted.add(peer)
                await peer.send(self._welcome("spectator"))
            await self._serve(peer, session, hello.room, room)
        except ConnectionClosed:
            pass
        except _Drop as drop:
            await peer.close(1008, str(drop))   # 1008: policy violation
        except Exception:  # noqa: BLE001 - one broken connection must never take the server down
            log.exception("connection from %s failed", peer.address)
        finally:
            self.connections.remove(peer)
            if session is not None:
                self.lobby.leave(session, peer)
            await peer.close()

    async def _hello(self, peer: Peer) -> Hello | None:
        """Read frames until a valid ``hello``; None when the connection gives up or times out."""
        deadline = time.monotonic() + self.settings.limits.hello_timeout_s
        while True:
            try:
                async with asyncio.timeout(max(deadline - time.monotonic(), 0)):  # not wait_for: see match.py
                    raw = await peer.ws.recv()
            except TimeoutError:
                await peer.error("hello_first", "no hello received in time; closing")
                return None
            message = await self._parse(peer, raw, peer.ws.arrival(), greeted=False, awaited=False,
                                        limit=self.settings.limits.max_frame_bytes)
            if message is None:
                continue
            if isinstance(message, Hello):
                if message.room != "quoridor" and not self.desk.serves(message.room):
                    await peer.error("room_unavailable", f"room {message.room!r} is not served here", "hello")
                    return None
                if message.room == "quoridor" and message.role == "player" and self.settings.puzzles_only:
                    await peer.error("room_unavailable", "this server plays no tournament (-n 0): it serves only "
                                                         "the puzzle rooms sokoban, ice and circuit", "hello")
                    return None
                if message.room != "quoridor" and message.role == "spectator":
                    await peer.error("room_unavailable", f"there is nothing to watch in room {message.room!r}: "
                                                         "spectators watch the quoridor room", "hello")
                    return None
                return message
            await self._refuse(peer, "hello_first", "say hello first: {\"type\": \"hello\", ...}", message.type)

    async def _refuse(self, peer: Peer, code: str, message: str, frame_type: str | None = None) -> None:
        """Answer a bad frame with an ``error``; raises ``_Drop`` once the connection has too many strikes."""
        if not await peer.error(code, message, frame_type):
            raise _Drop("too many bad frames")

    async def _parse(self, peer: Peer, raw: str | bytes, arrived: float, *, greeted: bool, awaited: bool,
                     limit: int) -> Any:
        """The checks every frame passes (rate, size, syntax); the message, or None when it was refused.

        ``awaited``: the connection's game is waiting for its step. That frame is exempt from the rate,
        so a fast bot is never refused into a timeout; junk sent then still earns strikes.
        """
        if peer.debug:
            log.info("<- %s %s", peer.address, raw[:1000] if isinstance(raw, str) else f"<{len(raw)} bytes>")
        if not awaited and not peer.allow(arrived):
            if peer.flooding(arrived):
                await peer.error("rate_limited", "too many messages, again and again; closing", strike=False)
                raise _Drop("flooding")
            await peer.error("rate_limited", "too many messages; slow down", strike=False)
            return None
        # The limit is in bytes: a text of multi-byte characters is larger than its length says.
        size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "replace"))
        if size > limit:
            await self._refuse(peer, "frame_too_large", f"frames may be at most {limit} bytes (got {size})")
            return None
        try:
            return parse_client(raw)
        except ProtocolError as exc:
            if exc.code == "protocol_version" and not greeted:
                # A client that speaks another version cannot go on: say so and close (docs/protocol.md).
                await peer.error(exc.code, exc.message, exc.frame_type)
                raise _Drop("unsupported protocol version") from None
            await self._refuse(peer, exc.code, exc.message, exc.frame_type)
            return None

    async def _admit(self, peer: Peer, hello: Hello) -> PlayerSession | None:
        try:
            session = self.lobby.admit(hello.key, hello.name, peer)
        except AdmissionError as exc:
            await peer.error(exc.code, exc.message, "hello")
            return None
        self.connections.greeted.add(peer)
        await peer.send(self._welcome(session.name))
        self.reporter.message(f"{session.name} joined from {peer.address}")
        return session

    async def _enter_room(self, peer: Peer, hello: Hello) -> RoomContext | None:
        """Admit a connection to a puzzle room (no seat is taken); with a roster, only listed keys."""
        roster = self.settings.roster
        if roster is not None and hello.key not in roster:
            await peer.error("unknown_key", "this server admits only the keys on its roster", "hello")
            return None
        name = roster[hello.key] if roster is not None else (hello.name or hello.key)
        await peer.send(self._welcome(name))
        self.reporter.message(f"{name} entered the {hello.room} room from {peer.address}")
        return RoomContext(name)

    def _welcome(self, player: str) -> Welcome:
        s = self.settings
        rules = RulesInfo(ruleset=s.ruleset, time_limit_ms=s.effective_time_limit_ms, violations_allowed=3,
                          step_cap=s.step_cap, walls_per_player=BLOCK_SUM)
        return Welcome(player=player, server=f"{s.server_name} {__version__}", rules=rules)

    async def _serve(self, peer: Peer, session: PlayerSession | None, room: str, ctx: RoomContext | None) -> None:
        """Route every later frame of a connection until it closes."""
        ws = peer.ws
        limits = self.settings.limits
        limit = limits.max_puzzle_frame_bytes if ctx is not None else limits.max_frame_bytes
        if session is not None and not peer.debug:
            ws.fast_lane = step_lane(peer, session, limit)
        try:
            while True:
                ws.reading = True
                try:
                    raw = await ws.recv()
                finally:
                    ws.reading = False
                await self._frame(peer, session, room, ctx, raw, ws.arrival(), limit)
        finally:
            ws.fast_lane = None

    async def _frame(self, peer: Peer, session: PlayerSession | None, room: str, ctx: RoomContext | None,
                     raw: str | bytes, arrived: float, limit: int) -> None:
        """Check and route one frame the reader took."""
        awaited = session is not None and session.awaited()
        message = await self._parse(peer, raw, arrived, greeted=True, awaited=awaited, limit=limit)
        if message is None:
            return
        if ctx is not None and isinstance(message, PUZZLE_FRAMES):
            problem = await self._puzzle(peer, room, ctx, message)
        else:
            problem = self._route(peer, session, message, arrived)
        if problem is None:
            peer.good_frame()
        else:
            await self._refuse(peer, *problem, message.type)

    async def _puzzle(self, peer: Peer, room: str, ctx: RoomContext, message: Any) -> tuple[str, str] | None:
        """Hand a puzzle frame to its room and send the reply; ``(code, message)`` when the room refused it."""
        try:
            reply = await self.desk.answer(room, ctx, message)
        except RoomError as exc:
            return exc.code, exc.message
        await peer.send(reply)
        return None

    def _route(self, peer: Peer, session: PlayerSession | None, message: Any, arrived: float) -> tuple[str, str] | None:
        """Deliver one parsed frame; returns ``(code, message)`` when it cannot be taken."""
        if isinstance(message, Hello):
            return "already_hello", "this connection has already said hello"
        if isinstance(message, StepMessage):
            if session is None:
                return "not_a_player", "only quoridor players send steps (this connection is a spectator or in a puzzle room)"
            match = session.match
            if match is None or match.game_id != message.game:
                return "wrong_game", f"you have no game {message.game!r} in progress"
            match.submit_step(session.seat, message.turn, to_step(message), arrived)  # type: ignore[arg-type]
            return None
        if isinstance(message, Watch):
            watched = self.connections.spectators.get(peer)
            if watched is None:
                return "not_a_spectator", "only spectators can watch; connect with role 'spectator'"
            most = self.settings.limits.watched_games
            if message.game not in watched and len(watched) >= most:
                return "invalid_fields", f"a spectator may watch at most {most} games; watch \"*\" for all of them"
            watched.add(message.game)
            return None
        return "wrong_room", (f"{message.type!r} frames belong to the puzzle rooms; open another connection "
                              "with hello room 'sokoban', 'ice' or 'circuit'")

    # -- spectators and standings ---------------------------------------------------------
    def _spectate(self, runner: MatchRunner, judged: StepJudged) -> None:
        if not self.connections.spectators:
            return
        watchers = self.connections.watchers(runner.game_id)
        if watchers:
            update = game_update(runner.game_id, runner.referee.players, judged, runner.referee.is_over)
            self.connections.send_later(watchers, update)

    async def _broadcast_standings(self, standings: Standings) -> None:
        """After a game: broadcast the table, at most once per ``standings_interval_s`` (later ones coalesce).

        The whole table goes to every connection, so broadcasting it after every game of a big
        tournament would cost the square of its size; within the interval only the latest is sent.
        Players in a game are left out: nothing heavy reaches a bot while its clock runs, and it
        hears the table once its game is over (a game's end triggers the next broadcast).
        """
        self._standings = standings
        if self._standings_timer is not None:
            return
        interval = max(self.settings.standings_interval_s, self._standings_cost_s)
        wait = self._standings_sent + interval - time.monotonic()
        if wait <= 0:
            self._send_standings()
        else:
            self._standings_timer = asyncio.get_running_loop().call_later(wait, self._send_standings)

    def _send_standings(self) -> None:
        self._standings_timer = None
        standings, self._standings = self._standings, None
        if standings is None or self.folder is None:
            return
        self._standings_sent = time.monotonic()
        message = StandingsMessage(tournament=self.folder.name, games_done=standings.games_done,
                                   games_total=self._games_total(), rows=standing_rows(standings))
        playing = self._playing()
        queued = self.connections.send_later([c for c in self.connections.greeted if c not in playing], message,
                                             paced=True, busy=self._playing)
        self._standings_cost_s = queued / STANDINGS_BYTES_PER_S

    def _playing(self) -> set[Any]:
        """The connections of players in a game: a game counts until its game_over is sent (runner.running)."""
        running = self.runner.running.values() if self.runner is not None else ()
        return {session.peer for match in running for session in match.sessions}

    def _games_total(self) -> int:
        runner = self.runner
        if runner is None:
            return 0
        return runner.games_total or len(runner.finished) + len(runner.running)


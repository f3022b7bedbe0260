"""``ArenaServer``: one server process — listening, the tournament, the standings, the end.

Connections are asyncio protocols of our own over websockets' sans-I/O layer
(``server.net.wire.WebSocketLink``); the ``Router`` admits them and routes their frames in the
callbacks that read them. Games run in their own tasks (``MatchRunner``), puzzle frames go to
the ``PuzzleDesk``. A handler that fails closes its own connection only.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import logging
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from enum import Enum
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from shared.protocol import (
    Replays, RulesInfo, StandingRow, TournamentInfo, TournamentOver, Welcome,
)
from shared.quoridor import BLOCK_SUM
from shared.referee import VIOLATIONS_TO_LOSE
from shared.tournament import GameResult, Standings, interval_text

from server import __version__
from server.analysis import DEFAULT_KIT, Analyses, AnalysisProcess, BackgroundAnalyser
from server.net.arrivals import ArrivalClock
from server.net.connection import Connection, Encoded
from server.net.connections import Connections
from server.net.descriptors import connection_capacity, raise_open_file_limit
from server.net.legacy import LegacyPeer
from server.seats.legacy import LegacyPort, LegacySession
from server.ladder.runner import LadderLobby, LadderRunner
from server.ladder.seats import HostedResidents
from server.ladder.records import LadderRecords
from server.ladder.pages import LadderPages
from server.ladder.seeding import ladder_seeds, seeding_text
from server.seats.lobby import Lobby
from server.logs.logfile import new_run_folder
from server.rooms.desk import PuzzleDesk
from server.tournament.final_table import FinalTables
from server.router import Router
from server.settings import ServerSettings
from server.tournament.export import legacy_paths
from server.submissions.desk import SubmissionDesk
from server.submissions.seats import LateSeats, SubmittedSeat, hosted_peer, seat_submissions
from server.queue.hosting import server_game_host
from server.sandbox import GameHost, HostedRows, LocalGameHost
from server.sandbox.status import UNSAFE_WARNING
from server.tournament.results import Results
from server.tournament.rows import Entrant
from server.timestamps import utc_now_seconds
from server.tournament.runner import Reporter, TournamentRunner, log_name
from server.games.updates import standing_rows
from server.web import WebDesk
from server.web.feed import STANDINGS_BYTES_PER_S, LiveFeed
from server.web.organiser import OrganiserDesk
from server.web.records import champion, folder_listing, newest_finished
from server.net.wire import LinkSettings, WebSocketLink

__all__ = ["TOURNAMENT_OVER", "ArenaServer", "SilentReporter", "Stage"]

log = logging.getLogger("quoridor.server")


#: Seconds a closing handshake may take: by then everything is saved, so a client that does not
#: answer it must not hold the server up (websockets waits 10 s by default).
CLOSE_TIMEOUT_S = 2.0
#: Keep-alive: a connection quiet this long is pinged, and closed if the ping gets no answer as long again.
PING_INTERVAL_S = 20.0
#: Seconds between looks at the seats while waiting: a player that leaves says nothing, the count must still drop.
SEATS_CHECK_S = 0.5
#: The reason of the normal close (1000) that follows ``tournament_over``: the pages say the tournament has finished.
TOURNAMENT_OVER = "tournament over"


class Stage(Enum):
    """How far a server's tournament has got: what stopping the server now leaves behind."""

    WAITING = "waiting"         # nothing stored yet: no game played, nothing to resume
    PLAYING = "playing"         # stored and unfinished (a resumed one too): --resume continues it
    FINISHED = "finished"       # over and recorded: nothing to resume


def _duration(seconds: float) -> str:
    """``seconds`` as a person says a wait: ``40 s``, ``12 min``, ``3 h 05 min``."""
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes = round(seconds / 60)
    return f"{minutes} min" if minutes < 60 else f"{minutes // 60} h {minutes % 60:02d} min"


def _url_host(host: str) -> str:
    """The host of the pages' URL: a wildcard address names this machine, an IPv6 address goes in brackets."""
    if host in ("", "0.0.0.0", "::"):
        return "localhost"
    return f"[{host}]" if ":" in host else host


class SilentReporter:
    """A reporter that shows nothing (tests, embedding)."""

    def __getattr__(self, name: str) -> Any:
        def nothing(*args: Any, **kwargs: Any) -> None:
            return None
        setattr(self, name, nothing)    # found directly from now on: game_step is called every step
        return nothing


class ArenaServer:
    """Serve one tournament: wait for the players, run it, record it, say goodbye."""

    def __init__(self, settings: ServerSettings, reporter: Reporter | None = None, *,
                 clock: Callable[[], float] = time.monotonic, analysis_kit: str = DEFAULT_KIT) -> None:
        self.settings = settings
        #: The server's one clock: arrival stamps, deadlines, the rate, keep-alives, the standings' pace, matchmaking.
        self.clock = clock
        self.arrivals = ArrivalClock(clock)
        self.reporter: Reporter = reporter or SilentReporter()  # type: ignore[assignment]
        self.server: asyncio.Server | None = None
        self.legacy_server: asyncio.Server | None = None
        self.connections = Connections(settings.limits, paced_bytes_per_s=STANDINGS_BYTES_PER_S, clock=clock)
        self.router: Router | None = None
        self._pinger: asyncio.TimerHandle | None = None
        self.lobby: Any = (LadderLobby(settings.roster, clock=clock) if settings.ladder
                           else Lobby(settings.players, settings.roster, held=settings.roster_submissions, clock=clock))
        self.ladder: LadderRunner | None = None               # the practice ladder (--ladder), once it runs
        self.ladder_store: LadderRecords | None = None
        self.residents: HostedResidents | None = None
        self.hosted: list[Any] = []                           # --players-from-submissions: SubmittedSeats
        #: Where pairings of handed-in bots are played (made with the first such tournament; issue 19 may set its own).
        self.game_host: GameHost | None = None
        self._resume_submissions = False
        #: A resumed tournament's handed-in versions by key (its stored entrants): seated again as they were.
        self._resume_versions: dict[str, str] = {}
        self._late_seats: LateSeats | None = None              # handed-in bots accepted while the seats fill
        self.desk = PuzzleDesk(settings.data_dir / "puzzles.db")
        self.web = WebDesk(settings.data_dir, settings.ruleset)
        #: Each step, each end and the standings, to the spectators and the pages.
        self.feed = LiveFeed(self.connections, self.web, interval_s=settings.standings_interval_s,
                             playing=self._playing, games_total=self._games_total, clock=clock)
        #: The organiser's page's answers (``server.web.organiser``), made with the router.
        self.organiser: OrganiserDesk | None = None
        self.submissions = SubmissionDesk(settings, self.connections, self._welcome, self._say,
                                           sandbox=settings.sandbox)   # quoridor-submit
        self.results: Results | None = None
        self.tournament_id: int | None = None
        self.folder: Path | None = None
        self.runner: TournamentRunner | None = None
        self.done = asyncio.Event()
        self._finished = False
        self._seated: list[str] = []                          # the names last reported while waiting
        self._closed = False
        self._log_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="quoridor-logs")
        #: The module the analysis comes from (``server.analysis.kit``; tests name a fast fake).
        self.analysis_kit = analysis_kit
        #: Every finished game's analysis (``server.analysis``): queued as games end, served to the pages.
        self.analyses: Analyses | None = None

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
        self.results = results = await Results.open(s.data_dir / "arena.db")
        if s.resume:
            row = await results.latest_unfinished()
            if row is None:
                raise ValueError(f"--resume: no unfinished tournament in {s.data_dir / 'arena.db'}; start without it")
            self.tournament_id, self.folder = row.id, s.data_dir / row.name
            self.settings, ignored = s.resumed(row.settings, len(row.players))
            # a tournament of handed-in bots seats them again (each key's newest accepted version)
            self._resume_submissions = bool(row.settings.get("players_from_submissions"))
            # ... exactly the versions it played (its stored entrants), whatever was handed in since
            self._resume_versions = {e.key: e.version for e in row.entrants.values() if e.version is not None}
            if ignored:
                self.reporter.message("resuming with the tournament's own settings; ignored: " + ", ".join(ignored))
            reset = await results.reset_unfinished(row.id)
            self.lobby = Lobby(len(row.players), s.roster, expected=row.players, held=s.roster_submissions,
                               clock=self.clock)
            self.reporter.message(f"resuming {row.name}: {reset} unfinished game(s) will be played again")
        await self.desk.open()
        await self.submissions.open()
        self.analyses = self._analyses()
        self.analyses.start()
        self.web.analyses = self.analyses.answer_bytes
        self.connections.capacity = min(s.limits.max_connections, connection_capacity(raise_open_file_limit()))
        self.organiser = OrganiserDesk(self.settings, lambda: self.submissions.store, lambda: self.ladder,
                                       lambda: None if self.settings.ladder else self.web.standings)
        router = Router(self.settings, self.connections, lambda: self.lobby, self.desk, self._welcome, self._say,
                        web=self.web, submissions=self.submissions, organiser=self.organiser, clock=self.clock)
        link_settings = LinkSettings(max_size=max(s.limits.max_frame_bytes, s.limits.max_puzzle_frame_bytes),
                                     handshake_timeout_s=s.limits.handshake_timeout_s, close_timeout_s=CLOSE_TIMEOUT_S,
                                     ping_interval_s=PING_INTERVAL_S, ping_timeout_s=PING_INTERVAL_S,
                                     high_water=s.limits.send_high_water, send_buffer=s.limits.socket_send_buffer,
                                     arrivals=self.arrivals)
        self.router = router
        try:
            self.server = await asyncio.get_running_loop().create_server(lambda: WebSocketLink(router, link_settings),
                                                                         s.host, s.port)
        except OSError as exc:
            raise ValueError(f"cannot listen on {s.host}:{s.port} for websockets: {exc.strerror or exc}; "
                             "is another server running there? choose another -p") from None
        self._pinger = asyncio.get_running_loop().call_later(PING_INTERVAL_S / 4, self._keepalive)
        if s.legacy_port is not None:
            port = LegacyPort(lambda: self.lobby, s.roster, on_admit=self._admitted_legacy,
                              key_timeout_s=s.limits.hello_timeout_s, debug=s.debug,
                              on_open=self.connections.add, on_close=self.connections.remove, arrivals=self.arrivals,
                              wrong_keys=self.connections.wrong_keys)
            try:
                self.legacy_server = await asyncio.get_running_loop().create_server(port.protocol, s.host,
                                                                                    s.legacy_port)
            except OSError as exc:
                raise ValueError(f"cannot listen on {s.host}:{s.legacy_port} for the legacy TCP port: "
                                 f"{exc.strerror or exc}; choose another --legacy-port") from None
            self.reporter.message(f"legacy TCP port for the course's C++ clients: {s.host}:{self.legacy_port}")
        if s.puzzles_only:          # the pages show the data directory's newest finished tournament
            self.web.info = await asyncio.to_thread(newest_finished, s.data_dir)
        elif not s.ladder:          # the lobby, from the first second
            self.web.info = self._tournament_info()
        self.reporter.message(f"watch: http://{_url_host(s.host)}:{self.port}/")
        if s.sandbox.unsafe:            # handed-in bots without the sandbox: said loudly at every start
            self.reporter.message(UNSAFE_WARNING)
            log.warning(UNSAFE_WARNING)
        if s.ladder:
            self.reporter.message(f"listening on ws://{s.host}:{self.port}/ — the practice ladder: bots may connect "
                                  "at any time. Ctrl-C stops (every finished game is kept).")
        elif s.puzzles_only:
            self.reporter.message(f"listening on ws://{s.host}:{self.port}/ — serving the puzzle rooms "
                                  f"({', '.join(self.desk.rooms)}); no tournament. Ctrl-C stops.")
        else:
            self.reporter.message(f"listening on ws://{s.host}:{self.port}/ — waiting for {self._seats()[1]} players")
            self.reporter.players_waiting([], self._seats()[1], None)

    @property
    def stage(self) -> Stage:
        """How far the tournament has got (what an interrupted server tells the organiser)."""
        if self._finished:
            return Stage.FINISHED
        return Stage.WAITING if self.tournament_id is None else Stage.PLAYING

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
        assert self.results is not None
        everyone = self.settings.players_from_submissions or self._resume_submissions   # else: the roster's only
        if (everyone or self.settings.roster_submissions) and not self.lobby.started:
            cutoff = await self._freeze()
            self.submissions.closed_at = cutoff
            bots = await self.submissions.tournament_bots(everyone, cutoff, self._resume_versions)
            self.hosted = await seat_submissions(self.lobby, bots, self.settings, self._say)
            if cutoff is None:          # frozen hand-ins: a version accepted later takes no seat
                self._late_seats = LateSeats(self.lobby, self.hosted, self.settings, self._say, everyone=everyone)
                self.submissions.on_accepted = self._late_seats
        # A seated player may leave between the last seat being taken and this task waking up:
        # start only when every seat is still taken at the moment the doors close.
        while not self.lobby.full.is_set():
            try:
                async with asyncio.timeout(SEATS_CHECK_S):     # not wait_for: it can swallow a cancellation on 3.11
                    await self.lobby.full.wait()
            except TimeoutError:
                self._seats_changed(None)
        sessions = self.lobby.start()
        self.submissions.on_accepted = None
        self.submissions.closed_at = self.submissions.closed_at or utc_now_seconds()
        if self.tournament_id is None:
            s = self.settings
            name = s.tournament_name or (await asyncio.to_thread(new_run_folder, s.data_dir, "tournament-")).name
            seed = s.seed if s.seed is not None else random.SystemRandom().randrange(2 ** 31)
            if s.seed_from_ladder and s.seeds is None:      # pairing numbers from the ladder, stored for --resume
                versions = {x.name: x.entry.version if isinstance(x, SubmittedSeat) else None for x in sessions}
                order, ratings = await asyncio.to_thread(ladder_seeds, s.data_dir, versions, seed)
                self.settings = s = s.model_copy(update={"seeds": order})
                self.reporter.message(seeding_text(order, ratings))
            config = json.loads(s.model_dump_json(exclude={"roster", "roster_submissions"}))   # keys are secret
            entrants = {x.name: Entrant(x.key, x.entry.version if isinstance(x, SubmittedSeat) else None)
                        for x in sessions}
            self.tournament_id = await self.results.create_tournament(name, s.format, s.games_per_pairing,
                                                seed, [x.name for x in sessions], config, entrants)
            self.folder = s.data_dir / name
        assert self.folder is not None
        self.web.tournament = self.feed.tournament = self.folder.name
        self._show_info()                   # the pages leave the lobby: this tournament plays
        await asyncio.to_thread(self.folder.mkdir, 0o755, True, True)
        self.runner = TournamentRunner(
            self.settings, self.results, self.tournament_id, self.folder, sessions,
            executor=self._log_thread, reporter=self.reporter, broadcast=self.feed.standings,
            on_step=self.feed.step, on_game_over=self._game_over, clock=self.clock)
        self.runner.rows = HostedRows(self._log_thread, find=lambda name, seats=self.runner.sessions: hosted_peer(seats.get(name)))     # hosted bots' CPU times in the logs
        if self.hosted:             # handed-in bots: a fresh sandboxed process per pairing, at most cores-1 at once
            if self.game_host is None:
                self.game_host = server_game_host(self.settings, self._log_thread, self.reporter.message,
                                                  restarted=self.feed.restarted)
            self.runner.host = self.game_host
            if isinstance(self.game_host, LocalGameHost):       # this machine's cores, shared with mixed pairings
                self.runner.local_pairings = self.game_host.slots
        standings = await self.runner.run()
        rows = standing_rows(standings)
        await self.results.finish_tournament(self.tournament_id, [r.model_dump() for r in rows])
        self._finished = True
        files = [*await self.results.export(self.tournament_id, self.folder), *legacy_paths(self.folder)]
        logs = [Path(row.log_path) for row in await self.results.games(self.tournament_id, "finished") if row.log_path]
        self.reporter.tournament_finished(standings, list(files), logs)
        self.feed.stop_standings()                      # the final table goes in tournament_over
        tables = FinalTables(self.folder.name, rows, self.runner.champion or champion(rows))
        await self._farewell(tables, {s.peer: name for name, s in self.runner.sessions.items() if s.peer is not None})
        self.done.set()
        return standings

    async def _freeze(self) -> str | None:
        """The hand-ins' freeze (``--freeze-at``; a final's is its start): waited for, said in the live view and the
        pages' lobby, and kept in the settings stored with the tournament (``--resume`` seats the same versions)."""
        s = self.settings
        if s.freeze_at is None and s.format != "final":
            return None
        if s.freeze_at is None:
            self.settings = s = s.model_copy(update={"freeze_at": utc_now_seconds()})
        assert s.freeze_at is not None
        wait = (datetime.fromisoformat(s.freeze_at.replace("Z", "+00:00")) - datetime.now(UTC)).total_seconds()
        if wait > 0:
            self.reporter.message(f"hand-ins freeze at {s.freeze_at} (in {_duration(wait)}): then each key's newest "
                                  "accepted version handed in by then takes a seat")
            self._show_info()
            await asyncio.sleep(wait)
        return s.freeze_at

    async def _farewell(self, tables: FinalTables, players: dict[Connection, str]) -> None:
        """The end, in order: the updates still held for their lull (the last game's last board), every game of
        the tournament to the spectators (a page's own ``replays_request`` would come too late), the final table,
        then the normal close whose reason (``TOURNAMENT_OVER``) the pages show as the end.

        The final table is O(N) in all (``tables``): each of the ``players`` (connection -> name) gets the top and
        its own row, a spectator, or a player that sent ``final_table_request``, every row.
        """
        assert self.folder is not None
        await self.connections.flush()
        self.web.info = self._tournament_info(tables.message(tables.rows))
        listing = await asyncio.to_thread(folder_listing, self.folder)
        self.web.final_folder = listing             # from now on every page's replays_request is answered with it
        spectators = self.connections.spectators
        if spectators:
            await self.connections.send_all(Replays(folders=[listing]), list(spectators))
        router = self.router

        def frame(conn: Connection) -> Encoded:
            if conn in spectators or (router is not None and router.wants_final_table(conn)):
                return tables.whole
            return tables.for_player(players.get(conn))

        await self.connections.send_each(frame)
        await self.connections.close_all(1000, TOURNAMENT_OVER)

    async def run_ladder(self) -> None:
        """Run the practice ladder until cancelled: residents seated, free bots paired, ratings kept in ladder.db."""
        if self.server is None:
            await self.start()
        s = self.settings
        self.folder = s.data_dir / "ladder"
        await asyncio.to_thread(self.folder.mkdir, 0o755, True, True)
        self.ladder_store = store = await LadderRecords.open(s.data_dir / "ladder.db")
        seed = s.seed if s.seed is not None else random.SystemRandom().randrange(2 ** 31)
        self.ladder = LadderRunner(s, store, self.lobby, self.folder, executor=self._log_thread,
                                   reporter=self.reporter, on_step=self.feed.step, on_table=self._ladder_table,
                                   seed=seed, host=self.game_host, on_restart=self.feed.restarted, clock=self.clock)
        # The pages (issue 29): the ladder's table, games, idle reason and reports, not a tournament's.
        pages = LadderPages(self.connections, self.ladder)
        self.ladder.on_change, self.web.ladder_answer, self.web.tournament = pages.changed, pages.answer, "ladder"
        self.web.find_log = store.game_log          # /game?game=ID for any of its games (the organiser's page links)
        if self.analyses is not None:
            self.ladder.on_log = self.analyses.game_finished        # each finished game's log, to be analysed
        self.ladder.rows = HostedRows(self._log_thread, find=lambda name: hosted_peer(self.lobby.session(name)))     # hosted bots' CPU times in the logs
        # Residents, hosted by the server itself (issue 17): the built-in bots, and each key's newest accepted
        # handed-in bot (issue 18), which never disconnects; a version accepted meanwhile replaces its predecessor.
        self.residents = residents = HostedResidents(list(s.ladder_residents), self.lobby, s.referee_settings(),
                                                     s.sandbox, say=self.reporter.message)
        residents.start()
        self.ladder.residents = residents           # pairings of two residents: the ladder's game host plays them
        if s.ladder_residents:
            self.reporter.message(f"residents: {', '.join(s.ladder_residents)}")
        for entry in (await self.submissions.accepted_bots()).values():
            residents.put_entry(entry)
        self.submissions.on_accepted = lambda _key, entry: residents.put_entry(entry)
        try:
            await self.ladder.run()
        finally:
            pages.close()

    def _ladder_table(self, rows: list[Any]) -> None:
        """The refitted table: one line for the organiser, a ``standings`` frame for everyone not in a game.

        ``elo`` is the Bradley-Terry rating and ``elo_error`` its interval's margin (its longer side), as in tournaments.
        """
        shown = [f"{r.track} {r.rating:+.0f} {interval_text(r.low, r.high)} ({r.games} games)" for r in rows[:8]
                 if r.rating is not None and r.low is not None and r.high is not None]
        if shown:
            self.reporter.message("ladder table: " + "; ".join(shown))
        table = [StandingRow(rank=rank, player=r.track, points=r.score, games=r.games, wins=r.wins, losses=r.losses,
                             draws=r.draws, elo=r.rating, elo_error=r.margin,
                             elo_low=r.low, elo_high=r.high)
                 for rank, r in enumerate(rows, 1)]
        self.feed.ladder_table(table, self.ladder.games_played if self.ladder is not None else 0)

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
        if self._pinger is not None:
            self._pinger.cancel()
        if self._late_seats is not None:
            self._late_seats.close()
        if self.residents is not None:
            await self.residents.stop()
        if self.game_host is not None:
            await self.game_host.close()
        if self.analyses is not None:
            await asyncio.to_thread(self.analyses.close)      # the analysis process ends with the server
        for server in (self.server, self.legacy_server):
            if server is not None:
                server.close()
        await self.connections.close_all(1001, "server shutting down")
        if self.router is not None:
            for link in self.router.links():
                link.abort()
        for server in (self.server, self.legacy_server):
            if server is not None:
                await server.wait_closed()
        if self.results is not None:
            await self.results.close()
        await self.desk.close()
        await self.submissions.close()
        if self.ladder_store is not None:
            await self.ladder_store.close()
        self._log_thread.shutdown(wait=True)

    async def __aenter__(self) -> ArenaServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- the analysis ----------------------------------------------------------------------
    def _analyses(self) -> Analyses:
        """The analyses of the data directory: kept ones served, and with ``--analysis local`` each finished game
        (and at the start each recent log left unanalysed) analysed by one process in the background (by the
        workers of ``--queue`` with ``--analysis queue``)."""
        s = self.settings
        kit = importlib.import_module(self.analysis_kit)
        analyser = None
        if s.analysis == "local":
            analyser = BackgroundAnalyser(AnalysisProcess(self.analysis_kit, s.analysis_nodes), scan=s.data_dir)
        elif s.analysis == "queue" and s.queue is not None:
            from server.queue.analysis import QueueAnalysis     # the queue extra: imported only with --queue
            on_workers = QueueAnalysis(s.queue, kit, asyncio.get_running_loop(), nodes=s.analysis_nodes)
            analyser = BackgroundAnalyser(on_workers, scan=s.data_dir)
        return Analyses(s.data_dir, kit.analysis_key, analyser, nodes=s.analysis_nodes)

    async def analyse_the_rest(self) -> None:
        """After the tournament, before the server exits: its games still queued are analysed (the organiser is told
        how many; Ctrl-C stops, and the next start on this data directory analyses them)."""
        analyser = self.analyses.analyser if self.analyses is not None else None
        if analyser is None or self.folder is None:
            return
        left = analyser.queued_in(self.folder)
        if left:
            self.reporter.message(f"analysing the tournament's last {len(left)} game(s) before exiting (Ctrl-C "
                                  "stops; the next start on this data directory analyses what is left)")
            await asyncio.to_thread(analyser.wait_for, left)
            self.reporter.message("every game of the tournament is analysed (the game pages' graphs, "
                                  "quoridor-replay GAME --analyse)")

    def _game_over(self, game_id: str, result: GameResult) -> None:
        """A tournament's game ended: the pages hear of it, and its log (none for a forfeit) is analysed."""
        self.feed.ended(game_id, result)
        if self.analyses is not None and self.folder is not None:
            self.analyses.game_finished(game_id, self.folder / log_name(game_id, result.white, result.black))

    # -- connections ----------------------------------------------------------------------
    def _admitted_legacy(self, session: LegacySession, peer: LegacyPeer) -> None:
        self.connections.settle(peer, anonymous=False)
        self.connections.greeted.add(peer)    # it hears the end of the contest (the close frame)
        self._say(f"{session.name} joined from {peer.address} (legacy TCP)")

    def _seats(self) -> tuple[list[str], int]:
        """The names seated so far, and the seats to fill (the stored players' on --resume)."""
        lobby = self.lobby
        return [s.name for s in lobby.sessions], lobby.seats if lobby.expected is None else len(lobby.expected)

    def _say(self, text: str) -> None:
        """A line from the router or the legacy port; a join while the seats fill says how many are taken."""
        if not self._seats_changed(text):
            self.reporter.message(text)

    def _seats_changed(self, news: str | None) -> bool:
        """Before the start, tell the reporter who is seated when that changed since it was last told; True if told.

        A join comes with its line (``news``); a leave says nothing of itself and is noticed here,
        by name, on the next look (``SEATS_CHECK_S``) or the next line.
        """
        if self.lobby.started or self.settings.puzzles_only:
            return False
        joined, seats = self._seats()
        if joined == self._seated:
            return False
        still = set(joined)
        gone = [name for name in self._seated if name not in still]
        self._seated = joined
        lines = [news] if news else []
        if gone:
            lines.append(f"{', '.join(gone)} left")
        self.reporter.players_waiting(joined, seats, "; ".join(lines) or None)
        self._show_info()
        return True

    def _tournament_info(self, over: TournamentOver | None = None) -> TournamentInfo:
        """What the pages show of this server's tournament: its lobby (who has joined, n of N, the format), its
        name once it plays, its final table once ``over``."""
        s = self.settings
        joined, seats = self._seats()
        stage = "finished" if over is not None else "playing" if self.lobby.started else "waiting"
        return TournamentInfo(tournament=self.folder.name if self.folder is not None else None, stage=stage,
                              players=joined, seats=seats, format=s.format, games_per_pairing=s.games_per_pairing,
                              ruleset=s.ruleset, rows=over.rows if over is not None else [],
                              champion=over.champion if over is not None else None, freeze_at=s.freeze_at)

    def _show_info(self) -> None:
        """The lobby or the tournament changed: keep it for new pages and tell the spectators now."""
        self.web.info = info = self._tournament_info()
        self.connections.send_later(list(self.connections.spectators), info)

    def _welcome(self, player: str) -> Welcome:
        s = self.settings
        rules = RulesInfo(ruleset=s.ruleset, time_limit_ms=s.effective_time_limit_ms,
                          violations_allowed=VIOLATIONS_TO_LOSE, step_cap=s.step_cap, walls_per_player=BLOCK_SUM)
        # The ladder says so in the server's name: welcome's fields are the tournament's (see docs/protocol.md).
        server = f"{s.server_name} {__version__}" + (" (practice ladder)" if s.ladder else "")
        return Welcome(player=player, server=server, rules=rules, organiser_page=bool(s.organiser_keys))

    def _keepalive(self) -> None:
        """Ping the quiet connections (one timer for all of them)."""
        if self.router is not None:
            now = self.clock()
            for link in self.router.links():
                link.keepalive(now)
        self._pinger = asyncio.get_running_loop().call_later(PING_INTERVAL_S / 4, self._keepalive)

    # -- what the feed asks ------------------------------------------------------------------
    def _playing(self) -> set[Connection]:
        """The connections of players in a game: a game counts until its game_over is sent (runner.running)."""
        running = list(self.runner.running.values()) if self.runner is not None else []
        if self.ladder is not None:
            running += self.ladder.running.values()
        players = {name for match in running for name in match.referee.players}
        return {session.peer for session in self.lobby.sessions if session.name in players and session.peer is not None}

    def _games_total(self) -> int:
        runner = self.runner
        if runner is None:
            return 0
        return runner.games_total or len(runner.finished) + len(runner.running)



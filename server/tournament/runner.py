"""``TournamentRunner``: schedules the games of a tournament, runs them concurrently, keeps the results.

The scheduler's state lives in the results store only: the plan (every game of a round-robin,
or each knockout or Swiss round as it comes) is written before it is played and every result as
soon as it is known, so a server killed mid-tournament and started with ``--resume`` rebuilds the
same state from the database (and from the finished logs of results the database lost: its ``-wal``
file deleted or damaged, ``server.tournament.recovery``; a finished log is never overwritten) and
plays only what is missing (a knockout or a Swiss is paired
again from the stored results, round by round: the same seed and results give the same rounds; a final's rounds
follow from the seed, its stop from the stored results, and each pairing's opening from the seed and its number).
A game whose log cannot be written (the server ran out of file descriptors for longer than the
log writer retries) is not counted: it is voided and played again, up to ``VOID_REPLAYS`` times.

Handed-in bots (``server.submissions.seats.SubmittedSeat``) play each pairing in a fresh sandboxed
process, started before its first turn: a pairing of two of them is played by ``host`` (a
``GameHost``: this machine's pool, or workers elsewhere) and recorded game by game when it returns;
a pairing of one of them and a connected bot is played here like any other, the bot's process
seated for it. Their steps' CPU times go in the logs (``server.sandbox.HostedRows``). A pairing the host
refuses (``PairingRefused``: a worker cannot fetch a bot, every attempt failed) is said in one line and
left unplayed, counting for nobody; the other pairings go on, and the tournament then stops unfinished
(``GamesNotPlayed``: a knockout or Swiss round cannot be paired without it) so that ``--resume`` plays it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any, Protocol

from shared.gamelog import GameOutcome
from shared.referee import GameFinished, GameReferee, StepJudged
from shared.ladder import pawn_opening
from shared.quoridor import Step, find_ruleset
from shared.tournament import (
    Final, FinalStandings, GameResult, Knockout, ScheduledGame, Standings, Swiss, SwissStandings, round_robin,
)

from server.logs.batcher import LogUnavailableError
from server.games.match import MatchResult, MatchRunner, game_over
from server.seats.players import PlayerSession
from server.sandbox import (
    GameHost, GameSpec, HostedRows, HostedSeat, Pairing, PairingRefused, PairingResult, SandboxUnavailable,
    default_concurrency,
)
from server.settings import ServerSettings
from server.tournament.recovery import LoggedGame, logged_games, recover, replay_number
from server.tournament.results import Results
from server.submissions.seats import SubmittedSeat, pairing_limits, start_pairing_seat
from server.timestamps import utc_now

__all__ = ["TournamentRunner", "Reporter", "GameKey", "GamesNotPlayed", "game_key", "log_name"]

log = logging.getLogger("quoridor.server")

#: Games a round starts per pass of the event loop (about 20 ms of work): starting 500 at once held every
#: clock up for 0.15 s; a handful per pass made the last game of a big round start 0.6 s after the first.
STARTS_PER_PASS = 100
GameKey = tuple[int, int, int]
#: Times a game whose log could not be written (out of file descriptors) is voided and played again.
VOID_REPLAYS = 3


class GamesNotPlayed(ValueError):
    """The game host refused some pairings: their games are unplayed and the tournament is not finished."""

    def __init__(self, tournament: str, games: Sequence[str]) -> None:
        super().__init__(f"{len(games)} game(s) of {tournament} were not played ({', '.join(games)}): the game host "
                         "refused their pairing (see the lines above); every other result is saved: start again "
                         "with --resume to play them")
        self.games = tuple(games)


def game_key(game: ScheduledGame) -> GameKey:
    """The store's identity of a scheduled game: (round, pairing, game in pairing)."""
    return game.round, game.pairing, game.game_in_pairing


class Reporter(Protocol):
    """What the live view (or a test) is told as the tournament goes.

    ``players_waiting``: before the start, who has taken a seat of ``seats`` after a join or a
    leave (``news`` says which, in one line; None for the empty lobby). ``tournament_finished``:
    the results' files and the games' logs in play order (the end screen offers one to replay).
    """

    def tournament_started(self, name: str, players: Sequence[str], games_total: int | None) -> None: ...
    def game_started(self, game_id: str, white: str, black: str) -> None: ...
    def game_step(self, game_id: str, judged: StepJudged) -> None: ...
    def game_finished(self, game_id: str, white: str, black: str, result: GameResult) -> None: ...
    def standings(self, standings: Standings) -> None: ...
    def message(self, text: str) -> None: ...
    def tournament_finished(self, standings: Standings, files: Sequence[Path], logs: Sequence[Path] = ()) -> None: ...
    def players_waiting(self, joined: Sequence[str], seats: int, news: str | None) -> None: ...


@functools.lru_cache(maxsize=4096)
def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:40] or "player"


def log_name(game_id: str, white: str, black: str) -> str:
    """The file name of a game's log: its game id, as the dashboard and the results show it, and who played.

    ``t3-r1-p1-g1_carol_vs_bob.csv``: the game id makes it unique (a voided game's replay has an id of
    its own, ``t3-r1-p1-g1-replay1``); the names are there for a person reading a folder listing. Only
    letters, digits and ``_ . -`` before ``.csv``: safe in a shell, on any file system, and as an
    argument to the course's old viewer (``QuoridorUI.exe FILE.csv``).
    """
    return f"{_safe(game_id)}_{_safe(white)}_vs_{_safe(black)}.csv"


class TournamentRunner:
    """Runs one tournament between the seated sessions, recording everything in ``results``."""

    def __init__(self, settings: ServerSettings, results: Results, tournament_id: int, folder: Path,
                 sessions: Sequence[PlayerSession], *, executor: Executor,
                 reporter: Reporter, broadcast: Callable[[Standings], Any],
                 on_step: Callable[[MatchRunner, StepJudged], None],
                 on_game_over: Callable[[str, GameResult], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        #: The clock of its games' deadlines (the sessions' and the arrival stamps' clock).
        self.clock = clock
        self.results = results
        self.tid = tournament_id
        self.folder = folder
        self.sessions = {s.name: s for s in sessions}
        self.players = [s.name for s in sessions]
        # every game's log: opened and fed by the loop, finished in batches on the log thread (hosted seats' CPU too)
        self.rows = HostedRows(executor)
        self.executor = executor        # the log-writing thread
        self.reporter = reporter
        self.broadcast = broadcast
        self.on_step_hook = on_step
        self.on_game_over = on_game_over
        self.standings: Standings
        if settings.format == "swiss":
            self.standings = SwissStandings(self.players, settings.games_per_pairing)
        elif settings.format == "final":        # its per-look level follows from the budget alone
            self.standings = FinalStandings(self.players, self._new_final(None).level)
        else:
            self.standings = Standings(self.players)
        #: A final's openings by pairing number (``shared.ladder.pawn_opening``); other formats start from the start.
        self._openings: dict[int, tuple[Step, ...]] = {}
        self.finished: dict[GameKey, GameResult] = {}
        self.running: dict[str, MatchRunner] = {}
        self.limit = asyncio.Semaphore(settings.concurrency) if settings.concurrency else None
        self.name = folder.name
        #: Games in the whole tournament (round-robin, Swiss), or None while a knockout is undecided.
        self.games_total: int | None = None
        #: Where pairings of two handed-in bots are played (``None``: here, as a mixed pairing is).
        self.host: GameHost | None = None
        #: Pairings with a handed-in bot played here at once (one fewer than the cores; a local host shares its slots).
        self.local_pairings = asyncio.Semaphore(default_concurrency())
        #: Games of pairings the host refused: left unplayed (pending in the store) for ``--resume``.
        self.unplayed: list[str] = []
        #: A finished knockout's winner (its last player in); None for the other formats (their table says it).
        self.champion: str | None = None
        #: Games whose logs are on disk but do not count (``_recover``): the replay number their next attempt takes.
        self._replays_from: dict[str, int] = {}
        #: When the tournament was stored (``run`` reads it): a log of a game started before is another's.
        self._created_at: str | None = None

    # -- the whole tournament ----------------------------------------------------------------
    async def run(self) -> Standings:
        """Play every game that is not finished yet; returns the final standings."""
        for name, (timeouts, kicked) in (await self.results.player_states(self.tid)).items():
            if name in self.sessions:       # a resumed tournament: timeouts so far, and who was removed
                self.sessions[name].timeouts, self.sessions[name].kicked = timeouts, kicked
        for row in await self.results.games(self.tid, "finished"):
            result = GameResult(row.white, row.black, row.winner, row.reason, row.thinking_ms, row.violations)
            self.finished[(row.round, row.pairing, row.game_in_pairing)] = result
            self.standings.add(result)
        stored = await self.results.tournament(self.tid)
        seed, self._created_at = stored.seed, stored.created_at
        if self.settings.format == "knockout":
            await self._knockout(seed)
        elif self.settings.format == "swiss":
            await self._swiss(seed)
        elif self.settings.format == "final":
            await self._final(seed)
        else:
            rounds = round_robin(self.players, self.settings.games_per_pairing, seed)
            total = self.games_total = sum(len(r) for r in rounds)
            self.reporter.tournament_started(self.name, self.players, total)
            await self.results.schedule(self.tid, [g for r in rounds for g in r])
            await self._recover([g for r in rounds for g in r])      # at once: one line for the whole tournament
            for games in rounds:
                await self._round(games)
        await self.results.flush()
        self._check_played()
        return self.standings

    def _check_played(self) -> None:
        """``GamesNotPlayed`` when the host refused a pairing (the results so far are stored)."""
        if self.unplayed:
            raise GamesNotPlayed(self.name, self.unplayed)

    async def _knockout(self, seed: int | None) -> None:
        ko = Knockout(self.players, self.settings.games_per_pairing, seed, seeds=self.settings.seeds)
        self.reporter.tournament_started(self.name, self.players, None)
        while True:
            games = ko.current_round()
            await self.results.schedule(self.tid, games)
            await self._recover(games)
            await self._round(games)
            await self.results.flush()
            self._check_played()            # the next round cannot be paired without every result of this one
            for game in games:
                ko.record(self.finished[game_key(game)])
            if not ko.advance():
                break
        if ko.champion:
            self.champion = ko.champion
            self.reporter.message(f"knockout champion: {ko.champion}")

    async def _swiss(self, seed: int | None) -> None:
        swiss = Swiss(self.players, self.settings.games_per_pairing, seed, self.settings.swiss_rounds,
                      seeds=self.settings.seeds)
        standings = self.standings
        assert isinstance(standings, SwissStandings)
        self.games_total = swiss.games_total
        self.reporter.tournament_started(self.name, self.players, self.games_total)
        while True:
            games = swiss.current_round()
            await self.results.schedule(self.tid, games)
            await self._recover(games)
            if swiss.bye is not None:
                # Not stored: the games of a round say who sat out (swiss_byes), as results.json shows it.
                standings.add_bye(swiss.bye)
                if any(game_key(game) not in self.finished for game in games):
                    points = self.settings.games_per_pairing
                    self.reporter.message(f"round {swiss.round + 1} of {swiss.rounds}: {swiss.bye} has the bye "
                                          f"({points} point{'s' if points > 1 else ''}, a won pairing)")
            await self._round(games)
            await self.results.flush()
            self._check_played()            # the next round cannot be paired without every result of this one
            for game in games:
                swiss.record(self.finished[game_key(game)])
            if not swiss.advance():
                break

    def _new_final(self, seed: int | None) -> Final:
        return Final(self.players, self.settings.games_per_pairing, seed, self.settings.final_games)

    async def _final(self, seed: int | None) -> None:
        """Rounds of every pair from seeded openings until the rating order settles or the budget ends
        (``shared.tournament.final``); each round stored before it is played, so --resume plays the same ones."""
        final = self._new_final(seed)
        plies, ruleset = self.settings.ladder_opening_plies, find_ruleset(self.settings.ruleset)
        self.reporter.tournament_started(self.name, self.players, None)
        while True:
            games = final.current_round()
            for game in games:
                if game.pairing not in self._openings:
                    self._openings[game.pairing] = pawn_opening(seed or 0, game.pairing, plies, ruleset)
            await self.results.schedule(self.tid, games)
            await self._recover(games)
            played_here = any(game_key(game) not in self.finished for game in games)   # not a round a resume replays
            for slate in final.current_slates():        # nobody plays twice at once: a connected bot plays one game
                await self._round(slate)
            await self.results.flush()
            self._check_played()            # the next look needs every result of this round
            for game in games:
                final.record(self.finished[game_key(game)])
            # The look fits every game and profiles n - 1 differences (0.65 s for 40 players): off the event loop.
            going = await asyncio.to_thread(final.advance)
            if isinstance(self.standings, FinalStandings):      # the table says what this look said
                self.standings.looked(final.order, final.separated, final.ranks)
            apart = sum(1 for flag in final.separated[:-1] if flag)
            neighbours = len(self.players) - 1
            said = (f"final, round {final.round + 1 - going}: {apart} of {neighbours} neighbours separated "
                    f"(each look at {final.level:.2%})")
            if going:
                if played_here:
                    self.reporter.message(f"{said}; round {final.round + 1} of at most {final.max_rounds} follows")
                continue
            self.games_total = final.games_total
            if final.settled:
                self.reporter.message(f"{said}: the final is settled after {final.games_total} games")
            else:
                self.reporter.message(f"{said}: the budget of {final.max_games} games allows no other round; "
                                      "a rank is 1 + the players shown better")
            break

    async def _recover(self, games: Sequence[ScheduledGame]) -> None:
        """Take the results the database lost from their finished logs in the folder (``server.tournament.recovery``),
        said in one line; a log that cannot be taken is kept, and its game is played under a new id."""
        missing = [(game, self._game_id(game)) for game in games if game_key(game) not in self.finished]
        if not missing:
            return
        loop = asyncio.get_running_loop()
        logs = await loop.run_in_executor(self.executor, logged_games, self.folder)
        missing = [(game, game_id) for game, game_id in missing if game_id in logs]
        if not missing:
            return
        recovered: list[str] = []
        for found in await loop.run_in_executor(self.executor, recover, missing, logs, self._created_at):
            if not isinstance(found, LoggedGame):
                self.reporter.message(f"{found.log_path} is kept but does not count: {found.why}; "
                                      "its game is played again under a new id")
                continue
            key = game_key(found.game)
            await self.results.record_result(self.tid, key, found.result, log_path=str(found.log_path),
                                             game_id=found.game_id, started_at=found.started_at,
                                             ended_at=found.ended_at, steps=found.steps)
            self.finished[key] = found.result
            self.standings.add(found.result)
            recovered.append(found.game_id)
        for game, game_id in missing:     # never a finished log's name again: replays start after the last one
            self._replays_from[game_id] = 1 + max(map(replay_number, logs[game_id]))
        if recovered:
            line = (f"{self.results.path} had lost {len(recovered)} finished game(s) of {self.name} that their logs "
                    f"in {self.folder} record ({_listed(recovered)}): its -wal file was deleted, cut short or garbled "
                    "(copy arena.db with its -wal and -shm files, or with sqlite3's .backup); their results are "
                    "taken from the logs, which are kept as they are")
            log.warning("%s", line)
            self.reporter.message(line)

    def _attempt_id(self, game_id: str, attempt: int) -> str:
        """The id of ``attempt`` (0: the first) at a game: a voided game's replay has one of its own, and no id
        of a finished log on disk is used again (its log is never overwritten)."""
        number = self._replays_from.get(game_id, 0) + attempt
        return game_id if number == 0 else f"{game_id}-replay{number}"

    async def _round(self, games: Sequence[ScheduledGame]) -> None:
        by_pairing: dict[int, list[ScheduledGame]] = defaultdict(list)
        for game in games:
            by_pairing[game.pairing].append(game)
        pairings: list[asyncio.Future[None]] = []
        try:
            for number, group in enumerate(by_pairing.values()):
                if number and number % STARTS_PER_PASS == 0:
                    await asyncio.sleep(0)      # let the games already started read their steps in between
                pairings.append(asyncio.ensure_future(self._pairing(sorted(group, key=lambda x: x.game_in_pairing))))
            await asyncio.gather(*pairings)
        except BaseException:
            for task in pairings:           # the server is going down: no game plays on by itself
                task.cancel()
            raise

    async def _pairing(self, games: Sequence[ScheduledGame]) -> None:
        # The games of one pairing share two players, so they run one after another.
        todo = [game for game in games if game_key(game) not in self.finished]
        if not todo:
            return
        submitted = [seat for seat in (self.sessions[todo[0].white], self.sessions[todo[0].black])
                     if isinstance(seat, SubmittedSeat)]
        if len(submitted) == 2 and self.host is not None:
            await self._hosted_pairing(todo, (submitted[0], submitted[1]))
        elif submitted:
            # -c before a core, as a hosted pairing takes them (-c, then the host's slot, which is a core here):
            # taken the other way round, -c 1 held by a hosted pairing waiting for the core a mixed one held while
            # it waited for -c, and the tournament stopped
            async with contextlib.nullcontext() if self.limit is None else self.limit:
                async with self.local_pairings:
                    await self._pairing_with_processes(todo, submitted)
        else:
            await self._play_games(todo, self.sessions)

    async def _play_games(self, games: Sequence[ScheduledGame], seats: dict[str, PlayerSession], *,
                          limited: bool = False) -> None:
        """Play ``games`` one after another with ``seats`` (by name) at the board (``limited``: the caller holds -c)."""
        for game in games:
            if self.limit is None or limited:
                result = await self._game(game, seats)
            else:
                async with self.limit:
                    result = await self._game(game, seats)
            await self._count(game, result)

    def _game_over(self, game_id: str, result: GameResult) -> None:
        """Every way a game ends (played, hosted, forfeited) tells the live view and ``on_game_over``."""
        self.reporter.game_finished(game_id, result.white, result.black, result)
        if self.on_game_over is not None:
            self.on_game_over(game_id, result)

    async def _count(self, game: ScheduledGame, result: GameResult) -> None:
        self.finished[game_key(game)] = result
        self.standings.add(result)
        self.reporter.standings(self.standings)
        await self.broadcast(self.standings)

    async def _pairing_with_processes(self, games: Sequence[ScheduledGame], submitted: list[SubmittedSeat]) -> None:
        """A pairing with handed-in bots played here: a fresh process each, started before the first turn."""
        referee = self.settings.referee_settings()
        limits = pairing_limits(self.settings)
        started = await asyncio.gather(*(start_pairing_seat(seat, limits, referee) for seat in submitted))
        seats = dict(self.sessions)
        failed = []
        for seat, hosted in zip(submitted, started, strict=True):
            if isinstance(hosted, HostedSeat):
                seats[seat.name] = hosted
            else:
                failed.append(seat)
                self.reporter.message(f"{seat.name}'s handed-in bot did not start: {hosted}; "
                                      "it forfeits this pairing")
        try:
            if failed:
                for game in games:
                    game_id = self._game_id(game)
                    await self._count(game, await self._forfeit(game, game_id, list(failed)))
            else:
                await self._play_games(games, seats, limited=True)
        finally:
            await asyncio.gather(*(h.close() for h in started if isinstance(h, HostedSeat)))

    async def _hosted_pairing(self, games: Sequence[ScheduledGame], seats: tuple[SubmittedSeat, SubmittedSeat]) -> None:
        """A pairing of two handed-in bots (``seats``: the first game's white, then black), played by the game host;
        each game recorded once the pairing is over."""
        assert self.host is not None
        names = (seats[0].name, seats[1].name)
        entries = (seats[0].entry, seats[1].entry)
        played: PairingResult | None = None
        for attempt in range(VOID_REPLAYS + 1):
            first = max(self._replays_from.get(self._game_id(g), 0) for g in games) + attempt
            ids = [self._game_id(g) + ("" if first == 0 else f"-replay{first}") for g in games]
            specs = tuple(GameSpec(game_id, self.folder / log_name(game_id, g.white, g.black),
                                   white=names.index(g.white)) for game_id, g in zip(ids, games))
            pairing = Pairing(entries, specs, self.settings.referee_settings(), tournament=self.name,
                              opening=self._openings.get(games[0].pairing, ()))
            try:
                if self.limit is None:
                    played = await self.host.play(pairing, on_step=self._hosted_step)
                else:
                    async with self.limit:
                        played = await self.host.play(pairing, on_step=self._hosted_step)
                break
            except LogUnavailableError as exc:
                if attempt == VOID_REPLAYS:
                    raise
                self.reporter.message(f"{ids[0]}: {exc}; the pairing does not count and is played again")
            except SandboxUnavailable as exc:       # the sandbox broke after the bots were seated
                self.reporter.message(f"{ids[0]}: {exc}; the pairing is lost by both")
                for game, game_id in zip(games, ids):
                    absent = [self.sessions[name] for name in names]
                    await self._count(game, await self._forfeit(game, game_id, absent))
                return
            except PairingRefused as exc:           # a worker could not play it: nothing counts, --resume plays it
                line = (f"{', '.join(ids)} ({names[0]} vs {names[1]}) not played: {exc}; no standing changes, "
                        "and --resume plays these games")
                log.error("%s", line)
                self.reporter.message(line)
                self.unplayed.extend(ids)
                return
            finally:
                for game_id in ids:
                    self.running.pop(game_id, None)
        assert played is not None
        for end in played.reports:
            if end.end is not None and end.end.cause != "ok":
                self.reporter.message(f"{end.name}'s handed-in bot ended: {end.end}")
        for game, game_id, match in zip(games, ids, played.games):
            key = game_key(game)
            result = _result(game, match.outcome)
            await self.results.mark_started(self.tid, key, game_id, match.started_at)
            await self.results.record_result(self.tid, key, result, log_path=str(match.log_path), game_id=game_id,
                                             started_at=match.started_at, ended_at=match.ended_at, steps=match.steps)
            self._game_over(game_id, result)
            await self._count(game, result)

    def _hosted_step(self, runner: MatchRunner, judged: StepJudged) -> None:
        """A step of a game the host plays: shown live; a removed bot forfeits the pairing's later games."""
        if runner.game_id not in self.running:
            self.running[runner.game_id] = runner
            self.reporter.game_started(runner.game_id, *runner.referee.players)
            for seat, name in enumerate(runner.referee.players):
                if self.sessions[name].kicked:
                    runner.submit_forfeit(seat)
        self._on_step(runner, judged)
        if runner.referee.is_over:
            self.running.pop(runner.game_id, None)

    # -- one game -----------------------------------------------------------------------------
    def _game_id(self, game: ScheduledGame) -> str:
        return f"t{self.tid}-r{game.round + 1}-p{game.pairing + 1}-g{game.game_in_pairing + 1}"

    async def _game(self, game: ScheduledGame, seats: dict[str, PlayerSession]) -> GameResult:
        """Play one scheduled game (or forfeit it); a game whose log could not be written is voided and replayed."""
        white, black = self.sessions[game.white], self.sessions[game.black]
        game_id = self._game_id(game)
        for attempt in range(VOID_REPLAYS + 1):
            absent = [s for s in (white, black) if not await self._present(s)]
            if absent:
                return await self._forfeit(game, game_id, absent)
            try:
                return await self._play(game, self._attempt_id(game_id, attempt), seats)
            except LogUnavailableError as exc:
                if attempt == VOID_REPLAYS:
                    raise
                self.reporter.message(f"{game_id}: {exc}; the game does not count and is played again")
        raise AssertionError("unreachable")

    async def _play(self, game: ScheduledGame, game_id: str, seats: dict[str, PlayerSession]) -> GameResult:
        white, black = seats[game.white], seats[game.black]
        log_path = self.folder / log_name(game_id, white.name, black.name)
        runner = MatchRunner(game_id, (white, black), self.settings.referee_settings(), log_path,
                             executor=self.executor, grace_s=self.settings.timeout_grace_s,
                             tournament=self.name, on_step=self._on_step, rows=self.rows, clock=self.clock,
                             opening=self._openings.get(game.pairing, ()))
        hosted = tuple(s if isinstance(s, HostedSeat) else None for s in (white, black))
        if hosted != (None, None) and isinstance(self.rows, HostedRows):
            self.rows.watch(runner, hosted)         # their steps' CPU times go in the log
        self.running[game_id] = runner
        # Stored while the game starts (the game does not wait for the disk), and before its result.
        started = asyncio.ensure_future(self.results.mark_started(self.tid, game_key(game), game_id,
                                                                  runner.started_at))
        self.reporter.game_started(game_id, white.name, black.name)

        results: list[GameResult] = []

        async def record(match: MatchResult) -> None:
            await started
            results.append(_result(game, match.outcome))
            await self.results.record_result(self.tid, game_key(game), results[0], log_path=str(match.log_path),
                                             game_id=game_id, started_at=match.started_at, ended_at=match.ended_at,
                                             steps=match.steps)
        try:
            match = await runner.run(on_result=record)   # stored before the players hear game_over
        finally:
            del self.running[game_id]
            if not started.done():
                started.cancel()
            elif not started.cancelled():
                started.exception()     # a failed write is the game's error too: said once, not as a traceback
        result = results[0] if results else _result(game, match.outcome)
        self._game_over(game_id, result)
        return result

    async def _present(self, session: PlayerSession) -> bool:
        """True when ``session`` is there to play: it waits ``rejoin_wait_s`` for an absent player once;
        a player that missed a whole wait is gone for good, and forfeits at once until it is back."""
        if session.kicked:
            return False
        if session.connected:
            return True
        if session.gone_for_good:
            return False
        if await session.wait_present(self.settings.rejoin_wait_s):
            return True
        session.gone_for_good = True
        return False

    async def _forfeit(self, game: ScheduledGame, game_id: str, absent: list[PlayerSession]) -> GameResult:
        """A game a player is not there for, refereed as such: the present one wins; both absent is a double forfeit
        (no winner, no point for either)."""
        referee = GameReferee((game.white, game.black), self.settings.referee_settings())
        names = {s.name for s in absent}
        events = referee.abandon() if len(names) == 2 else referee.forfeit(0 if game.white in names else 1)
        finished = events[-1]
        assert isinstance(finished, GameFinished)
        result = _result(game, finished.outcome)
        await self.results.record_result(self.tid, game_key(game), result, log_path=None,
                      game_id=game_id, started_at=None, ended_at=utc_now(), steps=0)
        self.reporter.message(f"{game_id}: {', '.join(sorted(names))} absent — forfeit")
        self._game_over(game_id, result)
        # Whoever is still connected (the opponent, or a removed bot) learns how the game counted.
        for seat, name in enumerate((game.white, game.black)):
            await self.sessions[name].send_game_over(game_over(game_id, referee.players, finished, seat, None))
        return result

    def _on_step(self, runner: MatchRunner, judged: StepJudged) -> None:
        self.reporter.game_step(runner.game_id, judged)
        self.on_step_hook(runner, judged)
        kick = self.settings.kick_after_timeouts
        # A timeout that is the 3rd violation is recorded as RulesBreaker, but it is a timeout all the same.
        if kick is not None and judged.late:
            # the tournament's own session: a handed-in bot's process for one pairing is only at the board
            session = self.sessions[runner.referee.players[judged.seat]]
            session.timeouts += 1
            removed = session.timeouts >= kick and not session.kicked
            # Stored, so that a resumed tournament still counts them (and keeps a removed bot out).
            self.results.record_timeout_later(self.tid, session.name, kicked=removed)
            if removed:
                session.kicked = True
                self.reporter.message(f"{session.name} removed after {session.timeouts} timeouts")
                runner.submit_forfeit(judged.seat)


def _listed(ids: Sequence[str], most: int = 5) -> str:
    """``ids`` for one line: the first ``most`` and how many more."""
    return ", ".join(ids[:most]) + (f" and {len(ids) - most} more" if len(ids) > most else "")


def _result(game: ScheduledGame, outcome: GameOutcome) -> GameResult:
    return GameResult(game.white, game.black, outcome.winner, outcome.reason, outcome.thinking_ms, outcome.violations)

"""``LadderRunner``: the practice ladder, always on: bots come and go, get paired and keep their ratings.

It pairs free bots with ``shared.ladder.pick_pairings``, plays each pairing as two colour-swapped
games from one seeded opening (``shared.ladder.pawn_opening``; each game's referee plays it, never the
bots), records each result and both new openskill ratings in ``LadderRecords`` *before*
the players hear of it, refits the published Bradley-Terry table every ``ladder_refit_s``, and
pauses a bot that violates or times out in ``ladder_pause_after`` games in a row (it is told why,
and plays again once it reconnects). Who may play, and how, is ``server.ladder.seats``. The pair cap
binds while a bot has another partner under it among the connected bots, so a small ladder keeps
playing; when nothing plays, ``idle`` says why and when play resumes (the dashboard's
``ladder_status``, the pages' ``ladder`` frame, ``server.ladder.pages``).

A pairing of two residents (bots the server hosts: built-in, or accepted handed-in bots) is played by
``host``, a ``GameHost`` as tournaments use: fresh sandboxed processes on this machine
(``LocalGameHost``), or on worker machines with ``--queue`` (``QueueGameHost``). The host plays the same
opening for the bots and swaps colours the same way; its two games are recorded in order once it
returns (a game of a refused pairing is recorded nowhere). A pairing with a connected bot is played here,
a resident's own process seated for it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from shared.ladder import Candidate, Idle, LiveRatings, MatchmakingRules, PublishedRow, Skill, idle_reason, pair_key
from shared.ladder import pawn_opening, pick_pairings
from shared.quoridor import Step, find_ruleset, step_name
from shared.referee import StepJudged
from shared.tournament import GameResult

from server.ladder.seats import HostedResidents, LadderLobby, LadderSession
from server.ladder.records import LadderRecords
from server.ladder.store import LadderGame, Track
from server.logs.batcher import RowBatcher
from server.games.match import MatchResult, MatchRunner
from server.queue.hosting import server_game_host
from server.sandbox import BotEntry, GameHost, GameSpec, Pairing, SandboxUnavailable
from server.sandbox.host import PairingRefused
from server.settings import ServerSettings
from server.tournament.runner import log_name

__all__ = ["LadderRunner", "LadderLobby", "LadderSession", "HostedResidents", "TICK_S",
           "StepTally"]

log = logging.getLogger("quoridor.server")

#: Seconds between matchmaking decisions when nothing wakes the runner earlier.
TICK_S = 0.25
#: Seconds a pair whose pairing the game host refused is not paired again (the refusal is rarely fixed sooner).
REFUSED_BAR_S = 600.0
#: Seconds between refits while the published table holds no game yet (a new ladder's table fills in soon).
FIRST_REFIT_S = 5.0

def _hour_ago() -> str:
    return (datetime.now(UTC) - timedelta(hours=1)).isoformat(timespec="milliseconds")


class StepTally:
    """One game's thinking time of each step and causes of violations, per seat; the opening's plies left out.

    A step of a turn already tallied means the game started again from the beginning (its worker died and
    another plays it again): what was tallied of the earlier attempt is forgotten.
    """

    def __init__(self, opening_plies: int) -> None:
        self.opening_plies = opening_plies
        self.steps: tuple[list[int], list[int]] = ([], [])
        self.causes: tuple[list[str], list[str]] = ([], [])
        self._last_turn = -1

    def add(self, judged: StepJudged) -> bool:
        """Tally ``judged``; False for a ply of the opening (played for the bot, so not its step)."""
        record = judged.record
        if record.turn is not None:
            if record.turn <= self._last_turn:
                self.steps, self.causes = ([], []), ([], [])
            self._last_turn = record.turn
            if record.turn < self.opening_plies:
                return False
        self.steps[judged.seat].append(record.thinking_ms or 0)
        if judged.cause is not None:
            self.causes[judged.seat].append(judged.cause.value)
        return True


class LadderRunner:
    """Pairs the free bots of ``lobby`` for as long as it runs; every result goes to ``store`` first."""

    def __init__(self, settings: ServerSettings, store: LadderRecords, lobby: LadderLobby, folder: Path, *,
                 executor: ThreadPoolExecutor, reporter: Any = None,
                 on_step: Callable[[MatchRunner, StepJudged], None] | None = None,
                 on_table: Callable[[list[PublishedRow]], Awaitable[None] | None] | None = None,
                 seed: int = 0, host: GameHost | None = None, on_restart: Callable[[str], None] | None = None,
                 on_change: Callable[[], None] | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        #: The clock of matchmaking: the hourly pair cap, the bars on failed pairs, how long a bot has been free.
        self.clock = clock
        self.store = store
        self.lobby = lobby
        self.folder = folder
        self.executor = executor               # the log-writing thread (the store has its own)
        self.rows = RowBatcher(executor, clock=clock)
        self.reporter = reporter
        self.on_step = on_step
        self.on_table = on_table
        self.seed = seed
        #: Where pairings of two residents are played (given, or made by ``run`` when there are residents).
        self.host = host
        self._own_host = False
        #: The residents the server hosts (set by the server before ``run``); without them every game is played here.
        self.residents: HostedResidents | None = None
        #: Hears the id of a game a worker starts again from the beginning (the web pages forget its steps).
        self.on_restart = on_restart
        self.ratings = LiveRatings()
        self.rules = MatchmakingRules(pair_games_per_hour=settings.ladder_pair_games_per_hour)
        self.skills: dict[int, Skill] = {}    # track id -> live rating
        self.meetings: Counter[tuple[str, str]] = Counter()
        self.recent: deque[tuple[float, tuple[str, str], int]] = deque()     # (when, pair, games) in the last hour
        self._recent_games: Counter[tuple[str, str]] = Counter()           # the same, summed per pair
        self.pairing = 0
        #: Pairings being played now.
        self.pairings_running = 0
        #: Pairs not to pair again before a time (on ``clock``): their last pairing was refused.
        self.barred: dict[tuple[str, str], float] = {}
        #: Why nothing is paired (and when play resumes), while nothing is played; None while games are.
        self.idle: Idle | None = None
        #: Called when what the pages show changes: a game ended, the table was refitted, ``idle``'s reason changed.
        self.on_change = on_change
        #: The latest finished games, newest first: (game id, white, black, winner, reason).
        self.recent_games: deque[tuple[str, str, str, int | None, str]] = deque(maxlen=12)
        #: Hears each recorded game's id and finished log (the server's background analysis).
        self.on_log: Callable[[str, Path], None] | None = None
        self.running: dict[str, MatchRunner] = {}
        self.table: list[PublishedRow] = []
        #: The track of each row of ``table``, by its label.
        self.table_tracks: dict[str, Track] = {}
        self.games_played = 0
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._opening: set[LadderSession] = set()          # sessions whose track is being looked up
        lobby.on_join = self._joined

    # -- lifecycle ----------------------------------------------------------------------------
    async def load(self) -> None:
        """Take up where the store left off: pairing numbers, meetings, the last hour's games."""
        self.pairing = await self.store.last_pairing()
        self.meetings = await self.store.meetings()
        now = self.clock()
        for pair, n in (await self.store.meetings(_hour_ago())).items():
            self._add_recent(now, pair, n)
        for track in await self.store.tracks():
            self.skills[track.id] = track.skill

    async def run(self) -> None:
        """Pair and play until cancelled; refit the published table every ``ladder_refit_s``."""
        await self.load()
        if self.host is None and self.residents is not None:
            self.host = server_game_host(self.settings, self.executor, self._message, restarted=self.on_restart,
                                         games_per_pairing=self.rules.games_per_pairing)
            self._own_host = True
        for session in self.lobby.sessions:     # those who came while the store was read
            self._joined(session)
        refit = asyncio.get_running_loop().create_task(self._refits())
        try:
            while True:
                self._wake.clear()
                self.match_now()
                if self.reporter is not None:
                    self.reporter.ladder_status(sum(s.connected for s in self.lobby.sessions), len(self.running),
                                                self.idle)
                try:
                    # Not wait_for: on 3.11 it can swallow a cancellation that comes as the event is set,
                    # and the ladder would never stop.
                    async with asyncio.timeout(TICK_S):
                        await self._wake.wait()
                except TimeoutError:
                    pass
        finally:
            refit.cancel()
            for task in list(self._tasks):
                task.cancel()
            await asyncio.gather(refit, *self._tasks, return_exceptions=True)
            if self._own_host and self.host is not None:
                await self.host.close()

    def _joined(self, session: LadderSession) -> None:
        """A bot came (back): find or open its track (the version's), then wake the matchmaker."""
        if session not in self._opening:
            self._opening.add(session)
            self._spawn(self._open_track(session))

    async def _open_track(self, session: LadderSession) -> None:
        try:
            while session.track is None or session.track.version != session.version:   # the version may change meanwhile
                track = await self.store.track(session.name, session.version, self.ratings.initial())
                self.skills.setdefault(track.id, track.skill)
                session.track = track
                self._message(f"{session.name} joined the ladder as {track.label} ({track.games} games so far)")
        finally:
            self._opening.discard(session)
        self._wake.set()

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a ladder task failed", exc_info=task.exception())

    def _message(self, text: str) -> None:
        if self.reporter is not None:
            self.reporter.message(text)

    # -- matchmaking --------------------------------------------------------------------------
    def _free(self, session: LadderSession) -> bool:
        return self._playable(session) and session.busy < session.capacity

    def _playable(self, session: LadderSession) -> bool:
        """Connected, not paused, on its version's track: free now, or once its games end."""
        return (session.connected and session.paused is None and session.track is not None
                and session.track.version == session.version)

    def _candidate(self, session: LadderSession, now: float) -> Candidate:
        assert session.track is not None
        skill = self.skills[session.track.id]
        # paired on the mean, weighted by sigma (see shared.ladder.matchmaking); the ordinal,
        # mu - 3 sigma, would sort a newcomer among the weakest bots
        return Candidate(session.name, skill.mu, now - session.free_since, session.capacity - session.busy,
                         skill.sigma)

    def candidates(self) -> list[Candidate]:
        """The free bots, as matchmaking sees them."""
        now = self.clock()
        return [self._candidate(s, now) for s in self.lobby.sessions if self._free(s)]

    def _add_recent(self, when: float, pair: tuple[str, str], games: int) -> None:
        self.recent.append((when, pair, games))
        self._recent_games[pair] += games

    def _recent_counts(self) -> Counter[tuple[str, str]]:
        """Games per pair in the last hour (kept as they come and go: a busy small ladder plays thousands)."""
        cutoff = self.clock() - 3600.0
        while self.recent and self.recent[0][0] < cutoff:
            _, pair, games = self.recent.popleft()
            self._recent_games[pair] -= games
            if not self._recent_games[pair]:
                del self._recent_games[pair]
        return self._recent_games

    def match_now(self) -> int:
        """One matchmaking decision: start every pairing it picks; how many. Then say why nothing plays, if so."""
        now = self.clock()
        for pair in [pair for pair, until in self.barred.items() if until <= now]:
            del self.barred[pair]
        candidates = self.candidates()
        field = [s.name for s in self.lobby.sessions if self._playable(s)]
        busy = [self._candidate(s, now) for s in self.lobby.sessions if self._playable(s) and not self._free(s)]
        pairings = pick_pairings(candidates, self.rules, meetings=self.meetings, recent=self._recent_counts(),
                                 busy=busy, barred=self.barred)
        for pairing in pairings:
            a, b = self.lobby.session(pairing.first), self.lobby.session(pairing.second)
            assert a is not None and b is not None
            self.pairing += 1
            a.busy += 1
            b.busy += 1
            now = self.clock()
            self._add_recent(now, pair_key(a.name, b.name), self.rules.games_per_pairing)
            self.pairings_running += 1
            self._spawn(self._play_pairing(self.pairing, a, b))
        self._set_idle(None if self.pairings_running else self._why_idle(candidates, field))
        return len(pairings)

    def _why_idle(self, candidates: list[Candidate], field: list[str]) -> Idle:
        paused = [s.name for s in self.lobby.sessions if s.connected and s.paused is not None]
        if len(candidates) >= 2 and self.barred:
            left = min(self.barred.values()) - self.clock()
            pairs = ", ".join(f"{a}-{b}" for a, b in sorted(self.barred))
            return Idle(f"the last pairings of {pairs} could not be played (the server's screen says why)", left)
        return idle_reason(candidates, field, paused=paused)

    def _set_idle(self, idle: Idle | None) -> None:
        """Keep why nothing plays (``resumes_in_s`` counted from now); tell ``on_change`` when the reason changed."""
        before, self.idle = self.idle, idle
        if (before.reason if before else None) != (idle.reason if idle else None) and self.on_change is not None:
            self.on_change()

    # -- playing ------------------------------------------------------------------------------
    async def _play_pairing(self, number: int, a: LadderSession, b: LadderSession) -> None:
        s = self.settings
        opening = pawn_opening(self.seed, number, s.ladder_opening_plies, find_ruleset(s.ruleset))
        entries = self._hosted_entries(a, b)
        try:
            if entries is not None:
                await self._play_hosted(number, (a, b), entries, opening)
                return
            for game in (1, 2):
                white, black = (a, b) if game == 1 else (b, a)
                if not (white.connected and black.connected) or white.paused or black.paused:
                    break                   # a bot left (or was paused) between games: the pairing stops here
                await self._play_game(number, game, white, black, opening)
        finally:
            self.pairings_running -= 1
            for session in (a, b):
                session.busy -= 1
                session.free_since = self.clock()
            self._wake.set()

    async def _play_game(self, number: int, game: int, white: LadderSession, black: LadderSession,
                         opening: tuple[Step, ...]) -> None:
        assert white.track is not None and black.track is not None
        tracks = (white.track, black.track)
        game_id = f"L{number}-g{game}"
        path = self.folder / log_name(game_id, white.name, black.name)
        tally = StepTally(len(opening))

        def on_step(runner: MatchRunner, judged: StepJudged) -> None:
            if tally.add(judged) and self.on_step is not None:     # the opening's plies were played for the bots
                self.on_step(runner, judged)

        match = MatchRunner(game_id, (white, black),
                            self.settings.referee_settings(), path, executor=self.executor,
                            grace_s=self.settings.timeout_grace_s, tournament="ladder", on_step=on_step,
                            rows=self.rows, opening=opening, clock=self.clock)
        self.running[game_id] = match
        if self.reporter is not None:
            self.reporter.game_started(game_id, white.name, black.name)

        async def record(result: MatchResult) -> None:
            await self._record(number, (white, black), tracks, opening, result, tally)

        try:
            result = await match.run(record)
        finally:
            self.running.pop(game_id, None)
        self._game_over(white, black, result, tally)

    def _hosted_entries(self, a: LadderSession, b: LadderSession) -> tuple[BotEntry, BotEntry] | None:
        """What the game host runs for a pairing of two residents; None when it is played here."""
        if self.host is None or self.residents is None:
            return None
        first, second = self.residents.entry(a), self.residents.entry(b)
        return None if first is None or second is None else (first, second)

    async def _play_hosted(self, number: int, pair: tuple[LadderSession, LadderSession],
                           entries: tuple[BotEntry, BotEntry], opening: tuple[Step, ...]) -> None:
        """Two residents: the host plays both games (fresh processes, here or on a worker), then each is recorded
        in order, once (a ``QueueGameHost`` takes each game's result once, by its id). A refused pairing counts
        for nobody: one line says why, and its bots are free to be paired again."""
        assert self.host is not None and pair[0].track is not None and pair[1].track is not None
        tracks = (pair[0].track, pair[1].track)
        specs = tuple(GameSpec(game_id, self.folder / log_name(game_id, pair[white].name, pair[1 - white].name), white)
                      for game_id, white in ((f"L{number}-g1", 0), (f"L{number}-g2", 1)))
        tallies = {spec.game_id: StepTally(len(opening)) for spec in specs}

        def on_step(runner: MatchRunner, judged: StepJudged) -> None:
            if runner.game_id not in self.running:
                self.running[runner.game_id] = runner
                if self.reporter is not None:
                    self.reporter.game_started(runner.game_id, *runner.referee.players)
            if tallies[runner.game_id].add(judged) and self.on_step is not None:
                self.on_step(runner, judged)
            if runner.referee.is_over:
                self.running.pop(runner.game_id, None)

        pairing = Pairing(entries, specs, self.settings.referee_settings(), tournament="ladder", opening=opening)
        try:
            played = await self.host.play(pairing, on_step=on_step)
        except (PairingRefused, SandboxUnavailable) as exc:
            self._not_played(number, pair, str(exc))
            return
        finally:
            for spec in specs:
                self.running.pop(spec.game_id, None)
        if all(_double_forfeit(result) for result in played.games):
            ends = "; ".join(f"{r.name}: {r.end}" for r in played.reports if r.end is not None)
            self._not_played(number, pair, f"neither bot started ({ends or 'no process'})")
            return
        for spec, result in zip(specs, played.games):
            if _double_forfeit(result):         # a game neither bot came to says nothing of either: not rated
                continue
            seats = (pair[spec.white], pair[1 - spec.white])
            await self._record(number, seats, (tracks[spec.white], tracks[1 - spec.white]), opening, result,
                               tallies[spec.game_id])
            self._game_over(*seats, result, tallies[spec.game_id])

    def _not_played(self, number: int, pair: tuple[LadderSession, LadderSession], why: str) -> None:
        """A pairing that was not played counts for nobody: one line says why, and the pair is barred a while."""
        line = f"ladder pairing L{number} ({pair[0].name} vs {pair[1].name}) not played: {why}; nothing is recorded"
        log.error("%s", line)
        self._message(line)
        self.barred[pair_key(pair[0].name, pair[1].name)] = self.clock() + REFUSED_BAR_S

    async def _record(self, number: int, seats: tuple[LadderSession, LadderSession], tracks: tuple[Track, Track],
                      opening: tuple[Step, ...], result: MatchResult, tally: StepTally) -> None:
        """Rate the game and store it with both new ratings (before its players hear of it)."""
        outcome = result.outcome
        before = (self.skills[tracks[0].id], self.skills[tracks[1].id])
        after = self.ratings.after_game(before[0], before[1], outcome.winner)
        self.skills[tracks[0].id], self.skills[tracks[1].id] = after
        await self.store.record(LadderGame(
            result.game_id, number, tracks[0], tracks[1], outcome.winner, outcome.reason,
            " ".join(step_name(step) for step in opening), str(result.log_path), result.started_at,
            outcome.thinking_ms, outcome.violations, tally.steps, tally.causes, after))
        self.meetings[pair_key(seats[0].name, seats[1].name)] += 1
        self.games_played += 1

    def _game_over(self, white: LadderSession, black: LadderSession, result: MatchResult, tally: StepTally) -> None:
        """Tell the reporter and the pages how a recorded game ended, then count violation streaks."""
        outcome = result.outcome
        self.recent_games.appendleft((result.game_id, white.name, black.name, outcome.winner, outcome.reason))
        if self.on_log is not None:
            self.on_log(result.game_id, result.log_path)
        if self.on_change is not None:
            self.on_change()
        if self.reporter is not None:
            self.reporter.game_finished(result.game_id, white.name, black.name, GameResult(
                white.name, black.name, outcome.winner, outcome.reason, outcome.thinking_ms, outcome.violations))
        self._after_game(white, black, result, tally.causes)

    def _after_game(self, white: LadderSession, black: LadderSession, result: MatchResult,
                    causes: tuple[list[str], list[str]]) -> None:
        """Count violation streaks; pause a bot whose last ``ladder_pause_after`` games all had one."""
        outcome = result.outcome
        for seat, session in enumerate((white, black)):
            if outcome.violations[seat] or causes[seat]:
                session.bad_streak += 1
            else:
                session.bad_streak = 0
            limit = self.settings.ladder_pause_after
            if limit and session.bad_streak >= limit and session.paused is None:
                why = Counter(causes[seat]).most_common(1)
                cause = why[0][0] if why else "violations"
                session.paused = (f"paused: {session.bad_streak} games in a row with a violation or a timeout "
                                  f"(the last one mostly {cause}); reconnect to play again")
                if session.peer is not None:
                    session.peer.tell("paused", session.paused)
                self._message(f"{session.name} {session.paused}")

    # -- the published table ------------------------------------------------------------------
    async def refit(self) -> list[PublishedRow]:
        """Refit the published table now (on the store's thread)."""
        self.table, self.table_tracks = await self.store.published()
        if self.reporter is not None:
            self.reporter.ladder_table(self.table)
        if self.on_change is not None:
            self.on_change()
        if self.on_table is not None:
            maybe = self.on_table(self.table)
            if maybe is not None:
                await maybe
        return self.table

    async def _refits(self) -> None:
        """Fit the table at once (the pages show the stored ladder from the start), then every ``ladder_refit_s``
        (every ``FIRST_REFIT_S`` while it holds no game)."""
        last = -1
        while True:
            if self.games_played != last:
                last = self.games_played
                await self.refit()
            every = self.settings.ladder_refit_s
            await asyncio.sleep(every if any(row.games for row in self.table) else min(FIRST_REFIT_S, every))


def _double_forfeit(result: MatchResult) -> bool:
    """True for a game neither bot came to (no winner, reason ``forfeit``): it was never played."""
    return result.outcome.winner is None and result.outcome.reason == "forfeit"

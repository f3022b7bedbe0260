"""``WebDesk``: what the browser pages ask a server, over the documented websocket protocol.

It keeps the little the pages need and the referee does not: every judged step of the games in
progress (so a page opened mid-game gets the game so far, and a new spectator the boards of the
games in progress), the games seen finished, the latest standings, and what the server shows
(``info``: the lobby, the tournament being played, or the data directory's newest finished one). A
game played again from the start (its worker died: ``restart``) is shown from its new start, never
after the old steps.
``answer`` turns a ``game_request``, ``replays_request`` or ``log_upload`` into its reply; reading a
log from disk runs in a thread.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any

from shared.gamelog import LogFormatError, read_log_data
from shared.protocol import (
    GameRecord,
    GameRequest,
    GameUpdate,
    LadderRequest,
    LogUpload,
    ProtocolError,
    ReplayFolder,
    ReplayGameEntry,
    Replays,
    ReplaysRequest,
    Standings,
    TournamentInfo,
)
from shared.referee import StepJudged
from shared.tournament import score_text

from server.games.updates import game_update
from server.web.records import (
    list_replays,
    read_log,
    record_from_log,
    record_from_steps,
    result_text,
)

__all__ = ["FINISHED_KEPT", "GAMES_KEPT", "STALE_S", "WEB_FRAMES", "WebDesk"]

WEB_FRAMES = (GameRequest, ReplaysRequest, LogUpload, LadderRequest)
"""The frames a spectator's page sends beside ``watch``."""
#: Finished games whose steps stay in memory (older ones are read from their logs).
FINISHED_KEPT = 200
#: Games remembered at all (a ladder runs for days): the oldest finished ones are forgotten first.
GAMES_KEPT = 5000
#: A game with no step for this long is no longer shown as in progress (it ended without one: a
#: disconnect, a forfeit), though nothing said so.
STALE_S = 120.0


@dataclass
class _Game:
    players: tuple[str, str]
    log: Path | None
    steps: list[StepJudged] = field(default_factory=list)
    last_step_at: float = 0.0
    over: bool = False
    winner: int | None = None
    reason: str | None = None


class WebDesk:
    """The pages' side of one server: see the module docstring."""

    def __init__(self, data_dir: Path, ruleset: str = "course") -> None:
        self.data_dir = data_dir
        self.ruleset = ruleset
        self.tournament: str | None = None
        self._standings: Standings | None = None
        self._build_standings: Callable[[], Standings] | None = None
        #: What the server shows, first to a new spectator (``tournament_info``); None: nothing to show yet.
        self.info: TournamentInfo | None = None
        #: The finished tournament's games as its results list them, once it is over: what every later answer to
        #: ``replays_request`` shows of its folder (an answer read from the disk before the results were written
        #: must not reach a page after the final listing and replace it).
        self.final_folder: ReplayFolder | None = None
        #: On the practice ladder: answers a page's ``ladder_request`` (``server.ladder.pages``).
        self.ladder_answer: Callable[[LadderRequest], Awaitable[Any]] | None = None
        #: Finds the log of a game id this server no longer keeps (a ladder's game: ``LadderRecords.game_log``), as its
        #: path in the data directory; None: a game id is found only while it is kept.
        self.find_log: Callable[[str], Awaitable[str | None]] | None = None
        #: Answers ``GET /analysis/<GAME>.json`` (``server.analysis``'s ``Analyses.answer_bytes``); None: 404.
        self.analyses: Callable[[str], tuple[HTTPStatus, bytes]] | None = None
        self._games: OrderedDict[str, _Game] = OrderedDict()
        #: The finished games among them, in the order they ended (the oldest are forgotten first).
        self._ended: deque[str] = deque()

    @property
    def standings(self) -> Standings | None:
        """The latest standings frame for a new spectator, built now if only its recipe was kept; None before any."""
        if self._build_standings is not None:
            self._standings, self._build_standings = self._build_standings(), None
        return self._standings

    @standings.setter
    def standings(self, message: Standings | None) -> None:
        self._standings, self._build_standings = message, None

    def greeting(self) -> list[Any]:
        """The frames a new spectator gets after ``welcome``: what the server shows, then the latest standings."""
        return [frame for frame in (self.info, self.standings) if frame is not None]

    def keep_standings(self, build: Callable[[], Standings]) -> None:
        """The standings changed and nobody heard them: ``build`` makes the frame if a page asks for it.

        Building the table costs milliseconds per thousand players, so it waits for a spectator.
        """
        self._standings, self._build_standings = None, build

    # -- what the server tells it ---------------------------------------------------------
    def step(self, game: str, players: tuple[str, str], judged: StepJudged, log: Path | None,
             outcome: Any = None) -> None:
        """A step of ``game`` was judged; ``outcome`` (a ``GameOutcome``) when it ended the game."""
        entry = self._games.get(game)
        if entry is None:
            entry = self._games[game] = _Game(players, log)
        entry.steps.append(judged)
        entry.last_step_at = time.monotonic()
        if outcome is not None:
            self._finish(game, entry, outcome.winner, outcome.reason)

    def ended(self, game: str, winner: int | None, reason: str) -> tuple[tuple[str, str], StepJudged] | None:
        """``game`` ended, however (a bot left, a forfeit: no step ended it). Returns its players and last step when
        the pages may still show it as in progress (they need a last ``game_update`` with ``over``); else None."""
        entry = self._games.get(game)
        if entry is None or entry.over:
            return None
        self._finish(game, entry, winner, reason)
        return (entry.players, entry.steps[-1]) if entry.steps else None

    def _finish(self, game: str, entry: _Game, winner: int | None, reason: str) -> None:
        if not entry.over:
            # O(1) a game: a ladder ends thousands, and this runs on the event loop at each of them.
            self._ended.append(game)
            if len(self._ended) > FINISHED_KEPT:        # its steps are read from its log from now on
                older = self._games.get(self._ended[-FINISHED_KEPT - 1])
                if older is not None and older.over:
                    older.steps = []
        entry.over, entry.winner, entry.reason = True, winner, reason
        while len(self._games) > GAMES_KEPT and self._ended:
            oldest = self._ended.popleft()
            if oldest in self._games and self._games[oldest].over:
                del self._games[oldest]

    def restart(self, game: str) -> GameRecord | None:
        """``game`` starts again from the beginning (on another worker): forget its steps so far and how it ended.

        Returns its record as it is now (no steps, live), for the pages that show it; None for a game never seen.
        """
        entry = self._games.get(game)
        if entry is None:
            return None
        if entry.over:
            self._ended.remove(game)                    # rare: a worker died
        entry.steps = []
        entry.over, entry.winner, entry.reason = False, None, None
        entry.last_step_at = time.monotonic()
        return self.live_record(game)

    def running(self) -> list[GameUpdate]:
        """The latest update of each game in progress (built now: nobody may have watched it yet)."""
        fresh = time.monotonic() - STALE_S
        return [game_update(game, g.players, g.steps[-1], False)
                for game, g in self._games.items() if not g.over and g.steps and g.last_step_at > fresh]

    # -- what the pages ask ---------------------------------------------------------------
    def live_record(self, game: str) -> GameRecord | None:
        """The record of a game this server plays (or played, while kept), built at once; None if unknown."""
        entry = self._games.get(game)
        if entry is None or (entry.over and not entry.steps):
            return None
        record = record_from_steps(game, entry.players, entry.steps, self.ruleset, entry.over)
        if entry.over:
            record = record.model_copy(update={"result": result_text(entry.players, entry.winner, entry.reason),
                                               "winner": entry.winner})
        return record

    async def answer(self, message: Any) -> Any:
        """The reply to a page's frame; ``ProtocolError`` when it cannot be answered."""
        if isinstance(message, LadderRequest):
            if self.ladder_answer is None:
                raise ProtocolError("room_unavailable", "this server runs no practice ladder", message.type)
            return await self.ladder_answer(message)
        if isinstance(message, ReplaysRequest):
            listing = await asyncio.to_thread(self.replays)
            final = self.final_folder
            if final is None:
                return listing
            return Replays(folders=[final, *(f for f in listing.folders if f.name != final.name)])
        if isinstance(message, LogUpload):
            try:
                log = await asyncio.to_thread(read_log_data, message.csv, message.name)
                return await asyncio.to_thread(record_from_log, log, message.name)
            except LogFormatError as exc:
                raise ProtocolError("bad_log", str(exc), message.type) from None
        if isinstance(message, GameRequest):
            record = self.live_record(message.game)
            if record is not None:
                return record
            entry = self._games.get(message.game)
            relative = message.game
            if entry is not None and entry.log is not None:
                relative = f"{entry.log.parent.name}/{entry.log.name}"
            elif entry is None and self.find_log is not None and "/" not in relative:
                relative = await self.find_log(relative) or relative
            try:
                log = await asyncio.to_thread(read_log, self.data_dir, relative)
            except LogFormatError as exc:
                raise ProtocolError("unknown_game", str(exc), message.type) from None
            return await asyncio.to_thread(record_from_log, log, message.game)
        raise ProtocolError("unknown_type", f"{message.type!r} is not a page's frame", message.type)

    def replays(self) -> Replays:
        """The current tournament's games first (those finished in the order they ended, then those in progress),
        then the data directory's."""
        listing = list_replays(self.data_dir)
        if not self._games:
            return listing
        ended = {game: order for order, game in enumerate(list(self._ended))}
        games = sorted(self._games.items(), key=lambda item: ended.get(item[0], len(ended)))
        current = [ReplayGameEntry(game=game, white=g.players[0], black=g.players[1],
                                   score=score_text(g.winner, g.reason) if g.over else "*",
                                   result=(g.reason or "?").replace("_", " ") if g.over else "playing",
                                   path=game) for game, g in games]
        name = self.tournament or "now"
        others = [f for f in listing.folders if f.name != name]
        return Replays(folders=[ReplayFolder(name=name, games=current), *others])

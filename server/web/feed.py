"""``LiveFeed``: what spectators and the pages are sent while games play — each step, each end, the standings.

Every step of every game (a tournament's, the ladder's, a worker's) comes here once (``step``): the
pages' memory of the game (``WebDesk``) keeps it, and the spectators that watch the game get its
``game_update`` through the registry (``Connections.publish``, which waits for a lull). A game that
ended with no step ending it (a bot left, a forfeit) sends its last board marked ``over``
(``ended``); a game a worker plays again from the start is forgotten first (``restarted``).

The standings go to every connection not in a game, at a byte rate (``STANDINGS_BYTES_PER_S``) and
at most once per ``interval_s`` (later tables coalesce into the newest), so a big tournament's
table never costs the square of its size, and nothing heavy reaches a bot while its clock runs.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Protocol

from shared.gamelog import GameOutcome
from shared.protocol import StandingRow, Standings as StandingsMessage
from shared.referee import StepJudged
from shared.tournament import GameResult, Standings

from server.games.updates import game_update_frame, standing_rows
from server.net.connection import Connection, Encoded
from server.net.connections import Connections
from server.web.desk import WebDesk

__all__ = ["LiveFeed", "STANDINGS_BYTES_PER_S", "FedGame"]

#: Bytes per second the standings broadcasts may take: a big table to many clients is written at
#: this pace and sent less often (1,000 players: about 180 KB to each, every 45 s instead of every
#: second; a class of 40: 7 KB each, every second). Written all at once, such a table made a burst
#: of 180 MB that held up every game's clock for seconds.
STANDINGS_BYTES_PER_S = 4 * 1024 * 1024


class _Referee(Protocol):
    players: tuple[str, str]
    is_over: bool
    outcome: GameOutcome | None


class FedGame(Protocol):
    """A game as the feed reads it (``server.games.match.MatchRunner``, a worker's ``RemoteMatch``)."""

    game_id: str
    log_path: Path

    @property
    def referee(self) -> _Referee:
        """The game's players, and how it ended once over."""
        ...


class LiveFeed:
    """The spectators' feed and the paced standings of one server (see the module docstring).

    ``playing`` gives the connections of the players in a game now (left out of the standings);
    ``games_total`` the games the tournament will have played; ``clock`` paces the standings.
    """

    def __init__(self, connections: Connections, web: WebDesk, *, interval_s: float,
                 playing: Callable[[], Collection[Connection]], games_total: Callable[[], int],
                 clock: Callable[[], float]) -> None:
        self.connections = connections
        self.web = web
        self.interval_s = interval_s
        self.playing = playing
        self.games_total = games_total
        self.clock = clock
        #: The tournament the standings are of (its folder's name), once it plays.
        self.tournament: str | None = None
        self._standings: Standings | None = None            # the latest, not yet broadcast
        self._timer: asyncio.TimerHandle | None = None
        self._sent_at = -math.inf
        self._cost_s = 0.0                                  # the last broadcast's bytes / the budget

    # -- games -------------------------------------------------------------------------------
    def step(self, game: FedGame, judged: StepJudged) -> None:
        """A step of ``game`` was judged: the pages keep it, its watchers get its update."""
        referee = game.referee
        over = referee.is_over
        # The pages' memory of the game (a page opened mid-game gets it so far): the step, kept as judged.
        self.web.step(game.game_id, referee.players, judged, game.log_path, referee.outcome if over else None)
        if self.connections.watched(game.game_id):
            update = game_update_frame(game.game_id, referee.players, judged, over)
            self.connections.publish(game.game_id, Encoded(None, update, batchable=True))

    def ended(self, game: str, result: GameResult) -> None:
        """A game ended with no step that ended it (a bot left, a forfeit): its last board goes out marked ``over``,
        so that no page keeps it among the games in progress (TV would follow it for the rest of the tournament)."""
        last = self.web.ended(game, result.winner, result.reason)
        if last is not None and self.connections.watched(game):
            players, judged = last
            self.connections.publish(game, Encoded(None, game_update_frame(game, players, judged, True), batchable=True))

    def restarted(self, game: str) -> None:
        """A worker plays ``game`` again from the start: the pages forget its first attempt; a game's page starts over."""
        self.connections.forget(("game", game))     # no update of the first attempt may follow the new record
        if (record := self.web.restart(game)) is not None:
            self.connections.send_later(self.connections.watching(game), record)

    # -- standings ---------------------------------------------------------------------------
    async def standings(self, standings: Standings) -> None:
        """After a game: broadcast the table, at most once per ``interval_s`` (later ones coalesce).

        The whole table goes to every connection, so broadcasting it after every game of a big
        tournament would cost the square of its size; within the interval only the latest is sent.
        Players in a game are left out: nothing heavy reaches a bot while its clock runs, and it
        hears the table once its game is over (a game's end triggers the next broadcast).
        """
        self._standings = standings
        if self._timer is not None:
            return
        wait = self._sent_at + max(self.interval_s, self._cost_s) - self.clock()
        if wait <= 0:
            self._send_standings()
        else:
            self._timer = asyncio.get_running_loop().call_later(wait, self._send_standings)

    def stop_standings(self) -> None:
        """Send no table that waits for its turn (the final one goes in ``tournament_over``)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _send_standings(self) -> None:
        self._timer = None
        standings, self._standings = self._standings, None
        if standings is None or self.tournament is None:
            return
        self._sent_at = self.clock()
        playing = self.playing()
        recipients = [c for c in self.connections.greeted if c not in playing]
        tournament = self.tournament

        def build() -> StandingsMessage:
            return StandingsMessage(tournament=tournament, games_done=standings.games_done,
                                    games_total=self.games_total(), rows=standing_rows(standings))

        if not recipients:
            # Every connection is a player in a game: building the table (~70 ms at 1,000 players) would
            # stall every clock for no reader. The pages build it if a spectator says hello meanwhile.
            self.web.keep_standings(build)
            self._cost_s = 0.0
            return
        message = build()
        self.web.standings = message
        queued = self.connections.send_later(recipients, message, paced=True, busy=self._playing_now)
        self._cost_s = queued / STANDINGS_BYTES_PER_S

    def ladder_table(self, rows: list[StandingRow], games_played: int) -> None:
        """The ladder's refitted table, as a ``standings`` frame for everyone not in a game (at the byte rate)."""
        message = StandingsMessage(tournament="ladder", games_done=games_played, games_total=0, rows=rows)
        playing = self.playing()
        self.connections.send_later([c for c in self.connections.greeted if c not in playing], message,
                                    paced=True, busy=self._playing_now)

    def _playing_now(self) -> set[Connection]:
        return set(self.playing())

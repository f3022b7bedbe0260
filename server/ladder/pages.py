"""The practice ladder as the pages see it: the ``ladder`` frame, and a version's report on request.

``ladder_frame`` is built on the event loop from what the ``LadderRunner`` keeps (its published table,
the sessions, why it is idle, its latest games): no disk. A report (``ladder_request`` with ``report``)
is read from ``ladder.db`` on the store's thread (``LadderRecords.report``), as ``quoridor-server --ladder
--report`` reads it, without the CPU times (those come from every game's log; the command line prints them).
"""

from __future__ import annotations

import asyncio
from typing import Any

from shared.protocol import Ladder, LadderRequest, LadderRow, ProtocolError, ReplayGameEntry

from server.ladder.runner import LadderRunner
from server.ladder.report import on_random_scale, report_json

__all__ = ["LadderPages", "PUSH_S", "answer_ladder_request", "ladder_frame"]

_SCORES = {0: "1-0", 1: "0-1", None: "½-½"}


def _states(runner: LadderRunner) -> dict[str, str]:
    """What each connected version does now, by its track's label: playing, waiting or paused (else away)."""
    return {s.track.label: "playing" if s.busy else "paused" if s.paused is not None else "waiting"
            for s in runner.lobby.sessions if s.connected and s.track is not None}


def ladder_frame(runner: LadderRunner, report: dict[str, Any] | None = None) -> Ladder:
    """The ladder now: its table with each version's state, games in progress, why it is idle, the latest games."""
    rows = []
    states = _states(runner)
    for rank, row in enumerate(runner.table, 1):
        track = runner.table_tracks.get(row.track)
        bot, _, version = row.track.partition("@")
        rows.append(LadderRow(rank=rank, track=row.track, bot=track.bot if track else bot,
                              version=track.version if track else version, rating=row.rating, low=row.low,
                              high=row.high, games=row.games, score=row.score, wins=row.wins, losses=row.losses,
                              draws=row.draws, state=states.get(row.track, "away")))
    recent = [ReplayGameEntry(game=game, white=white, black=black, score=_SCORES[winner],
                              result=reason.replace("_", " "), path=game)
              for game, white, black, winner, reason in runner.recent_games]
    idle = runner.idle
    return Ladder(games_played=runner.games_played, bots=sum(s.connected for s in runner.lobby.sessions),
                  playing=len(runner.running), games=list(runner.running), idle=idle.reason if idle else None,
                  resumes_in_s=idle.resumes_in_s if idle else None, rows=rows, recent=recent, report=report)


async def answer_ladder_request(runner: LadderRunner | None, request: LadderRequest) -> Ladder:
    """The answer to a page's ``ladder_request``; ``ProtocolError`` off the ladder or for an unknown version."""
    if runner is None:
        raise ProtocolError("room_unavailable", "this server runs no practice ladder", request.type)
    if request.report is None:
        return ladder_frame(runner)
    wanted = request.report
    found = await runner.store.report(wanted, runner.settings.effective_time_limit_ms)
    if found is None:
        raise ProtocolError("unknown_game", f"no version {wanted!r} on this ladder", request.type)
    track, report = found
    row = next((row for row in runner.table if row.track == track.label), None)     # the published table it keeps
    return ladder_frame(runner, report_json(track, report, row, on_random_scale(runner.table_tracks.values())))


#: Seconds over which changes of the ladder are gathered into one ``ladder`` frame to the spectators.
PUSH_S = 1.0


class LadderPages:
    """Keeps the spectators' pages up to date: a change (``changed``) sends one ``ladder`` frame at most every
    ``PUSH_S``, to the spectators only (a bot's clock never waits for it); ``answer`` answers ``ladder_request``."""

    def __init__(self, connections: Any, runner: LadderRunner | None = None) -> None:
        self.connections = connections
        self.runner = runner
        self._timer: asyncio.TimerHandle | None = None

    def changed(self) -> None:
        """Something the pages show changed: send it within ``PUSH_S`` (changes meanwhile go in the same frame)."""
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(PUSH_S, self._push)

    def _push(self) -> None:
        self._timer = None
        spectators = list(self.connections.spectators)
        if spectators and self.runner is not None:
            self.connections.send_later(spectators, ladder_frame(self.runner))

    async def answer(self, request: LadderRequest) -> Ladder:
        """A page's ``ladder_request``."""
        return await answer_ladder_request(self.runner, request)

    def close(self) -> None:
        """Send nothing more."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

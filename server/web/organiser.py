"""``OrganiserDesk``: the organiser's page (``/organiser``): every key's versions, games, violations, pauses, idleness.

A page sends ``organiser_request`` with a key its user typed (never in a URL). The organiser's key
(``settings.organiser_keys``: ``--organiser-key``, or a roster line ``KEY NAME organiser``) gets every key's row;
a player's key gets its own row only (a roster's key; without a roster, a key that handed a bot in or
plays on the ladder now). Any other key is refused as a wrong ``hello`` key is (``unknown_key``, slowed down per
address: ``server.net.admission``). Keys are compared in constant time (``hmac.compare_digest``), every
known key each time.

The data is read off the event loop: the versions on the submissions store's thread
(``SubmissionRecords.every_version``), the ladder's games on the ladder store's thread
(``LadderRecords.activity``), the rows built in a worker thread (``shared.organiser``); the ladder's
sessions (who is connected, playing, paused) and a tournament's standings are read on the event loop, where they
live.
"""

from __future__ import annotations

import asyncio
import hmac
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from shared.organiser import KeyFacts, LadderActivity, organiser_frame
from shared.protocol import Organiser, OrganiserTournament, OrganiserVersion, Standings

from server.settings import ServerSettings
from server.submissions.records import SubmissionRecords
from server.submissions.store import StoredVersion

__all__ = ["OrganiserDesk", "WrongKey", "ORGANISER_INTERVAL_S"]

#: Seconds one connection waits between two ``organiser_request`` frames (each reads every key's data).
ORGANISER_INTERVAL_S = 1.0


class WrongKey(Exception):
    """The key is neither the organiser's nor a player's: refuse it as a wrong ``hello`` key."""


def _same(key: str, known: list[str]) -> bool:
    """True when ``key`` is one of ``known``, comparing it with every one of them in constant time."""
    wanted = key.encode()
    return bool(sum(hmac.compare_digest(wanted, other.encode()) for other in known))


def _version(stored: StoredVersion) -> OrganiserVersion:
    return OrganiserVersion(version=stored.version, entry=stored.entry, submitted_at=stored.submitted_at,
                            validated_at=stored.validated_at, accepted=stored.accepted, cause=stored.cause,
                            reason=stored.reason)


def _session_state(session: Any) -> str:
    """A ladder session's state as the ladder's table shows it: playing, paused, waiting, or away."""
    if not session.connected:
        return "away"
    return "playing" if session.busy else "paused" if session.paused is not None else "waiting"


class OrganiserDesk:
    """Answers ``organiser_request``: see the module doc. ``ladder`` gives the ladder's runner while one runs (its
    store and its lobby's sessions), ``standings`` the tournament's latest standings (None: none yet, or a ladder);
    ``now`` is the server's wall clock (UTC, injected in tests)."""

    def __init__(self, settings: ServerSettings, submissions: Callable[[], SubmissionRecords | None],
                 ladder: Callable[[], Any] = lambda: None, standings: Callable[[], Standings | None] = lambda: None, *,
                 now: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.settings = settings
        self.submissions = submissions
        self.ladder = ladder
        self.standings = standings
        self.now = now

    @property
    def enabled(self) -> bool:
        """True when the server has an organiser's key (else the page is off and every request refused)."""
        return bool(self.settings.organiser_keys)

    async def answer(self, key: str) -> Organiser:
        """The ``organiser`` frame for ``key``; ``WrongKey`` when the key opens nothing here."""
        store = self.submissions()
        versions = await store.every_version() if store is not None else {}
        runner = self.ladder()
        sessions = list(runner.lobby.sessions) if runner is not None else []
        roster = self.settings.roster
        names: dict[str, str] = dict(roster) if roster is not None else {k: k for k in versions}
        if roster is None:              # a connected bot's key (a resident's is the server's own secret)
            names |= {s.key: s.name for s in sessions if not s.resident}
        if _same(key, list(self.settings.organiser_keys)):
            scope, keys = "all", list(names)
        elif _same(key, list(names)):
            scope, keys = "own", [key]
        else:
            raise WrongKey("this key opens no organiser's page here: type the organiser's key, or your own bot's key "
                           "to see your own bot")
        by_name = {s.name: s for s in sessions}
        table = self.standings()
        lines = {row.player: OrganiserTournament(rank=row.rank, points=row.points, games=row.games, wins=row.wins,
                                                 losses=row.losses, draws=row.draws, violations=row.violations)
                 for row in (table.rows if table is not None else [])}
        activity: dict[str, LadderActivity] = {}
        if runner is not None:
            activity = await runner.store.activity([names[k] for k in keys])
        facts = []
        for k in keys:
            name = names[k]
            session = by_name.get(name)
            facts.append(KeyFacts(player=name, versions=[_version(v) for v in versions.get(k, [])],
                                  activity=activity.get(name), state=_session_state(session) if session else "away",
                                  paused=session.paused if session is not None else None,
                                  tournament=lines.get(name)))
        now = self.now()
        limit = self.settings.effective_time_limit_ms
        return await asyncio.to_thread(organiser_frame, facts, now, limit, scope=scope, ladder=runner is not None)

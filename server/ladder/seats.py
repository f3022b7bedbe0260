"""The practice ladder's players: sessions that hold several games, the seat a game sees, the lobby, residents.

* ``LadderLobby`` admits players at any time (a roster as in tournaments, or anyone); the same key
  twice is refused with a roster and renamed (``bot_1``) without one, as a tournament's lobby does.
  A hello may say how many games at once the bot accepts (``concurrency``) and its ``version``.
* ``LadderSession`` is a player (``PlayerSession``, the one seat type) with what the ladder keeps of it:
  its version and rating track, how many games at once it accepts, whether it is paused. It may be in
  several games at once: a session routes steps by game id. The pairing's opening plies are the game's
  referee's to play (``MatchRunner``'s ``opening``): they are never sent to the bot, whose first turn
  shows the pawns moved.
* ``HostedResidents`` runs the residents in the server's own machinery: the built-in bots, and each
  key's newest accepted handed-in bot (a resident that never disconnects). Each is a hosted bot
  process (``server.sandbox``: ``python -m client.hosted SPEC``, in the sandbox where bubblewrap
  works) bound to its session as a connection is, restarted if it ends; a newer accepted version
  takes its predecessor's place between games, on a rating track of its own. A pairing of two residents
  is not played by these processes but by the server's game host (``server.ladder.runner``: fresh processes
  here, or on workers with ``--queue``): ``HostedResidents.entry`` says what to run for a resident.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Sequence

from shared.gamelog import log_safe_name
from shared.hosting import BUILTIN_BOTS
from shared.referee import RefereeSettings

from server.ladder.store import Track
from server.seats.lobby import AdmissionError, unique_name
from server.net.connection import Connection
from server.seats.players import PlayerSession
from server.sandbox import BotEntry, HostedPeer, SandboxLimits
from server.sandbox.players import HostedPlayer, HostedPlayers

__all__ = ["LadderLobby", "LadderSession", "HostedResidents"]


class LadderSession(PlayerSession):
    """A ladder player: a key, a name, a version, up to ``capacity`` games at once, across reconnects."""

    def __init__(self, key: str, name: str, version: str = "", capacity: int = 1, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(key, name, clock=clock)
        self.version = version
        self.capacity = capacity
        self.track: Track | None = None
        self.busy = 0                       # pairings in progress
        self.free_since = clock()
        self.bad_streak = 0
        self.paused: str | None = None
        self.resident = False


class LadderLobby:
    """Who may play on the ladder: the roster's keys (or anyone), plus the residents' secret keys."""

    def __init__(self, roster: dict[str, str] | None = None, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.roster = roster
        #: The clock of its sessions (their turns' send times, since when each is free).
        self.clock = clock
        self.sessions: list[LadderSession] = []
        self.residents: dict[str, str] = {}             # secret key -> built-in bot name
        self.started = True                            # the doors never close
        self.full = asyncio.Event()
        self.on_join: Callable[[LadderSession], None] | None = None

    def admit(self, key: str, wanted_name: str | None, peer: Connection, *, version: str | None = None,
              concurrency: int | None = None) -> LadderSession:
        """Seat ``peer``; ``AdmissionError`` (``unknown_key``, ``key_in_use``) when it may not play."""
        resident = key in self.residents
        if not resident and self.roster is not None and key not in self.roster:
            raise AdmissionError("unknown_key", "this key is not on the server's roster; ask the organiser for yours")
        mine = [s for s in self.sessions if s.key == key]
        session = next((s for s in mine if not s.connected), None)
        if session is None and mine and self.roster is not None:
            raise AdmissionError("key_in_use", "a player with this key is already connected")
        if session is None:
            if resident:
                name = self.residents[key]
                for other in [s for s in self.sessions if s.name == name and not s.resident]:
                    self.retire(other, f"replaced: {name}'s handed-in bot plays as {name} on the ladder now")
            else:
                name = log_safe_name(self.roster[key] if self.roster is not None else (wanted_name or key))
                name = unique_name(name, {s.name for s in self.sessions} | set(self.residents.values()))
            session = LadderSession(key, name, clock=self.clock)
            session.resident = resident
            self.sessions.append(session)
        session.version = version or ""
        session.capacity = concurrency or 1
        session.paused = None                          # a reconnect is a fresh start
        session.bad_streak = 0
        session.bind(peer)
        session.free_since = self.clock()
        if self.on_join is not None:
            self.on_join(session)
        return session

    def retire(self, session: LadderSession, why: str) -> None:
        """Take ``session`` out of the lobby for good (its name now belongs to its key's handed-in bot): it is paired
        no more, its connection is told why (``paused``), and a game it plays now still ends as usual.

        Names pick the ladder's sessions (pairings, meetings, tracks), so two sessions never share one: had the
        key's client stayed in the lobby, the handed-in bot's pairings would have gone to the client's session.
        """
        session.paused = f"{why}; reconnect to play under another name"
        if session.peer is not None and session.connected:
            session.peer.tell("paused", session.paused)
        if session in self.sessions:
            self.sessions.remove(session)

    def leave(self, session: PlayerSession, peer: Connection) -> None:
        """``peer`` closed: its games in progress are lost; the session waits for a comeback."""
        session.unbind(peer)

    def start(self) -> list[LadderSession]:
        return list(self.sessions)

    def session(self, name: str) -> LadderSession | None:
        return next((s for s in self.sessions if s.name == name), None)


class HostedResidents(HostedPlayers):
    """Residents hosted by the server itself (``server.sandbox.HostedPlayers``), seated in the ladder's lobby.

    A resident is a built-in bot by name, or a ``BotEntry`` (an accepted handed-in bot: its folder and
    entry, run in the sandbox). Each gets a secret key the lobby knows as a resident's.
    """

    def __init__(self, residents: Sequence[str | BotEntry], lobby: LadderLobby, referee: RefereeSettings,
                 limits: SandboxLimits | None = None, restart_s: float = 5.0, recycle_check_s: float = 1.0, *,
                 say: Callable[[str], None] | None = None) -> None:
        entries = [r if isinstance(r, BotEntry) else BotEntry(r, r) for r in residents]
        unknown = [e.name for e in entries if e.folder is None and e.spec not in BUILTIN_BOTS]
        if unknown:
            raise ValueError(f"unknown resident bot(s) {', '.join(unknown)}; choose from {', '.join(BUILTIN_BOTS)}")
        self.lobby = lobby
        self.say = say or (lambda text: None)
        self.keys: dict[str, str] = {}
        super().__init__([HostedPlayer(e, self._key(e.name)) for e in entries], self._admit, referee, limits,
                         restart_s=restart_s, recycle_check_s=recycle_check_s)
        self.names = [e.name for e in entries]

    def _key(self, name: str) -> str:
        """The resident's secret key (made once per name: a newer version keeps its session)."""
        if name not in self.keys:
            self.keys[name] = key = f"resident-{secrets.token_hex(8)}"
            self.lobby.residents[key] = name
        return self.keys[name]

    def put_entry(self, entry: BotEntry) -> bool:
        """Seat a handed-in bot as a resident; a newer version of one already seated replaces it between games.

        The old version is paired no more (its pairing stops after the game in progress), then leaves; the
        new one joins under the same name and opens a rating track of its own (its version's). False (and
        not seated) when a built-in resident has the bot's name.
        """
        if any(p.entry.name == entry.name and p.entry.trusted for p in [*self.players, *self.wanted.values()]):
            self.say(f"{entry.name}'s handed-in bot is not on the ladder: a built-in resident has that name")
            return False
        self.say(f"{entry.name}'s handed-in bot, version {entry.version}, is on the ladder")
        if entry.name not in self.names:
            self.names.append(entry.name)
        session = self.lobby.session(entry.name)
        if session is not None and not session.resident:       # the key's own client: the handed-in bot plays now
            self.lobby.retire(session, f"replaced: {entry.name}'s handed-in bot (version {entry.version}) plays as "
                                       f"{entry.name} on the ladder now")
        elif session is not None and session.version != (entry.version or ""):
            session.paused = f"replaced by version {entry.version}"
        self.put(HostedPlayer(entry, self._key(entry.name)))
        return True

    def entry(self, session: LadderSession) -> BotEntry | None:
        """What a game host runs for ``session``: the bot it was last seated with (its version's); None for a
        session that is not a resident (a connected bot)."""
        player = self.seated.get(session.name) if session.resident else None
        return None if player is None else player.entry

    def _admit(self, key: str, name: str, peer: HostedPeer, version: str | None) -> PlayerSession:
        return self.lobby.admit(key, name, peer, version=version)

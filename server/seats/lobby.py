"""``Lobby``: who may take a seat, under which name, and when the tournament can start.

* With a roster (key -> name) only listed keys are admitted and a key holds one seat: a second
  connection with a live key is refused. Without one anyone may join (development), and the
  same key twice gets distinct names (``bot``, ``bot_1``, ``bot_2``), as the old server gave them.
* A player that drops while waiting frees its seat; one that drops once the tournament has
  started keeps it and may come back with the same key.
* On ``--resume`` the seats belong to the stored players: only they are admitted.
* Websocket and legacy TCP players share the seats; a session keeps the transport it was made for.
* A name never holds a comma (the course's old log viewer splits on commas): ``Smith, J`` plays
  as ``Smith; J``, and ``welcome`` tells the player so.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Collection, Iterable, Sequence

from shared.gamelog import log_safe_name

from server.net.connection import Connection
from server.seats.players import PlayerSession

__all__ = ["Lobby", "AdmissionError", "unique_name"]


def unique_name(name: str, taken: Collection[str]) -> str:
    """``name``, or the first of ``name_1``, ``name_2``, ... not in ``taken``: a seat's name no other seat holds."""
    if name not in taken:
        return name
    n = 1
    while f"{name}_{n}" in taken:
        n += 1
    return f"{name}_{n}"


class AdmissionError(ValueError):
    """A player that cannot be seated; ``code`` is the protocol error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Lobby:
    """The seats of one tournament."""

    def __init__(self, seats: int, roster: dict[str, str] | None = None,
                 expected: Sequence[str] | None = None, held: Iterable[str] = (), *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.seats = seats
        #: The clock its sessions send their turns on (the matches' clock).
        self.clock = clock
        self.roster = roster
        self.expected = list(expected) if expected is not None else None
        #: Keys whose seats wait for their handed-in bots (roster ``submission``): no connection takes them,
        #: and they count as taken until the server has seated the bots (``release``).
        self.held = set(held)
        self.sessions: list[PlayerSession] = []
        self.started = False
        self.full = asyncio.Event()

    def _by_key(self, key: str) -> list[PlayerSession]:
        return [s for s in self.sessions if s.key == key]

    def admit(self, key: str, wanted_name: str | None, peer: Connection,
              kind: type[PlayerSession] = PlayerSession) -> PlayerSession:
        """Seat the connection ``peer`` holding ``key`` as a ``kind`` session; ``AdmissionError`` when it may not play."""
        if self.roster is not None and key not in self.roster:
            raise AdmissionError("unknown_key", "this key is not on the server's roster; ask the organiser for yours")
        if key in self.held:
            raise AdmissionError("key_in_use", "this key plays its handed-in bot in this tournament (the roster says "
                                 "'submission'); a connected bot needs a key of its own")
        for session in self._by_key(key):
            if not session.connected and type(session) is kind:     # coming back after a drop
                session.bind(peer)
                return session
        if any(not session.connected for session in self._by_key(key)):
            raise AdmissionError("key_in_use", "this key's seat was taken over the other transport (websocket or "
                                 "legacy TCP); come back the way you joined")
        if self._by_key(key) and (self.roster is not None or self.started):
            raise AdmissionError("key_in_use", "a player with this key is already connected")
        if self.started:
            raise AdmissionError("server_full", "a tournament is in progress; new players cannot join it")
        # The course's old log viewer splits rows on commas: a name never carries one (it gets ";").
        name = log_safe_name(self.roster[key] if self.roster is not None else (wanted_name or key))
        if self.expected is not None:
            taken = {s.name for s in self.sessions}
            # The stored seat of this name, or of a copy of it (bot_1) when the same key joined twice.
            mine = [n for n in self.expected if n not in taken
                    and (n == name or (n.startswith(name + "_") and n[len(name) + 1:].isdigit()))]
            if not mine:
                raise AdmissionError("server_full", "this server resumes a tournament of "
                                     f"{', '.join(self.expected)}; {name!r} is not one of its free seats")
            name = mine[0]
        elif len(self.sessions) + len(self.held) >= self.seats:
            raise AdmissionError("server_full", f"all {self.seats} seats are taken"
                                 + (" (some by handed-in bots)" if self.held else ""))
        else:
            name = unique_name(name, {s.name for s in self.sessions})
        session = kind(key, name, clock=self.clock)
        session.bind(peer)
        self.sessions.append(session)
        if len(self.sessions) >= (len(self.expected) if self.expected is not None else self.seats):
            self.full.set()
        return session

    def release(self) -> None:
        """The handed-in bots the roster names are seated (or were not able to be): their seats are held no more."""
        self.held.clear()

    def leave(self, session: PlayerSession, peer: Connection) -> None:
        """``peer`` closed: before the start the seat is freed, afterwards the session waits for a comeback."""
        session.unbind(peer)
        if not self.started and not session.connected and session in self.sessions:
            self.sessions.remove(session)
            self.full.clear()

    def start(self) -> list[PlayerSession]:
        """Close the doors: the seated players, in the order they joined (or the stored order on resume)."""
        self.started = True
        if self.expected is not None:
            order = {name: i for i, name in enumerate(self.expected)}
            self.sessions.sort(key=lambda s: order.get(s.name, len(order)))
        return list(self.sessions)

    def session(self, name: str) -> PlayerSession | None:
        """The session of the player called ``name``."""
        return next((s for s in self.sessions if s.name == name), None)

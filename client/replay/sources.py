"""Sources of steps: a log file, games already in memory, or the live games of a server watched as a spectator.

A source (``StepSource``, the course viewer's ``DataLoader`` seam) keeps ``games`` (id ->
``ReplayGame``, in the order they appeared) up to date and calls back when one changes; a
``ReplayController`` joins it to a view. A new source is one class with the members of ``StepSource``.
"""

from __future__ import annotations

import asyncio
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, runtime_checkable

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from shared.gamelog import MAX_LOG_BYTES, GameLog, LogFormatError, read_log_data
from shared.protocol import (
    MAX_SERVER_FRAME_BYTES, PROTOCOL_VERSION, ErrorMessage, GameUpdate, Hello, ProtocolError, StandingRow, Standings,
    TournamentOver, Watch, Welcome, dump, parse_server,
)

from .frames import ReplayGame, apply_update, frames_from_log

__all__ = [
    "StepSource", "DataLoader", "LogFileSource", "GameSource", "LiveSource", "LiveSourceError", "read_log_file",
    "read_log_bytes", "load_game",
]

Changed = Callable[[str | None], None]
"""Called with the id of the game that changed, or None for news about the tournament."""


class LiveSourceError(ConnectionError):
    """The server could not be watched: unreachable, not a Quoridor Arena server, or it refused us."""


@runtime_checkable
class StepSource(Protocol):
    """Where the steps come from: ``games`` by id, kept up to date by ``follow``."""

    name: str
    games: dict[str, ReplayGame]
    #: True when games grow while they are shown (a view then follows them).
    live: bool

    async def follow(self, changed: Changed) -> None:
        """Keep ``games`` up to date, calling ``changed`` after each change; returns when nothing more will come."""


DataLoader = StepSource
"""``StepSource`` under the course viewer's name: the ``DataLoader`` seam of QuoridorUI, whose ``LogLoader``
reads a log file (ours: ``LogFileSource``; also ``LiveSource``, ``GameSource``)."""


# -- files ---------------------------------------------------------------------------------------
_KINDS = ((stat.S_ISDIR, "is a folder"), (stat.S_ISFIFO, "is a pipe (FIFO)"), (stat.S_ISCHR, "is a character device"),
          (stat.S_ISBLK, "is a block device"), (stat.S_ISSOCK, "is a socket"))


def _read_at_most(path: Path, limit: int) -> bytes:
    """Up to ``limit`` bytes of the regular file at ``path``; ``LogFormatError`` for anything else.

    Opened without blocking (a FIFO would wait for a writer) and checked on the open file, so
    that a device (``/dev/zero``, ``/dev/urandom``) is never read and the file cannot be swapped.
    """
    name = str(path)
    if path.is_dir():        # checked first: Windows cannot open a folder at all
        raise LogFormatError(name, None, "is a folder, not a game log file")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = next((what for test, what in _KINDS if test(mode)), "is not a regular file")
            raise LogFormatError(name, None, f"{kind}, not a game log file")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read(limit)
    finally:
        os.close(fd)


def read_log_bytes(path: Path) -> bytes:
    """The bytes of the regular file at ``path``, at most ``MAX_LOG_BYTES + 1`` of them (one more tells a file too
    large for a log); ``LogFormatError`` (one line naming the file) when it cannot be read or is no regular file."""
    try:
        return _read_at_most(Path(path), MAX_LOG_BYTES + 1)
    except OSError as exc:
        raise LogFormatError(str(path), None, f"cannot read it: {exc.strerror or exc}") from None


def read_log_file(path: Path) -> GameLog:
    """Read and parse the game log at ``path`` (``shared.gamelog.read_log_data``); ``LogFormatError`` (one line
    naming the file) when it is not one."""
    return read_log_data(read_log_bytes(path), str(path))


def load_game(path: Path) -> ReplayGame:
    """The ``ReplayGame`` of the log file at ``path`` (``LogFormatError`` when it is not a game log)."""
    log = read_log_file(path)
    return frames_from_log(log, key=path.name, title=path.name)


class GameSource:
    """Games already replayed, held in memory: nothing to follow."""

    live = False

    def __init__(self, *games: ReplayGame, name: str = "") -> None:
        self.name = name or (games[0].title or games[0].key if games else "no game")
        self.games: dict[str, ReplayGame] = {game.key: game for game in games}

    async def follow(self, changed: Changed) -> None:
        """Games in memory do not change while they are shown: nothing to follow."""
        return None


class LogFileSource(GameSource):
    """One game from a log file, read when the source is made (so a bad file fails at once)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        super().__init__(load_game(self.path), name=str(path))


# -- a live server -------------------------------------------------------------------------------
class LiveSource:
    """The games in progress on a server, watched as a spectator (``hello`` then ``watch``).

    After ``follow`` returns: ``over`` when the tournament ended, ``standings`` the last table
    received, ``notes`` what the server complained about.
    """

    live = True

    def __init__(self, url: str, *, key: str = "spectator", name: str | None = None, watch: str = "*",
                 open_timeout: float = 10.0) -> None:
        self.url = url
        self.name = url
        self.key, self.display_name, self.watch_game = key, name, watch
        self.open_timeout = open_timeout
        self.games: dict[str, ReplayGame] = {}
        self.ruleset = "course"
        self.watching = False
        self.over = False
        self.standings: list[StandingRow] = []
        self.tournament: str | None = None
        self.notes: list[str] = []

    async def follow(self, changed: Changed) -> None:
        """Watch until the tournament is over or the server closes; ``LiveSourceError`` when it cannot."""
        try:
            async with connect(self.url, open_timeout=self.open_timeout, max_size=MAX_SERVER_FRAME_BYTES) as ws:
                await ws.send(dump(Hello(protocol=PROTOCOL_VERSION, role="spectator", key=self.key,
                                         name=self.display_name)))
                welcome = await asyncio.wait_for(ws.recv(), self.open_timeout)
                self._greeted(welcome)
                await ws.send(dump(Watch(game=self.watch_game)))
                self.watching = True
                changed(None)
                async for raw in ws:
                    if self._receive(raw, changed):
                        return
        except ConnectionClosed:
            return           # the server went away (or closed after tournament_over): what we have stays
        except (OSError, InvalidURI, InvalidHandshake, TimeoutError) as exc:
            raise LiveSourceError(f"cannot watch {self.url}: {_why(exc)}") from None
        finally:
            self.watching = False

    def _greeted(self, raw: str | bytes) -> None:
        try:
            message = parse_server(raw)
        except ProtocolError as exc:
            raise LiveSourceError(f"{self.url} does not answer like a Quoridor Arena server: {exc.message}") from None
        if isinstance(message, ErrorMessage):
            raise LiveSourceError(f"{self.url} refused to let us watch: {message.code}: {message.message}")
        if not isinstance(message, Welcome):
            raise LiveSourceError(f"{self.url} answered hello with {message.type!r} instead of 'welcome'")
        self.ruleset = message.rules.ruleset

    def _receive(self, raw: str | bytes, changed: Changed) -> bool:
        """Take one frame in; True when the tournament is over."""
        try:
            message = parse_server(raw)
        except ProtocolError as exc:       # a newer server's frame, say: note it and go on
            self.notes.append(f"ignored a frame: {exc.message}")
            return False
        if isinstance(message, GameUpdate):
            apply_update(self.games, message, self.ruleset)
            changed(message.game)
        elif isinstance(message, Standings):
            self.tournament, self.standings = message.tournament, list(message.rows)
            changed(None)
        elif isinstance(message, TournamentOver):
            self.tournament, self.standings, self.over = message.tournament, list(message.rows), True
            changed(None)
            return True
        elif isinstance(message, ErrorMessage):
            self.notes.append(f"server error {message.code}: {message.message}")
            changed(None)
        return False


def _why(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "no answer in time"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__

"""``PuzzleDesk``: the puzzle side rooms as the server serves them.

The rooms are pure and synchronous, and some answers take real work (a Sokoban hint runs the
solver for up to half a second), so every room call runs on the desk's own worker thread: the
event loop, and with it every Quoridor clock, never waits for a puzzle. One connection's frames
are answered in order, because its handler awaits each answer before reading the next frame.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from shared.protocol import Action, PuzzleRequest, Solution

from .rooms import Leaderboard, Room, RoomContext, RoomError, build_rooms

__all__ = ["PuzzleDesk", "PUZZLE_FRAMES"]

log = logging.getLogger("quoridor.server")

#: The frames a puzzle room answers.
PUZZLE_FRAMES = (PuzzleRequest, Solution, Action)


class PuzzleDesk:
    """The ``sokoban``, ``ice`` and ``circuit`` rooms with their leaderboard (SQLite at ``path``)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.rooms: dict[str, Room] = {}
        self._leaderboard: Leaderboard | None = None
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="quoridor-rooms")

    async def open(self) -> None:
        """Open the leaderboard (off the event loop) and build the rooms."""
        self._leaderboard = await self._run(Leaderboard, self.path)
        self.rooms = build_rooms(self._leaderboard)

    def serves(self, room: str) -> bool:
        """True for a puzzle room this desk has."""
        return room in self.rooms

    async def answer(self, room: str, ctx: RoomContext, message: Any) -> Any:
        """The room's reply to a puzzle frame; raises ``RoomError`` for a frame it cannot take."""
        if isinstance(message, PuzzleRequest) and message.room != room:
            raise RoomError("wrong_room", f"this connection is in room {room!r}; to play {message.room!r}, "
                                          f"open another connection with hello room {message.room!r}")
        target = self.rooms[room]
        handler = {PuzzleRequest: target.request, Solution: target.solution, Action: target.action}[type(message)]
        try:
            return await self._run(handler, ctx, message)
        except RoomError:
            raise
        except Exception:  # noqa: BLE001 - a bug in one room must not close the connection or the server
            log.exception("room %s failed on a %s frame", room, message.type)
            raise RoomError("internal_error", f"the {room} room failed on this {message.type} frame; "
                                              "it was dropped (the server logged the details)") from None

    async def close(self) -> None:
        """Finish the work in hand and close the leaderboard."""
        if self._leaderboard is not None:
            await self._run(self._leaderboard.close)
            self._leaderboard = None
        self._thread.shutdown(wait=True)

    async def _run(self, function: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._thread, function, *args)

"""``PuzzleDesk``: the puzzle side rooms as the server serves them, one user's long work never in another's way.

Every frame is first handed to its room's ``prepare`` on the desk's one thread (the event loop,
and with it every Quoridor clock, never runs room code). A quick answer (a move, undo, redo,
reset, the leaderboard, a puzzle request, a short verdict) is made right there: the rooms cap
what they take (level sizes, answer lengths) so that each costs at most a few tens of
milliseconds (about 17 ms at the caps, measured). An answer that may take longer (a Sokoban
hint; the verdict on a very long answer) comes back as a ``Job``, whose pure work runs in one of
a few worker processes (``WorkerPool``), never on the desk's thread, so no quick answer queues
behind it. The desk's guarantees:

* A connection has one frame in hand at a time; another frame from it meanwhile is refused with
  ``RoomError('busy')`` (the router answers each connection's frames in order, so it waits instead).
* A job runs within its own budget plus ``grace_s``; past that its worker is killed and replaced
  and the room's ``stopped`` reply is sent (a hint: none, ``hint_status`` ``stopped``). A caller
  cancelled mid-job (a closing server) kills the job too.
* Jobs never queue without bound: when every worker is busy a job waits at most ``wait_s`` in a
  line of at most ``waiting``, and is otherwise refused with ``RoomError('busy')``.
* A bug in a room, or a job that fails in its worker, is logged and answered ``internal_error``;
  the connection and the server go on.
* A result is stored before anyone hears it: the leaderboard the rooms rank on is in memory
  (``Leaderboard``), and after each room call the entries it changed are taken on the desk's thread
  and saved through ``LeaderboardRecords`` (on its own thread) before the reply is given. Room calls
  and their saves take turns, so no one is answered from an entry not yet on disk. An entry that
  cannot be saved is taken off the board again and the frame is answered ``internal_error``.

The workers are started with ``multiprocessing`` (``forkserver``): a program that runs the server
must keep its main module importable without side effects (``if __name__ == "__main__":``), as
the server's own entry points do.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

from shared.protocol import Action, PuzzleRequest, Solution

from server.rooms import Job, Leaderboard, Reply, Room, RoomContext, RoomError, build_rooms
from server.rooms.leaderboard import Unsaved
from server.rooms.leaderboard_store import LeaderboardRecords, stamp
from server.rooms.workers import JobFailed, JobStopped, PoolBusy, WorkerPool

__all__ = ["PuzzleDesk", "PUZZLE_FRAMES", "WORKERS", "GRACE_S"]

log = logging.getLogger("quoridor.server")

#: The frames a puzzle room answers.
PUZZLE_FRAMES = (PuzzleRequest, Solution, Action)
#: Worker processes for the rooms' jobs (each runs at a lower priority than the server).
WORKERS = 2
#: Seconds a job may run past its own budget before its worker is killed (pickling, a loaded machine).
GRACE_S = 0.5
#: Jobs that may wait for a worker, and for how long, before they are refused ``busy``.
WAITING = 4
WAIT_S = 0.1
#: Modules the workers import before they take a job: every room's job functions.
_PRELOAD = ("server.rooms.sokoban", "server.rooms.ice", "server.rooms.circuit")

T = TypeVar("T")


@dataclass(frozen=True)
class _Called(Generic[T]):
    """What one room call on the desk's thread came to: its value or its error, and the entries it changed."""

    value: T | None
    error: Exception | None
    unsaved: list[Unsaved]

    def outcome(self) -> T:
        """The call's value, or its error raised."""
        if self.error is not None:
            raise self.error
        return cast("T", self.value)


class _NotSaved(RuntimeError):
    """The entries a room call changed could not be stored (the cause is chained)."""


class PuzzleDesk:
    """The ``sokoban``, ``ice`` and ``circuit`` rooms with their leaderboard (SQLite at ``path``; None: in memory)."""

    def __init__(self, path: Path | None, *, workers: int | None = None, grace_s: float | None = None,
                 waiting: int | None = None, wait_s: float | None = None) -> None:
        self.path = path
        self.rooms: dict[str, Room] = {}
        #: Seconds a job may overrun its budget before it is stopped.
        self.grace_s = GRACE_S if grace_s is None else grace_s
        self.pool = WorkerPool(WORKERS if workers is None else workers, waiting=WAITING if waiting is None else waiting,
                               wait_s=WAIT_S if wait_s is None else wait_s, preload=_PRELOAD)
        self._board = Leaderboard(stamp)
        self._records: LeaderboardRecords | None = None
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="quoridor-rooms")
        self._turn = asyncio.Lock()              # a room call and the save of what it changed, one at a time
        self._in_hand: set[int] = set()          # id() of the contexts with a frame being answered

    async def open(self) -> None:
        """Open the stored leaderboard (on its own thread), seed the board from it, build the rooms, start the workers."""
        records = await LeaderboardRecords.open(self.path)
        try:
            self._board.seed(await records.entries())
        except BaseException:
            await records.close()
            raise
        self._records = records
        self.rooms = build_rooms(self._board)
        await self.pool.start()

    def serves(self, room: str) -> bool:
        """True for a puzzle room this desk has."""
        return room in self.rooms

    async def answer(self, room: str, ctx: RoomContext, message: Any) -> Reply:
        """The room's reply to a puzzle frame, given once what it put on the leaderboard is stored; raises
        ``RoomError`` for a frame it cannot take (``busy`` included) and ``internal_error`` for a failure."""
        if isinstance(message, PuzzleRequest) and message.room != room:
            raise RoomError("wrong_room", f"this connection is in room {room!r}; to play {message.room!r}, "
                                          f"open another connection with hello room {message.room!r}")
        if id(ctx) in self._in_hand:
            raise RoomError("busy", f"the {room} room is still answering this connection's previous frame; "
                                    "wait for its answer before sending another")
        self._in_hand.add(id(ctx))
        try:
            return await self._answer(self.rooms[room], ctx, message)
        except RoomError:
            raise
        except _NotSaved:
            log.exception("room %s: the leaderboard entries of a %s frame could not be stored", room, message.type)
            raise RoomError("internal_error", f"the {room} room could not store this {message.type} frame's "
                                              "leaderboard entry, so it was not ranked and the leaderboard is "
                                              "as it was (the server logged the details)") from None
        except Exception:  # noqa: BLE001 - a bug in one room must not close the connection or the server
            log.exception("room %s failed on a %s frame", room, message.type)
            raise RoomError("internal_error", f"the {room} room failed on this {message.type} frame; "
                                              "it was dropped (the server logged the details)") from None
        finally:
            self._in_hand.discard(id(ctx))

    async def _answer(self, room: Room, ctx: RoomContext, message: Any) -> Reply:
        prepared = await self._in_room(room.prepare, ctx, message)
        if not isinstance(prepared, Job):
            return prepared
        try:
            result = await self.pool.run(prepared.function, prepared.args, limit_s=prepared.budget_s + self.grace_s)
        except PoolBusy as exc:
            raise RoomError("busy", f"{exc}: this {room.name} frame was not taken; try again in a moment") from None
        except JobStopped:
            return await self._in_room(prepared.stopped)
        except JobFailed as exc:
            raise RuntimeError(f"a {room.name} job failed in its worker process:\n{exc}") from None
        return await self._in_room(prepared.finish, result)

    async def close(self) -> None:
        """Stop the workers (a running job is killed), finish the quick work in hand, close the leaderboard's store."""
        await self.pool.close()
        async with self._turn:                   # the room call in hand and its save end first
            if self._records is not None:
                await self._records.close()
                self._records = None
        self._thread.shutdown(wait=True)

    async def _in_room(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` (room code) on the desk's thread; what it changed on the board is stored before
        its value is returned or its error raised (``_NotSaved`` if storing fails: the changes are withdrawn)."""
        loop = asyncio.get_running_loop()
        async with self._turn:
            called = await loop.run_in_executor(self._thread, self._call_and_take, function, args)
            if called.unsaved:
                try:
                    if self._records is None:
                        raise RuntimeError("the puzzle desk's leaderboard is not open")
                    await self._records.save(called.unsaved)
                except Exception as exc:
                    await loop.run_in_executor(self._thread, self._board.withdraw, called.unsaved)
                    raise _NotSaved(f"{len(called.unsaved)} leaderboard entries were not stored") from exc
        return called.outcome()

    def _call_and_take(self, function: Callable[..., T], args: tuple[Any, ...]) -> _Called[T]:
        """On the desk's thread: the room call, then (in the same turn of the thread) the entries it changed."""
        try:
            value = function(*args)
        except Exception as exc:  # noqa: BLE001 - raised to the caller once the entries are stored
            return _Called(None, exc, self._board.take_unsaved())
        return _Called(value, None, self._board.take_unsaved())

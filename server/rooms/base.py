"""The seam for puzzle side rooms: a ``Room`` answers ``puzzle_request``, ``solution`` and ``action``.

A room holds no sockets: the server parses frames, hands each one to the room with the
connection's ``RoomContext`` (its puzzles in play), and sends back what the room returns. A
room raises ``RoomError`` (with a protocol error code) for anything it cannot take.

Answers that may take long (a solver's hint, judging a very long answer) are described by a
``Job``: ``Room.prepare`` returns it instead of the reply, the server runs its pure work in a
worker process within a time limit, and ``Job.finish`` turns the result into the reply. Called
directly (``request``, ``solution``, ``action``), a room does the same work in the caller's thread.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeAlias, TypeVar

from shared.protocol import Action, PuzzleMessage, PuzzleRequest, PuzzleState, Solution, Verdict

from server.rooms.leaderboard import Leaderboard

__all__ = ["Job", "Reply", "Room", "RoomContext", "RoomError"]

#: What a room answers a frame with.
Reply: TypeAlias = PuzzleMessage | Verdict | PuzzleState
R = TypeVar("R", PuzzleMessage, Verdict, PuzzleState)

_ids = itertools.count(1)


class RoomError(ValueError):
    """A frame a room cannot take; ``code`` is a protocol error code (``bad_level``, ``unknown_puzzle``, ...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class RoomContext:
    """One connection's business with a room: who it is and the puzzles it has in play."""

    player: str
    puzzles: dict[str, Any] = field(default_factory=dict)
    #: Puzzles one connection may keep in play at once (the oldest is forgotten beyond it).
    max_puzzles: int = 32

    def new_puzzle(self, room: str, state: Any) -> str:
        """Store a new puzzle's state and return its id."""
        puzzle_id = f"{room}-{next(_ids)}"
        self.puzzles[puzzle_id] = state
        while len(self.puzzles) > self.max_puzzles:
            self.puzzles.pop(next(iter(self.puzzles)))
        return puzzle_id

    def puzzle(self, puzzle_id: str) -> Any:
        """The state of a puzzle in play; ``RoomError('unknown_puzzle')`` otherwise."""
        try:
            return self.puzzles[puzzle_id]
        except KeyError:
            raise RoomError("unknown_puzzle", f"no puzzle {puzzle_id!r} in play on this connection; "
                                              "ask for one with puzzle_request") from None


@dataclass(frozen=True)
class Job(Generic[R]):
    """Long, pure work an answer needs: ``function(*args)``, then ``finish(result)`` makes the reply.

    ``function`` is a module-level function of pure code and ``args`` plain values, so that a worker
    process can run it (both are pickled). ``budget_s`` is the time the work allows itself; past it
    (and the server's grace) the worker is stopped and ``stopped()`` makes the reply instead.
    ``finish`` and ``stopped`` run back in the server, where they may touch the room's state.
    """

    function: Callable[..., Any]
    args: tuple[Any, ...]
    budget_s: float
    finish: Callable[[Any], R]
    stopped: Callable[[], R]

    def run_here(self) -> R:
        """Do the work in the calling thread and make the reply (the direct, synchronous path)."""
        return self.finish(self.function(*self.args))


class Room(ABC):
    """A puzzle room. Subclasses set ``name`` and implement the three answers (and may override ``prepare``)."""

    name: ClassVar[str]

    def __init__(self, leaderboard: Leaderboard) -> None:
        self.leaderboard = leaderboard

    def prepare(self, ctx: RoomContext, message: PuzzleRequest | Solution | Action) -> Reply | Job[Any]:
        """The reply to ``message`` when it is quick to make, or the ``Job`` that makes it when it may take long.

        The default answers every frame at once; rooms override it for their long answers.
        """
        if isinstance(message, PuzzleRequest):
            return self.request(ctx, message)
        if isinstance(message, Solution):
            return self.solution(ctx, message)
        return self.action(ctx, message)

    @abstractmethod
    def request(self, ctx: RoomContext, message: PuzzleRequest) -> PuzzleMessage:
        """A new puzzle for ``ctx`` (stored in ``ctx``)."""

    @abstractmethod
    def solution(self, ctx: RoomContext, message: Solution) -> Verdict:
        """The verdict on a whole answer (a verified solution goes on the leaderboard)."""

    @abstractmethod
    def action(self, ctx: RoomContext, message: Action) -> PuzzleState:
        """Play one step (or undo, redo, reset) and return the new state."""

"""The seam for puzzle side rooms: a ``Room`` answers ``puzzle_request``, ``solution`` and ``action``.

A room holds no sockets: the server parses frames, hands each one to the room with the
connection's ``RoomContext`` (its puzzles in play), and sends back what the room returns. A
room raises ``RoomError`` (with a protocol error code) for anything it cannot take.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from shared.protocol import Action, PuzzleMessage, PuzzleRequest, PuzzleState, Solution, Verdict

from .leaderboard import Leaderboard

__all__ = ["Room", "RoomContext", "RoomError"]

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


class Room(ABC):
    """A puzzle room. Subclasses set ``name`` and implement the three answers."""

    name: ClassVar[str]

    def __init__(self, leaderboard: Leaderboard) -> None:
        self.leaderboard = leaderboard

    @abstractmethod
    def request(self, ctx: RoomContext, message: PuzzleRequest) -> PuzzleMessage:
        """A new puzzle for ``ctx`` (stored in ``ctx``)."""

    @abstractmethod
    def solution(self, ctx: RoomContext, message: Solution) -> Verdict:
        """The verdict on a whole answer (a verified solution goes on the leaderboard)."""

    @abstractmethod
    def action(self, ctx: RoomContext, message: Action) -> PuzzleState:
        """Play one step (or undo, redo, reset) and return the new state."""

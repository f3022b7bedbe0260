"""The puzzle rooms' frames (``puzzles.md``): ask for a puzzle, answer it whole or play it step by step.

Room-specific payloads (the level, the state) travel as JSON objects whose shape the room defines:
the protocol carries them without judging them.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from .base import Message

__all__ = ["PuzzleRoom", "PuzzleRequest", "Solution", "Action", "PuzzleMessage", "Verdict", "PuzzleState"]

PuzzleRoom = Literal["sokoban", "ice", "circuit"]
"""The puzzle side rooms."""

_MAX_XSB_CHARS = 64 * 1024


class PuzzleRequest(Message):
    """Client -> server: ask a puzzle room for a puzzle (a stored level, your own XSB text, or a generated one)."""

    type: Literal["puzzle_request"] = "puzzle_request"
    room: PuzzleRoom = Field(description="The room to ask: sokoban, ice or circuit.")
    collection: str | None = Field(None, description="Sokoban: the name of a stored level collection.")
    index: int | None = Field(None, ge=0, description="Sokoban: the level's index in the collection, from 0.")
    xsb: str | None = Field(None, max_length=_MAX_XSB_CHARS, description="Sokoban: a level of your own, as XSB text.")
    difficulty: str | None = Field(None, description="Generated puzzles: easy, normal, hard or hell.")
    size: int | None = Field(None, description="Generated puzzles: the grid size wanted.")
    seed: int | None = Field(None, description="Generated puzzles: a seed, to get the same puzzle again.")


class Solution(Message):
    """Client -> server: a whole answer to a puzzle; the server replies with a ``verdict``."""

    type: Literal["solution"] = "solution"
    puzzle: str = Field(description="The puzzle id from the puzzle frame.")
    answer: str | list[str] | list[int] = Field(
        description="Sokoban: a LURD string; ice: a list of u d l r; circuit: a list of rotations.")


class Action(Message):
    """Client -> server: one step of play in a puzzle; the server replies with the new ``state``."""

    type: Literal["action"] = "action"
    puzzle: str = Field(description="The puzzle id from the puzzle frame.")
    action: str = Field(description="A move or push (u d l r), rotate, undo, redo or reset.")
    args: dict[str, int | str] = Field(
        {}, description='The action\'s arguments, e.g. rotate: {"row": 1, "col": 2}.')


class PuzzleMessage(Message):
    """Server -> client: the puzzle asked for, in the room's own form."""

    type: Literal["puzzle"] = "puzzle"
    puzzle: str = Field(description="The puzzle id, to quote in solution and action frames.")
    room: str = Field(description="The room the puzzle belongs to.")
    data: dict[str, Any] = Field(
        description='The puzzle: sokoban {"xsb": ...}, ice {"map": [...]}, circuit {"grid": ...}.')


class Verdict(Message):
    """Server -> client: the judgement of a ``solution``."""

    type: Literal["verdict"] = "verdict"
    puzzle: str = Field(description="The puzzle id.")
    valid: bool = Field(description="True when every step of the answer could be played.")
    solved: bool = Field(description="True when the answer solves the puzzle.")
    failed_at: int | None = Field(None, description="The index of the first step that could not be played.")
    reason: str | None = Field(None, description="Why the answer is invalid or does not solve the puzzle.")
    figures: dict[str, int | float | bool] = Field(
        {}, description="Figures of the answer, e.g. moves, pushes, optimal.")


class PuzzleState(Message):
    """Server -> client: the puzzle's state after an ``action``."""

    type: Literal["state"] = "state"
    puzzle: str = Field(description="The puzzle id.")
    state: dict[str, Any] = Field(description="The room's state of the puzzle, in the same form as the puzzle's data.")
    counters: dict[str, int] = Field({}, description="Counters, e.g. moves, pushes, rotations.")
    solved: bool = Field(False, description="True once the puzzle is solved.")

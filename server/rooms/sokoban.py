"""The ``sokoban`` room: levels from the bundled collections or from the client's XSB text.

``puzzle_request`` -> ``puzzle`` (the level as XSB); ``solution`` (LURD) -> ``verdict`` (solved
answers go on the level's leaderboard, fewest moves then pushes); ``action`` -> ``state`` for
play step by step (``u d l r``, ``undo``, ``redo``, ``reset``), plus ``leaderboard`` (the best
entries) and ``hint`` (the reference solver's solution from the current position, if it finds
one within a small budget).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, ClassVar

from shared.grid import Direction
from shared.protocol import Action, PuzzleMessage, PuzzleRequest, PuzzleState, Solution, Verdict
from shared.sokoban import Collection, Game, Level, LevelError, LevelIndexError, LurdError, judge, solve

from .base import Room, RoomContext, RoomError
from .leaderboard import Leaderboard

__all__ = ["SokobanRoom", "bundled_collections"]

_MOVES = {"u": Direction.UP, "up": Direction.UP, "d": Direction.DOWN, "down": Direction.DOWN,
          "l": Direction.LEFT, "left": Direction.LEFT, "r": Direction.RIGHT, "right": Direction.RIGHT}
#: Expanded states the ``hint`` action may spend (a bound on the time it holds the server).
HINT_NODES = 5000
#: ... and the seconds (the room answers inside the server's event loop).
HINT_SECONDS = 0.5


@cache
def bundled_collections() -> dict[str, str]:
    """Name -> XSB text of every collection shipped in ``shared/sokoban/levels``."""
    folder = resources.files("shared.sokoban").joinpath("levels")
    return {entry.name[:-4]: entry.read_text(encoding="utf-8")
            for entry in sorted(folder.iterdir(), key=lambda e: e.name) if entry.name.endswith(".xsb")}


@dataclass
class _Puzzle:
    """One puzzle in play on a connection."""

    level: Level
    level_id: str
    game: Game


class SokobanRoom(Room):
    """Sokoban levels by collection and index, or from XSB text; verdicts, step play and leaderboards."""

    name: ClassVar[str] = "sokoban"

    def __init__(self, leaderboard: Leaderboard, collections: dict[str, str] | None = None) -> None:
        super().__init__(leaderboard)
        self._collections = collections

    @property
    def collections(self) -> dict[str, str]:
        """Collection name -> XSB text (the bundled ones unless others were given)."""
        if self._collections is None:
            self._collections = bundled_collections()
        return self._collections

    def _find_collection(self, name: str) -> str:
        wanted = name.strip().lower()
        for known in self.collections:
            base = known.rsplit("_", 1)[0] if known.rsplit("_", 1)[-1].isdigit() else known
            if wanted in (known.lower(), base.lower()):
                return known
        raise RoomError("bad_level", f"no collection {name!r}; expected one of {', '.join(self.collections)}")

    # -- puzzle_request ---------------------------------------------------------------------
    def request(self, ctx: RoomContext, message: PuzzleRequest) -> PuzzleMessage:
        """A level by ``collection`` and ``index`` (from 0), or the first level of ``xsb`` text."""
        if message.xsb is not None:
            collection, index = None, 0
            try:
                level = Collection(message.xsb).level(0)
            except LevelIndexError:
                raise RoomError("bad_level", "the xsb text holds no level: expected map rows of # @ + $ * . "
                                             "and spaces") from None
            except LevelError as exc:
                raise RoomError("bad_level", f"the xsb level cannot be used: {exc}") from None
            level_id = "xsb-" + hashlib.sha256(level.render().encode()).hexdigest()[:16]
        elif message.collection is not None:
            collection = self._find_collection(message.collection)
            index = message.index or 0
            try:
                level = Collection(self.collections[collection], collection).level(index)
            except LevelIndexError as exc:
                raise RoomError("bad_level", str(exc)) from None
            except LevelError as exc:       # a bundled level should never be bad, but say so if one is
                raise RoomError("bad_level", f"level {index} of {collection} cannot be used: {exc}") from None
            level_id = f"{collection}/{index}"
        else:
            raise RoomError("invalid_fields", "a sokoban puzzle_request needs 'collection' (and 'index'), or 'xsb'; "
                                              f"collections: {', '.join(self.collections)}")
        puzzle_id = ctx.new_puzzle(self.name, _Puzzle(level, level_id, Game(level)))
        data: dict[str, Any] = {"xsb": level.to_xsb(), "level": level_id, "width": level.width,
                                "height": level.height, "boxes": level.box_count}
        if collection is not None:
            data |= {"collection": collection, "index": index}
        if level.title:
            data["title"] = level.title
        return PuzzleMessage(puzzle=puzzle_id, room=self.name, data=data)

    def _puzzle(self, ctx: RoomContext, puzzle_id: str) -> _Puzzle:
        puzzle = ctx.puzzle(puzzle_id)
        if not isinstance(puzzle, _Puzzle):
            raise RoomError("unknown_puzzle", f"puzzle {puzzle_id!r} is not a sokoban puzzle")
        return puzzle

    # -- solution ---------------------------------------------------------------------------
    def solution(self, ctx: RoomContext, message: Solution) -> Verdict:
        """Replay a LURD answer from the start; a solving answer is recorded and ranked."""
        puzzle = self._puzzle(ctx, message.puzzle)
        if not isinstance(message.answer, str):
            raise RoomError("bad_answer", "a sokoban answer is one LURD string (l u r d moves, L U R D pushes), "
                                          f"not a {type(message.answer).__name__}")
        try:
            verdict = judge(puzzle.level, message.answer)
        except LurdError as exc:
            raise RoomError("bad_answer", str(exc)) from None
        figures: dict[str, int | float | bool] = {"moves": verdict.moves, "pushes": verdict.pushes}
        if verdict.solved:
            answer = "".join(message.answer.split())
            figures["rank"] = self.leaderboard.record(self.name, puzzle.level_id, ctx.player,
                                                      (verdict.moves, verdict.pushes), answer)
            best = self.leaderboard.top(self.name, puzzle.level_id, 1)[0]
            figures["best_moves"], figures["best_pushes"] = best.score[0], best.score[1]
        return Verdict(puzzle=message.puzzle, valid=verdict.valid, solved=verdict.solved,
                       failed_at=verdict.failed_at, reason=verdict.reason, figures=figures)

    # -- action -----------------------------------------------------------------------------
    def action(self, ctx: RoomContext, message: Action) -> PuzzleState:
        """One step (``u d l r`` or ``up down left right``), ``undo``, ``redo``, ``reset``, ``leaderboard`` or ``hint``."""
        puzzle = self._puzzle(ctx, message.puzzle)
        game = puzzle.game
        name = message.action.strip().lower()
        extra: dict[str, Any] = {}
        if name in _MOVES:
            step = game.move(_MOVES[name])
            extra["blocked"] = step is None
            if step is not None and game.solved:
                extra["rank"] = self.leaderboard.record(self.name, puzzle.level_id, ctx.player,
                                                        (game.moves, game.pushes), game.lurd)
        elif name == "undo":
            extra["blocked"] = game.undo() is None
        elif name == "redo":
            extra["blocked"] = game.redo() is None
        elif name == "reset":
            game.reset()
        elif name == "leaderboard":
            top = self.leaderboard.top(self.name, puzzle.level_id, 10)
            extra["leaderboard"] = [{"rank": rank, "player": e.player, "moves": e.score[0], "pushes": e.score[1],
                                     "at": e.at} for rank, e in enumerate(top, 1)]
        elif name == "hint":
            extra["hint"] = self._hint(puzzle)
        else:
            raise RoomError("invalid_fields", f"unknown sokoban action {message.action!r}; expected u, d, l, r, "
                                              "undo, redo, reset, leaderboard or hint")
        return self._state(message.puzzle, puzzle, extra)

    def _hint(self, puzzle: _Puzzle) -> str | None:
        game, level = puzzle.game, puzzle.level
        here = Level(width=level.width, height=level.height, walls=level.walls, floor=level.floor,
                     boxes=game.boxes, goals=level.goals, player=game.player)
        result = solve(here, time_limit=HINT_SECONDS, node_limit=HINT_NODES)
        return result.lurd if result.solved else None

    def _state(self, puzzle_id: str, puzzle: _Puzzle, extra: dict[str, Any]) -> PuzzleState:
        game = puzzle.game
        row, col = game.player_pos
        state = {"map": game.render(), "player": [row, col], "lurd": game.lurd, "level": puzzle.level_id} | extra
        return PuzzleState(puzzle=puzzle_id, state=state, counters={"moves": game.moves, "pushes": game.pushes},
                           solved=game.solved)

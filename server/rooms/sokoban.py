"""The ``sokoban`` room: levels from the bundled collections or from the client's XSB text.

``puzzle_request`` -> ``puzzle`` (the level as XSB); ``solution`` (LURD) -> ``verdict`` (solved
answers go on the level's leaderboard, fewest moves then pushes); ``action`` -> ``state`` for
play step by step (``u d l r``, ``undo``, ``redo``, ``reset``), plus ``leaderboard`` (the best
entries) and ``hint`` (the reference solver's solution from the current position, if it finds
one within a small budget; ``hint_status`` says why there is none: ``unsolvable``,
``time_limit``, ``node_limit``, or ``stopped`` when the server had to stop the search).

Levels are capped (``MAX_CELLS``, ``MAX_BOXES``; run-length text is measured before it is
expanded), so that every answer made in the room's thread stays quick and the solver's set-up
checks its budget often. A hint, and the verdict on an answer longer than ``INLINE_ANSWER``
letters, are ``Job``s: the server runs them in a worker process.
"""

from __future__ import annotations

import time

import hashlib
import re
from dataclasses import dataclass
from typing import Any, ClassVar

from shared.grid import Direction
from shared.protocol import Action, PuzzleMessage, PuzzleRequest, PuzzleState, Solution, Verdict
from shared.sokoban import (Collection, Game, Level, LevelError, LevelIndexError, LurdError, is_map_line, judge,
                            parse_level, solve)
from shared.sokoban import Verdict as Judgement
from shared.sokoban.bundled import bundled_collections

from server.rooms.base import Job, Reply, Room, RoomContext, RoomError
from server.rooms.leaderboard import Leaderboard

__all__ = ["SokobanRoom", "judge_answer", "solve_hint", "MAX_CELLS", "MAX_BOXES",
           "INLINE_ANSWER"]

_MOVES = {"u": Direction.UP, "up": Direction.UP, "d": Direction.DOWN, "down": Direction.DOWN,
          "l": Direction.LEFT, "left": Direction.LEFT, "r": Direction.RIGHT, "right": Direction.RIGHT}
#: Expanded states the ``hint`` action may spend.
HINT_NODES = 5000
#: ... and the seconds, counted from the solver's first instruction (it runs in a worker process).
HINT_SECONDS = 0.5
#: The largest level the room takes: cells (width x height; the bundled levels have at most 1,927) and
#: boxes (at most 288). Under these caps each unit of the solver's set-up between two checks of its budget
#: (a flood fill, a breadth-first search of the floor, a row of the matching) costs tens of milliseconds at
#: most, and so does parsing or drawing the level in the room's thread.
MAX_CELLS = 10_000
MAX_BOXES = 500
#: Map characters a level's text may expand to (run-length counts summed before anything is expanded).
MAX_MAP_CHARS = 4 * MAX_CELLS
#: LURD letters judged in the room's thread; a longer answer (up to ~0.5 s for 128 KiB) is a ``Job``.
INLINE_ANSWER = 5_000
#: Seconds a worker may spend judging one answer.
JUDGE_SECONDS = 5.0
_COUNT = re.compile(r"\d+")

#: A position as plain values, for a worker process: width, height, walls, floor, boxes, goals, player.
PlainPosition = tuple[int, int, int, int, int, int, int]


def _position(level: Level, boxes: int | None = None, player: int | None = None) -> PlainPosition:
    return (level.width, level.height, level.walls, level.floor, level.boxes if boxes is None else boxes,
            level.goals, level.player if player is None else player)


def _level_at(position: PlainPosition) -> Level:
    width, height, walls, floor, boxes, goals, player = position
    return Level(width=width, height=height, walls=walls, floor=floor, boxes=boxes, goals=goals, player=player)


def solve_hint(position: PlainPosition, seconds: float, nodes: int) -> tuple[str, str | None]:
    """The solver's ``(status, lurd)`` from ``position`` within ``seconds`` and ``nodes`` (a worker's job)."""
    result = solve(_level_at(position), time_limit=seconds, node_limit=nodes, clock=time.monotonic)
    return result.status, result.lurd


def judge_answer(position: PlainPosition, answer: str) -> Judgement | str:
    """``judge`` of a LURD ``answer`` from ``position``, or the message of the ``LurdError`` (a worker's job)."""
    try:
        return judge(_level_at(position), answer)
    except LurdError as exc:
        return str(exc)


def _map_chars(text: str) -> int:
    """An upper bound on the characters of a level's map rows once run-length decoded, expanding nothing."""
    total = 0
    for line in text.splitlines():
        total += len(line)
        counts = _COUNT.findall(line)
        if counts and is_map_line(line):
            if any(len(count) > 9 for count in counts):
                return 10 ** 10          # a count of a billion or more: no need to add it up
            total += sum(map(int, counts))
    return total


def _check_size(level: Level) -> None:
    """``RoomError('bad_level')`` for a level over the room's caps."""
    cells = level.width * level.height
    if cells > MAX_CELLS:
        raise RoomError("bad_level", f"the level is {level.width}x{level.height} = {cells} cells; this room takes "
                                     f"levels of at most {MAX_CELLS} cells")
    if level.box_count > MAX_BOXES:
        raise RoomError("bad_level", f"the level has {level.box_count} boxes; this room takes levels of at most "
                                     f"{MAX_BOXES} boxes")


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
            self._collections = {name: file.read_text(encoding="utf-8") for name, file in bundled_collections().items()}
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
                text = Collection(message.xsb).level_text(0)      # split only: nothing parsed or expanded yet
                if _map_chars(text) > MAX_MAP_CHARS:
                    raise RoomError("bad_level", f"the xsb level is too large: its map rows run to more than "
                                                 f"{MAX_MAP_CHARS} characters once run-length counts are expanded; "
                                                 f"this room takes levels of at most {MAX_CELLS} cells")
                level = parse_level(text)
                _check_size(level)
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
            _check_size(level)
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
        return self._solution_job(ctx, message).run_here()

    def _solution_job(self, ctx: RoomContext, message: Solution) -> Job[Verdict]:
        puzzle = self._puzzle(ctx, message.puzzle)
        answer = message.answer
        if not isinstance(answer, str):
            raise RoomError("bad_answer", "a sokoban answer is one LURD string (l u r d moves, L U R D pushes), "
                                          f"not a {type(answer).__name__}")

        def finish(verdict: Judgement | str) -> Verdict:
            if isinstance(verdict, str):
                raise RoomError("bad_answer", verdict)
            figures: dict[str, int | float | bool] = {"moves": verdict.moves, "pushes": verdict.pushes}
            if verdict.solved:
                figures["rank"] = self.leaderboard.record(self.name, puzzle.level_id, ctx.player,
                                                          (verdict.moves, verdict.pushes), "".join(answer.split()))
                best = self.leaderboard.top(self.name, puzzle.level_id, 1)[0]
                figures["best_moves"], figures["best_pushes"] = best.score[0], best.score[1]
            return Verdict(puzzle=message.puzzle, valid=verdict.valid, solved=verdict.solved,
                           failed_at=verdict.failed_at, reason=verdict.reason, figures=figures)

        def stopped() -> Verdict:
            raise RoomError("internal_error", f"judging this answer ran past {JUDGE_SECONDS:g} s and was stopped")

        return Job(judge_answer, (_position(puzzle.level), answer), JUDGE_SECONDS, finish, stopped)

    def prepare(self, ctx: RoomContext, message: PuzzleRequest | Solution | Action) -> Reply | Job[Any]:
        """A ``Job`` for a hint and for an answer longer than ``INLINE_ANSWER`` letters; the reply otherwise."""
        if isinstance(message, Action) and message.action.strip().lower() == "hint":
            return self._hint_job(message.puzzle, self._puzzle(ctx, message.puzzle))
        if isinstance(message, Solution):
            job = self._solution_job(ctx, message)
            return job if len(message.answer) > INLINE_ANSWER else job.run_here()
        return super().prepare(ctx, message)

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
            return self._hint_job(message.puzzle, puzzle).run_here()
        else:
            raise RoomError("invalid_fields", f"unknown sokoban action {message.action!r}; expected u, d, l, r, "
                                              "undo, redo, reset, leaderboard or hint")
        return self._state(message.puzzle, puzzle, extra)

    def _hint_job(self, puzzle_id: str, puzzle: _Puzzle) -> Job[PuzzleState]:
        """The solver's search from the current position, as a ``Job`` (``solve_hint`` is read when it is made)."""
        game = puzzle.game

        def finish(found: tuple[str, str | None]) -> PuzzleState:
            status, lurd = found
            return self._state(puzzle_id, puzzle, {"hint": lurd if status == "solved" else None, "hint_status": status})

        def stopped() -> PuzzleState:
            return self._state(puzzle_id, puzzle, {"hint": None, "hint_status": "stopped"})

        position = _position(puzzle.level, game.boxes, game.player)
        return Job(solve_hint, (position, HINT_SECONDS, HINT_NODES), HINT_SECONDS, finish, stopped)

    def _state(self, puzzle_id: str, puzzle: _Puzzle, extra: dict[str, Any]) -> PuzzleState:
        game = puzzle.game
        row, col = game.player_pos
        state = {"map": game.render(), "player": [row, col], "lurd": game.lurd, "level": puzzle.level_id} | extra
        return PuzzleState(puzzle=puzzle_id, state=state, counters={"moves": game.moves, "pushes": game.pushes},
                           solved=game.solved)

"""``CircuitRoom``: generated circuit-repair levels over the network, with step-by-step play and a leaderboard.

``puzzle_request``: ``difficulty`` (easy, normal, hard, hell; default normal), an optional grid
``size`` and ``seed``. The puzzle's data is ``{"grid": [rows in the text form], "rows", "cols",
"source", "terminal", "movable", "difficulty", "seed", "level"}`` (``Pos(row, col)`` screen order).

``solution``: either the rotations of the movable tiles in reading order (a list of degrees),
or clicks, each ``"row,col"`` turning that tile a quarter clockwise from the start. The verdict
says whether source and terminal are ``connected`` and counts the ``rotations`` (clicks) used;
a connected answer goes on the leaderboard (score ``(rotations,)``) and its ``rank`` is given.

``action``: ``rotate``, ``lock`` and ``unlock`` with ``{"row": r, "col": c}``, ``undo`` (the
last rotate, lock or unlock), ``reset``, and ``leaderboard``.

Every answer here is quick (generation takes a few milliseconds at the largest grid, a verdict
on ``MAX_ANSWER`` clicks about as much), so the room has no ``Job``.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from typing import Any

from shared.circuit import Circuit, CircuitGeneratorError, CircuitLevel, CircuitMoveError, generate_level
from shared.circuit import UnknownDifficultyError
from shared.grid import Pos
from shared.protocol import Action, PuzzleMessage, PuzzleRequest, PuzzleState, Solution, Verdict

from server.rooms.base import Room, RoomContext, RoomError

__all__ = ["CircuitRoom"]

MAX_ANSWER = 10_000
TOP_N = 10
_ACTIONS = "rotate, lock, unlock, undo, reset or leaderboard"


@dataclass
class CircuitPlay:
    """One level in play: the current tiles, the locked cells, and the history for undo."""

    level: CircuitLevel
    key: str
    circuit: Circuit
    locked: set[Pos] = field(default_factory=set)
    history: list[tuple[str, Pos]] = field(default_factory=list)
    rotations: int = 0
    rank: int | None = None


class CircuitRoom(Room):
    """The ``circuit`` room: one generated level per request; connected answers are ranked by clicks."""

    name = "circuit"

    def request(self, ctx: RoomContext, message: PuzzleRequest) -> PuzzleMessage:
        """Generate a level of the asked difficulty (and size), reproducible by its seed."""
        if message.xsb is not None or message.collection is not None:
            raise RoomError("bad_level", "the circuit room generates its levels: ask with difficulty, size and seed")
        seed = message.seed if message.seed is not None else random.randrange(2**32)
        try:
            level = generate_level(message.difficulty or "normal", seed=seed, size=message.size)
        except (UnknownDifficultyError, CircuitGeneratorError) as exc:
            raise RoomError("bad_level", str(exc)) from None
        initial = level.initial
        key = "circuit-" + hashlib.sha1(initial.render().encode()).hexdigest()[:12]
        puzzle = ctx.new_puzzle(self.name, CircuitPlay(level, key, initial))
        return PuzzleMessage(puzzle=puzzle, room=self.name, data={
            "grid": initial.rows(), "rows": initial.height, "cols": initial.width,
            "source": list(initial.source), "terminal": list(initial.terminal),
            "movable": len(initial.movable()), "difficulty": level.difficulty.name, "seed": seed, "level": key})

    def solution(self, ctx: RoomContext, message: Solution) -> Verdict:
        """Judge rotations or clicks applied to the level's start; a connected answer is ranked."""
        play = self._play(ctx, message.puzzle)
        answer, initial = message.answer, play.level.initial
        if isinstance(answer, str):
            raise RoomError("bad_answer", "a circuit answer is a list of rotations in degrees (one per movable "
                                          "tile, in reading order) or a list of clicks \"row,col\"")
        if len(answer) > MAX_ANSWER:
            raise RoomError("bad_answer", f"the answer has {len(answer)} items; at most {MAX_ANSWER} are read")
        if answer and isinstance(answer[0], int):
            if len(answer) != len(initial.movable()):
                raise RoomError("bad_answer", f"{len(answer)} rotations given for {len(initial.movable())} "
                                              "movable tiles; give one per tile, in reading order")
            return self._judge_rotations(ctx, message.puzzle, play, list(answer))  # type: ignore[arg-type]
        return self._judge_clicks(ctx, message.puzzle, play, list(answer))  # type: ignore[arg-type]

    def _judge_rotations(self, ctx: RoomContext, puzzle: str, play: CircuitPlay, answer: list[int]) -> Verdict:
        initial = play.level.initial
        for index, (pos, rotation) in enumerate(zip(initial.movable(), answer)):
            if rotation not in (0, 90, 180, 270):
                return Verdict(puzzle=puzzle, valid=False, solved=False, failed_at=index,
                               reason=f"rotation {index} (row {pos.row}, column {pos.col}) is {rotation!r}; "
                                      "expected 0, 90, 180 or 270")
        final = initial.with_rotations(answer)
        return self._verdict(ctx, puzzle, play, final, initial.clicks_to(final), "rotations:" + ",".join(map(str, answer)))

    def _judge_clicks(self, ctx: RoomContext, puzzle: str, play: CircuitPlay, answer: list[str]) -> Verdict:
        # Clicks on one tile add up (a quarter turn each) and tiles turn independently, so the clicks are
        # counted per tile and the circuit is built once: 10,000 clicks cost milliseconds, not a copy each.
        initial = play.level.initial
        movable = set(initial.movable())
        turns: dict[Pos, int] = {}
        for index, item in enumerate(answer):
            try:
                row, col = (int(part) for part in str(item).split(","))
            except ValueError:
                return Verdict(puzzle=puzzle, valid=False, solved=False, failed_at=index,
                               reason=f"click {index} is {item!r}; expected \"row,col\" such as \"2,3\"")
            pos = Pos(row, col)
            if pos not in movable:
                try:
                    initial.rotate(pos)         # raises, saying why the cell does not turn
                except CircuitMoveError as exc:
                    return Verdict(puzzle=puzzle, valid=False, solved=False, failed_at=index,
                                   reason=f"click {index}: {exc}")
            turns[pos] = turns.get(pos, 0) + 1
        final = initial.with_rotations({pos: initial[pos].rotated(count).rotation for pos, count in turns.items()})
        return self._verdict(ctx, puzzle, play, final, len(answer), "clicks:" + " ".join(answer))

    def _verdict(self, ctx: RoomContext, puzzle: str, play: CircuitPlay, final: Circuit, clicks: int,
                 answer: str) -> Verdict:
        connected = final.connected
        figures: dict[str, int | float | bool] = {"connected": connected, "rotations": clicks,
                                                  "tiles": len(final.movable())}
        if connected:
            figures["rank"] = self.leaderboard.record(self.name, play.key, ctx.player, (clicks,), answer)
        reason = None if connected else "the source and the terminal are not connected"
        return Verdict(puzzle=puzzle, valid=True, solved=connected, reason=reason, figures=figures)

    def action(self, ctx: RoomContext, message: Action) -> PuzzleState:
        """Rotate, lock or unlock a tile, undo, reset, or show the leaderboard."""
        play = self._play(ctx, message.puzzle)
        name = message.action.lower()
        extra: dict[str, Any] = {}
        if name in ("rotate", "lock", "unlock"):
            pos = self._cell(message)
            try:
                play.circuit.rotate(pos)        # the same checks for all three: a movable tile in the grid
            except CircuitMoveError as exc:
                raise RoomError("invalid_fields", f"{name}: {exc}") from None
            if name == "rotate":
                if pos in play.locked:
                    raise RoomError("invalid_fields", f"the tile at row {pos.row}, column {pos.col} is locked; "
                                                      "unlock it first")
                play.circuit = play.circuit.rotate(pos)
                play.rotations += 1
                play.history.append((name, pos))
                if play.circuit.connected:
                    clicks = " ".join(f"{p.row},{p.col}" for what, p in play.history if what == "rotate")
                    play.rank = self.leaderboard.record(self.name, play.key, ctx.player, (play.rotations,),
                                                        "clicks:" + clicks)
            elif (name == "lock") != (pos in play.locked):
                play.locked.symmetric_difference_update({pos})
                play.history.append((name, pos))
        elif name == "undo":
            if play.history:
                what, pos = play.history.pop()
                if what == "rotate":
                    play.circuit = play.circuit.rotate(pos, 3)
                    play.rotations -= 1
                else:
                    play.locked.symmetric_difference_update({pos})
        elif name == "reset":
            play.circuit, play.rotations = play.level.initial, 0
            play.locked.clear()
            play.history.clear()
        elif name == "leaderboard":
            extra = {"level": play.key, "leaderboard": [
                {"player": e.player, "score": list(e.score), "answer": e.answer, "at": e.at}
                for e in self.leaderboard.top(self.name, play.key, TOP_N)]}
        else:
            raise RoomError("invalid_fields", f"unknown circuit action {message.action!r}; expected {_ACTIONS}")
        return self._state(message.puzzle, play, extra)

    # -- helpers ------------------------------------------------------------------------
    def _play(self, ctx: RoomContext, puzzle: str) -> CircuitPlay:
        play = ctx.puzzle(puzzle)
        if not isinstance(play, CircuitPlay):
            raise RoomError("unknown_puzzle", f"puzzle {puzzle!r} is not a circuit level")
        return play

    @staticmethod
    def _cell(message: Action) -> Pos:
        row, col = message.args.get("row"), message.args.get("col")
        if not isinstance(row, int) or not isinstance(col, int):
            raise RoomError("invalid_fields", f"{message.action} needs integer row and col arguments, e.g. "
                                              f'{{"row": 1, "col": 2}}; got {dict(message.args)!r}')
        return Pos(row, col)

    def _state(self, puzzle: str, play: CircuitPlay, extra: dict[str, Any]) -> PuzzleState:
        circuit = play.circuit
        connected = circuit.connected
        counters = {"rotations": play.rotations}
        if connected and play.rank is not None:
            counters["rank"] = play.rank
        state: dict[str, Any] = {"grid": circuit.rows(), "locked": sorted(list(p) for p in play.locked),
                                 "powered": sorted(list(p) for p in circuit.powered())}
        state.update(extra)
        return PuzzleState(puzzle=puzzle, state=state, counters=counters, solved=connected)

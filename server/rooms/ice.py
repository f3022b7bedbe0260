"""``IceRoom``: generated ice mazes over the network, judged against the optimal route, with a leaderboard.

``puzzle_request``: ``size`` (the side, 4 to 34) or ``difficulty`` (easy 6-10, normal 10-16,
hard 16-24, hell 24-34; without either, 10-34 like the kata) and an optional ``seed``. A maze
is never trivial: its optimal route takes at least its difficulty's fewest moves (4, 8, 12, 16;
by side, ``min_moves_for_side``). The puzzle's data is ``{"map": [rows], "width", "height", "start", "end", "seed", "level"}``.

``solution``: a list of ``u d l r`` (or a string of them); the verdict's figures are
``moves``, ``distance``, ``reached``, ``optimal``, the optimal ``best_moves``/``best_distance``,
and the player's ``rank`` on the level once the end is reached (score ``(moves, distance)``).

``action``: ``u d l r`` (or ``move`` with ``{"direction": "u"}``), ``undo``, ``redo``, ``reset``,
and ``leaderboard`` (the state then holds the level's best entries).

Generating a maze takes a few milliseconds at the largest side; judging an answer of more than
``INLINE_ANSWER`` moves is a ``Job`` (the server runs it in a worker process).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from typing import Any

from shared.grid import Direction, Pos
from shared.ice import (DIFFICULTIES, IceGeneratorError, IceMaze, IceVerdict, check_answer, generate_maze,
                        parse_maze)
from shared.protocol import Action, PuzzleMessage, PuzzleRequest, PuzzleState, Solution, Verdict

from server.rooms.base import Job, Reply, Room, RoomContext, RoomError

__all__ = ["IceRoom", "MIN_SIDE", "MAX_SIDE", "INLINE_ANSWER", "judge_route", "min_moves_for_side"]

MIN_SIDE, MAX_SIDE = 4, 34          #: sides a client may ask for
#: The fewest optimal moves of a maze asked for by side alone, below the smallest difficulty's side.
SMALL_MAZE_MIN_MOVES = 2
MAX_ANSWER = 10_000                 # moves in one answer; longer is refused unread
#: Moves judged in the room's thread (about 15 ms); a longer answer (0.3 s for ``MAX_ANSWER``) is a ``Job``.
INLINE_ANSWER = 500
#: Seconds a worker may spend judging one answer.
JUDGE_SECONDS = 5.0
TOP_N = 10
_ACTIONS = "u, d, l, r, move, undo, redo, reset or leaderboard"


@dataclass
class IcePlay:
    """One maze in play: the route so far (moves and the distance each slid) and moves undone."""

    maze: IceMaze
    level: str
    seed: int
    moves: list[tuple[Direction, Pos, int]] = field(default_factory=list)    # direction, stop, slid
    undone: list[Direction] = field(default_factory=list)
    rank: int | None = None

    @property
    def player(self) -> Pos:
        """Where the player stands."""
        return self.moves[-1][1] if self.moves else self.maze.start

    @property
    def solved(self) -> bool:
        """True once the player stands on the end."""
        return self.player == self.maze.end


def judge_route(rows: list[str], answer: list[str]) -> IceVerdict:
    """``check_answer`` of ``answer`` on the maze of ``rows`` (a worker's job)."""
    return check_answer(parse_maze(rows), answer)


class IceRoom(Room):
    """The ``ice`` room: one generated maze per request, judged by the optimal solver."""

    name = "ice"

    def request(self, ctx: RoomContext, message: PuzzleRequest) -> PuzzleMessage:
        """Generate a solvable maze of the asked side or difficulty (reproducible by its seed)."""
        if message.xsb is not None or message.collection is not None:
            raise RoomError("bad_level", "the ice room generates its mazes: ask with size, difficulty and seed")
        seed = message.seed if message.seed is not None else random.randrange(2**32)
        try:
            if message.size is not None:
                if not MIN_SIDE <= message.size <= MAX_SIDE:
                    raise RoomError("bad_level", f"size {message.size} is out of range; expected {MIN_SIDE} to "
                                                 f"{MAX_SIDE}")
                maze = generate_maze(message.size, seed=seed, solvable=True,
                                     min_moves=min_moves_for_side(message.size))
            else:
                key = message.difficulty.lower() if message.difficulty else "kata"
                if key not in DIFFICULTIES:
                    raise RoomError("bad_level", f"unknown difficulty {message.difficulty!r}; expected easy, "
                                                 "normal, hard or hell")
                maze = generate_maze(seed=seed, solvable=True, difficulty=key)  # its sides and its fewest moves
        except IceGeneratorError as exc:
            raise RoomError("bad_level", f"no maze for that request: {exc}") from None
        level = "ice-" + hashlib.sha1(maze.render().encode()).hexdigest()[:12]
        puzzle = ctx.new_puzzle(self.name, IcePlay(maze, level, seed))
        return PuzzleMessage(puzzle=puzzle, room=self.name, data={
            "map": maze.rows(), "width": maze.width, "height": maze.height, "start": list(maze.start),
            "end": list(maze.end), "seed": seed, "level": level})

    def solution(self, ctx: RoomContext, message: Solution) -> Verdict:
        """Judge a whole route from the start; a route that reaches the end goes on the leaderboard."""
        return self._solution_job(ctx, message).run_here()

    def prepare(self, ctx: RoomContext, message: PuzzleRequest | Solution | Action) -> Reply | Job[Any]:
        """A ``Job`` for an answer longer than ``INLINE_ANSWER`` moves; the reply otherwise."""
        if isinstance(message, Solution):
            job = self._solution_job(ctx, message)
            return job if len(message.answer) > INLINE_ANSWER else job.run_here()
        return super().prepare(ctx, message)

    def _solution_job(self, ctx: RoomContext, message: Solution) -> Job[Verdict]:
        play = self._play(ctx, message.puzzle)
        answer = message.answer
        if isinstance(answer, list) and any(not isinstance(a, str) for a in answer):
            raise RoomError("bad_answer", "an ice answer is a list of directions u, d, l, r (or a string of them), "
                                          "not numbers")
        if len(answer) > MAX_ANSWER:
            raise RoomError("bad_answer", f"the answer has {len(answer)} moves; at most {MAX_ANSWER} are read")
        moves: list[str] = list(answer)

        def finish(verdict: IceVerdict) -> Verdict:
            figures: dict[str, int | float | bool] = {
                "moves": verdict.moves, "distance": verdict.distance, "reached": verdict.reached,
                "optimal": verdict.optimal}
            if verdict.best is not None:
                figures["best_moves"], figures["best_distance"] = verdict.best
            if verdict.reached:
                figures["rank"] = self.leaderboard.record(self.name, play.level, ctx.player,
                                                          (verdict.moves, verdict.distance), "".join(moves).lower())
            return Verdict(puzzle=message.puzzle, valid=verdict.valid, solved=verdict.reached,
                           failed_at=verdict.failed_at, reason=verdict.reason, figures=figures)

        def stopped() -> Verdict:
            raise RoomError("internal_error", f"judging this answer ran past {JUDGE_SECONDS:g} s and was stopped")

        return Job(judge_route, (play.maze.rows(), moves), JUDGE_SECONDS, finish, stopped)

    def action(self, ctx: RoomContext, message: Action) -> PuzzleState:
        """Play one move, undo, redo, reset, or show the leaderboard."""
        play = self._play(ctx, message.puzzle)
        name = message.action.lower()
        if name == "leaderboard":
            return self._state(message.puzzle, play, extra={"level": play.level, "leaderboard": [
                {"player": e.player, "score": list(e.score), "answer": e.answer, "at": e.at}
                for e in self.leaderboard.top(self.name, play.level, TOP_N)]})
        if name == "move":
            name = str(message.args.get("direction", "")).lower()
            if name not in ("u", "d", "l", "r"):
                raise RoomError("invalid_fields", f"move needs a direction argument u, d, l or r, got "
                                                  f"{message.args.get('direction')!r}")
        if name in ("u", "d", "l", "r"):
            self._move(ctx, play, Direction.from_letter(name), redo=False)
        elif name == "undo":
            if play.moves:
                play.undone.append(play.moves.pop()[0])
        elif name == "redo":
            if play.undone:
                self._move(ctx, play, play.undone.pop(), redo=True)
        elif name == "reset":
            play.moves.clear()
            play.undone.clear()
        else:
            raise RoomError("invalid_fields", f"unknown ice action {message.action!r}; expected {_ACTIONS}")
        return self._state(message.puzzle, play)

    # -- helpers ------------------------------------------------------------------------
    def _play(self, ctx: RoomContext, puzzle: str) -> IcePlay:
        play = ctx.puzzle(puzzle)
        if not isinstance(play, IcePlay):
            raise RoomError("unknown_puzzle", f"puzzle {puzzle!r} is not an ice maze")
        return play

    def _move(self, ctx: RoomContext, play: IcePlay, direction: Direction, *, redo: bool) -> None:
        if play.solved:
            raise RoomError("invalid_fields", "the maze is solved; undo or reset to play on")
        stop, slid = play.maze.slide(play.player, direction)
        if slid == 0:
            return          # a bump into a wall: nothing happens, nothing is counted
        play.moves.append((direction, stop, slid))
        if not redo:
            play.undone.clear()
        if play.solved:
            route = "".join(d.letter for d, _, _ in play.moves)
            play.rank = self.leaderboard.record(self.name, play.level, ctx.player,
                                                (len(play.moves), sum(s for _, _, s in play.moves)), route)

    def _state(self, puzzle: str, play: IcePlay, extra: dict[str, Any] | None = None) -> PuzzleState:
        counters = {"moves": len(play.moves), "distance": sum(s for _, _, s in play.moves)}
        if play.solved and play.rank is not None:
            counters["rank"] = play.rank
        state: dict[str, Any] = {"map": play.maze.rows(), "player": list(play.player),
                                 "route": "".join(d.letter for d, _, _ in play.moves)}
        state.update(extra or {})
        return PuzzleState(puzzle=puzzle, state=state, counters=counters, solved=play.solved)


def min_moves_for_side(side: int) -> int:
    """The fewest optimal moves a generated maze of ``side`` must take: the minimum of the hardest
    difficulty whose smallest side it reaches (so a 1-move maze is never served)."""
    reached = [d.min_moves for d in DIFFICULTIES.values() if d.name != "kata" and side >= d.sides[0]]
    return max(reached, default=SMALL_MAZE_MIN_MOVES)

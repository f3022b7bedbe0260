"""Check an ice-maze answer: every move valid, ``E`` reached, and whether the route is optimal."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shared.grid import Direction, Pos

from .maze import IceMaze
from .solver import best_route

__all__ = ["IceVerdict", "check_answer", "replay"]


@dataclass(frozen=True)
class IceVerdict:
    """The judgement of an answer; ``failed_at`` is the index of the first bad move, if any."""

    valid: bool
    reached: bool
    optimal: bool
    moves: int
    distance: int
    failed_at: int | None = None
    reason: str | None = None
    best: tuple[int, int] | None = None     # (moves, distance) of an optimal route; None if unsolvable


def replay(maze: IceMaze, answer: Sequence[str | Direction]) -> tuple[list[Pos], int, int | None, str | None]:
    """Play ``answer`` from ``S``: the stop points (start first), the distance, and the first bad move.

    A move is bad when it is not ``u d l r``, when it goes nowhere (blocked at once), or when it
    comes after ``E`` was reached. Returns ``(stops, distance, failed_at, reason)``.
    """
    pos, distance, stops = maze.start, 0, [maze.start]
    for index, item in enumerate(answer):
        if pos == maze.end:
            return stops, distance, index, f"move {index} comes after the end was reached"
        try:
            direction = item if isinstance(item, Direction) else Direction.from_letter(item)
        except (ValueError, AttributeError):
            return stops, distance, index, f"move {index} is {item!r}; expected one of u, d, l, r"
        nxt, slid = maze.slide(pos, direction)
        if slid == 0:
            return stops, distance, index, (f"move {index} {direction.letter!r} goes nowhere from "
                                            f"row {pos.row}, column {pos.col}")
        pos, distance = nxt, distance + slid
        stops.append(pos)
    return stops, distance, None, None


def check_answer(maze: IceMaze, answer: Sequence[str | Direction]) -> IceVerdict:
    """Judge ``answer`` (a list of ``u d l r``, or a string of them) against the optimal route."""
    stops, distance, failed_at, reason = replay(maze, answer)
    moves = len(stops) - 1
    route = best_route(maze)
    best = None if route is None else route.cost
    if failed_at is not None:
        return IceVerdict(False, False, False, moves, distance, failed_at, reason, best)
    end = stops[-1]
    if end != maze.end:
        why = (f"the route stops at row {end.row}, column {end.col}, not on the end at "
               f"row {maze.end.row}, column {maze.end.col}")
        return IceVerdict(True, False, False, moves, distance, None, why, best)
    return IceVerdict(True, True, (moves, distance) == best, moves, distance, None, None, best)

"""The circuit solver: a search for a route of tiles from the source's stub to the terminal's.

A route enters each tile by one side and leaves by another: a straight tile only straight on,
a corner only by a side at right angles, and a tile serves one route once (it has one
rotation). So a solution is a self-avoiding walk over states ``(cell, entry side)``.

The search is a depth-first search over such walks, pruned by a relaxed problem: a backward
breadth-first search (ignoring self-avoidance) finds the states that can reach the terminal
at all and their distances; the walk never enters a state outside that set and tries the
nearer exits first. On generated levels the route is forced and the search is linear; it is
complete (it finds a route whenever one exists), exponential only in contrived grids dense
with alternative routes. Tiles in ``fixed`` (locked by the player) keep their rotation.
"""

from __future__ import annotations

from collections.abc import Collection

from shared.grid import Direction, Pos, bfs_distances, flood_fill

from .board import Circuit
from .tiles import ROTATIONS, Tile, TileKind, clicks, corner_rotation

__all__ = ["solve", "solved"]

State = tuple[Pos, Direction]       # a cell and the side its wire enters by


def _exits(tile: Tile, entry: Direction, locked: bool) -> list[Direction]:
    """The sides a route entering ``tile`` by ``entry`` may leave by."""
    if tile.kind is TileKind.STRAIGHT:
        options = [entry.opposite]
    elif tile.kind is TileKind.CORNER:
        options = [entry.turn_left(), entry.turn_right()]
    else:
        return []
    if locked:
        options = [side for side in options if {entry, side} == tile.openings]
    return options


def solve(circuit: Circuit, *, fixed: Collection[Pos] = ()) -> dict[Pos, int] | None:
    """Rotations (cell -> degrees) of the tiles on a route wiring source to terminal, or ``None``.

    Tiles off the route are left out (they may stay as they are). A straight tile gets the one
    of its two equivalent rotations that is fewer clockwise clicks away.
    """
    stub = next(iter(circuit[circuit.source].openings))
    first = circuit.source.step(stub)
    if not circuit.in_bounds(first):
        return None
    start: State = (first, stub.opposite)
    term_side = next(iter(circuit[circuit.terminal].openings))
    fixed = set(fixed)

    def successors(state: State) -> list[tuple[Direction, State]]:
        cell, entry = state
        out = []
        for side in _exits(circuit[cell], entry, cell in fixed):
            nxt = cell.step(side)
            if circuit.in_bounds(nxt):
                out.append((side, (nxt, side.opposite)))
        return out

    def is_goal(state: State) -> bool:
        return state[0] == circuit.terminal and state[1] is term_side

    # Relaxed problem (shared/grid breadth-first search): the states reachable from the start,
    # recording their successors, then each one's distance back from the goal.
    forward: dict[State, list[State]] = {}

    def record(state: State) -> list[State]:
        forward[state] = nexts = [s for _, s in successors(state)]
        return nexts

    goal: State = (circuit.terminal, term_side)
    if goal not in flood_fill(start, record):
        return None
    backward: dict[State, list[State]] = {}
    for state, nexts in forward.items():
        for nxt in nexts:
            backward.setdefault(nxt, []).append(state)
    to_goal = bfs_distances(goal, lambda state: backward.get(state, ()))

    visited = {circuit.source, first}
    route: list[tuple[Pos, Direction, Direction]] = []

    def walk(state: State) -> bool:
        if is_goal(state):
            return True
        cell, entry = state
        options = [(side, nxt) for side, nxt in successors(state) if nxt in to_goal and nxt[0] not in visited]
        options.sort(key=lambda item: to_goal[item[1]])
        for side, nxt in options:
            visited.add(nxt[0])
            route.append((cell, entry, side))
            if walk(nxt):
                return True
            route.pop()
            visited.discard(nxt[0])
        return False

    if start not in to_goal or not walk(start):
        return None
    rotations: dict[Pos, int] = {}
    for cell, entry, side in route:
        tile = circuit[cell]
        if tile.kind is TileKind.CORNER:
            rotations[cell] = corner_rotation(entry, side)
        else:
            options = [r for r in ROTATIONS if Tile(TileKind.STRAIGHT, r).openings == {entry, side}]
            rotations[cell] = min(options, key=lambda r: clicks(tile.rotation, r))
    return rotations


def solved(circuit: Circuit, *, fixed: Collection[Pos] = ()) -> Circuit | None:
    """The circuit with a route's tiles turned so that it is connected, or ``None`` when none exists."""
    rotations = solve(circuit, fixed=fixed)
    return None if rotations is None else circuit.with_rotations(rotations)


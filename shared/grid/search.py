"""Breadth-first search over any graph given by a neighbour function: distances, paths, flood fill.

Nodes only need to be hashable, so the same functions serve text-grid cells (``Pos``), puzzle
states (a Sokoban player/box configuration, an ice-maze stop point) and board squares.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

__all__ = ["bfs_distances", "shortest_path", "flood_fill"]

N = TypeVar("N", bound=Hashable)
Neighbours = Callable[[N], Iterable[N]]


def bfs_distances(start: N | Iterable[N], neighbours: Neighbours[N], *, multi: bool = False) -> dict[N, int]:
    """Distance in edges from ``start`` (or from every node of ``start`` when ``multi``) to each reachable node."""
    starts = list(start) if multi else [start]  # type: ignore[list-item]
    dist: dict[N, int] = {node: 0 for node in starts}  # type: ignore[misc]
    queue = deque(dist)
    while queue:
        node = queue.popleft()
        d = dist[node] + 1
        for nxt in neighbours(node):
            if nxt not in dist:
                dist[nxt] = d
                queue.append(nxt)
    return dist


def shortest_path(start: N, is_goal: Callable[[N], bool], neighbours: Neighbours[N]) -> list[N] | None:
    """The nodes of a shortest path from ``start`` to the first goal found (both included), or ``None``.

    Neighbours are explored in the order the function yields them, so the result is
    deterministic for a deterministic neighbour function.
    """
    if is_goal(start):
        return [start]
    parent: dict[N, N | None] = {start: None}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt in neighbours(node):
            if nxt in parent:
                continue
            parent[nxt] = node
            if is_goal(nxt):
                path = [nxt]
                back = parent[nxt]
                while back is not None:
                    path.append(back)
                    back = parent[back]
                path.reverse()
                return path
            queue.append(nxt)
    return None


def flood_fill(start: N | Iterable[N], neighbours: Neighbours[N], *, multi: bool = False) -> set[N]:
    """Every node reachable from ``start`` (or from any node of it when ``multi``), start included."""
    # A set and a stack, no distances: the order nodes are reached in does not change the result.
    seen: set[N] = set(start) if multi else {start}  # type: ignore[arg-type]
    todo = list(seen)
    pop, push, add = todo.pop, todo.append, seen.add
    while todo:
        for nxt in neighbours(pop()):
            if nxt not in seen:
                add(nxt)
                push(nxt)
    return seen

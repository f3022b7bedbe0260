"""Minimum-cost perfect matching of boxes to goals (the Hungarian method with potentials), incrementally.

The solver's lower bound is the cheapest way to send every box to its own goal, each costing its
push distance when alone on the board. A push moves one box, so a child state's matching is
repaired from its parent's with one augmenting path (O(n^2)) rather than solved anew (O(n^3)).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .budget import Budget

__all__ = ["INFINITE", "Matching", "match", "rematch"]

#: The cost of an impossible pair (a box that cannot reach a goal); a matching costing this much is infeasible.
INFINITE = 1 << 20


class Matching(NamedTuple):
    """An optimal assignment: ``cost`` (>= ``INFINITE`` when infeasible) and the duals that let it be repaired.

    ``owner[j]`` is the row matched to column ``j`` (1-based rows; column 0 is the method's scratch).
    """

    cost: int
    u: tuple[int, ...]
    v: tuple[int, ...]
    owner: tuple[int, ...]


def _augment(costs: Sequence[Sequence[int]], row: int, u: list[int], v: list[int], owner: list[int]) -> None:
    """Add ``row`` (1-based) to the matching by a shortest augmenting path, keeping the duals feasible."""
    m = len(v) - 1
    owner[0] = row
    column = 0
    slack = [INFINITE * 4] * (m + 1)
    used = [False] * (m + 1)
    way = [0] * (m + 1)
    while True:
        used[column] = True
        i = owner[column]
        costs_i = costs[i - 1]
        u_i = u[i]
        delta = INFINITE * 4
        best = 0
        for j in range(1, m + 1):
            if not used[j]:
                reduced = costs_i[j - 1] - u_i - v[j]
                if reduced < slack[j]:
                    slack[j] = reduced
                    way[j] = column
                if slack[j] < delta:
                    delta = slack[j]
                    best = j
        for j in range(m + 1):
            if used[j]:
                u[owner[j]] += delta
                v[j] -= delta
            else:
                slack[j] -= delta
        column = best
        if owner[column] == 0:
            break
    while column:
        previous = way[column]
        owner[column] = owner[previous]
        column = previous


def _total(costs: Sequence[Sequence[int]], owner: Sequence[int]) -> int:
    return sum(costs[owner[j] - 1][j - 1] for j in range(1, len(owner)))


def match(costs: Sequence[Sequence[int]], budget: Budget | None = None) -> Matching:
    """The optimal matching of a square cost matrix (rows = boxes, columns = goals); ``budget`` checked per row."""
    n = len(costs)
    u, v, owner = [0] * (n + 1), [0] * (n + 1), [0] * (n + 1)
    for row in range(1, n + 1):
        if budget is not None:
            budget.check()
        _augment(costs, row, u, v, owner)
    return Matching(_total(costs, owner), tuple(u), tuple(v), tuple(owner))


def rematch(parent: Matching, costs: Sequence[Sequence[int]], row: int) -> Matching:
    """The optimal matching after only ``row`` (0-based) of the cost matrix changed since ``parent``."""
    u, v, owner = list(parent.u), list(parent.v), list(parent.owner)
    owner[owner.index(row + 1, 1)] = 0
    u[row + 1] = 0
    _augment(costs, row + 1, u, v, owner)
    return Matching(_total(costs, owner), tuple(u), tuple(v), tuple(owner))

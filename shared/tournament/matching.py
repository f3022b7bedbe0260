"""Perfect matchings of a pairing graph, searched within a budget: what the Swiss pairer's rule 1 stands on.

Pure and deterministic: ``_perfect_matching`` augments a partial matching to a perfect one (or
says there is none), ``_matchings`` lists them, ``_completable`` tells whether the rounds left can
all be played without a rematch; every search counts its steps against a ``_Budget`` and stops
with ``_OutOfBudget`` when it runs out, so a round is always computed in bounded time.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

__all__: list[str] = []   # the Swiss pairer's own machinery: nothing public


class _OutOfBudget(Exception):
    """The search took its ``SEARCH_BUDGET``; the caller settles for what it found first."""


class _Budget:
    def __init__(self, steps: int) -> None:
        self.left = steps

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise _OutOfBudget


def _perfect_matching(vertices: Sequence[str], adjacency: Mapping[str, set[str]],
                      start: Mapping[str, str]) -> dict[str, str] | None:
    """A perfect matching of ``vertices`` over ``adjacency``'s edges, grown from ``start``; None if none exists.

    Edmonds' blossom algorithm: an augmenting path from each exposed vertex in turn. If one vertex has
    none, no matching covers it (Berge), so there is no perfect matching.
    """
    index = {v: i for i, v in enumerate(vertices)}
    n = len(vertices)
    if n % 2:
        return None
    nbrs = [sorted(index[u] for u in adjacency[v] if u in index) for v in vertices]
    match = [-1] * n
    for a, b in start.items():
        if a in index and b in index and b in adjacency[a] and start.get(b) == a:
            match[index[a]] = index[b]
    parent = [-1] * n
    base = list(range(n))

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    def augmenting_path_end(root: int) -> int:
        used = [False] * n
        parent[:] = [-1] * n
        base[:] = range(n)
        used[root] = True
        queue = [root]
        head = 0
        while head < len(queue):
            v = queue[head]
            head += 1
            for to in nbrs[v]:
                if base[v] == base[to] or match[v] == to:
                    continue
                if to == root or (match[to] != -1 and parent[match[to]] != -1):
                    top = lca(v, to)
                    blossom = [False] * n
                    mark(v, top, to, blossom)
                    mark(to, top, v, blossom)
                    for i in range(n):
                        if blossom[base[i]]:
                            base[i] = top
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if match[to] == -1:
                        return to
                    used[match[to]] = True
                    queue.append(match[to])
        return -1

    for root in range(n):
        if match[root] != -1:
            continue
        v = augmenting_path_end(root)
        if v == -1:
            return None
        while v != -1:
            pv = parent[v]
            ppv = match[pv]
            match[v], match[pv] = pv, v
            v = ppv
    return {vertices[i]: vertices[match[i]] for i in range(n)}


def _without(matching: Mapping[str, str], a: str, b: str, rest: Sequence[str],
             adjacency: Mapping[str, set[str]]) -> dict[str, str] | None:
    """A perfect matching of ``rest`` (``matching``'s vertices but ``a`` and ``b``), mended from ``matching``."""
    if matching.get(a) == b:
        return {x: y for x, y in matching.items() if x not in (a, b)}
    return _perfect_matching(rest, adjacency, {x: y for x, y in matching.items() if {x, y}.isdisjoint((a, b))})


def _matchings(adjacency: Mapping[str, set[str]], budget: _Budget) -> Iterator[dict[str, str]]:
    """Every perfect matching of ``adjacency`` (most constrained vertex first), as long as the budget lasts."""
    chosen: dict[str, str] = {}

    def extend(free: frozenset[str]) -> Iterator[dict[str, str]]:
        if not free:
            yield dict(chosen)
            return
        v = min(free, key=lambda x: (len(adjacency[x] & free), x))
        for u in sorted(adjacency[v] & free):
            budget.spend()
            chosen[v], chosen[u] = u, v
            yield from extend(free - {v, u})
            del chosen[v], chosen[u]
    yield from extend(frozenset(adjacency))


def _completable(unmet: Mapping[str, set[str]], rounds: int, budget: _Budget) -> bool:
    """True if ``rounds`` more rounds fit in the graph of pairs that have not met, none twice.

    Each round removes one perfect matching. When every vertex keeps at least half the others as
    neighbours through the last round, any choice works (Dirac: a Hamiltonian cycle, so a perfect
    matching, always remains); otherwise the rounds are searched for.
    """
    if rounds == 0:
        return True
    if min(len(s) for s in unmet.values()) - (rounds - 1) >= len(unmet) / 2:
        return True
    for matching in _matchings(unmet, budget):
        if _completable({v: unmet[v] - {matching[v]} for v in unmet}, rounds - 1, budget):
            return True
    return False

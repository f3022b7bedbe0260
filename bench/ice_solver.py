"""Speed figures for the ice-maze solver (``shared.ice.best_route``) on 34x34 mazes. A benchmark, not a test.

Run from the repository root::

    .venv/bin/python bench/ice_solver.py           # 300 mazes, about 10 s
    .venv/bin/python bench/ice_solver.py --quick   # 60 mazes, about 2 s

The mazes are the kata's random tests at their largest: 34x34, about 75% ice, 20% ``#``, 5%
``x``, seeds 0..N-1, solvability as drawn plus the same number forced solvable. Each solve is
timed with ``time.perf_counter_ns`` (best of 3 runs per maze, to drop scheduler noise). A
baseline written here (a textbook Dijkstra over stop points with a heap keyed by
``(moves, distance)`` and ``IceMaze.slide``) must find the same costs on every maze; its time
gives the speedup. Target: median <= 5 ms per 34x34 maze. Generating the mazes (and the
generator's reach check, ``explore``) is timed the same way and printed for reference (no target).
"""

from __future__ import annotations

import argparse
import heapq
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))     # runnable as `python bench/...` without the editable install

from shared.grid import Direction  # noqa: E402
from shared.ice import IceMaze, best_route, explore, generate_maze  # noqa: E402

TARGET_MEDIAN_MS = 5.0
SIDE = 34
REPEATS = 3


def baseline_cost(maze: IceMaze) -> tuple[int, int] | None:
    """(moves, distance) of an optimal route by Dijkstra on lexicographic costs (independent of the solver)."""
    best = {maze.start: (0, 0)}
    heap = [(0, 0, maze.start)]
    while heap:
        moves, dist, pos = heapq.heappop(heap)
        if best.get(pos) != (moves, dist):
            continue
        if pos == maze.end:
            return moves, dist
        for direction in Direction:
            nxt, slid = maze.slide(pos, direction)
            if slid:
                cost = (moves + 1, dist + slid)
                if nxt not in best or cost < best[nxt]:
                    best[nxt] = cost
                    heapq.heappush(heap, (*cost, nxt))
    return None


def timed(function, *args) -> tuple[float, object]:
    """Best of ``REPEATS`` runs in milliseconds, and the result."""
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter_ns()
        result = function(*args)
        times.append(time.perf_counter_ns() - start)
    return min(times) / 1e6, result


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="60 mazes instead of 300")
    args = parser.parse_args(argv)
    count = 60 if args.quick else 300
    half = count // 2
    mazes, generate_ms = [], []
    for s in range(count):
        solvable = None if s < half else True
        t, maze = timed(lambda: generate_maze(SIDE, seed=s, solvable=solvable))
        mazes.append(maze)
        generate_ms.append(t)
    explore_ms = [timed(explore, maze.rows(), maze.start)[0] for maze in mazes]

    solver_ms, baseline_ms, moves = [], [], []
    solvable = disagreements = 0
    for maze in mazes:
        t, route = timed(best_route, maze)
        solver_ms.append(t)
        t, expected = timed(baseline_cost, maze)
        baseline_ms.append(t)
        got = None if route is None else route.cost
        if got != expected:
            disagreements += 1
        if route is not None:
            solvable += 1
            moves.append(route.moves)

    median = statistics.median(solver_ms)
    print(f"ice solver on {count} mazes {SIDE}x{SIDE} (python {platform.python_version()}, {platform.machine()})")
    print(f"  solvable: {solvable}/{count}; optimal moves: median {statistics.median(moves):.0f}, max {max(moves)}")
    print(f"  best_route   ms per maze: median {median:.3f}  p90 {percentile(solver_ms, 0.9):.3f}  "
          f"p99 {percentile(solver_ms, 0.99):.3f}  max {max(solver_ms):.3f}")
    print(f"  baseline     ms per maze: median {statistics.median(baseline_ms):.3f}  "
          f"(heap Dijkstra over IceMaze.slide; speedup x{statistics.median(baseline_ms) / median:.1f})")
    print(f"  baseline agrees on {count - disagreements}/{count} mazes")
    print(f"  generate_maze ms per maze: median {statistics.median(generate_ms):.3f}  "
          f"p90 {percentile(generate_ms, 0.9):.3f}; its reach check explore (shared.grid.flood_fill over "
          f"slides): median {statistics.median(explore_ms):.3f}")
    verdict = "PASS" if median <= TARGET_MEDIAN_MS else "FAIL"
    print(f"  target: median <= {TARGET_MEDIAN_MS:.0f} ms -> {verdict}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())

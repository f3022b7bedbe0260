"""Benchmark the Sokoban solver on a collection of ``../shared/data/sokoban`` (not a test: it prints figures).

Targets (issue 6): Microban, all 155 levels solved within 10 s each; XSokoban, report how many of
the 90 levels are solved within 60 s each. Every solution found is checked with ``judge``.

    .venv/bin/python bench/sokoban_solver.py                          # Microban, 10 s per level
    .venv/bin/python bench/sokoban_solver.py --collection XSokoban_90 --time-limit 60
    .venv/bin/python bench/sokoban_solver.py --levels 1-20 --processes 1
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from shared.sokoban import Collection, judge, solve  # noqa: E402

DATA = ROOT / ".." / "shared" / "data" / "sokoban"
TARGETS = {"Microban_155": 155}


def _solve_one(job: tuple[str, int, float]) -> tuple[int, str, int, int, int, float, bool]:
    text, index, limit = job
    level = Collection(text).level(index)
    result = solve(level, time_limit=limit, clock=time.monotonic)
    checked = result.solved and judge(level, result.lurd or "").solved
    return index, result.status, result.moves, result.pushes, result.nodes, result.seconds, checked


def _levels(spec: str | None, count: int) -> list[int]:
    if not spec:
        return list(range(count))
    chosen: list[int] = []
    for part in spec.split(","):
        first, _, last = part.partition("-")
        chosen += range(int(first) - 1, int(last or first))
    return [i for i in chosen if 0 <= i < count]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collection", default="Microban_155", help="file stem in ../shared/data/sokoban")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per level (default 10)")
    parser.add_argument("--levels", help="level numbers from 1, e.g. 1-20,31")
    parser.add_argument("--processes", type=int, default=2, help="worker processes (default 2, at most 2)")
    args = parser.parse_args(argv)
    path = DATA / f"{args.collection}.xsb"
    if not path.is_file():
        print(f"no {path}: the level data lives beside the repository in ../shared/data/sokoban", file=sys.stderr)
        return 1
    text = path.read_text(encoding="utf-8", errors="replace")
    indices = _levels(args.levels, len(Collection(text)))
    started = time.perf_counter()
    solved = 0
    seconds: list[float] = []
    unsolved: list[str] = []
    with ProcessPoolExecutor(max_workers=max(1, min(args.processes, 2))) as pool:
        jobs = [(text, i, args.time_limit) for i in indices]
        for index, status, moves, pushes, nodes, spent, checked in pool.map(_solve_one, jobs):
            mark = "ok" if checked else status
            solved += checked
            if checked:
                seconds.append(spent)
            else:
                unsolved.append(f"{index + 1} ({status}, {spent:.1f} s)")
            print(f"level {index + 1:3}  {mark:10}  {moves:5} moves  {pushes:4} pushes  {nodes:8} states  "
                  f"{spent:6.2f} s", flush=True)
    wall = time.perf_counter() - started
    print(f"{args.collection}: solved {solved} of {len(indices)} within {args.time_limit:g} s each "
          f"(wall {wall:.1f} s)")
    if seconds:
        print(f"  solved levels: total {sum(seconds):.1f} s, median {statistics.median(seconds):.2f} s, "
              f"max {max(seconds):.2f} s")
    print(f"  unsolved: {', '.join(unsolved) if unsolved else 'none'}")
    target = TARGETS.get(args.collection)
    if target is not None and len(indices) == target:
        print(f"target: all {target} within {args.time_limit:g} s each: {'PASS' if solved == target else 'FAIL'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

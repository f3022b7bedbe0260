"""Speed figures for the Quoridor rules core (``shared.quoridor.Position``). A benchmark, not a test.

Run from the repository root::

    .venv/bin/python bench/rules_core.py           # full run, well under a minute on 2 cores
    .venv/bin/python bench/rules_core.py --quick   # about 5 s

What it measures (every random choice comes from ``random.Random`` with a fixed seed):

1. ``Position.legal_steps()`` calls/s at the start position and over a fixed set of mid-game
   positions (recorded from seeded random games: >= 4 walls on the board, side to move still
   holding walls).
2. ``Position.judge(Step(new_wall=...))`` per-call time, p50/p99 in microseconds, over
   (position, wall) pairs from the mid-game set: all 128 wall slots of each position, so both
   legal and illegal walls; also for the walls that touch existing walls or the border at two
   or more grid points (the only ones that may need a path check) and for the walls that the
   path check rejects.
3. Random playouts (uniform random legal steps from the start, cap 400 plies): games/s.
4. A naive but correct legal-step generator written here (wall overlap checked against
   ``pos.walls`` by hand, path check by ``pos.apply`` plus a breadth-first search with
   ``shared.grid.search.shortest_path`` over ``Location`` cells using ``pos.can_move``). It must
   agree with ``legal_steps()`` on every mid-game position; its speed gives the speedup ratio.
"""

from __future__ import annotations

import argparse
import gc
import math
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from shared.grid.search import shortest_path
from shared.quoridor import SIZE, BlockBar, Location, Position, Step, position_text, step_name

# -- targets ---------------------------------------------------------------------------------
TARGET_LEGAL_CALLS = 20_000.0   # legal_steps() calls/s on the mid-game set, at least
TARGET_JUDGE_P99_US = 20.0      # wall judgement p99 in microseconds, at most

MIN_WALLS_ON_BOARD = 4
PLAYOUT_PLY_CAP = 400
SET_SEED = 20240601      # base seed of the games that record the mid-game set
JUDGE_SEED = 7           # shuffles the (position, wall) pairs
PLAYOUT_SEED = 12345     # the random playouts


@dataclass(frozen=True)
class Config:
    """How much work each section does (full or quick)."""

    positions: int          # size of the mid-game set
    legal_rounds: int       # timing rounds of legal_steps()
    legal_passes: int       # passes over the mid-game set per round
    start_calls: int        # legal_steps() calls at the start position per round
    judge_repeats: int      # how often every (position, wall) pair is timed
    playout_games: int
    naive_start_calls: int  # naive generator calls at the start position


FULL = Config(positions=200, legal_rounds=5, legal_passes=100, start_calls=50_000,
              judge_repeats=5, playout_games=500, naive_start_calls=10)
QUICK = Config(positions=60, legal_rounds=3, legal_passes=50, start_calls=20_000,
               judge_repeats=3, playout_games=100, naive_start_calls=3)


# -- every wall slot -----------------------------------------------------------------------------
def all_wall_slots() -> list[BlockBar]:
    """The 128 wall slots off the border: 64 horizontal, then 64 vertical (normalised)."""
    walls = [BlockBar(Location(x, y), Location(x + 2, y)) for y in range(1, SIZE) for x in range(0, SIZE - 1)]
    walls += [BlockBar(Location(x, y), Location(x, y + 2)) for x in range(1, SIZE) for y in range(0, SIZE - 1)]
    return walls


ALL_WALLS = all_wall_slots()
DIRS = ((0, 1), (0, -1), (-1, 0), (1, 0))


def wall_points(wall: BlockBar) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """The three grid points a (normalised) wall covers: start, middle, stop."""
    (x1, y1), (x2, y2) = wall
    return (x1, y1), ((x1 + x2) // 2, (y1 + y2) // 2), (x2, y2)


def touches_twice(pos: Position, wall: BlockBar) -> bool:
    """True when ``wall`` meets existing walls or the border at two or more of its grid points."""
    covered = {p for w in pos.walls for p in wall_points(w)}
    hits = sum(1 for (x, y) in wall_points(wall) if x in (0, SIZE) or y in (0, SIZE) or (x, y) in covered)
    return hits >= 2


# -- the naive baseline -------------------------------------------------------------------------
def naive_shape_ok(pos: Position, wall: BlockBar) -> bool:
    """True when ``wall`` neither overlaps a placed wall nor (where the ruleset forbids it) crosses one."""
    (x, y), _ = wall
    horizontal = wall.is_h()
    for placed in pos.walls:
        (px, py), _ = placed
        if placed.is_h() == horizontal:
            if horizontal and py == y and abs(px - x) < 2:
                return False
            if not horizontal and px == x and abs(py - y) < 2:
                return False
        elif not pos.ruleset.walls_may_cross and wall_points(placed)[1] == wall_points(wall)[1]:
            return False
    return True


def naive_has_path(pos: Position, player: int) -> bool:
    """True when ``player``'s pawn can reach its goal row (pawns ignored), by BFS over ``Location`` cells."""
    goal_y = SIZE if player == 0 else 1

    def neighbours(loc: Location) -> Iterator[Location]:
        """Cells one move away from ``loc`` with no wall or edge between."""
        for dx, dy in DIRS:
            to = Location(loc.x + dx, loc.y + dy)
            if pos.can_move(loc, to):
                yield to

    return shortest_path(pos.pawn(player), lambda loc: loc.y == goal_y, neighbours) is not None


def naive_moves(pos: Position) -> list[Location]:
    """The pawn moves of the side to move, worked out cell by cell with ``pos.can_move``."""
    me, other = pos.pawn(pos.turn), pos.pawn(1 - pos.turn)
    out = []
    for dx, dy in DIRS:
        to = Location(me.x + dx, me.y + dy)
        if not pos.can_move(me, to):
            continue
        if to != other:
            out.append(to)
            continue
        behind = Location(other.x + dx, other.y + dy)
        if pos.can_move(other, behind):
            out.append(behind)
        elif pos.ruleset.diagonal_moves:
            for sx, sy in ((1, 0), (-1, 0)) if dx == 0 else ((0, 1), (0, -1)):
                side = Location(other.x + sx, other.y + sy)
                if pos.can_move(other, side):
                    out.append(side)
    return out


def naive_legal_steps(pos: Position) -> list[Step]:
    """Every legal step, the slow obvious way: try each of the 128 slots, apply it, BFS both pawns."""
    steps = [Step(new_loc=loc) for loc in naive_moves(pos)]
    if pos.walls_left[pos.turn] <= 0:
        return steps
    for wall in ALL_WALLS:
        if not naive_shape_ok(pos, wall):
            continue
        step = Step(new_wall=wall)
        after = pos.apply(step)
        if naive_has_path(after, 0) and naive_has_path(after, 1):
            steps.append(step)
    return steps


# -- the mid-game set -----------------------------------------------------------------------------
def policy_step(pos: Position, rng: random.Random) -> Step:
    """Recording policy: a random legal wall 35% of the time (if any left), else mostly a shortest-path move."""
    if pos.walls_left[pos.turn] > 0 and rng.random() < 0.35:
        walls = pos.legal_walls()
        if walls:
            return Step(new_wall=rng.choice(walls))
    moves = pos.legal_moves()
    path = pos.shortest_path(pos.turn)
    if path and len(path) > 1 and path[1] in moves and rng.random() < 0.8:
        return Step(new_loc=path[1])
    return Step(new_loc=rng.choice(moves))


def mid_game_set(count: int) -> list[Position]:
    """``count`` positions with >= 4 walls on the board whose side to move still has walls, from seeded games."""
    found: list[Position] = []
    seed = SET_SEED
    while len(found) < count:
        rng = random.Random(seed)
        seed += 1
        pos = Position.initial()
        candidates = []
        for _ in range(200):
            if pos.is_over():
                break
            if len(pos.walls) >= MIN_WALLS_ON_BOARD and pos.walls_left[pos.turn] > 0:
                candidates.append(pos)
            pos = pos.play(policy_step(pos, rng))
        found += rng.sample(candidates, min(4, len(candidates)))
    return found[:count]


# -- timing helpers -------------------------------------------------------------------------------
def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) of already sorted values, nearest rank."""
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, math.ceil(q / 100 * len(sorted_values)) - 1))
    return sorted_values[k]


def rate_rounds(run: Callable[[], int], rounds: int) -> tuple[float, float]:
    """Best and median calls/s of ``rounds`` runs of ``run`` (which returns how many calls it made)."""
    rates = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        calls = run()
        rates.append(calls / (time.perf_counter() - t0))
    return max(rates), statistics.median(rates)


def legal_rate(positions: Sequence[Position], passes: int, rounds: int) -> tuple[float, float]:
    """``legal_steps()`` calls/s over ``positions``, ``passes`` sweeps per round: (best, median)."""

    def run() -> int:
        """One round: ``passes`` sweeps over ``positions``; returns the number of calls."""
        for _ in range(passes):
            for pos in positions:
                pos.legal_steps()
        return passes * len(positions)

    return rate_rounds(run, rounds)


def timer_overhead_ns(samples: int = 200_000) -> tuple[float, float]:
    """p50 and p99 of an empty ``perf_counter_ns`` timing pair, in ns."""
    pc = time.perf_counter_ns
    out = []
    append = out.append
    for _ in range(samples):
        t0 = pc()
        t1 = pc()
        append(t1 - t0)
    out.sort()
    return percentile(out, 50), percentile(out, 99)


@dataclass
class JudgeSample:
    """One timed wall judgement."""

    ns: int
    legal: bool
    touches: bool   # meets walls/border at 2+ grid points: may need a path check
    sealing: bool   # well placed but rejected because it leaves a pawn no path


def judge_samples(positions: Sequence[Position], repeats: int) -> list[JudgeSample]:
    """Time ``pos.judge(wall step)`` one call at a time for every wall slot of every position."""
    pairs = []
    for pos in positions:
        for wall in ALL_WALLS:
            step = Step(new_wall=wall)
            judgement = pos.judge(step)
            sealing = not judgement.ok and "no path" in judgement.reason
            pairs.append((pos, step, judgement.ok, touches_twice(pos, wall), sealing))
    random.Random(JUDGE_SEED).shuffle(pairs)
    pc = time.perf_counter_ns
    times: list[int] = []
    append = times.append
    gc.collect()
    for _ in range(repeats):
        for pos, step, _legal, _touches, _sealing in pairs:
            judge = pos.judge
            t0 = pc()
            judge(step)
            t1 = pc()
            append(t1 - t0)
    flags = pairs * repeats
    return [JudgeSample(ns, legal, touches, sealing)
            for ns, (_pos, _step, legal, touches, sealing) in zip(times, flags)]


def random_playouts(games: int, seed: int) -> tuple[float, int, int, int, int]:
    """Uniform random legal steps from the start until a win, no legal step, or the cap.

    Returns (seconds, games won, games stuck with no legal step for the side to move, plies, steps seen).
    """
    rng = random.Random(seed)
    won = stuck = plies = seen = 0
    t0 = time.perf_counter()
    for _ in range(games):
        pos = Position.initial()
        for _ in range(PLAYOUT_PLY_CAP):
            steps = pos.legal_steps()
            if not steps:  # course rules (no diagonals): a boxed-in pawn with no walls left has no step
                stuck += 1
                break
            seen += len(steps)
            pos = pos.apply(steps[rng.randrange(len(steps))])
            plies += 1
            if pos.is_over():
                won += 1
                break
    return time.perf_counter() - t0, won, stuck, plies, seen


# -- output ---------------------------------------------------------------------------------------
def mark(ok: bool) -> str:
    """A pass/fail mark."""
    return "PASS" if ok else "FAIL"


def row(label: str, value: str, target: str = "", verdict: str = "") -> None:
    """Print one table row."""
    print(f"  {label:<58} {value:>14}   {target:<12} {verdict}")


def us(ns: float) -> str:
    """Nanoseconds as a microsecond figure."""
    return f"{ns / 1000:.2f} us"


def describe_mismatch(pos: Position, fast: list[Step], naive: list[Step]) -> str:
    """A report of a position where the two generators disagree."""
    only_fast = sorted(step_name(s) for s in set(fast) - set(naive))
    only_naive = sorted(step_name(s) for s in set(naive) - set(fast))
    return (f"baseline DISAGREES on {position_text(pos)!r}\n"
            f"  only in legal_steps(): {only_fast}\n  only in naive: {only_naive}\n"
            f"  duplicates in legal_steps(): {len(fast) - len(set(fast))}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print the table; exit status 1 if the baseline disagrees."""
    parser = argparse.ArgumentParser(description="Speed figures for the Quoridor rules core (not a test).")
    parser.add_argument("--quick", action="store_true", help="a shorter run (about 5 s) with smaller sets")
    args = parser.parse_args(argv)
    cfg = QUICK if args.quick else FULL
    started = time.perf_counter()

    print(f"Quoridor rules core benchmark ({'quick' if args.quick else 'full'} run)")
    print(f"Python {platform.python_version()} ({platform.python_implementation()}) on "
          f"{platform.system()} {platform.machine()}")

    positions = mid_game_set(cfg.positions)
    walls_on = [len(p.walls) for p in positions]
    steps_per = [len(p.legal_steps()) for p in positions]
    print(f"Mid-game set: {len(positions)} positions from seeded random games (seed {SET_SEED}+), "
          f"walls on board {min(walls_on)}..{max(walls_on)} (mean {statistics.mean(walls_on):.1f}), "
          f"legal steps {min(steps_per)}..{max(steps_per)} (mean {statistics.mean(steps_per):.1f})")

    # 4 (first part): the naive baseline must agree on every position; its timing is one pass.
    bad = 0
    t0 = time.perf_counter()
    naive_results = [naive_legal_steps(pos) for pos in positions]
    naive_seconds = time.perf_counter() - t0
    for pos, naive in zip(positions, naive_results):
        fast = pos.legal_steps()
        if len(fast) != len(set(fast)) or set(fast) != set(naive):
            bad += 1
            print(describe_mismatch(pos, fast, naive))
    start = Position.initial()
    if set(start.legal_steps()) != set(naive_legal_steps(start)):
        bad += 1
        print(describe_mismatch(start, start.legal_steps(), naive_legal_steps(start)))
    if bad:
        print(f"baseline DISAGREES on {bad} of {len(positions) + 1} positions")
    else:
        print(f"baseline agrees on {len(positions)} positions (plus the start position)")
    naive_rate = len(positions) / naive_seconds
    t0 = time.perf_counter()
    for _ in range(cfg.naive_start_calls):
        naive_legal_steps(start)
    naive_start_rate = cfg.naive_start_calls / (time.perf_counter() - t0)

    # 1: legal-step generation.
    start_best, start_median = legal_rate([start], cfg.start_calls, cfg.legal_rounds)
    mid_best, mid_median = legal_rate(positions, cfg.legal_passes, cfg.legal_rounds)

    # 2: wall judgement.
    over50, over99 = timer_overhead_ns()
    samples = judge_samples(positions, cfg.judge_repeats)

    def stats(select: Callable[[JudgeSample], bool]) -> tuple[int, float, float]:
        """Count, p50 and p99 (ns, timer overhead p50 subtracted) of the selected samples."""
        values = sorted(s.ns - over50 for s in samples if select(s))
        return len(values), percentile(values, 50), percentile(values, 99)

    # 3: random playouts.
    play_seconds, won, stuck, plies, seen = random_playouts(cfg.playout_games, PLAYOUT_SEED)

    print()
    print(f"  {'figure':<58} {'value':>14}   {'target':<12} verdict")
    print("  " + "-" * 96)
    print("legal_steps() (complete, materialised list)")
    row("start position: calls/s (best of rounds)", f"{start_best:,.0f}")
    row("start position: calls/s (median of rounds)", f"{start_median:,.0f}")
    row(f"mid-game set ({len(positions)} pos): calls/s (best of rounds)", f"{mid_best:,.0f}",
        f">= {TARGET_LEGAL_CALLS:,.0f}", mark(mid_best >= TARGET_LEGAL_CALLS))
    row(f"mid-game set ({len(positions)} pos): calls/s (median of rounds)", f"{mid_median:,.0f}",
        f">= {TARGET_LEGAL_CALLS:,.0f}", mark(mid_median >= TARGET_LEGAL_CALLS))
    row("mid-game set: microseconds per call (median)", us(1e9 / mid_median))
    print(f"judge(Step(new_wall=...)) per call, timer overhead p50 {over50:.0f} ns subtracted "
          f"(overhead p99 {over99:.0f} ns)")
    for label, select, target in (
            ("all walls", lambda s: True, True),
            ("legal walls", lambda s: s.legal, False),
            ("illegal walls", lambda s: not s.legal, False),
            ("walls touching walls/border at 2+ pts", lambda s: s.touches, True),
            ("walls the path check rejects", lambda s: s.sealing, False)):
        n, p50, p99 = stats(select)
        row(f"{label} (n={n:,}): p50", us(p50))
        if target:
            row(f"{label}: p99", us(p99), f"<= {TARGET_JUDGE_P99_US:.0f} us", mark(p99 / 1000 <= TARGET_JUDGE_P99_US))
        else:
            row(f"{label}: p99", us(p99))
    print(f"random playouts (uniform legal steps from the start, cap {PLAYOUT_PLY_CAP} plies, seed {PLAYOUT_SEED})")
    row(f"games/s ({cfg.playout_games} games)", f"{cfg.playout_games / play_seconds:,.1f}")
    row("plies/s (legal_steps + apply + is_over per ply)", f"{plies / play_seconds:,.0f}")
    row("mean plies per game", f"{plies / cfg.playout_games:.1f}")
    row("games won before the cap", f"{won}/{cfg.playout_games}")
    row("games stopped: side to move had no legal step", f"{stuck}/{cfg.playout_games}")
    row("mean legal steps per ply", f"{seen / plies:.1f}")
    print("naive baseline (shortest_path BFS over Location cells, apply per wall slot)")
    row("start position: calls/s", f"{naive_start_rate:,.2f}")
    row(f"mid-game set ({len(positions)} pos): calls/s (one pass)", f"{naive_rate:,.2f}")
    row("speedup start position: fast / naive (best)", f"{start_best / naive_start_rate:,.0f}x")
    row("speedup mid-game set: fast / naive (median)", f"{mid_median / naive_rate:,.0f}x")
    row("baseline agreement", "agrees" if not bad else f"{bad} DISAGREE", "all agree", mark(not bad))
    print(f"\ntotal time {time.perf_counter() - started:.1f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

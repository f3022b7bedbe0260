"""Coverage of the rating intervals (``shared.tournament.bradley_terry``) in simulated tournaments. Not a test.

Run from the repository root (two worker processes; about three minutes on 2 free cores)::

    .venv/bin/python bench/rating_intervals.py             # every scenario
    .venv/bin/python bench/rating_intervals.py --quick     # a quarter of the tournaments (wider error bars)
    .venv/bin/python bench/rating_intervals.py --scenarios 1,4 --tournaments 400

Each scenario plays many tournaments between bots of known (hidden) Elo ratings, every game won
with the Bradley-Terry probability of the gap, rates them with ``rate`` (anchored as the callers
anchor: at the weakest bot, like ``random`` = 0, or centred as the standings do without
``random``) and checks every 95% interval: does it cover the true gap to the anchor (or to the
field's mean), and does it contain its own estimate? Fields of 2 to 40 bots, close, spread and
lopsided (a class: ``random`` far below, a few strong bots far above), round robins, a gauntlet and
ladder-like pairings (each game between bots near each other in strength); and the quadratic interval
at the fit (``rate(profile=False)``) that the standings use for 21 to 48 players. Targets: coverage
93-97% in every scenario; intervals missing their own estimate: 0. The coverage's own
uncertainty is shown: ± two standard errors, clustered by tournament (the intervals of one
tournament share its games and its anchor, so they miss together). Everything is seeded.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.tournament.bradley_terry import Encounter, rate  # noqa: E402

LEVEL = 0.95
TARGET = (0.93, 0.97)
#: Tournaments per job handed to a worker process.
PART = 10

Truth = Callable[[int, random.Random], list[float]]
Schedule = Callable[[list[float], random.Random], list[tuple[int, int]]]


# -- true ratings ---------------------------------------------------------------------------------------
def close(n: int, rng: random.Random) -> list[float]:
    """Bots within about 100 Elo of each other."""
    return [rng.gauss(0, 100) for _ in range(n)]


def spread(n: int, rng: random.Random) -> list[float]:
    """A wide field: Elo with a standard deviation of 400."""
    return [rng.gauss(0, 400) for _ in range(n)]


def lopsided(n: int, rng: random.Random) -> list[float]:
    """A class: ``random`` (bot 0) at 0, most bots 200-600 above it, every third one 900-1,300 above it."""
    return [0.0] + [rng.uniform(900, 1300) if i % 3 == 0 else rng.uniform(200, 600) for i in range(1, n)]


def out_of_reach(n: int, rng: random.Random) -> list[float]:
    """Bots 2,000 Elo apart in turn: every game is won by the stronger, and the gap is beyond what the games show."""
    return [2000.0 * i for i in range(n)]


def ladder_of_strength(n: int, rng: random.Random) -> list[float]:
    """Evenly spaced from 0 to 2,000 Elo (random to strong), in a shuffled order."""
    values = [2000.0 * i / (n - 1) for i in range(n)]
    rng.shuffle(values)
    return values


# -- who plays whom --------------------------------------------------------------------------------------
def round_robin(per_pair: int) -> Schedule:
    def schedule(truth: list[float], rng: random.Random) -> list[tuple[int, int]]:
        n = len(truth)
        return [(i, j) for i in range(n) for j in range(i + 1, n) for _ in range(per_pair)]
    return schedule


def gauntlet(per_pair: int) -> Schedule:
    """Bot 0 against each of the others, ``per_pair`` games each; the others never meet."""
    def schedule(truth: list[float], rng: random.Random) -> list[tuple[int, int]]:
        return [(0, j) for j in range(1, len(truth)) for _ in range(per_pair)]
    return schedule


def ladder_like(games: int, reach: int = 3) -> Schedule:
    """Each game: a random bot against one of its ``reach`` nearest in strength on either side (as the ladder pairs
    by rating), so strong and weak bots are linked only through the ones between them."""
    def schedule(truth: list[float], rng: random.Random) -> list[tuple[int, int]]:
        order = sorted(range(len(truth)), key=lambda i: truth[i])
        place = {bot: k for k, bot in enumerate(order)}
        result = []
        while len(result) < games:
            bot = rng.randrange(len(truth))
            k = place[bot] + rng.choice([d for d in range(-reach, reach + 1) if d])
            if 0 <= k < len(truth):
                result.append((bot, order[k]))
        return result
    return schedule


@dataclass(frozen=True)
class Scenario:
    """A kind of tournament: how many bots, their true ratings, who plays whom, and how it is anchored."""

    name: str
    bots: int
    truth: Truth
    schedule: Schedule
    tournaments: int
    centred: bool = False
    #: False: the quadratic interval at the fit (``rate(profile=False)``), as the standings of 21 to 48 players use.
    profile: bool = True
    #: False: shown for what it says, not held to the target (no finite interval covers a gap the games cannot show).
    judged: bool = True


SCENARIOS = [
    Scenario("2 bots, 20 games, gaps up to 800", 2, lambda n, r: [0.0, r.uniform(-800, 800)], round_robin(20), 3000),
    Scenario("4 bots, close, round robin x10", 4, close, round_robin(10), 800),
    Scenario("4 bots, lopsided, round robin x10", 4, lopsided, round_robin(10), 800),
    Scenario("6 bots, 0..2000, round robin x2, centred", 6, ladder_of_strength, round_robin(2), 600, centred=True),
    Scenario("8 bots, spread, round robin x4", 8, spread, round_robin(4), 300),
    Scenario("8 bots, 0..2000, round robin x4", 8, ladder_of_strength, round_robin(4), 300),
    Scenario("12 bots, lopsided, round robin x2", 12, lopsided, round_robin(2), 200),
    Scenario("12 bots, spread, gauntlet x10", 12, spread, gauntlet(10), 600),
    Scenario("20 bots, spread, ladder-like, 600 games", 20, spread, ladder_like(600), 100),
    Scenario("20 bots, lopsided, ladder-like, 600 games", 20, lopsided, ladder_like(600), 100),
    Scenario("30 bots, close, round robin x2, centred", 30, close, round_robin(2), 50),
    Scenario("40 bots, 0..2000, ladder-like, 2000 games", 40, ladder_of_strength, ladder_like(2000), 120),
    Scenario("40 bots, lopsided, round robin x2", 40, lopsided, round_robin(2), 300),
    Scenario("30 bots, close, rr x2, centred, quadratic", 30, close, round_robin(2), 50, centred=True, profile=False),
    Scenario("40 bots, spread, rr x2, centred, quadratic", 40, spread, round_robin(2), 100, centred=True,
             profile=False),
    Scenario("40 bots, lopsided, rr x2, centred, quadratic", 40, lopsided, round_robin(2), 300, centred=True,
             profile=False),
    Scenario("40 bots, lopsided, rr x2, quadratic", 40, lopsided, round_robin(2), 300, profile=False),
    Scenario("3 bots, 2000 apart, round robin x10 (no verdict)", 3, out_of_reach, round_robin(10), 200,
             judged=False),
]


@dataclass
class Tally:
    """Intervals checked, how many covered the truth, missed it below/above, missed their estimate; time spent."""

    intervals: int = 0
    covered: int = 0
    truth_below: int = 0
    truth_above: int = 0
    missing_estimate: int = 0
    width: float = 0.0
    seconds: float = 0.0
    #: (intervals, covered) of each tournament: its intervals share its games, so the error is taken over these.
    tournaments: list[tuple[int, int]] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def error(self) -> float:
        """Two standard errors of the coverage, clustered by tournament (the ratio estimator's)."""
        share = self.covered / self.intervals
        spread = sum((covered - share * count) ** 2 for count, covered in self.tournaments)
        return 2.0 * math.sqrt(spread) / self.intervals


def play(scenario: Scenario, seed: int) -> Tally:
    """One tournament of ``scenario``, rated; its intervals checked against the truth."""
    rng = random.Random(seed)
    truth = scenario.truth(scenario.bots, rng)
    names = [f"bot{i}" for i in range(scenario.bots)]
    encounters = []
    for a, b in scenario.schedule(truth, rng):
        p = 1.0 / (1.0 + 10.0 ** ((truth[b] - truth[a]) / 400.0))
        encounters.append(Encounter(names[a], names[b], 1, 1.0 if rng.random() < p else 0.0))
    start = time.process_time()
    ratings = rate(names, encounters, level=LEVEL, anchor=names[0], centred=scenario.centred, profile=scenario.profile)
    tally = Tally(seconds=time.process_time() - start)
    mean = sum(truth) / len(truth)
    for i, r in enumerate(ratings):
        if r.rating is None or r.low is None or r.high is None or (i == 0 and not scenario.centred):
            continue            # unrated (not linked to the anchor), or the anchor itself: 0 by definition
        true_gap = truth[i] - (mean if scenario.centred else truth[0])
        tally.intervals += 1
        tally.covered += r.low <= true_gap <= r.high
        tally.truth_below += true_gap < r.low
        tally.truth_above += true_gap > r.high
        tally.missing_estimate += not r.low <= r.rating <= r.high
        tally.width += r.high - r.low
    tally.tournaments.append((tally.intervals, tally.covered))
    return tally


def run_part(job: tuple[int, int, int]) -> tuple[int, Tally]:
    """Tournaments ``first`` to ``first + count - 1`` of scenario ``number`` (seeded by the two)."""
    number, first, count = job
    total = Tally()
    for k in range(first, first + count):
        total.add(play(SCENARIOS[number - 1], seed=100_000 * number + k))
    return number, total


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="a quarter of the tournaments")
    p.add_argument("--scenarios", default="", help="scenario numbers, comma-separated (default: all)")
    p.add_argument("--tournaments", type=int, default=None, help="tournaments per scenario (default: each its own)")
    p.add_argument("-j", "--jobs", type=int, default=2, help="worker processes (default 2)")
    args = p.parse_args()
    chosen = [int(x) for x in args.scenarios.split(",") if x.strip()] or list(range(1, len(SCENARIOS) + 1))
    bad = [n for n in chosen if not 1 <= n <= len(SCENARIOS)]
    if bad:
        p.error(f"no scenario {bad[0]}: there are {len(SCENARIOS)}")
    if args.tournaments is not None and args.tournaments < 1 or args.jobs < 1:
        p.error("--tournaments and --jobs need 1 or more")
    jobs = []
    for number in chosen:
        scenario = SCENARIOS[number - 1]
        count = args.tournaments or (max(1, scenario.tournaments // 4) if args.quick else scenario.tournaments)
        jobs.append((number, scenario, count))
    started = time.perf_counter()
    print(f"{LEVEL:.0%} intervals of rate(): coverage of the true gap (target {TARGET[0]:.0%}-{TARGET[1]:.0%}) "
          "and intervals missing their own estimate (target 0)")
    print(f"{'#':>2} {'scenario':<44} {'intervals':>9} {'coverage':>15} {'low/high':>9} {'width':>6} "
          f"{'own est.':>8} {'ms/fit':>7}  verdict")
    ok = True
    parts = [(number, first, min(PART, count - first)) for number, _, count in jobs for first in range(0, count, PART)]
    results = {number: Tally() for number, _, _ in jobs}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for number, tally in pool.map(run_part, parts):
            results[number].add(tally)
    for number, scenario, count in jobs:
        t = results[number]
        share, error = t.covered / t.intervals, t.error()
        good = TARGET[0] <= share <= TARGET[1] and t.missing_estimate == 0
        verdict = ("PASS" if good else "FAIL") if scenario.judged else "info"
        ok &= good or not scenario.judged
        print(f"{number:>2} {scenario.name:<44} {t.intervals:>9,} {share:>8.1%} ±{error:>5.1%} "
              f"{t.truth_below:>4}/{t.truth_above:<4} {t.width / t.intervals:>6.0f} {t.missing_estimate:>8} "
              f"{1000 * t.seconds / count:>7.1f}  {verdict}")
    print(f"{'every scenario in the target' if ok else 'some scenario missed the target'} "
          f"({time.perf_counter() - started:.0f} s)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

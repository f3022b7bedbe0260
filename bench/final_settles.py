"""Does the final (``shared.tournament.final``) settle, and is it right when it does? Simulated finals. Not a test.

Run from the repository root (two worker processes; about four minutes on 2 free cores)::

    .venv/bin/python bench/final_settles.py                 # 400 finals per scenario
    .venv/bin/python bench/final_settles.py --finals 100    # quicker, wider error bars

Every game is won with the Bradley-Terry probability of the two bots' true (hidden) Elo gap; no
draws; the final is driven exactly as the server drives it (``Final``: rounds of every pair, 2 games
each, a look after each round at ``1 - 5% / looks``, the default budget of 20 rounds), and its table
is ``FinalStandings``'s. No server, no clock; everything is seeded.

(a) **A field of equals** (8 bots, all 0): how often the final table calls any pair of neighbours
    separated (every such call is wrong). Target: at most 5%. Among equals the neighbours are the
    field's closest pairs, so this is the easy case; the hard one is (b)'s tie in a spread field.
(b) **A spread field** (8 bots 100 Elo apart, and 200 apart): how often it settles, after how many
    rounds and games, how often the settled order is the true one, and how many of the neighbours it
    called separated are in the wrong order (target: at most 5% of finals with one). And **a tie in a
    spread field** (8 bots 300 apart, the middle two equal): the final cannot settle, and every look
    may wrongly separate that one pair: how often the table does (target: at most 5%).
(c) **The intervals**: how often each bot's 95% rating interval in the final table holds its true
    rating (centred, as the table is without ``random``), over every final of (a) and (b). Target:
    93-97%; the looks stop early when the data look decisive, which could make them cover less.

The error bars are ± two standard errors (clustered by final for (c): one final's intervals miss together).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.tournament import Final, FinalStandings, GameResult  # noqa: E402
from shared.tournament.elo import expected_score  # noqa: E402

PLAYERS = 8
#: Each scenario's true ratings by bot number.
SCENARIOS = {"equal": [0.0] * PLAYERS, "100 apart": [100.0 * i for i in range(PLAYERS)],
             "200 apart": [200.0 * i for i in range(PLAYERS)],
             "a tie in 300 apart": [300.0 * (i - (i > 3)) for i in range(PLAYERS)]}
#: Finals per job handed to a worker process.
PART = 10


@dataclass
class Outcome:
    """One simulated final: how it ended and what its table said."""

    settled: bool
    rounds: int
    games: int
    true_order: bool
    separated: int
    wrong_separations: int
    covered: int
    rated: int


def one_final(strengths: list[float], seed: int) -> Outcome:
    """Play one final of ``PLAYERS`` bots of true ratings ``strengths`` (by number), seeded ``seed``."""
    rng = random.Random(seed)
    names = [f"bot{i}" for i in range(PLAYERS)]
    rng.shuffle(names)                               # the listed order says nothing of the strength
    truth = {name: strengths[int(name[3:])] for name in names}
    final = Final(names, 2, seed=seed)
    table = FinalStandings(names, final.level)
    while True:
        for game in final.current_round():
            p = expected_score(truth[game.white] - truth[game.black])
            result = GameResult(game.white, game.black, 0 if rng.random() < p else 1, "goal")
            final.record(result)
            table.add(result)
        if not final.advance():
            break
    rows = table.rows()
    order = [row.player for row in rows]
    mean = sum(truth.values()) / len(truth)
    wrong = sum(1 for row, below in zip(rows, rows[1:]) if row.separated and truth[row.player] <= truth[below.player])
    covered = sum(1 for row in rows if row.elo_low is not None and row.elo_high is not None
                  and row.elo_low <= truth[row.player] - mean <= row.elo_high)
    return Outcome(final.settled, final.round + 1, final.games_total or 0,
                   [truth[name] for name in order] == sorted(truth.values(), reverse=True),
                   sum(1 for row in rows if row.separated), wrong, covered, sum(1 for row in rows if row.elo is not None))


def part(strengths: list[float], seeds: list[int]) -> list[Outcome]:
    return [one_final(strengths, seed) for seed in seeds]


def share(hits: int, total: int) -> str:
    """``hits / total`` as a percentage with ± two standard errors."""
    p = hits / total
    return f"{100 * p:5.1f}% ± {200 * math.sqrt(max(p * (1 - p), 1 / total) / total):.1f}"


def clustered(outcomes: list[Outcome]) -> str:
    """Interval coverage over ``outcomes`` with ± two standard errors clustered by final."""
    hits = sum(o.covered for o in outcomes)
    total = sum(o.rated for o in outcomes)
    p = hits / total
    spread = sum((o.covered - p * o.rated) ** 2 for o in outcomes)
    return f"{100 * p:5.1f}% ± {200 * math.sqrt(spread) / total:.1f}"


def main() -> int:
    """Run the scenarios and print each figure against its target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--finals", type=int, default=400, help="finals per scenario (default 400)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    args = parser.parse_args()
    print(f"{args.finals} finals per scenario of {PLAYERS} bots, 2 games a pair a round, the default budget; "
          f"load average {os.getloadavg()[0]:.2f}")
    results: dict[str, list[Outcome]] = {}
    with ProcessPoolExecutor(args.workers) as pool:
        for number, (name, strengths) in enumerate(SCENARIOS.items()):
            seeds = [number * 1_000_000 + k for k in range(args.finals)]
            jobs = [pool.submit(part, strengths, seeds[k:k + PART]) for k in range(0, len(seeds), PART)]
            results[name] = [o for job in jobs for o in job.result()]
    ok = True
    equal = results["equal"]
    called = sum(1 for o in equal if o.separated)
    verdict = "ok" if called / len(equal) <= 0.05 else "FAIL"
    ok &= verdict == "ok"
    print(f"(a) all equal: finals calling any neighbours separated {share(called, len(equal))} (target <= 5%: "
          f"{verdict}); settled {sum(o.settled for o in equal)} of {len(equal)}")
    for name in ("100 apart", "200 apart", "a tie in 300 apart"):
        outcomes = results[name]
        settled = [o for o in outcomes if o.settled]
        rounds = sorted(o.rounds for o in outcomes)
        wrong = sum(1 for o in outcomes if o.wrong_separations)
        verdict = "ok" if wrong / len(outcomes) <= 0.05 else "FAIL"
        ok &= verdict == "ok"
        games = sum(o.games for o in outcomes) / len(outcomes)
        print(f"(b) {name}: settled {share(len(settled), len(outcomes))}, rounds median {rounds[len(rounds) // 2]} "
              f"(max {rounds[-1]}), games mean {games:.0f}; true order {share(sum(o.true_order for o in outcomes), len(outcomes))} "
              f"(of the settled: {share(sum(o.true_order for o in settled), len(settled)) if settled else '-'}); "
              f"neighbours separated {sum(o.separated for o in outcomes) / len(outcomes):.1f} of {PLAYERS - 1} a final; "
              f"finals with a wrong separation {share(wrong, len(outcomes))} (target <= 5%: {verdict})")
    every = [o for outcomes in results.values() for o in outcomes]
    coverage = sum(o.covered for o in every) / sum(o.rated for o in every)
    verdict = "ok" if 0.93 <= coverage <= 0.97 else "FAIL"
    ok &= verdict == "ok"
    print(f"(c) 95% rating intervals holding the true rating: {clustered(every)} (target 93-97%: {verdict}); "
          + ", ".join(f"{name} {clustered(outcomes)}" for name, outcomes in results.items()))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

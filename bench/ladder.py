"""Figures for the practice ladder: matchmaking, rating updates, the refit, convergence, load. Not a test.

Run from the repository root::

    .venv/bin/python bench/ladder.py              # every section (about a minute and a half on 2 cores)
    .venv/bin/python bench/ladder.py --quick      # smaller convergence and load runs
    .venv/bin/python bench/ladder.py --sections mc   # m: matchmaking, r: ratings, f: refit, c: convergence, l: load

Targets (the issue's): a matchmaking decision over 200 free bots <= 5 ms; a rating update <= 1 ms
a game; the refit over 100,000 games <= 10 s; 200 connected bots: >= 90% of them in a game at any
moment. Convergence: 20 simulated bots with hidden strengths, games drawn from the Bradley-Terry
model; how many games each method needs until its order reaches Kendall tau >= 0.9 with the truth.
Everything is seeded.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.ladder import Candidate, LiveRatings, MatchmakingRules, pair_key, pick_pairings  # noqa: E402
from shared.ladder import published_table  # noqa: E402


def mark(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


# -- m: matchmaking --------------------------------------------------------------------------------
def bench_matchmaking(bots: int = 200, repeats: int = 200) -> None:
    rng = random.Random(1)
    names = [f"bot{i}" for i in range(bots)]
    meetings = Counter({pair_key(rng.choice(names), rng.choice(names)): rng.randrange(20) for _ in range(5000)})
    recent = Counter({pair_key(rng.choice(names), rng.choice(names)): rng.randrange(8) for _ in range(2000)})
    times = []
    for r in range(repeats):
        field = [Candidate(n, rng.gauss(0, 10), rng.uniform(0, 120), rng.choice((1, 1, 1, 2))) for n in names]
        start = time.perf_counter()
        pick_pairings(field, MatchmakingRules(), meetings=meetings, recent=recent)
        times.append(time.perf_counter() - start)
    times.sort()
    p50, p99 = times[len(times) // 2] * 1e3, times[int(len(times) * 0.99)] * 1e3
    print(f"matchmaking, {bots} free bots: p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {times[-1] * 1e3:.2f} ms "
          f"(target <= 5 ms) {mark(p99 <= 5)}")


# -- r: rating updates -----------------------------------------------------------------------------
def bench_ratings(games: int = 20000) -> None:
    ratings = LiveRatings()
    rng = random.Random(2)
    skills = [ratings.initial() for _ in range(50)]
    start = time.perf_counter()
    for _ in range(games):
        a, b = rng.sample(range(50), 2)
        skills[a], skills[b] = ratings.after_game(skills[a], skills[b], rng.choice((0, 1, None)))
    per = (time.perf_counter() - start) / games * 1e6
    print(f"rating update: {per:.1f} us a game over {games:,} games (target <= 1,000 us) {mark(per <= 1000)}")


# -- f: the refit ------------------------------------------------------------------------------------
def bench_refit(games: int = 100_000, bots: int = 50, samples: int = 100) -> None:
    rng = random.Random(3)
    names = [f"bot{i}" for i in range(bots)]
    strength = {n: rng.gauss(0, 300) for n in names}
    played = []
    for _ in range(games):
        a, b = rng.sample(names, 2)
        p = 1 / (1 + 10 ** ((strength[b] - strength[a]) / 400))
        played.append((a, b, 1.0 if rng.random() < p else 0.0))
    start = time.perf_counter()
    rows = published_table(names, played, anchor=names[0], samples=samples)
    took = time.perf_counter() - start
    rated = sum(r.rating is not None for r in rows)
    print(f"refit: {games:,} games of {bots} bots, {samples} bootstrap samples: {took:.2f} s, {rated} rated "
          f"(target <= 10 s) {mark(took <= 10)}")


# -- c: convergence ------------------------------------------------------------------------------------
def kendall_tau(order: list[int], truth: dict[int, float]) -> float:
    concordant = discordant = 0
    for i in range(len(order)):
        for j in range(i + 1, len(order)):
            # order[i] is ranked above order[j]
            if truth[order[i]] > truth[order[j]]:
                concordant += 1
            elif truth[order[i]] < truth[order[j]]:
                discordant += 1
    return (concordant - discordant) / (concordant + discordant)


def converge_ours(truth: dict[int, float], rng: random.Random, budget: int) -> int | None:
    """Our pairing (pick_pairings over openskill ordinals, meetings) and openskill ratings; pairs of games."""
    ratings = LiveRatings()
    skills = {i: ratings.initial() for i in truth}
    meetings: Counter[tuple[str, str]] = Counter()
    waited = {i: 0.0 for i in truth}
    played = 0
    while played < budget:
        field = [Candidate(str(i), skills[i].ordinal, waited[i]) for i in truth]
        pairings = pick_pairings(field, MatchmakingRules(pair_games_per_hour=10 ** 6), meetings=meetings)
        for p in pairings:
            a, b = int(p.first), int(p.second)
            for _ in range(2):
                prob = 1 / (1 + 10 ** ((truth[b] - truth[a]) / 400))
                winner = 0 if rng.random() < prob else 1
                skills[a], skills[b] = ratings.after_game(skills[a], skills[b], winner)
                played += 1
            meetings[pair_key(p.first, p.second)] += 2
        paired = {int(x) for p in pairings for x in (p.first, p.second)}
        for i in truth:
            waited[i] = 0.0 if i in paired else waited[i] + 1
        order = sorted(truth, key=lambda i: -skills[i].mu)
        if kendall_tau(order, truth) >= 0.9:
            return played
    return None


def converge_elo(truth: dict[int, float], rng: random.Random, budget: int, k: float = 16.0) -> int | None:
    """Plain Elo (K = 16) with random pairing, one game at a time."""
    elo = {i: 1500.0 for i in truth}
    names = list(truth)
    for played in range(1, budget + 1):
        a, b = rng.sample(names, 2)
        prob = 1 / (1 + 10 ** ((truth[b] - truth[a]) / 400))
        score = 1.0 if rng.random() < prob else 0.0
        expected = 1 / (1 + 10 ** ((elo[b] - elo[a]) / 400))
        elo[a] += k * (score - expected)
        elo[b] -= k * (score - expected)
        if played % 10 == 0 and kendall_tau(sorted(names, key=lambda i: -elo[i]), truth) >= 0.9:
            return played
    return None


def bench_convergence(runs: int = 10, bots: int = 20, budget: int = 20000) -> None:
    results: dict[str, list[int | None]] = {"ours (pairing + openskill)": [], "plain Elo, random pairing": []}
    for seed in range(runs):
        rng = random.Random(100 + seed)
        truth = {i: rng.gauss(0, 200) for i in range(bots)}
        results["ours (pairing + openskill)"].append(converge_ours(truth, random.Random(seed), budget))
        results["plain Elo, random pairing"].append(converge_elo(truth, random.Random(seed), budget))
    print(f"convergence: {bots} bots, true strengths ~ N(0, 200 Elo), {runs} seeds, budget {budget:,} games; "
          "games until Kendall tau >= 0.9:")
    for method, values in results.items():
        done = [v for v in values if v is not None]
        median = statistics.median(done) if done else math.nan
        print(f"  {method:28s} median {median:>8,.0f}  (reached in {len(done)}/{len(values)}; "
              f"all: {', '.join('-' if v is None else str(v) for v in values)})")


# -- l: load: 200 connected bots ----------------------------------------------------------------------
async def _load(bots: int, seconds: float) -> None:
    import json

    from websockets.asyncio.client import connect

    from server.app import ArenaServer
    from server.settings import Limits, ServerSettings
    from shared.quoridor import Location, Position, Step

    data = Path(tempfile.mkdtemp(prefix="ladder-bench-"))
    settings = ServerSettings(port=0, data_dir=data, ladder=True, ladder_opening_plies=2, ladder_refit_s=3600,
                              ladder_pair_games_per_hour=10 ** 6, seed=1, step_cap=30,
                              limits=Limits(max_pending_per_address=bots + 10))
    server = ArenaServer(settings)
    await server.start()
    ladder = asyncio.create_task(server.run_ladder())
    url = f"ws://127.0.0.1:{server.port}/"

    async def bot(key: str) -> None:
        async with connect(url) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "player", "key": key}))
            seat = 0
            async for raw in ws:
                frame = json.loads(raw)
                if frame["type"] == "game_start":
                    seat = frame["seat"]
                elif frame["type"] == "turn":
                    mine, theirs = Location(*frame["my_loc"]), Location(*frame["enemy_loc"])
                    pawns = (mine, theirs) if seat == 0 else (theirs, mine)
                    pos = Position.setup(pawns, [], turn=seat)
                    moves = pos.legal_moves()
                    step = Step(min(moves, key=lambda c: pos.apply(Step(c)).distance(seat)))
                    await ws.send(json.dumps({"type": "step", "game": frame["game"], "turn": frame["turn"],
                                              "move": list(step.new_loc), "wall": None}))

    tasks = [asyncio.create_task(bot(f"b{i}")) for i in range(bots)]
    await asyncio.sleep(5.0)            # everyone connected and seated
    shares = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        await asyncio.sleep(0.25)
        sessions = server.lobby.sessions
        busy = sum(1 for s in sessions if s.games)
        shares.append(busy / max(1, len(sessions)))
    played = server.ladder.games_played if server.ladder else 0
    for task in tasks:
        task.cancel()
    ladder.cancel()
    await asyncio.gather(ladder, *tasks, return_exceptions=True)
    await server.close()
    mean, low = statistics.mean(shares), min(shares)
    print(f"load: {bots} bots for {seconds:.0f} s: {played} games; share in a game: mean {mean:.0%}, "
          f"lowest sample {low:.0%} (target >= 90%) {mark(mean >= 0.9)}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--sections", default="mrfcl")
    args = p.parse_args()
    if "m" in args.sections:
        bench_matchmaking()
    if "r" in args.sections:
        bench_ratings()
    if "f" in args.sections:
        bench_refit(games=20_000 if args.quick else 100_000, samples=20 if args.quick else 100)
    if "c" in args.sections:
        bench_convergence(runs=3 if args.quick else 10)
    if "l" in args.sections:
        asyncio.run(_load(50 if args.quick else 200, 10 if args.quick else 30))


if __name__ == "__main__":
    main()

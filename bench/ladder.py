"""Figures for the practice ladder: matchmaking, rating updates, the refit, convergence, load. Not a test.

Run from the repository root (one CPU core is enough, and all it uses; ``taskset -c 0`` pins it)::

    .venv/bin/python bench/ladder.py              # every section (about two and a half minutes)
    .venv/bin/python bench/ladder.py --quick      # smaller refit, convergence and load runs
    .venv/bin/python bench/ladder.py --sections mc   # m: matchmaking, r: ratings, f: refit, c: convergence, l: load
    .venv/bin/python bench/ladder.py --sections c --seeds 50 --budget 4000 --pair-cap 1000000

Targets (the issue's): a matchmaking decision over 200 free bots <= 5 ms; a rating update <= 1 ms
a game; the refit over 100,000 games <= 10 s; 200 connected bots: >= 90% of them in a game at any
moment. Convergence: 20 simulated bots with hidden strengths, games drawn from the Bradley-Terry
model; how many games each method needs until its order reaches Kendall tau >= 0.9 with the truth.
Ours is the ladder's own code: ``pick_pairings`` over the live openskill ratings (as the server
calls it), each pairing two colour-swapped games (both counted), the order of the published
table's Bradley-Terry fit (``ladder_ratings``); against plain Elo (K = 16) with random pairing on the
same budget, and, to show what the pairing alone is worth, random pairing with our fit. Both orders
are compared with the truth at the same points (every 20 games); a first passage rewards a noisy
order's lucky moments, so the bench also gives the games from which tau *stays* at 0.9 or above.
With it (section c), a newcomer: one bot joins a ladder 1,000 games old (a new version is a new
track); how many of its games the published order needs to place it within one place of the truth.
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
from collections import Counter, deque
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.ladder import (
    Candidate,
    LiveRatings,
    MatchmakingRules,
    ladder_ratings,
    pair_key,
    pick_pairings,
    published_table,
)


def mark(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


# -- m: matchmaking --------------------------------------------------------------------------------
def bench_matchmaking(bots: int = 200, repeats: int = 200) -> None:
    rng = random.Random(1)
    names = [f"bot{i}" for i in range(bots)]
    meetings = Counter({pair_key(rng.choice(names), rng.choice(names)): rng.randrange(20) for _ in range(5000)})
    recent = Counter({pair_key(rng.choice(names), rng.choice(names)): rng.randrange(8) for _ in range(2000)})
    walls, cpus = [], []
    for r in range(repeats):
        # as the server gives them: openskill mean and sigma (a newcomer's sigma is 8.3)
        field = [Candidate(n, rng.gauss(25, 10), rng.uniform(0, 120), rng.choice((1, 1, 1, 2)), rng.uniform(1, 8.4))
                 for n in names]
        wall, cpu = time.perf_counter(), time.thread_time()
        pick_pairings(field, MatchmakingRules(), meetings=meetings, recent=recent)
        cpus.append(time.thread_time() - cpu)
        walls.append(time.perf_counter() - wall)

    def p(values: list[float], q: float) -> float:
        return sorted(values)[min(len(values) - 1, int(len(values) * q))] * 1e3
    # The verdict is on CPU time: on a shared machine the wall clock also counts other processes' turns.
    print(f"matchmaking, {bots} free bots: CPU p50 {p(cpus, 0.5):.2f} ms, p99 {p(cpus, 0.99):.2f} ms, "
          f"max {max(cpus) * 1e3:.2f} ms; wall p50 {p(walls, 0.5):.2f} ms, p99 {p(walls, 0.99):.2f} ms "
          f"(target <= 5 ms, on CPU p99) {mark(p(cpus, 0.99) <= 5)}")


# -- r: rating updates -----------------------------------------------------------------------------
def bench_ratings(games: int = 20000) -> None:
    ratings = LiveRatings()
    rng = random.Random(2)
    skills = [ratings.initial() for _ in range(50)]
    start, cpu = time.perf_counter(), time.thread_time()
    for _ in range(games):
        a, b = rng.sample(range(50), 2)
        skills[a], skills[b] = ratings.after_game(skills[a], skills[b], rng.choice((0, 1, None)))
    per_cpu = (time.thread_time() - cpu) / games * 1e6
    per = (time.perf_counter() - start) / games * 1e6
    print(f"rating update: CPU {per_cpu:.1f} us, wall {per:.1f} us a game over {games:,} games "
          f"(target <= 1,000 us, on CPU) {mark(per_cpu <= 1000)}")


# -- f: the refit ------------------------------------------------------------------------------------
def bench_refit(games: int = 100_000, bots: int = 50) -> None:
    rng = random.Random(3)
    names = [f"bot{i}" for i in range(bots)]
    strength = {n: rng.gauss(0, 300) for n in names}
    played = []
    for _ in range(games):
        a, b = rng.sample(names, 2)
        p = 1 / (1 + 10 ** ((strength[b] - strength[a]) / 400))
        played.append((a, b, 1.0 if rng.random() < p else 0.0))
    start, cpu = time.perf_counter(), time.thread_time()
    rows = published_table(names, played, anchor=names[0])
    cpu, took = time.thread_time() - cpu, time.perf_counter() - start
    rated = sum(r.rating is not None for r in rows)
    print(f"refit: {games:,} games of {bots} bots, with likelihood intervals: CPU {cpu:.2f} s, wall {took:.2f} s, "
          f"{rated} rated (target <= 10 s, on CPU) {mark(cpu <= 10)}")


# -- c: convergence ------------------------------------------------------------------------------------
#: How often both methods' orders are compared with the truth: one round of 10 pairings of 20 bots.
CHECK_EVERY = 20


def kendall_tau(order: list[str], truth: dict[str, float]) -> float:
    """Kendall's tau between ``order`` (best first) and the order of ``truth`` (no ties in either)."""
    concordant = discordant = 0
    for i in range(len(order)):
        for j in range(i + 1, len(order)):
            if truth[order[i]] > truth[order[j]]:
                concordant += 1
            else:
                discordant += 1
    return (concordant - discordant) / (concordant + discordant)


def _win(truth: dict[str, float], white: str, black: str, rng: random.Random) -> int:
    """The winner's seat of one game drawn from the Bradley-Terry (logistic Elo) model, no colour advantage."""
    return 0 if rng.random() < 1 / (1 + 10 ** ((truth[black] - truth[white]) / 400)) else 1


def _fitted_order(names: list[str], games: list[tuple[str, str, float]]) -> list[str]:
    """The ladder's order: the published table's Bradley-Terry fit over every game so far (unrated last)."""
    fitted = ladder_ratings(names, games)
    return sorted(names, key=lambda n: (fitted[n] is None, -(fitted[n] or 0.0), n))


def _ladder_games(truth: dict[str, float], rng: random.Random, rules: MatchmakingRules, pairing_s: float,
                  pairing: str = "ladder", arrives: tuple[str, int] | None = None,
                  ) -> Iterator[tuple[list[tuple[str, str, float]], list[str]]]:
    """The ladder as the server runs it, game by game: every game so far and the bots present, after each game.

    Each round the free bots (all present: a pairing lasts ``pairing_s`` and everyone has one slot)
    are paired by ``pick_pairings`` on the live openskill ratings, as
    ``server.ladder.runner.LadderRunner.candidates`` gives them (mean and sigma; ``pairing="ordinal"``: the
    conservative ordinal, as before), with the meetings and the last hour's games for the pair cap; a
    pairing is two colour-swapped games, each updating the live ratings. ``pairing="random"``
    pairs at random instead. ``arrives`` is ``(bot, games)``: that bot joins once that many games are played.
    """
    ratings = LiveRatings()
    names = sorted(truth)
    present = [n for n in names if arrives is None or n != arrives[0]]
    skills = {n: ratings.initial() for n in names}
    waited = {n: 0.0 for n in names}
    meetings: Counter[tuple[str, str]] = Counter()
    recent: deque[tuple[float, tuple[str, str]]] = deque()
    games: list[tuple[str, str, float]] = []
    clock = 0.0
    while True:
        if arrives is not None and arrives[0] not in present and len(games) >= arrives[1]:
            present.append(arrives[0])
        while recent and recent[0][0] <= clock - 3600.0:
            recent.popleft()
        if pairing == "random":
            shuffled = rng.sample(present, len(present))
            pairs = [(shuffled[i], shuffled[i + 1]) for i in range(0, len(shuffled) - 1, 2)]
        else:
            field = [Candidate(n, skills[n].ordinal, waited[n]) if pairing == "ordinal"
                     else Candidate(n, skills[n].mu, waited[n], 1, skills[n].sigma) for n in present]
            pairs = [(p.first, p.second) for p in pick_pairings(field, rules, meetings=meetings,
                                                                 recent=Counter(k for _, k in recent))]
        for a, b in pairs:
            for white, black in ((a, b), (b, a)):
                winner = _win(truth, white, black, rng)
                skills[white], skills[black] = ratings.after_game(skills[white], skills[black], winner)
                games.append((white, black, 1.0 - winner))
                meetings[pair_key(a, b)] += 1
                recent.append((clock, pair_key(a, b)))
                yield games, present
        paired = {n for pair in pairs for n in pair}
        for n in present:
            waited[n] = 0.0 if n in paired else waited[n] + pairing_s
        clock += pairing_s


def converge_ours(truth: dict[str, float], rng: random.Random, budget: int, rules: MatchmakingRules,
                  pairing_s: float, pairing: str = "ladder") -> list[tuple[int, float]]:
    """The ladder (``_ladder_games``) ordered by the published table's fit: tau after every ``CHECK_EVERY`` games."""
    trace: list[tuple[int, float]] = []
    for games, present in _ladder_games(truth, rng, rules, pairing_s, pairing):
        if len(games) % CHECK_EVERY == 0:
            trace.append((len(games), kendall_tau(_fitted_order(present, games), truth)))
        if len(games) >= budget:
            return trace
    raise AssertionError("unreachable: the ladder plays forever")


def newcomer_errors(truth: dict[str, float], rng: random.Random, rules: MatchmakingRules, pairing_s: float,
                    pairing: str, warm: int = 1000, games_of_newcomer: int = 80) -> list[tuple[int, int]]:
    """A bot ("new") joins a ladder ``warm`` games old: after each of its pairings, its games and rank error.

    The rank error is how many places the published fit's order puts it from its true place.
    """
    trace: list[tuple[int, int]] = []
    own = 0
    for games, present in _ladder_games(truth, rng, rules, pairing_s, pairing, arrives=("new", warm)):
        if "new" in games[-1][:2]:
            own += 1
            if own % 2 == 0:                # a pairing's second game
                fitted, true = _fitted_order(present, games), sorted(present, key=lambda n: -truth[n])
                trace.append((own, abs(fitted.index("new") - true.index("new"))))
            if own >= games_of_newcomer:
                return trace
    raise AssertionError("unreachable: the ladder plays forever")


def converge_elo(truth: dict[str, float], rng: random.Random, budget: int, k: float = 16.0) -> list[tuple[int, float]]:
    """Plain Elo (K = 16) with random pairing, one game at a time: tau after every ``CHECK_EVERY`` games."""
    elo = {n: 1500.0 for n in truth}
    names = sorted(truth)
    trace = []
    for played in range(1, budget + 1):
        a, b = rng.sample(names, 2)
        score = 1.0 - _win(truth, a, b, rng)
        expected = 1 / (1 + 10 ** ((elo[b] - elo[a]) / 400))
        elo[a] += k * (score - expected)
        elo[b] -= k * (score - expected)
        if played % CHECK_EVERY == 0:
            trace.append((played, kendall_tau(sorted(names, key=lambda n: -elo[n]), truth)))
    return trace


def reaches(trace: list[tuple[int, float]], target: float = 0.9) -> float:
    """Games until tau first reaches ``target`` (inf: not within the budget)."""
    return next((float(g) for g, t in trace if t >= target), math.inf)


def holds(trace: list[tuple[int, float]], target: float = 0.9) -> float:
    """Games from which tau stays at ``target`` or above to the end of the budget (inf: it does not)."""
    below = [g for g, t in trace if t < target]
    if not below:
        return float(trace[0][0])
    return math.inf if below[-1] == trace[-1][0] else float(below[-1] + CHECK_EVERY)


def _spread(values: list[float], budget: int) -> str:
    """Median and quartiles of games (``>budget`` where a run did not get there)."""
    def show(x: float) -> str:
        return f">{budget:,}" if math.isinf(x) else f"{x:,.0f}"
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    reached = sum(not math.isinf(v) for v in values)
    return f"median {show(median):>7s} (quartiles {show(q1)} to {show(q3)}, {reached}/{len(values)} got there)"


def bench_convergence(runs: int = 30, bots: int = 20, budget: int = 3000, pairing_s: float = 60.0,
                      pair_cap: int = MatchmakingRules().pair_games_per_hour) -> None:
    rules = MatchmakingRules(pair_games_per_hour=pair_cap)
    methods = {"ours: ladder pairing + BT fit": lambda t, r: converge_ours(t, r, budget, rules, pairing_s),
               "random pairing + BT fit": lambda t, r: converge_ours(t, r, budget, rules, pairing_s, "random"),
               "plain Elo K=16, random pairing": lambda t, r: converge_elo(t, r, budget)}
    traces: dict[str, list[list[tuple[int, float]]]] = {m: [] for m in methods}
    start = time.perf_counter()
    for seed in range(runs):
        rng = random.Random(100 + seed)
        truth = {f"bot{i:02d}": rng.gauss(0, 200) for i in range(bots)}
        for method, run in methods.items():
            traces[method].append(run(truth, random.Random(seed)))
    took = time.perf_counter() - start
    print(f"convergence: {bots} bots, true strengths ~ N(0, 200 Elo), seeds 0-{runs - 1}, budget {budget:,} games, "
          f"tau checked every {CHECK_EVERY} games; ladder: a pairing (2 games) every {pairing_s:.0f} s, "
          f"cap {pair_cap} games a pair an hour ({took:.0f} s)")
    medians: dict[str, tuple[float, float]] = {}
    for method, runs_of in traces.items():
        first, kept = [reaches(t) for t in runs_of], [holds(t) for t in runs_of]
        medians[method] = (statistics.median(first), statistics.median(kept))
        at = {g: statistics.mean(t[g // CHECK_EVERY - 1][1] for t in runs_of) for g in (500, 1000, budget)}
        print(f"  {method:31s} tau >= 0.9 first: {_spread(first, budget)}")
        print(f"  {'':31s}       and stays: {_spread(kept, budget)}")
        print(f"  {'':31s}  mean tau after {', '.join(f'{g:,}: {v:.3f}' for g, v in at.items())}")
    ours, elo = medians["ours: ladder pairing + BT fit"], medians["plain Elo K=16, random pairing"]
    for label, i in (("first reaching 0.9", 0), ("staying at 0.9", 1)):
        ratio = "n/a" if math.isinf(ours[i]) else ("0 (Elo's median run never gets there)" if math.isinf(elo[i])
                                                    else f"{ours[i] / elo[i]:.2f}")
        verdict = "ours needs fewer" if ours[i] < elo[i] else "ours does NOT need fewer"
        print(f"  median games, ours / plain Elo, {label}: {ratio} ({verdict}) {mark(ours[i] < elo[i])}")


def bench_newcomer(runs: int = 30, bots: int = 20, warm: int = 1000, pairing_s: float = 60.0,
                   pair_cap: int = MatchmakingRules().pair_games_per_hour) -> None:
    """A new bot (or a new version: a new track) joins a running ladder: how fast it finds its place."""
    rules = MatchmakingRules(pair_games_per_hour=pair_cap)
    methods = {"ours: pairing on mean and sigma": "ladder", "pairing on the ordinal mu-3sigma": "ordinal",
               "random pairing": "random"}
    print(f"newcomer: joins {bots - 1} bots after {warm:,} games (same strengths, seeds 0-{runs - 1}); the "
          "published fit's rank of it against its true rank:")
    for label, pairing in methods.items():
        settled, early = [], []
        for seed in range(runs):
            rng = random.Random(100 + seed)
            truth = {f"bot{i:02d}": rng.gauss(0, 200) for i in range(bots - 1)}
            truth["new"] = rng.gauss(0, 200)
            trace = newcomer_errors(truth, random.Random(seed), rules, pairing_s, pairing, warm)
            off = [g for g, error in trace if error > 1]
            settled.append(math.inf if off and off[-1] == trace[-1][0] else float(off[-1] + 2 if off else 2))
            early.append(statistics.mean(error for g, error in trace if g <= 20))
        print(f"  {label:32s} its games until within 1 place for good: {_spread(settled, 80)}; "
              f"mean places off in its first 20 games {statistics.mean(early):.2f}")


# -- l: load: 200 connected bots ----------------------------------------------------------------------
async def _load(bots: int, seconds: float) -> None:
    """The ladder's load section in a temporary data folder, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="ladder-bench-") as folder:
        await _load_in(Path(folder), bots, seconds)


async def _load_in(data: Path, bots: int, seconds: float) -> None:
    import json

    from websockets.asyncio.client import connect

    from server.app import ArenaServer
    from server.settings import Limits, ServerSettings
    from shared.quoridor import Location, Position, Step

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
    await asyncio.gather(*tasks, return_exceptions=True)
    while not ladder.done():
        # Python 3.11's wait_for can swallow a cancellation that lands as the runner's wake-up event
        # fires (games end as the bots go), and LadderRunner.run then loops on: cancel until it stops.
        ladder.cancel()
        await asyncio.wait([ladder], timeout=1.0)
    await server.close()
    mean, low = statistics.mean(shares), min(shares)
    print(f"load: {bots} bots for {seconds:.0f} s: {played} games; share in a game: mean {mean:.0%}, "
          f"lowest sample {low:.0%} (target >= 90%) {mark(mean >= 0.9)}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--sections", default="mrfcl")
    p.add_argument("--seeds", type=int, default=None, help="convergence and newcomer runs (default 30, 5 with --quick)")
    p.add_argument("--budget", type=int, default=3000, help="games per convergence run")
    p.add_argument("--pairing-s", type=float, default=60.0, help="seconds a ladder pairing (two games) lasts")
    p.add_argument("--pair-cap", type=int, default=MatchmakingRules().pair_games_per_hour,
                   help="games one pair may play in an hour (the server's ladder_pair_games_per_hour)")
    args = p.parse_args()
    if "m" in args.sections:
        bench_matchmaking()
    if "r" in args.sections:
        bench_ratings()
    if "f" in args.sections:
        bench_refit(games=20_000 if args.quick else 100_000)
    if "c" in args.sections:
        bench_convergence(runs=args.seeds or (5 if args.quick else 30), budget=args.budget, pairing_s=args.pairing_s,
                          pair_cap=args.pair_cap)
        bench_newcomer(runs=args.seeds or (5 if args.quick else 30), pairing_s=args.pairing_s, pair_cap=args.pair_cap)
    if "l" in args.sections:
        asyncio.run(_load(50 if args.quick else 200, 10 if args.quick else 30))


if __name__ == "__main__":
    main()

"""Figures for the sandbox of handed-in bots (``server/sandbox``). Not a test.

Run from the repository root (bubblewrap installed)::

    .venv/bin/python bench/sandbox.py                # every section (a few minutes on 2 cores)
    .venv/bin/python bench/sandbox.py --sections sl  # s: start time, l: latency per step, t: tournament
    .venv/bin/python bench/sandbox.py --quick        # fewer starts and steps, a 4-bot tournament

Targets (issue 18):

* s: a sandboxed bot starts (bubblewrap, Python, the bot imported and created, its ``hello`` read)
  in <= 150 ms (median over repeated starts of the built-in ``random`` and of a file bot);
* l: a step over the pipe adds <= 1 ms at p99 to the same bot asked in process (a bot that answers
  at once, so only the machinery is measured: the turn line written, read by the bot host, the
  step line read back and parsed as the server parses it);
* t: a round-robin of 8 built-in bots (random, runner, blocker, defender, strong and again runner,
  blocker, defender; 2 games a pairing, 1 s a step), hosted in the sandbox 2 pairings at once,
  finishes within 1.3x the time of the same tournament played in process on 2 worker processes
  (``quoridor-match -j 2``'s machinery).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from client.driver import BotDriver  # noqa: E402
from client.match import run_games  # noqa: E402
from client.match_plan import Lineup, round_robin_pairings, schedule  # noqa: E402
from server.sandbox import (  # noqa: E402
    BotEntry, GameSpec, HostedBot, LocalGameHost, Pairing, SandboxLimits, sandbox_status,
)
from shared.protocol import parse_client, turn_frame  # noqa: E402
from shared.quoridor import GameStatus, Location  # noqa: E402
from shared.quoridor.types import ChessboardChange  # noqa: E402
from shared.referee import RefereeSettings  # noqa: E402

CONSTANT_BOT = '''
from shared.quoridor import Location, Step

STEP = Step(Location(5, 2))


class Constant:
    """Answers every turn at once with the same step: only the machinery around it is measured."""

    def __init__(self, key=""):
        self.key = key

    def next_step(self, change):
        return STEP
'''

WALKER_BOT = '''
from client.player import Player
from shared.quoridor import Step


class Walker(Player):
    def next_step(self, change):
        return Step(self.shortest_path()[1])
'''


def mark(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


# -- s: start time ---------------------------------------------------------------------------------
async def bench_start(folder: Path, starts: int) -> None:
    print(f"s: start time over {starts} starts each (spawn to the bot's hello; bwrap + Python + the bot)")
    limits = SandboxLimits()
    medians = []
    for label, spec, where in (("built-in random", "random", None), ("file bot (a Player subclass)", "walker.py",
                                                                      folder)):
        times = []
        for _ in range(starts):
            bot = HostedBot(spec, where, limits)
            failed = await bot.start()
            assert failed is None, failed
            assert bot.start_s is not None
            times.append(bot.start_s * 1000)
            await bot.close()
        median = statistics.median(times)
        medians.append(median)
        print(f"   {label:30s} median {median:6.1f} ms   p90 {percentile(times, 0.9):6.1f} ms   "
              f"min {min(times):6.1f} ms")
    print(f"   target <= 150 ms (median): {mark(max(medians) <= 150)}")


# -- l: latency per step ---------------------------------------------------------------------------
async def round_trips(bot: HostedBot, steps: int) -> list[float]:
    """Milliseconds from writing each of ``steps`` turns to ``bot`` to its step's arrival, parsed (``bot`` is started
    here and closed after)."""
    answers: asyncio.Queue[tuple[str, float]] = asyncio.Queue()
    bot.on_line = lambda text, arrived_at: answers.put_nowait((text, arrived_at))
    assert await bot.start() is None
    bot.send('{"type":"game_start","game":"g","opponent":"x","seat":0}')
    change = ChessboardChange(GameStatus.OK, Location(5, 1), Location(5, 9))
    times = []
    for turn in range(steps):
        sent = time.monotonic()
        bot.send(turn_frame("g", turn, change, (10, 10), 1000))
        text, arrived_at = await answers.get()
        parse_client(text)
        times.append((arrived_at - sent) * 1000)
    await bot.close()
    return times


async def bench_latency(folder: Path, steps: int) -> None:
    print(f"l: added time per step, {steps} steps of a bot that answers at once")
    change = ChessboardChange(GameStatus.OK, Location(5, 1), Location(5, 9))
    driver = BotDriver(_constant_bot(folder))
    local = []
    for _ in range(steps):
        started = time.perf_counter()
        driver.ask_now(change, (10, 10), 1000)
        local.append((time.perf_counter() - started) * 1000)
    hosted = await round_trips(HostedBot("constant.py", folder, SandboxLimits()), steps)
    added_p50 = percentile(hosted, 0.5) - percentile(local, 0.5)
    added_p99 = percentile(hosted, 0.99) - percentile(local, 0.99)
    print(f"   in process   p50 {percentile(local, 0.5):7.3f} ms   p99 {percentile(local, 0.99):7.3f} ms")
    print(f"   over pipe    p50 {percentile(hosted, 0.5):7.3f} ms   p99 {percentile(hosted, 0.99):7.3f} ms")
    print(f"   added        p50 {added_p50:7.3f} ms   p99 {added_p99:7.3f} ms   target p99 <= 1 ms: "
          f"{mark(added_p99 <= 1.0)}")


def _constant_bot(folder: Path) -> object:
    namespace: dict[str, object] = {}
    exec(compile((folder / "constant.py").read_text(), "constant.py", "exec"), namespace)   # noqa: S102
    return namespace["Constant"]("k")  # type: ignore[operator]


# -- t: tournament ---------------------------------------------------------------------------------
BOTS = ("random", "runner", "blocker", "defender", "strong", "runner", "blocker", "defender")


def tournament_in_process(bots: tuple[str, ...], settings: RefereeSettings) -> tuple[float, int]:
    lineup = Lineup.of(list(bots))
    played = []
    started = time.perf_counter()
    run_games(lineup, settings, schedule(round_robin_pairings(len(bots)), 2), lambda game: played.append(game) or True,
              workers=2)
    return time.perf_counter() - started, len(played)


async def tournament_hosted(bots: tuple[str, ...], settings: RefereeSettings, folder: Path) -> tuple[float, int, float]:
    names = [f"{bot}-{i}" for i, bot in enumerate(bots)]
    host = LocalGameHost(SandboxLimits(), concurrency=2)
    pairings = []
    for a, b in round_robin_pairings(len(bots)):
        games = tuple(GameSpec(f"p{a}-{b}-g{g}", folder / f"p{a}-{b}-g{g}.csv", white=g) for g in (0, 1))
        pairings.append(Pairing((BotEntry(names[a], bots[a]), BotEntry(names[b], bots[b])), games, settings))
    started = time.perf_counter()
    results = await asyncio.gather(*(host.play(p) for p in pairings))
    elapsed = time.perf_counter() - started
    await host.close()
    starts = [r.start_s for result in results for r in result.reports if r.start_s is not None]
    return elapsed, sum(len(r.games) for r in results), statistics.mean(starts) if starts else float("nan")


async def bench_tournament(folder: Path, quick: bool) -> None:
    bots = BOTS[:4] if quick else BOTS
    settings = RefereeSettings(time_limit_ms=1000)
    print(f"t: round-robin of {len(bots)} built-in bots ({', '.join(bots)}), 2 games a pairing, 2 at once")
    local_s, local_games = tournament_in_process(bots, settings)
    print(f"   in process (2 worker processes)  {local_games} games in {local_s:7.1f} s")
    hosted_s, hosted_games, start_s = await tournament_hosted(bots, settings, folder)
    print(f"   hosted in the sandbox (2 at once) {hosted_games} games in {hosted_s:7.1f} s "
          f"(one process per bot and pairing, mean start {start_s * 1000:.0f} ms)")
    ratio = hosted_s / local_s
    print(f"   ratio {ratio:.2f}x   target <= 1.3x: {mark(ratio <= 1.3)}")


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", default="slt", help="s: start time, l: latency per step, t: tournament")
    parser.add_argument("--quick", action="store_true", help="fewer starts and steps, a 4-bot tournament")
    args = parser.parse_args()
    problem = sandbox_status()
    if problem is not None:
        print(f"the sandbox does not work here: {problem}")
        return 1
    print(f"cores: {os.cpu_count()}   load: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="quoridor-bench-sandbox-") as scratch:
        folder = Path(scratch)
        folder.chmod(0o755)                 # the sandbox's own user reads the bots' files
        (folder / "constant.py").write_text(CONSTANT_BOT)
        (folder / "walker.py").write_text(WALKER_BOT)
        if "s" in args.sections:
            await bench_start(folder, 5 if args.quick else 20)
        if "l" in args.sections:
            await bench_latency(folder, 300 if args.quick else 3000)
        if "t" in args.sections:
            logs = folder / "logs"
            logs.mkdir()
            await bench_tournament(logs, args.quick)
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))

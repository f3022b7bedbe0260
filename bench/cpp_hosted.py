"""Figures for C++ bots hosted by the server (``HostedBot`` of a ``FILE.cpp`` spec, in the sandbox). Not a test.

Run from the repository root (bubblewrap, g++ and nlohmann-json3-dev installed)::

    .venv/bin/python bench/cpp_hosted.py                # every section (under a minute on 2 cores)
    .venv/bin/python bench/cpp_hosted.py --sections sl  # s: start time, l: step over the channel, t: round robin
    .venv/bin/python bench/cpp_hosted.py --quick        # fewer starts and steps, 2 games a pairing

Every C++ bot is built (into a cache of the run's own) before anything is timed: a build is
``bench/cpp_build.py``'s figure, and the server builds before a bot's startup clock starts.

Targets (issue 32):

* s: a built C++ bot starts in the sandbox (bubblewrap, the executable, its Player created, its ``hello``
  read) in <= 100 ms (median); the Python host's start of a file bot, in the same run, for comparison;
* l: a step over the channel of a C++ bot that answers at once (the turn line written, read and parsed by
  the arena's main, ``nextStep`` called, the step line read back and parsed as the server parses it) adds
  <= 0.5 ms at p99, against the Python host's figure in the same run (``bench/sandbox.py``'s: its round
  trip less the same bot asked in process);
* t: a round robin of 4 C++ bots (``examples/cpp`` and the handout bot, two hand-ins of each) and 4 Python
  bots (random, runner, blocker, defender), hosted 2 pairings at once, 4 games a pairing: 112 games; its time
  against the same with the 4 C++ bots replaced by the Python bots that play like them (blocker walls like
  ``examples/cpp``, runner walks like the handout bot), each played twice (ABBA). No target: the figure.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from client.driver import BotDriver  # noqa: E402
from client.match_plan import round_robin_pairings  # noqa: E402
from server.sandbox import BotEntry, GameSpec, HostedBot, LocalGameHost, Pairing, SandboxLimits  # noqa: E402
from server.sandbox.cppbuild import compiler_version, sandboxed_cpp_build  # noqa: E402
from server.sandbox.status import sandbox_status  # noqa: E402
from shared.quoridor import GameStatus, Location  # noqa: E402
from shared.quoridor.types import ChessboardChange  # noqa: E402
from shared.referee import RefereeSettings  # noqa: E402
from sandbox import CONSTANT_BOT, WALKER_BOT, percentile, round_trips  # noqa: E402  (bench/sandbox.py: the Python host's bench)

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "cpp"
HANDOUT = ROOT / "tests" / "client" / "cpp" / "handout_bot"
TARGET_START_MS = 100.0
TARGET_ADDED_P99_MS = 0.5

CONSTANT_CPP = '''#include "Player.h"
using namespace QuoridorUtils;

// Answers every turn at once with the same step: only the machinery around it is measured.
class Constant : public Player {
public:
    Constant(const std::string& key) : Player(key) {}
    Step nextStep(const ChessboardChange&) override { return Step(Location(5, 2)); }
    void restart() override {}
};
'''


def mark(ok: bool) -> str:
    """A figure's verdict against its target."""
    return "ok" if ok else "MISSED"


def built(folder: Path, spec: str, builds: Path) -> None:
    """Build the C++ bot ``spec`` of ``folder`` into ``builds`` (untimed); exits when it does not build."""
    entry = spec if ":" in spec else None
    answer = sandboxed_cpp_build(folder, builds, entry=entry)
    if answer.executable is None:
        raise SystemExit(f"cpp_hosted: {folder / spec} does not build: {answer.reason}")


# -- s: start time ---------------------------------------------------------------------------------
async def bench_start(scratch: Path, builds: Path, starts: int) -> None:
    print(f"s: start of a built bot in the sandbox, {starts} starts each (spawn to its hello)")
    limits = SandboxLimits()
    medians: dict[str, float] = {}
    for label, spec, folder in (("C++ examples/cpp", "MyPlayer.cpp", EXAMPLE),
                                ("C++ handout bot", "QuoridorClient/MyPlayer.cpp", HANDOUT),
                                ("Python file bot", "walker.py", scratch)):
        times = []
        for _ in range(starts):
            bot = HostedBot(spec, folder, limits, builds=builds)
            failed = await bot.start()
            assert failed is None and bot.start_s is not None, failed
            times.append(bot.start_s * 1000)
            await bot.close()
        medians[label] = statistics.median(times)
        print(f"   {label:18s} median {medians[label]:6.1f} ms   p90 {percentile(times, 0.9):6.1f} ms   "
              f"min {min(times):6.1f} ms")
    worst = max(value for label, value in medians.items() if label.startswith("C++"))
    print(f"   C++ target <= {TARGET_START_MS:g} ms (median): {mark(worst <= TARGET_START_MS)}")


# -- l: a step over the channel --------------------------------------------------------------------
async def bench_latency(scratch: Path, builds: Path, steps: int) -> None:
    print(f"l: a step over the channel, {steps} steps of a bot that answers at once")
    driver = BotDriver(_constant_py(scratch))
    change = ChessboardChange(GameStatus.OK, Location(5, 1), Location(5, 9))
    local = []
    for _ in range(steps):
        started = time.perf_counter()
        driver.ask_now(change, (10, 10), 1000)
        local.append((time.perf_counter() - started) * 1000)
    python = await round_trips(HostedBot("constant.py", scratch, SandboxLimits()), steps)
    cpp = await round_trips(HostedBot("Constant.cpp", scratch / "constant-cpp", SandboxLimits(), builds=builds), steps)
    python_added = (percentile(python, 0.5) - percentile(local, 0.5), percentile(python, 0.99) - percentile(local, 0.99))
    # A C++ bot's nextStep that returns a constant takes nanoseconds: its round trip is all the channel adds.
    cpp_added = (percentile(cpp, 0.5), percentile(cpp, 0.99))
    print(f"   Python, in process    p50 {percentile(local, 0.5):7.3f} ms   p99 {percentile(local, 0.99):7.3f} ms")
    print(f"   Python host, hosted   p50 {percentile(python, 0.5):7.3f} ms   p99 {percentile(python, 0.99):7.3f} ms"
          f"   added p50 {python_added[0]:6.3f} ms   p99 {python_added[1]:6.3f} ms")
    print(f"   C++ main, hosted      p50 {percentile(cpp, 0.5):7.3f} ms   p99 {percentile(cpp, 0.99):7.3f} ms"
          f"   added p50 {cpp_added[0]:6.3f} ms   p99 {cpp_added[1]:6.3f} ms")
    print(f"   C++ target p99 added <= {TARGET_ADDED_P99_MS:g} ms: {mark(cpp_added[1] <= TARGET_ADDED_P99_MS)}"
          f"   (the Python host adds {python_added[1]:.3f} ms at p99)")


def _constant_py(folder: Path) -> object:
    namespace: dict[str, object] = {}
    exec(compile((folder / "constant.py").read_text(), "constant.py", "exec"), namespace)   # noqa: S102
    return namespace["Constant"]("k")  # type: ignore[operator]


# -- t: round robin --------------------------------------------------------------------------------
async def round_robin(bots: list[BotEntry], games: int, logs: Path) -> tuple[float, int, int]:
    """A hosted round robin of ``bots``, ``games`` a pairing, 2 pairings at once: seconds, games, steps."""
    host = LocalGameHost(SandboxLimits(), concurrency=2)
    settings = RefereeSettings(time_limit_ms=1000)
    pairings = []
    for a, b in round_robin_pairings(len(bots)):
        specs = tuple(GameSpec(f"p{a}-{b}-g{g}", logs / f"p{a}-{b}-g{g}.csv", white=g % 2) for g in range(games))
        pairings.append(Pairing((bots[a], bots[b]), specs, settings))
    started = time.perf_counter()
    results = await asyncio.gather(*(host.play(pairing) for pairing in pairings))
    elapsed = time.perf_counter() - started
    await host.close()
    for result in results:
        for report in result.reports:
            if report.end is None or report.end.cause != "ok":
                print(f"   note: {report.name} ended {report.end}")
    return elapsed, sum(len(r.games) for r in results), sum(game.steps for r in results for game in r.games)


async def bench_round_robin(scratch: Path, builds: Path, games: int) -> None:
    copies = {}
    for name, source in (("MyPlayer-a", EXAMPLE), ("MyPlayer-b", EXAMPLE), ("handout-a", HANDOUT),
                         ("handout-b", HANDOUT)):
        copy = scratch / "hand-ins" / name                      # two hand-ins of each: two builds, as on a server
        shutil.copytree(source, copy)
        source_file = min(copy.rglob("MyPlayer.cpp"))
        source_file.write_text(source_file.read_text(encoding="utf-8") + f"\n// {name}\n", encoding="utf-8")
        copies[name] = (copy, source_file.relative_to(copy).as_posix())
    for copy, spec in copies.values():
        built(copy, spec, builds)
    python = [BotEntry(name, name) for name in ("random", "runner", "blocker", "defender")]
    cpp = [BotEntry(name, spec, copy, builds=builds) for name, (copy, spec) in copies.items()]
    like_cpp = [BotEntry(f"{name}-{i}", name) for i, name in enumerate(("blocker", "blocker", "runner", "runner"))]
    pairings = len(round_robin_pairings(8))
    print(f"t: round robin of 8 hosted bots, {games} games a pairing ({pairings * games} games), 2 pairings at once;"
          f" each lineup twice, in the order ABBA")
    lineups = {"4 C++ + 4 Python": cpp + python, "8 Python": like_cpp + python}
    times: dict[str, list[float]] = {label: [] for label in lineups}
    for run, label in enumerate((*lineups, *reversed(lineups))):
        logs = scratch / f"logs-{run}"
        logs.mkdir()
        elapsed, played, steps = await round_robin(lineups[label], games, logs)
        times[label].append(elapsed)
        print(f"   {label:17s} {played} games, {steps} steps in {elapsed:6.1f} s   "
              f"{elapsed / played * 1000:6.0f} ms a game   {elapsed / steps * 1000:5.2f} ms a step")
    mixed, python_only = (statistics.mean(values) for values in times.values())
    print(f"   means {mixed:.1f} s and {python_only:.1f} s: ratio (C++ and Python / Python only) "
          f"{mixed / python_only:.2f}x")


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", default="slt", help="s: start time, l: step over the channel, t: round robin")
    parser.add_argument("--quick", action="store_true", help="fewer starts and steps, 2 games a pairing")
    args = parser.parse_args()
    problem = sandbox_status()
    if problem is not None:
        print(f"cpp_hosted: the sandbox does not work here: {problem}", file=sys.stderr)
        return 2
    print(f"{compiler_version()}; cores: {os.cpu_count()}   load: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="quoridor-bench-cpp-") as scratch_dir:
        scratch = Path(scratch_dir)
        scratch.chmod(0o755)                                    # the sandbox's own user reads the bots' files
        builds = scratch / "builds"
        (scratch / "constant.py").write_text(CONSTANT_BOT)
        (scratch / "walker.py").write_text(WALKER_BOT)
        (scratch / "constant-cpp").mkdir(mode=0o755)
        (scratch / "constant-cpp" / "Constant.cpp").write_text(CONSTANT_CPP)
        for folder, spec in ((EXAMPLE, "MyPlayer.cpp"), (HANDOUT, "QuoridorClient/MyPlayer.cpp"),
                             (scratch / "constant-cpp", "Constant.cpp")):
            built(folder, spec, builds)
        if "s" in args.sections:
            await bench_start(scratch, builds, 5 if args.quick else 30)
        if "l" in args.sections:
            await bench_latency(scratch, builds, 300 if args.quick else 3000)
        if "t" in args.sections:
            await bench_round_robin(scratch, builds, 2 if args.quick else 4)
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))

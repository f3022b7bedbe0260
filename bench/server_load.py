"""Load, fairness and abuse figures for the Quoridor Arena websocket server. A benchmark, not a test.

Run from the repository root::

    .venv/bin/python bench/server_load.py            # full run, sections a-f (several minutes)
    .venv/bin/python bench/server_load.py --quick    # M = 1, 20, short games, small hostile loads (about a minute)
    .venv/bin/python bench/server_load.py --sections def   # only the hostile sections

Each run starts the real server in its own process (``bench/load_launcher.py``: ``ArenaServer``,
data dir in a temporary folder, silent reporter) and the scripted players in another
(``bench/load_clients.py``: every connection shuffles its pawn sideways, so every step is legal
and every game lasts exactly ``step_cap`` steps per player). Sections (a)-(c) play one knockout
round (M concurrent games of disjoint pairs) with the limits raised; (d)-(f) keep the server's
default ``Limits``, the defences they measure.

(a) capacity: instant answers; steps/s = step rows in the game logs / the games' wall time (first
    ``game_start`` to last ``game_over`` seen by the clients). The same clients play the same games
    through ``bench/relay.py`` (the same websockets, + ``json.loads``/``json.dumps``, no rules, no
    logs), the two backends taking turns ``--repeats`` times; the best run of each counts.
    Server/relay ratio target >= 0.85 at M = 1, 100 and 500; and (issue 34) the server's CPU per step
    (its process's CPU time in the games' window / steps) at most 1.3x the relay's at M = 500.
(b) fairness at 50 ms: 100 games, bots think 50 ms per step. Added delay per step = the thinking
    time the server charged (``thinking_ms`` in the game log) - the client's own thinking time
    (``t_send - t_recv``, both stamped in the client's protocol callback). Target: p99 <= 5 ms.
(c) fairness at 900 ms (limit 1000 ms), 500 games: timeouts charged (status 3 rows) target 0;
    p99 added delay <= 20 ms.
(d) a stale-step flood (``bench/load_flood.py``): (b)'s 100 games beside one more game whose
    seat is held by a bot that writes 300,000 copies of an answered step as fast as it can.
    Targets: the honest bots' added delay p99 <= 20 ms, 0 timeouts charged to them; also how long
    the server took to close the flooder and how many of its frames it read.
(e) 200 spectators of ``"*"`` that never read (``bench/load_watchers.py``) beside a 40-player
    round-robin: the server's peak RSS <= 150 MB (and its RSS before they connect); how many
    spectators the server closed, why and when.
(f) 1,000 half-open connections (``bench/load_halfopen.py``) during a 40-player round-robin with
    the server's RLIMIT_NOFILE at 1,024: the tournament completes (every game logged), how many
    the server accepted and cut, its exit status.

Everything is on 127.0.0.1; every process has a deadline and is killed at the end.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import platform
import pstats
import shlex
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from load_flood import section_d                # bench/, beside this script
from load_halfopen import section_f
from load_report import Verdict, diagnostics, mark, row
from load_run import FAILED_RUNS, TIME_LIMIT_MS, RunResult, percentile, run_once
from load_watchers import section_e
from server.net import eventloop

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent

# -- targets ----------------------------------------------------------------------------------------
TARGET_RATIO = 0.85         # server steps/s over relay steps/s, at least, at every M
TARGET_CPU_RATIO = 1.3      # issue 34: the server's CPU per step over the relay's, at most, at M >= CPU_TARGET_GAMES
CPU_TARGET_GAMES = 500
TARGET_B_P99_MS = 5.0       # added delay p99 with 50 ms bots
TARGET_C_P99_MS = 20.0      # added delay p99 with 900 ms bots
TARGET_C_TIMEOUTS = 0       # timeouts charged with 900 ms bots
TARGET_D_P99_MS = 20.0      # honest added delay p99 beside a stale-step flood (honest timeouts: 0)
TARGET_E_PEAK_MB = 150.0    # the server's peak RSS with 200 non-reading spectators (f: every game recorded)


@dataclass(frozen=True)
class Plan:
    """What one mode (full or quick) runs."""

    capacity_games: tuple[int, ...]
    capacity_steps: int        # total steps aimed at per capacity run (sets the step cap)
    capacity_min_cap: int
    b_games: int
    b_think_s: float
    b_cap: int
    c_games: int
    c_think_s: float
    c_cap: int
    d_games: int               # honest games beside the flooder
    d_frames: int              # stale steps the flooder writes at most
    tour_players: int          # (e) and (f): the round-robin's players
    tour_think_s: float
    tour_cap: int
    e_spectators: int
    f_connections: int         # half-open connections


FULL = Plan(capacity_games=(1, 100, 500), capacity_steps=20_000, capacity_min_cap=30,
            b_games=100, b_think_s=0.05, b_cap=40, c_games=500, c_think_s=0.9, c_cap=20,
            d_games=100, d_frames=300_000, tour_players=40, tour_think_s=0.01, tour_cap=20,
            e_spectators=200, f_connections=1000)
QUICK = Plan(capacity_games=(1, 20), capacity_steps=6_000, capacity_min_cap=10,
             b_games=20, b_think_s=0.05, b_cap=20, c_games=20, c_think_s=0.9, c_cap=5,
             d_games=20, d_frames=100_000, tour_players=10, tour_think_s=0.01, tour_cap=10,
             e_spectators=50, f_connections=200)


def capacity_cap(plan: Plan, games: int) -> int:
    """The step cap that gives a capacity run about ``plan.capacity_steps`` steps."""
    return max(plan.capacity_min_cap, math.ceil(plan.capacity_steps / (2 * games)))


def best(runs: list[RunResult]) -> RunResult:
    """The fastest of ``runs`` that went well (or of all, when none did)."""
    good = [r for r in runs if r.ok] or runs
    return max(good, key=lambda r: r.rate if r.rate == r.rate else -1.0)


def paired_runs(games: int, cap: int, args: argparse.Namespace, label: str) -> tuple[list[RunResult], list[RunResult]]:
    """``args.repeats`` capacity runs of the server and of the relay, taking turns (server, relay, server, ...).

    Taking turns puts both backends under the same spells of load from outside (on a shared virtual
    machine the same code runs up to half again as slow from one minute to the next), so that a
    slow spell does not fall on one side of the ratio only.
    """
    servers: list[RunResult] = []
    relays: list[RunResult] = []
    for number in range(args.repeats):
        servers.append(run_once("server", games, cap, 0.0, args, f"{label}-{number + 1}"))
        relays.append(run_once("relay", games, cap, 0.0, args, f"{label}-relay-{number + 1}"))
        if not servers[-1].ok or not relays[-1].ok:   # a failed run (deadline, lost games) would only fail again
            break
    return servers, relays


def section_a(plan: Plan, args: argparse.Namespace) -> list[Verdict]:
    """Capacity: instant answers, server vs relay at each M (runs taking turns; the best of each counts)."""
    verdicts: list[Verdict] = []
    print(f"(a) capacity: instant answers, steps/s = log steps / games' window ({args.repeats} runs of each, "
          "server and relay taking turns; the best of each counts); the same load through the relay")
    for games in plan.capacity_games:
        cap = capacity_cap(plan, games)
        servers, relays = paired_runs(games, cap, args, f"a-M{games}")
        server, relay = best(servers), best(relays)
        ratio = server.rate / relay.rate if relay.rate > 0 else float("nan")
        ok = server.ok and relay.ok and ratio >= TARGET_RATIO
        star = "" if server.ok and relay.ok else "*"
        verdicts.append(Verdict(f"(a) M={games}: server/relay steps/s ({server.rate:,.0f} / {relay.rate:,.0f})",
                                f"{ratio:.2f}{star}", f">= {TARGET_RATIO}", ok))
        print(f" M = {games} games ({2 * games} connections), step cap {cap} ({2 * cap} plies per game)")
        row("server: steps/s (runs)", f"{server.rate:,.0f}", f"({', '.join(f'{r.rate:,.0f}' for r in servers)})")
        row("relay:  steps/s (runs)", f"{relay.rate:,.0f}", f"({', '.join(f'{r.rate:,.0f}' for r in relays)})")
        row("server / relay", f"{ratio:.2f}{star}", f">= {TARGET_RATIO}", mark(ok))
        pairs = [s.rate / r.rate for s, r in zip(servers, relays) if r.rate > 0]
        if len(pairs) > 1:
            row("  each turn's server / relay (median)",
                f"{', '.join(f'{x:.2f}' for x in pairs)} ({statistics.median(pairs):.2f})")
        row("websockets imported by server / relay", f"{server.websockets} / {relay.websockets}")
        if server.websockets != relay.websockets:
            print("    !! the server and the relay ran different websockets versions: the ratio compares unlike things")
        cpu = server.cpu_per_step_us / relay.cpu_per_step_us if relay.cpu_per_step_us > 0 else float("nan")
        cpu_ok = server.ok and relay.ok and cpu <= TARGET_CPU_RATIO
        judged = games >= CPU_TARGET_GAMES
        row("CPU per step: server / relay (less sensitive to other load)",
            f"{server.cpu_per_step_us:,.0f} / {relay.cpu_per_step_us:,.0f} us = {cpu:.2f}x{star}",
            f"<= {TARGET_CPU_RATIO}x" if judged else "", mark(cpu_ok) if judged else "")
        if judged:
            verdicts.append(Verdict(f"(a) M={games}: CPU per step server/relay ({server.cpu_per_step_us:,.0f} / "
                                    f"{relay.cpu_per_step_us:,.0f} us)", f"{cpu:.2f}x{star}",
                                    f"<= {TARGET_CPU_RATIO}x", cpu_ok))
        row("server: added delay p50 / p99 (instant answers, timeouts included)",
            f"{percentile(server.added_all_ms, 50):.1f} / {percentile(server.added_all_ms, 99):.1f} ms")
        row("server: timeouts charged", f"{server.timeouts}")
        stalls = [ms for at, ms in server.backend_stalls if 0.0 <= at <= server.window_s]
        row("server: event loop stalls >= 50 ms in the games' window: count / longest",
            f"{len(stalls)} / {max(stalls, default=0.0):.0f} ms")
        diagnostics(server, "  ")
        diagnostics(relay, "  ")
    return verdicts


def section_fair(tag: str, games: int, think_s: float, cap: int, p99_target: float, timeout_target: int | None,
                 args: argparse.Namespace) -> list[Verdict]:
    """Fairness: bots think ``think_s`` per step; added delay and timeouts."""
    print(f"({tag}) fairness: M = {games} games ({2 * games} connections), bots think {think_s * 1000:.0f} ms, "
          f"step cap {cap}, limit {TIME_LIMIT_MS} ms")
    result = run_once("server", games, cap, think_s, args, f"{tag}-M{games}")
    added = result.added_all_ms
    p50, p99 = percentile(added, 50), percentile(added, 99)
    star = "" if result.ok else "*"
    ok = result.ok and p99 <= p99_target
    verdicts = [Verdict(f"({tag}) M={games}, {think_s * 1000:.0f} ms bots: added delay p99", f"{p99:.1f} ms{star}",
                        f"<= {p99_target:.0f} ms", ok)]
    row(f"added delay p50 / p99 / max (n={len(added):,} answered steps)",
        f"{p50:.1f} / {p99:.1f} / {max(added, default=float('nan')):.1f} ms{star}", f"p99 <= {p99_target:.0f}",
        mark(ok))
    if len(result.added_ms) != len(added):
        row("  the same without the steps judged late (timeouts)",
            f"{percentile(result.added_ms, 50):.1f} / {percentile(result.added_ms, 99):.1f} / "
            f"{max(result.added_ms, default=float('nan')):.1f} ms")
    if timeout_target is None:
        row("timeouts charged (status 3 rows)", f"{result.timeouts}")
    else:
        ok = result.ok and result.timeouts <= timeout_target
        verdicts.append(Verdict(f"({tag}) M={games}, {think_s * 1000:.0f} ms bots: timeouts charged",
                                f"{result.timeouts}{star}", f"= {timeout_target}", ok))
        row("timeouts charged (status 3 rows)", f"{result.timeouts}{star}", f"= {timeout_target}", mark(ok))
    think = result.client_think_ms
    row("client thinking time p50 / p99 (t_send - t_recv)", f"{percentile(think, 50):.1f} / {percentile(think, 99):.1f} ms")
    row("steps/s in the window", f"{result.rate:,.0f}")
    diagnostics(result)
    return verdicts


def print_profile(directory: Path) -> None:
    """The top functions of every profile written in this run."""
    for path in sorted(directory.glob("*.pstats")):
        print(f"\nprofile {path} (top 15 by internal time)")
        stats = pstats.Stats(str(path))
        stats.sort_stats("tottime").print_stats(15)


def versions() -> str:
    """Interpreter and library versions, and what is not used."""
    def version(name: str) -> str | None:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return None

    loop = eventloop.loop_name()
    loop_text = f"uvloop {version('uvloop')} (server and relay)" if loop == "uvloop" else "asyncio's loop (no uvloop)"
    here = Path(sys.executable)
    interpreter = here.relative_to(ROOT).as_posix() if here.is_relative_to(ROOT) else str(here)
    return (f"Python {platform.python_version()} on {platform.system()} {platform.machine()}, {os.cpu_count()} CPUs; "
            f"websockets {version('websockets')} (server, relay and clients all run {interpreter}; each backend "
            f"reports the version it imported), pydantic {version('pydantic')}; {loop_text}; json")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the sections and print the table; exit status 1 if a run failed outright."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="M = 1, 20 and short games (under a minute)")
    parser.add_argument("--sections", default="abcdef",
                        help="which sections to run, e.g. 'a' or 'bc' or 'def' (default abcdef)")
    parser.add_argument("--games", type=lambda text: [int(x) for x in text.split(",")], metavar="M,M,...",
                        help="section (a) only: these numbers of games instead of the mode's")
    parser.add_argument("--client-procs", type=int, default=1, metavar="N",
                        help="split the connections over N client processes (default 1)")
    parser.add_argument("--compression", choices=["deflate", "none"], default="deflate",
                        help="clients offer permessage-deflate (default, as client/runner.py) or not")
    parser.add_argument("--leave-after-game", action="store_true",
                        help="clients close after their game_over (default: stay until tournament_over, "
                             "as real bots do)")
    parser.add_argument("--profile", type=Path, metavar="DIR",
                        help="run every server under cProfile, write DIR/<run>.pstats and print the top entries "
                             "(slows the server: figures are not comparable)")
    parser.add_argument("--repeats", type=int, default=2, metavar="N",
                        help="capacity runs per backend and M, server and relay taking turns; the best of each counts (default 2)")
    parser.add_argument("--launcher", type=Path, default=BENCH / "load_launcher.py", metavar="SCRIPT",
                        help="server launcher script (default bench/load_launcher.py; another one may patch the "
                             "server in its own process to try a fix)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folders (logs, reports)")
    args = parser.parse_args(argv)
    if args.client_procs < 1 or args.repeats < 1:
        parser.error("--client-procs and --repeats must be at least 1")
    plan = QUICK if args.quick else FULL
    if args.games:
        plan = dataclasses.replace(plan, capacity_games=tuple(args.games))
    began = time.monotonic()
    print(f"Quoridor Arena server load benchmark ({'quick' if args.quick else 'full'} run)")
    print(f"command: {shlex.join([Path(sys.executable).relative_to(ROOT).as_posix() if Path(sys.executable).is_relative_to(ROOT) else sys.executable, *sys.argv])}")
    print(versions())
    print(f"server: ArenaServer in its own process, limit {TIME_LIMIT_MS} ms, SilentReporter; (a)-(c): 2*M players, "
          f"one knockout round (M games at once), limits raised; (d)-(f): default Limits; clients: "
          f"{args.client_procs} process(es), compression {args.compression}, "
          f"{'leave after their game' if args.leave_after_game else 'stay until tournament_over'}")
    if args.profile is not None:
        print("!! --profile: servers run under cProfile; the figures below are NOT comparable with the targets")
    print()
    verdicts: list[Verdict] = []
    if "a" in args.sections:
        verdicts += section_a(plan, args)
        print()
    if "b" in args.sections:
        verdicts += section_fair("b", plan.b_games, plan.b_think_s, plan.b_cap, TARGET_B_P99_MS, None, args)
        print()
    if "c" in args.sections:
        verdicts += section_fair("c", plan.c_games, plan.c_think_s, plan.c_cap, TARGET_C_P99_MS, TARGET_C_TIMEOUTS,
                                 args)
        print()
    if "d" in args.sections:
        verdicts += section_d(plan.d_games, plan.b_think_s, plan.b_cap, plan.d_frames, TARGET_D_P99_MS, args)
        print()
    if "e" in args.sections:
        verdicts += section_e(plan.tour_players, plan.e_spectators, plan.tour_think_s, plan.tour_cap,
                              TARGET_E_PEAK_MB, args)
        print()
    if "f" in args.sections:
        verdicts += section_f(plan.tour_players, plan.f_connections, plan.tour_think_s, plan.tour_cap, args)
        print()
    print("summary")
    for verdict in verdicts:
        row(verdict.label, verdict.value, verdict.target, mark(verdict.ok))
    if any(v.value.endswith("*") for v in verdicts):
        print("  * the run had problems (lines marked !! above): FAIL whatever the figure")
    print(f"{sum(v.ok for v in verdicts)} of {len(verdicts)} targets met; total time {time.monotonic() - began:.0f} s")
    if args.profile is not None:
        print_profile(args.profile)
    if FAILED_RUNS:
        print(f"{len(FAILED_RUNS)} run(s) measured nothing: {', '.join(FAILED_RUNS)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

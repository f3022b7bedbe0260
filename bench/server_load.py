"""Load and fairness figures for the Quoridor Arena websocket server. A benchmark, not a test.

Run from the repository root::

    .venv/bin/python bench/server_load.py            # full run: M = 1, 100, 500 (several minutes)
    .venv/bin/python bench/server_load.py --quick    # M = 1, 20, short games (under a minute)

Each run starts the real server in its own process (``bench/load_launcher.py``: ``ArenaServer``,
2*M players, one knockout round = M concurrent games of disjoint pairs, limits raised, data
dir in a temporary folder, silent reporter) and the scripted players in another
(``bench/load_clients.py``: every connection shuffles its pawn sideways, so every step is legal
and every game lasts exactly ``step_cap`` steps per player).

(a) capacity: instant answers; steps/s = step rows in the game logs / the games' wall time (first
    ``game_start`` to last ``game_over`` seen by the clients). The same clients then play the same
    games through ``bench/relay.py`` (websockets + ``json.loads``/``json.dumps``, no rules, no
    logs); server/relay ratio target >= 0.7 at every M.
(b) fairness at 50 ms: M bots think 50 ms per step. Added delay per step = the thinking time the
    server charged (``thinking_ms`` in the game log) - the client's own thinking time
    (``t_send - t_recv``, both stamped in the client's protocol callback). Targets: p99 <= 5 ms.
(c) fairness at 900 ms (limit 1000 ms): timeouts charged (status 3 rows) target 0; p99 added
    delay <= 20 ms.

Everything is on 127.0.0.1; every process has a deadline and is killed at the end.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import platform
import pstats
import queue
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from server import eventloop
from shared.gamelog import parse_log
from shared.quoridor import GameStatus

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
CLK_TCK = os.sysconf("SC_CLK_TCK")

# -- targets ----------------------------------------------------------------------------------------
TARGET_RATIO = 0.7          # server steps/s over relay steps/s, at least, at every M
TARGET_B_P99_MS = 5.0       # added delay p99 with 50 ms bots
TARGET_C_P99_MS = 20.0      # added delay p99 with 900 ms bots
TARGET_C_TIMEOUTS = 0       # timeouts charged with 900 ms bots
TIME_LIMIT_MS = 1000
CLIENT_BOUND_WARNING = 0.9  # CPUs per client process above which the clients may limit the rate
BACKEND_GRACE_S = 30.0     # how long the server/relay may take to finish once the clients are done
OTHER_LOAD_WARNING = 0.25   # CPUs used by other processes during a run above which a warning is printed

FAILED_RUNS: list[str] = []  # runs that measured nothing (the exit status says so)


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


FULL = Plan(capacity_games=(1, 100, 500), capacity_steps=20_000, capacity_min_cap=30,
            b_games=100, b_think_s=0.05, b_cap=40, c_games=500, c_think_s=0.9, c_cap=20)
QUICK = Plan(capacity_games=(1, 20), capacity_steps=6_000, capacity_min_cap=10,
             b_games=20, b_think_s=0.05, b_cap=20, c_games=20, c_think_s=0.9, c_cap=5)


@dataclass(frozen=True)
class Verdict:
    """One target: what, the value measured, the target, met or not."""

    label: str
    value: str
    target: str
    ok: bool


@dataclass
class RunResult:
    """The figures of one run (one backend, one load)."""

    backend: str
    games: int
    step_cap: int
    think_s: float
    ok: bool = True
    failed: bool = False               # nothing could be measured
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    steps: int = 0                 # log rows (server) or steps the clients sent (relay)
    client_steps: int = 0
    games_over: int = 0
    window_s: float = float("nan")
    start_spread_s: float = float("nan")
    added_ms: list[float] = field(default_factory=list)       # steps judged in time
    added_all_ms: list[float] = field(default_factory=list)   # and the answered steps judged late (timeouts)
    timeouts: int = 0
    other_violations: int = 0
    unmatched_rows: int = 0
    client_think_ms: list[float] = field(default_factory=list)
    backend_cpu: float = float("nan")   # CPU seconds per wall second in the window (1.0 = one core)
    client_cpu: float = float("nan")
    thread_cpu: dict[str, float] = field(default_factory=dict)
    other_cpu: float = float("nan")      # CPU used by everything else on the machine in the window
    client_procs: int = 1
    backend_lag: dict[str, float] = field(default_factory=dict)
    client_lag_ms: list[float] = field(default_factory=list)
    backend_stalls: list[tuple[float, float]] = field(default_factory=list)    # (s into the window, ms)
    client_stalls: list[tuple[float, float]] = field(default_factory=list)
    gc_pauses: list[tuple[float, int, float]] = field(default_factory=list)   # (s into the window, gen, ms)
    gc_count: int = 0
    window_start: float = 0.0
    big_frames: int = 0
    big_bytes: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    totals_mismatch: int = 0
    wall_s: float = 0.0

    @property
    def cpu_per_step_us(self) -> float:
        """CPU time of the server (or relay) process per step in the window, in microseconds."""
        return self.backend_cpu * self.window_s / self.steps * 1e6 if self.steps else float("nan")

    @property
    def rate(self) -> float:
        """Steps per second over the games' window."""
        return self.steps / self.window_s if self.window_s > 0 else float("nan")


# -- small helpers -----------------------------------------------------------------------------------
def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) by nearest rank; NaN for no values."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]


def mark(ok: bool) -> str:
    """A pass/fail mark."""
    return "PASS" if ok else "FAIL"


def row(label: str, value: str, target: str = "", verdict: str = "") -> None:
    """Print one table row."""
    print(f"  {label:<60} {value:>18}   {target:<10} {verdict}".rstrip())


def cpu_seconds(pid: int) -> float | None:
    """utime + stime of a live process, in seconds (None once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    except (OSError, IndexError, ValueError):
        return None


def machine_busy() -> float | None:
    """CPU seconds the whole machine has spent busy (all CPUs, everything but idle and iowait)."""
    try:
        with open("/proc/stat", encoding="ascii") as handle:
            fields = [int(x) for x in handle.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    return (sum(fields[:8]) - fields[3] - fields[4]) / CLK_TCK


def thread_cpu(pid: int) -> dict[str, float]:
    """CPU seconds of each thread of a live process: ``main`` and ``thread <tid>`` (Python 3.11 names no threads)."""
    result: dict[str, float] = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return result
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat", encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        except OSError:
            continue
        name = "main" if tid == str(pid) else f"thread {tid}"
        fields = text.rsplit(")", 1)[1].split()
        result[name] = result.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / CLK_TCK
    return result


def cpu_in_window(samples: list[tuple[float, float]], t0: float, t1: float) -> float:
    """CPU seconds per second between ``t0`` and ``t1``, linearly interpolated from (time, cpu) samples."""
    if len(samples) < 2 or not t1 > t0:
        return float("nan")

    def at(t: float) -> float:
        if t <= samples[0][0]:
            return samples[0][1]
        for (ta, ca), (tb, cb) in zip(samples, samples[1:]):
            if ta <= t <= tb:
                return ca + (cb - ca) * ((t - ta) / (tb - ta) if tb > ta else 0.0)
        return samples[-1][1]

    return (at(t1) - at(t0)) / (t1 - t0)


class Proc:
    """A child process whose stdout lines are read by a thread and whose CPU time is sampled."""

    def __init__(self, name: str, argv: list[str], stderr_path: Path) -> None:
        self.name = name
        self.argv = argv
        self.stderr_path = stderr_path
        self._stderr = stderr_path.open("w", encoding="utf-8")
        self.popen = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=self._stderr, text=True, cwd=ROOT,
                                      env={**os.environ, "PYTHONPATH": str(ROOT)})
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.cpu: list[tuple[float, float]] = []
        self.threads: dict[str, list[tuple[float, float]]] = {}
        self.per_thread = False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def wait_line(self, prefix: str, timeout: float) -> str:
        """The first stdout line starting with ``prefix``; RuntimeError if it does not come in time."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError(f"{self.name}: no '{prefix}' line within {timeout:.0f} s{self.stderr_tail()}")
            try:
                line = self.lines.get(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            if line is None:
                raise RuntimeError(f"{self.name} exited (status {self.popen.wait()}) before printing "
                                   f"'{prefix}'{self.stderr_tail()}")
            if line.startswith(prefix):
                return line

    def sample(self) -> None:
        """Record (now, CPU seconds) while the process lives."""
        now = time.monotonic()
        value = cpu_seconds(self.popen.pid)
        if value is not None:
            self.cpu.append((now, value))
        if self.per_thread:
            for name, seconds in thread_cpu(self.popen.pid).items():
                self.threads.setdefault(name, []).append((now, seconds))

    def stderr_tail(self, lines: int = 15) -> str:
        """The end of the process's stderr, for error messages."""
        if not self._stderr.closed:
            self._stderr.flush()
        try:
            text = self.stderr_path.read_text(encoding="utf-8", errors="replace").strip().splitlines()
        except OSError:
            return ""
        return ("\n    stderr: " + "\n    stderr: ".join(text[-lines:])) if text else ""

    def close(self) -> None:
        """Close the stderr file (the process must have ended)."""
        if not self._stderr.closed:
            self._stderr.close()

    def stop(self, grace: float) -> int | None:
        """Wait up to ``grace`` s for the process to exit, then SIGTERM it (10 s), then kill it; None if ended by us."""
        try:
            return self.popen.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.popen.terminate()
            try:
                self.popen.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(timeout=10)
            return None
        finally:
            self.close()


# -- one run ------------------------------------------------------------------------------------------
def run_once(backend: str, games: int, step_cap: int, think_s: float, args: argparse.Namespace,
             label: str) -> RunResult:
    """Start ``backend`` (server or relay), play ``games`` games with the load clients, collect the figures."""
    result = RunResult(backend, games, step_cap, think_s)
    players = 2 * games
    work = Path(tempfile.mkdtemp(prefix=f"server_load-{backend}-"))
    expected_s = 2 * step_cap * max(think_s, 0.002) + 5 + players * 0.01
    deadline = 60 + 2 * expected_s
    begun = time.monotonic()
    py = sys.executable
    procs: list[Proc] = []
    try:
        if backend == "server":
            argv = [py, str(args.launcher), "--players", str(players), "--step-cap", str(step_cap),
                    "--time-limit", str(TIME_LIMIT_MS), "--data-dir", str(work / "data"),
                    "--stats", str(work / "stats.json"), "--deadline", str(deadline)]
            if args.profile is not None:
                args.profile.mkdir(parents=True, exist_ok=True)
                argv += ["--profile", str(args.profile / f"{label}.pstats")]
        else:
            argv = [py, str(BENCH / "relay.py"), "--players", str(players), "--step-cap", str(step_cap),
                    "--time-limit", str(TIME_LIMIT_MS), "--deadline", str(deadline)]
        backend_proc = Proc(backend, argv, work / f"{backend}.err")
        backend_proc.per_thread = True
        procs.append(backend_proc)
        port = int(backend_proc.wait_line("PORT ", 30).split()[1])
        split = max(1, min(args.client_procs, players))
        result.client_procs = split
        clients: list[Proc] = []
        outs: list[Path] = []
        first = 0
        for number in range(split):
            count = players // split + (1 if number < players % split else 0)
            out = work / f"clients-{number}.json"
            outs.append(out)
            cargv = [py, str(BENCH / "load_clients.py"), "--url", f"ws://127.0.0.1:{port}/",
                     "--players", str(count), "--first", str(first), "--think", str(think_s),
                     "--compression", args.compression, "--deadline", str(deadline), "--out", str(out)]
            if args.leave_after_game:
                cargv.append("--leave-after-game")
            first += count
            clients.append(Proc(f"clients-{number}", cargv, work / f"clients-{number}.err"))
        procs += clients
        hard_stop = time.monotonic() + deadline + 30
        machine: list[tuple[float, float]] = []
        while True:
            for proc in procs:
                proc.sample()
            busy = machine_busy()
            if busy is not None:
                machine.append((time.monotonic(), busy))
            if all(c.popen.poll() is not None for c in clients) or time.monotonic() >= hard_stop:
                break
            time.sleep(0.05)
        for client in clients:
            if client.stop(5) != 0:
                result.problems.append(f"{client.name} ended with status {client.popen.returncode}"
                                       f"{client.stderr_tail(5)}")
        status = backend_proc.stop(BACKEND_GRACE_S)
        if status is None:
            result.problems.append(f"{backend} still busy {BACKEND_GRACE_S:.0f} s after the clients ended: stopped")
        elif status != 0:
            result.problems.append(f"{backend} ended with status {status}{backend_proc.stderr_tail(8)}")
        reports = [json.loads(out.read_text(encoding="utf-8")) for out in outs if out.exists()]
        if len(reports) != len(outs):
            raise RuntimeError(f"{len(outs) - len(reports)} client process(es) wrote no report")
        collect(result, reports, clients, backend_proc, work, machine)
    except Exception as exc:  # noqa: BLE001 - one failed run must not hide the others
        result.ok = False
        result.failed = True
        result.problems.append(f"{type(exc).__name__}: {exc}")
        FAILED_RUNS.append(f"{label}: {type(exc).__name__}")
    finally:
        for proc in procs:
            if proc.popen.poll() is None:
                proc.popen.kill()
                proc.popen.wait(timeout=10)
            proc.close()
        if args.keep:
            print(f"    (kept {work})")
        else:
            shutil.rmtree(work, ignore_errors=True)
    result.wall_s = time.monotonic() - begun
    if result.problems:
        result.ok = False
    return result


def collect(result: RunResult, reports: list[dict[str, Any]], clients: list[Proc], backend: Proc,
            work: Path, machine: list[tuple[float, float]]) -> None:
    """Merge the client reports (and, for the server, the game logs) into ``result``."""
    starts: list[float] = []
    overs: dict[str, list[Any]] = {}
    sent: dict[tuple[str, int], tuple[float, float]] = {}
    for report in reports:
        starts += report["starts"].values()
        for game, entries in report["overs"].items():
            overs.setdefault(game, []).extend(entries)
        for game, turn, received, at in report["steps"]:
            sent[(game, turn)] = (received, at)
        for code, count in report["errors"].items():
            result.errors[code] = result.errors.get(code, 0) + count
        result.big_frames += report["big_frames"]
        result.big_bytes += report["big_bytes"]
        result.client_lag_ms += report["lags_ms"]
        result.client_stalls += [tuple(x) for x in report.get("stalls", [])]  # type: ignore[misc]
        if report["connect_failed"]:
            result.problems.append(f"{report['connect_failed']} connection(s) failed: {report['connect_failures']}")
        if report["timed_out"]:
            result.problems.append("the clients gave up at their deadline")
        if not report.get("closed_by_server", True):
            result.notes.append("no tournament_over within 10 s of the last game_over: the clients closed first")
    result.client_steps = len(sent)
    result.games_over = len(overs)
    if result.games_over < result.games:
        result.problems.append(f"only {result.games_over} of {result.games} games ended")
    if not starts or not overs:
        raise RuntimeError("no game started or ended")
    t0 = min(starts)
    t1 = max(min(entry[0] for entry in entries) for entries in overs.values())
    result.client_stalls = sorted((t - t0, lag) for t, lag in result.client_stalls)
    result.window_s = t1 - t0
    result.start_spread_s = max(starts) - t0
    result.client_think_ms = [(at - received) * 1000 for received, at in sent.values()]
    result.backend_cpu = cpu_in_window(backend.cpu, t0, t1)
    result.client_cpu = sum(cpu_in_window(c.cpu, t0, t1) for c in clients)
    result.other_cpu = cpu_in_window(machine, t0, t1) - result.backend_cpu - result.client_cpu
    for name, series in backend.threads.items():
        # a thread that starts inside the window has no sample before it: count from zero
        used = cpu_in_window([(t0, 0.0), *series] if series[0][0] > t0 else series, t0, t1)
        if used >= 0.005:
            result.thread_cpu[name] = used
    if result.backend == "relay":
        result.steps = result.client_steps
        return
    stats_path = work / "stats.json"
    if stats_path.exists():
        stats = json.loads(stats_path.read_text(encoding="utf-8"))
        result.backend_lag = stats.get("loop_lag_ms", {})
        result.backend_stalls = [(t - t0, lag) for t, lag in stats.get("stalls", [])]
        result.gc_pauses = [(t - t0, gen, ms) for t, gen, ms in stats.get("gc_pauses", [])]
        result.gc_count = stats.get("gc_count", 0)
    logs = sorted(p for p in (work / "data" / "load").glob("r[0-9]*.csv"))
    if not logs:
        raise RuntimeError(f"the server wrote no game logs in {work / 'data' / 'load'}")
    for path in logs:
        log = parse_log(path.read_text(encoding="utf-8"), name=str(path))
        game = log.header.game or ""
        totals = [0, 0]
        for record in log.steps:
            result.steps += 1
            seat = log.header.players.index(record.player)
            totals[seat] += record.thinking_ms or 0
            times = sent.get((game, record.turn if record.turn is not None else -1))
            added = None if times is None or record.thinking_ms is None else \
                record.thinking_ms - (times[1] - times[0]) * 1000
            if record.status is GameStatus.TIMEOUT:
                result.timeouts += 1
                if added is not None:       # answered, but judged late: the whole difference was added
                    result.added_all_ms.append(added)
                continue
            if record.status.is_violation or record.status is GameStatus.RULES_BREAKER:
                result.other_violations += 1
            if added is None:
                result.unmatched_rows += 1
                continue
            result.added_ms.append(added)
            result.added_all_ms.append(added)
        reported = overs.get(game, [])
        for entry in reported:
            if entry[1] is not None and sorted(entry[1]) != sorted(totals):
                result.totals_mismatch += 1


# -- reporting -----------------------------------------------------------------------------------------
def diagnostics(result: RunResult, indent: str = "") -> None:
    """Rows that explain a run: window, CPU, loop lag, big frames, errors, problems."""
    name = f"{indent}{result.backend}"
    if result.failed:
        for problem in result.problems:
            print(f"    !! {result.backend}: {problem}")
        return
    row(f"{name}: games ended / steps (client-sent steps)",
        f"{result.games_over} / {result.steps} ({result.client_steps})")
    row(f"{name}: games' window / game_start spread", f"{result.window_s:.2f} s / {result.start_spread_s:.2f} s")
    row(f"{name}: CPU in window, {result.backend} / clients / other processes",
        f"{result.backend_cpu:.2f} / {result.client_cpu:.2f} / {result.other_cpu:.2f}")
    if result.other_cpu > OTHER_LOAD_WARNING:
        print(f"    !! {result.backend}: other processes used {result.other_cpu:.2f} CPUs during the games: "
              "the figures are disturbed (run on an idle machine)")
    per_client = result.client_cpu / max(1, result.client_procs)
    if per_client >= CLIENT_BOUND_WARNING:
        print(f"    !! {result.backend}: each client process used {per_client:.2f} CPUs: the clients may be the "
              "bottleneck (try --client-procs 2)")
    if len(result.thread_cpu) > 1:
        row(f"{name}: CPU in window by thread",
            ", ".join(f"{k} {v:.2f}" for k, v in sorted(result.thread_cpu.items(), key=lambda kv: -kv[1])))
    if result.backend == "server":
        lag = result.backend_lag
        if lag.get("n"):
            row(f"{name}: event loop lag p50 / p99 / max (10 ms probe)",
                f"{lag['p50']:.1f} / {lag['p99']:.1f} / {lag['max']:.1f} ms")
        if result.backend_stalls:
            row(f"{name}: loop stalls >= 50 ms: count, worst (s into window: ms)",
                f"{len(result.backend_stalls)}, {stall_list(result.backend_stalls)}")
        if result.gc_count:
            gen2 = [p for p in result.gc_pauses if p[1] == 2]
            row(f"{name}: GC collections / gen 2 / longest pause",
                f"{result.gc_count} / {len(gen2)} / {max((p[2] for p in result.gc_pauses), default=0.0):.0f} ms")
        row(f"{name}: big frames to clients (standings...)", f"{result.big_frames:,} = {result.big_bytes / 1e6:,.1f} MB")
    client_lag = result.client_lag_ms
    if client_lag:
        row(f"{indent}clients: loop lag p99 / max (10 ms probe)",
            f"{percentile(client_lag, 99):.1f} / {max(client_lag):.1f} ms")
    if result.client_stalls:
        row(f"{indent}clients: loop stalls >= 50 ms: count, worst", f"{len(result.client_stalls)}, "
            f"{stall_list(result.client_stalls)}")
    if result.errors:
        row(f"{name}: error frames / client exceptions", ", ".join(f"{k} {v}" for k, v in sorted(result.errors.items())))
    if result.unmatched_rows or result.other_violations or result.totals_mismatch:
        row(f"{name}: log rows unmatched / other violations / total mismatches",
            f"{result.unmatched_rows} / {result.other_violations} / {result.totals_mismatch}")
    for note in result.notes:
        print(f"    note: {result.backend}: {note}")
    for problem in result.problems:
        print(f"    !! {result.backend}: {problem}")


def stall_list(stalls: list[tuple[float, float]], count: int = 3) -> str:
    """The worst ``count`` stalls as '+12.3s 140ms' items, in time order."""
    worst = sorted(sorted(stalls, key=lambda s: -s[1])[:count])
    return ", ".join(f"+{t:.1f}s {ms:.0f}ms" for t, ms in worst)


def capacity_cap(plan: Plan, games: int) -> int:
    """The step cap that gives a capacity run about ``plan.capacity_steps`` steps."""
    return max(plan.capacity_min_cap, math.ceil(plan.capacity_steps / (2 * games)))


def best_of(backend: str, games: int, cap: int, args: argparse.Namespace, label: str) -> tuple[RunResult, list[float]]:
    """``args.repeats`` capacity runs of ``backend``; the fastest (of those that went well) and every rate."""
    runs: list[RunResult] = []
    for number in range(args.repeats):
        runs.append(run_once(backend, games, cap, 0.0, args, f"{label}-{number + 1}"))
        if not runs[-1].ok:     # a failed run (deadline, lost games) would only fail again: no repeat
            break
    good = [r for r in runs if r.ok] or runs
    return max(good, key=lambda r: r.rate if r.rate == r.rate else -1.0), [r.rate for r in runs]


def section_a(plan: Plan, args: argparse.Namespace) -> list[Verdict]:
    """Capacity: instant answers, server vs relay at each M (best of ``--repeats`` runs each)."""
    verdicts: list[Verdict] = []
    print(f"(a) capacity: instant answers, steps/s = log steps / games' window (best of {args.repeats} runs); "
          "the same load through the relay")
    for games in plan.capacity_games:
        cap = capacity_cap(plan, games)
        server, server_rates = best_of("server", games, cap, args, f"a-M{games}")
        relay, relay_rates = best_of("relay", games, cap, args, f"a-M{games}-relay")
        ratio = server.rate / relay.rate if relay.rate > 0 else float("nan")
        ok = server.ok and relay.ok and ratio >= TARGET_RATIO
        star = "" if server.ok and relay.ok else "*"
        verdicts.append(Verdict(f"(a) M={games}: server/relay steps/s ({server.rate:,.0f} / {relay.rate:,.0f})",
                                f"{ratio:.2f}{star}", f">= {TARGET_RATIO}", ok))
        print(f" M = {games} games ({2 * games} connections), step cap {cap} ({2 * cap} plies per game)")
        row("server: steps/s (runs)", f"{server.rate:,.0f}", f"({', '.join(f'{r:,.0f}' for r in server_rates)})")
        row("relay:  steps/s (runs)", f"{relay.rate:,.0f}", f"({', '.join(f'{r:,.0f}' for r in relay_rates)})")
        row("server / relay", f"{ratio:.2f}{star}", f">= {TARGET_RATIO}", mark(ok))
        row("CPU per step: server / relay (less sensitive to other load)",
            f"{server.cpu_per_step_us:,.0f} / {relay.cpu_per_step_us:,.0f} us")
        row("server: added delay p50 / p99 (instant answers, timeouts included)",
            f"{percentile(server.added_all_ms, 50):.1f} / {percentile(server.added_all_ms, 99):.1f} ms")
        row("server: timeouts charged", f"{server.timeouts}")
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
    return (f"Python {platform.python_version()} on {platform.system()} {platform.machine()}, {os.cpu_count()} CPUs; "
            f"websockets {version('websockets')}, pydantic {version('pydantic')}; {loop_text}; json")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the sections and print the table; exit status 1 if a run failed outright."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="M = 1, 20 and short games (under a minute)")
    parser.add_argument("--sections", default="abc", help="which sections to run, e.g. 'a' or 'bc' (default abc)")
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
                        help="capacity runs per backend and M; the best counts (default 2)")
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
    print(f"server: ArenaServer in its own process, 2*M players, one knockout round (M games at once), "
          f"limit {TIME_LIMIT_MS} ms, SilentReporter; clients: {args.client_procs} process(es), "
          f"compression {args.compression}, {'leave after their game' if args.leave_after_game else 'stay until tournament_over'}")
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

"""One run of the load bench: a backend (the server or the relay) and the load clients, and its figures.

A helper of ``server_load.py``: ``run_once`` starts the processes, waits for the games, reads the
game logs and the clients' reports, and returns a ``RunResult``; it never prints a verdict. A
``Scenario`` (the hostile sections d-f, ``load_flood.py``, ``load_watchers.py``,
``load_halfopen.py``) adds launcher options, processes started beside the load clients, and
figures of its own; without one a run is the plain load of sections a-c.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from procs import Proc, cpu_in_window, machine_busy   # bench/procs.py, beside this script
from shared.gamelog import read_log_data
from shared.quoridor import GameStatus

__all__ = ["RunResult", "Scenario", "RoundRobin", "run_once", "server_stats", "percentile", "FAILED_RUNS",
           "TIME_LIMIT_MS"]

BENCH = Path(__file__).resolve().parent
TIME_LIMIT_MS = 1000
BACKEND_GRACE_S = 30.0     # how long the server/relay may take to finish once the clients are done
FAILED_RUNS: list[str] = []  # runs that measured nothing (the exit status says so)


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
    window_start: float = 0.0            # the first game_start a client saw (time.monotonic)
    big_frames: int = 0
    big_bytes: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    totals_mismatch: int = 0
    wall_s: float = 0.0
    websockets: str = "?"                # the version the backend process imported (its PORT line)
    backend_status: int | None = None    # the backend's exit status (None: it had to be stopped)
    tournament_over: int = 0             # clients that heard tournament_over
    extra: dict[str, Any] = field(default_factory=dict)     # a scenario's own figures

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



class Scenario:
    """What a hostile section adds to a run; the defaults are the plain load of sections a-c.

    ``run_once`` calls, in this order: ``before_clients`` once the backend listens (processes to
    start before the load clients), ``after_welcome`` once every load client is welcomed, and
    ``finish`` after every process ended (the scenario's own figures into ``result.extra``).
    """

    #: Extra options for ``load_launcher.py`` and ``load_clients.py``.
    launcher_args: tuple[str, ...] = ()
    client_args: tuple[str, ...] = ()
    #: The server process's open-file limit (soft and hard), or None to inherit this process's.
    open_files: int | None = None
    #: Sample the server's resident memory (``Proc.rss``, ``Proc.peak_kb``) and its open files (``Proc.peak_files``).
    track_memory = False
    track_files = False
    #: Player names whose log rows are left out of the added delay and the timeouts (a hostile seat).
    excluded: frozenset[str] = frozenset()

    def seats(self, games: int) -> int:
        """Players the server waits for."""
        return 2 * games

    def honest(self, games: int) -> int:
        """Players the load clients bring (the other seats are the scenario's)."""
        return self.seats(games)

    def expected_s(self, games: int, step_cap: int, think_s: float) -> float:
        """About how long the games take (the deadlines are derived from it)."""
        return 2 * step_cap * max(think_s, 0.002) + 5 + self.seats(games) * 0.01

    def before_clients(self, port: int, work: Path, deadline: float) -> list[Proc]:
        """Processes to start once the backend listens, before the load clients."""
        return []

    def after_welcome(self, port: int, work: Path, deadline: float) -> list[Proc]:
        """Processes to start once every load client is welcomed."""
        return []

    def finish(self, result: RunResult, work: Path, backend: Proc, others: list[Proc]) -> None:
        """Read the scenario's own figures (after every process ended)."""


PLAIN = Scenario()


class RoundRobin(Scenario):
    """A whole round-robin of ``players`` (every pairing once, a round's games at once), the server's default
    ``Limits`` and the router's view of every link recorded: the tournament of sections (e) and (f)."""

    launcher_args = ("--format", "round-robin", "--limits", "default", "--record-links")
    client_args = ("--until-tournament-over", "--connect-concurrency", "16")   # under 32 pending per address

    def __init__(self, players: int) -> None:
        self.players = players

    @property
    def games(self) -> int:
        """Games in the tournament."""
        return self.players * (self.players - 1) // 2

    def seats(self, games: int) -> int:
        return self.players

    def expected_s(self, games: int, step_cap: int, think_s: float) -> float:
        rounds = self.players - 1 if self.players % 2 == 0 else self.players
        return rounds * (2 * step_cap * max(think_s, 0.002) + 0.5) + 10


def server_stats(work: Path) -> dict[str, Any]:
    """The launcher's ``--stats`` JSON of a run ({} when it wrote none)."""
    path = work / "stats.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def helper_report(path: Path, helpers: Sequence[Proc]) -> dict[str, Any]:
    """The JSON report a section's helper process wrote at ``path``; else ``{"failed": ...}`` with its stderr's tail."""
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    return {"failed": f"no report{helpers[0].stderr_tail(5) if helpers else ''}"}


# -- one run ------------------------------------------------------------------------------------------
def run_once(backend: str, games: int, step_cap: int, think_s: float, args: argparse.Namespace,
             label: str, scenario: Scenario = PLAIN) -> RunResult:
    """Start ``backend`` (server or relay), play ``games`` games with the load clients, collect the figures."""
    result = RunResult(backend, games, step_cap, think_s)
    players = scenario.seats(games)
    honest = scenario.honest(games)
    work = Path(tempfile.mkdtemp(prefix=f"server_load-{backend}-"))
    deadline = 60 + 2 * scenario.expected_s(games, step_cap, think_s)
    begun = time.monotonic()
    py = sys.executable
    procs: list[Proc] = []
    try:
        if backend == "server":
            argv = [py, str(args.launcher), "--players", str(players), "--step-cap", str(step_cap),
                    "--time-limit", str(TIME_LIMIT_MS), "--data-dir", str(work / "data"),
                    "--stats", str(work / "stats.json"), "--deadline", str(deadline), *scenario.launcher_args]
            if args.profile is not None:
                args.profile.mkdir(parents=True, exist_ok=True)
                argv += ["--profile", str(args.profile / f"{label}.pstats")]
        else:
            argv = [py, str(BENCH / "relay.py"), "--players", str(players), "--step-cap", str(step_cap),
                    "--time-limit", str(TIME_LIMIT_MS), "--deadline", str(deadline)]
        backend_proc = Proc(backend, argv, work / f"{backend}.err", open_files=scenario.open_files)
        backend_proc.per_thread = True
        backend_proc.track_memory = scenario.track_memory
        backend_proc.track_files = scenario.track_files
        procs.append(backend_proc)
        backend_proc.sample()
        words = backend_proc.wait_line("PORT ", 30).split()
        port = int(words[1])
        result.websockets = next((w.split("=", 1)[1] for w in words if w.startswith("websockets=")), "?")
        backend_proc.sample()
        others = scenario.before_clients(port, work, deadline)
        procs += others
        split = max(1, min(args.client_procs, honest))
        result.client_procs = split
        clients: list[Proc] = []
        outs: list[Path] = []
        first = 0
        for number in range(split):
            count = honest // split + (1 if number < honest % split else 0)
            out = work / f"clients-{number}.json"
            outs.append(out)
            cargv = [py, str(BENCH / "load_clients.py"), "--url", f"ws://127.0.0.1:{port}/",
                     "--players", str(count), "--first", str(first), "--think", str(think_s),
                     "--compression", args.compression, "--deadline", str(deadline), "--out", str(out),
                     *scenario.client_args]
            if args.leave_after_game:
                cargv.append("--leave-after-game")
            first += count
            clients.append(Proc(f"clients-{number}", cargv, work / f"clients-{number}.err"))
        procs += clients
        hard_stop = time.monotonic() + deadline + 30
        machine: list[tuple[float, float]] = []
        welcomed = type(scenario).after_welcome is Scenario.after_welcome   # nothing to start then
        while True:
            for proc in procs:
                proc.sample()
            busy = machine_busy()
            if busy is not None:
                machine.append((time.monotonic(), busy))
            if not welcomed and all(not c.lines.empty() or c.popen.poll() is not None for c in clients):
                welcomed = True
                for client in clients:
                    client.wait_line("WELCOMED", 5)
                later = scenario.after_welcome(port, work, deadline)
                others += later
                procs += later
            if all(c.popen.poll() is not None for c in clients) or time.monotonic() >= hard_stop:
                break
            time.sleep(0.05)
        for client in clients:
            if client.stop(5) != 0:
                result.problems.append(f"{client.name} ended with status {client.popen.returncode}"
                                       f"{client.stderr_tail(5)}")
        status = backend_proc.stop(BACKEND_GRACE_S)
        result.backend_status = status
        if status is None:
            result.problems.append(f"{backend} still busy {BACKEND_GRACE_S:.0f} s after the clients ended: stopped")
        elif status != 0:
            result.problems.append(f"{backend} ended with status {status}{backend_proc.stderr_tail(8)}")
        for other in others:
            other.stop(2)
        reports = [json.loads(out.read_text(encoding="utf-8")) for out in outs if out.exists()]
        if len(reports) != len(outs):
            raise RuntimeError(f"{len(outs) - len(reports)} client process(es) wrote no report")
        collect(result, reports, clients, backend_proc, work, machine, scenario.excluded)
        scenario.finish(result, work, backend_proc, others)
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
            work: Path, machine: list[tuple[float, float]], excluded: frozenset[str] = frozenset()) -> None:
    """Merge the client reports (and, for the server, the game logs) into ``result``; rows of ``excluded``
    players are counted apart (``extra['excluded_rows']``, ``extra['excluded_timeouts']``)."""
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
        result.tournament_over += report.get("tournament_over", 0)
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
    result.window_start = t0
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
    logs = sorted((work / "data" / "load").glob("*_vs_*.csv"))     # game logs: <game>_<white>_vs_<black>.csv
    result.extra["logs"] = len(logs)
    if not logs:
        raise RuntimeError(f"the server wrote no game logs in {work / 'data' / 'load'}")
    for path in logs:
        log = read_log_data(path.read_bytes(), str(path))
        game = log.header.game or ""
        totals = [0, 0]
        for record in log.steps:
            result.steps += 1
            seat = log.header.players.index(record.player)
            totals[seat] += record.thinking_ms or 0
            if record.player in excluded:
                result.extra["excluded_rows"] = result.extra.get("excluded_rows", 0) + 1
                if record.status is GameStatus.TIMEOUT:
                    result.extra["excluded_timeouts"] = result.extra.get("excluded_timeouts", 0) + 1
                continue
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
        if excluded.intersection(log.header.players):
            continue            # the hostile seat's totals are not the clients' to check
        for entry in reported:
            if entry[1] is not None and sorted(entry[1]) != sorted(totals):
                result.totals_mismatch += 1

"""Run the real ``ArenaServer`` for the load benchmark: one knockout round of M concurrent games.

Used by ``bench/server_load.py``; it can also be run by hand. It builds ``ServerSettings`` with
what the command line cannot set, starts the server on a free port, prints ``PORT <n>
websockets=<version>`` on stdout, runs the tournament and exits. Limits (``--limits``):

* ``load`` (sections a-c): high enough for one address to open 2*M connections at once and
  answer as fast as it likes (``max_connections``, ``max_pending_per_address`` and
  ``max_anonymous_per_address`` at max(4*M, 1024); the rate limit off; 120 s to say hello);
* ``default`` (sections d-f, the hostile ones): the server's own ``Limits()``, the defences
  being measured.

``--format round-robin`` plays a whole round-robin instead (sections e and f). ``--record-links``
installs ``link_recorder.LinkRecorder`` (what the router saw of each connection) and adds its
report to ``--stats``; the stats also give the open-file limit and the server's connection
capacity (half of that limit).

Why one knockout round: with 2*M players a round-robin would schedule M*(2M-1) games, while the
first knockout round is exactly M games of disjoint pairs, all played at once (``concurrency``
None = every game of a round). The launcher replaces ``server.tournament.runner.Knockout`` (in this
process only, no file is changed) by a subclass whose ``advance()`` ends the tournament after
round 1, so the server records exactly M games, sends ``tournament_over`` and closes: no
forfeits, no extra rounds. If that hook is gone, the launcher says so on stderr and falls back
to ``rejoin_wait_s=0``: the clients leave after their game and every later game is forfeited
at once (outside the measured window, which ends at the last ``game_over`` of round 1).

While the server runs, a probe task measures the event loop's lag (how late a 10 ms timer fires)
and ``--stats`` writes it, with the process CPU time, as JSON. ``--profile`` runs the whole server
under cProfile and writes a pstats file (the profiler slows the server: its figures are for
finding hot spots, not for the targets).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import os
import resource
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import server.tournament.runner as server_tournament
import websockets
from link_recorder import LinkRecorder   # bench/link_recorder.py, beside this script
from server.net import eventloop
from server.app import ArenaServer, SilentReporter
from server.settings import Limits, ServerSettings

PROBE_INTERVAL_S = 0.01
STALL_MS = 50.0           # loop lags at least this long are listed with their time


class OneRoundKnockout(server_tournament.Knockout):  # type: ignore[misc, name-defined]
    """A knockout that stops after its first round (no champion; the tournament simply ends)."""

    def advance(self) -> bool:
        """Never go on to round 2."""
        return False


def raise_fd_limit() -> int:
    """Raise the soft limit on open files to the hard limit; returns the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            return target
        except (ValueError, OSError):
            return soft
    return soft


def build_limits(preset: str, players: int) -> Limits:
    """The limits of a run: ``load`` (one address may open every connection and send at any rate) or ``default``."""
    if preset == "default":
        return Limits()
    connections = max(4 * players, 1024)
    return Limits(max_connections=connections, max_pending_per_address=connections,
                  max_anonymous_per_address=connections, messages_per_second=1e9, burst=1_000_000_000,
                  hello_timeout_s=120)


def build_settings(args: argparse.Namespace) -> ServerSettings:
    """The server settings for one load run."""
    return ServerSettings(
        host="127.0.0.1", port=args.port, players=args.players, games_per_pairing=1, format=args.format,
        ruleset="course", time_limit_ms=args.time_limit, step_cap=args.step_cap, concurrency=None,
        data_dir=args.data_dir, seed=args.seed, tournament_name="load", rejoin_wait_s=0.0,
        limits=build_limits(args.limits, args.players), analysis=args.analysis)


class LoopProbe:
    """Measures how late a periodic timer fires on the running event loop, and times garbage collections."""

    def __init__(self) -> None:
        self.lags_ms: list[float] = []
        self.stalls: list[tuple[float, float]] = []      # (monotonic time, lag ms) of lags over STALL_MS
        self.gc_pauses: list[tuple[float, int, float]] = []   # (monotonic time, generation, ms)
        self._gc_started = 0.0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start probing in a background task and timing collections."""
        self._task = asyncio.get_running_loop().create_task(self._run())
        gc.callbacks.append(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.monotonic()
        elif self._gc_started:
            now = time.monotonic()
            self.gc_pauses.append((now, info.get("generation", -1), (now - self._gc_started) * 1000))

    async def _run(self) -> None:
        while True:
            before = time.monotonic()
            await asyncio.sleep(PROBE_INTERVAL_S)
            now = time.monotonic()
            lag = (now - before - PROBE_INTERVAL_S) * 1000
            self.lags_ms.append(lag)
            if lag >= STALL_MS:
                self.stalls.append((now, lag))

    def stop(self) -> None:
        """Stop probing."""
        if self._task is not None:
            self._task.cancel()
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)


def summary(values: Sequence[float]) -> dict[str, float]:
    """Count, p50, p99 and max of ``values``."""
    ordered = sorted(values)
    if not ordered:
        return {"n": 0}

    def rank(q: float) -> float:
        return ordered[min(len(ordered) - 1, max(0, int(q * len(ordered) + 0.999999) - 1))]

    return {"n": len(ordered), "p50": rank(0.5), "p99": rank(0.99), "max": ordered[-1]}


class Run:
    """One server run: its probe, profiler and stats file, which a SIGTERM also writes out."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.probe = LoopProbe()
        self.profiler = cProfile.Profile() if args.profile else None
        self.stats: dict[str, Any] = {"pid": os.getpid(), "nofile": resource.getrlimit(resource.RLIMIT_NOFILE)}
        self.written = False
        self.links = LinkRecorder() if args.record_links else None
        if self.links is not None:
            self.links.install()

    async def serve(self) -> int:
        """Start the server, announce its port, run the tournament, close."""
        server = ArenaServer(build_settings(self.args), SilentReporter())  # type: ignore[arg-type]
        try:
            await server.start()
            self.stats["capacity"] = server.connections.capacity
            self.stats["nofile"] = resource.getrlimit(resource.RLIMIT_NOFILE)
            print(f"PORT {server.port} websockets={websockets.__version__}", flush=True)
            self.probe.start()
            standings = await asyncio.wait_for(server.run_tournament(), self.args.deadline)
            self.stats["games_done"] = standings.games_done
        finally:
            self.probe.stop()
            await server.close()
        return 0

    def finish(self) -> None:
        """Stop the profiler and write the stats (once)."""
        if self.written:
            return
        self.written = True
        if self.profiler is not None:
            self.profiler.disable()
            self.profiler.dump_stats(str(self.args.profile))
        probe = self.probe
        times = os.times()
        self.stats.update(loop_lag_ms=summary(probe.lags_ms), stalls=probe.stalls, gc_count=len(probe.gc_pauses),
                          gc_pauses=[p for p in probe.gc_pauses if p[1] == 2 or p[2] >= 5.0],
                          cpu_s=times.user + times.system)
        if self.links is not None:
            self.stats["links"] = self.links.report()
        if self.args.stats is not None:
            self.args.stats.write_text(json.dumps(self.stats), encoding="utf-8")

    def on_sigterm(self, signum: int, frame: Any) -> None:
        """Asked to stop (the benchmark gave up waiting): write what was measured and exit at once."""
        self.finish()
        print("DONE terminated", flush=True)
        os._exit(4)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse options, run the server (optionally under cProfile), write stats."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, required=True, help="players to wait for (2*M for M games)")
    parser.add_argument("--port", type=int, default=0, help="port (default 0: any free port)")
    parser.add_argument("--step-cap", type=int, default=30, help="steps per player per game (default 30)")
    parser.add_argument("--time-limit", type=int, default=1000, metavar="MS", help="thinking limit per step")
    parser.add_argument("--data-dir", type=Path, required=True, help="where the logs and the database go")
    parser.add_argument("--seed", type=int, default=1, help="pairing seed (default 1)")
    parser.add_argument("--deadline", type=float, default=600.0, metavar="S",
                        help="give up after S seconds (default 600)")
    parser.add_argument("--format", choices=["knockout", "round-robin"], default="knockout",
                        help="knockout: its first round only, M games at once (default); round-robin: all of it")
    parser.add_argument("--limits", choices=["load", "default"], default="load",
                        help="load: one address may open every connection, no rate limit (default); "
                             "default: the server's own Limits()")
    parser.add_argument("--record-links", action="store_true",
                        help="record what the router saw of each connection (link_recorder.py) in --stats")
    parser.add_argument("--stats", type=Path, help="write loop lag, stalls, GC pauses and CPU time as JSON here")
    parser.add_argument("--analysis", choices=["off", "local"], default="off",
                        help="the server's background analysis of finished games (default off: the load alone; "
                             "bench/analysis_live.py compares the two)")
    parser.add_argument("--profile", type=Path, help="run under cProfile and write a pstats file here")
    args = parser.parse_args(argv)
    if args.players < 2 or args.players % 2:
        parser.error("--players must be an even number >= 2")
    raise_fd_limit()
    if args.format == "knockout":
        if hasattr(server_tournament, "Knockout"):
            server_tournament.Knockout = OneRoundKnockout  # type: ignore[misc]
        else:
            print("load_launcher: server.tournament.runner.Knockout not found; later rounds will be forfeits",
                  file=sys.stderr)
    run = Run(args)
    signal.signal(signal.SIGTERM, run.on_sigterm)
    status = 1
    try:
        if run.profiler is not None:
            run.profiler.enable()
        status = eventloop.run(run.serve())   # uvloop when installed, as quoridor-server
    except TimeoutError:
        print(f"load_launcher: the tournament did not finish within {args.deadline:.0f} s", file=sys.stderr)
        status = 3
    except OSError as exc:
        print(f"load_launcher: cannot start the server: {exc}", file=sys.stderr)
        status = 2
    finally:
        run.finish()
    print(f"DONE {status}", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())

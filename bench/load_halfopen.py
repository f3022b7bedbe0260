"""Section (f) of the load bench: half-open connections at a 1,024 open-file limit, during a round-robin.

Run as a script, this is the attacker: ``--count`` TCP connections to the server from 127.0.0.1,
opened at an even pace over ``--spread`` seconds (a SIGTERM stops it early: it then reports what it saw). None of them ever finishes a websocket
handshake: every ``--partial``-th one writes half a request line (``GET /chat HTT``), the others
write nothing. Each is held until the server ends it (EOF or reset) or until ``--hold`` seconds
after the last one was opened, then aborted. It writes JSON (``--out``): per connection when it
was opened, when the server ended it (or null), whether it sent half a line, and any error.

As a module, ``HalfOpenScenario`` runs the server with RLIMIT_NOFILE soft = hard = 1,024 (set
in the child before it starts, so the server cannot raise it; it keeps its connections to half
of that) and its default ``Limits`` (at most 32 pending connections per address, 5 s to finish
a handshake: the defence measured here), seats the players first (the attacker shares their
address, and the per-address cap would refuse a player while the attacker holds the slots),
then starts the attacker. ``section_f`` prints whether the tournament completed (every game
logged, ``tournament_over`` heard by every player, the server's exit status), how many
half-open connections the server accepted and how many it cut at once, how long the accepted
ones lived, the most pending connections it held at once and its open files at the peak.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from load_report import Verdict, delay_row, diagnostics, mark, row   # bench/, beside this script
from load_run import RoundRobin, RunResult, helper_report, percentile, run_once, server_stats
from procs import Proc

__all__ = ["HalfOpenScenario", "section_f"]

BENCH = Path(__file__).resolve().parent
HALF_LINE = b"GET /chat HTT"
CUT_AT_ONCE_S = 1.0          # a connection ended sooner than this was refused, not timed out
OPEN_FILES = 1024


# -- the attacker (a script) -------------------------------------------------------------------------
class HalfOpen(asyncio.Protocol):
    """One half-open connection: maybe half a request line, then silence; notes when the server ends it."""

    def __init__(self, record: dict[str, Any], partial: bool) -> None:
        self.record = record
        self.partial = partial
        self.transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self.record["made"] = time.monotonic()
        if self.partial:
            transport.write(HALF_LINE)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        self.record["bytes"] = self.record.get("bytes", 0) + len(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.record["lost"] = time.monotonic()
        if exc is not None:
            self.record["how"] = type(exc).__name__


async def attack(args: argparse.Namespace) -> dict[str, Any]:
    """Open the connections at an even pace, hold them, report."""
    loop = asyncio.get_running_loop()
    records: list[dict[str, Any]] = []
    protocols: list[HalfOpen] = []
    began = time.monotonic()
    stop = asyncio.Event()                  # SIGTERM (the bench is done): stop opening, report what was seen
    loop.add_signal_handler(signal.SIGTERM, stop.set)

    async def one(number: int) -> None:
        record: dict[str, Any] = {"start": time.monotonic(), "partial": number % args.partial == 0}
        records.append(record)
        try:
            async with asyncio.timeout(10):
                _, protocol = await loop.create_connection(lambda: HalfOpen(record, record["partial"]),
                                                           "127.0.0.1", args.port)
            protocols.append(protocol)
        except (OSError, TimeoutError) as exc:
            record["error"] = type(exc).__name__

    tasks = []
    for number in range(args.count):
        if stop.is_set():
            break
        tasks.append(loop.create_task(one(number)))
        await asyncio.sleep(max(began + (number + 1) * args.spread / args.count - time.monotonic(), 0))
    await asyncio.gather(*tasks)
    until = time.monotonic() + args.hold
    while time.monotonic() < until and not stop.is_set() and any("made" in r and "lost" not in r for r in records):
        await asyncio.sleep(0.1)
    for protocol in protocols:
        if protocol.transport is not None and "lost" not in protocol.record:
            protocol.record["aborted_by_us"] = time.monotonic()
            protocol.transport.abort()
    await asyncio.sleep(0.1)
    return {"began": began, "count": args.count, "records": records}


def main(argv: Sequence[str] | None = None) -> int:
    """Parse options, attack, write the report."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True, help="the server's port on 127.0.0.1")
    parser.add_argument("--count", type=int, default=1000, help="connections (default 1000)")
    parser.add_argument("--spread", type=float, default=15.0, help="open them over S seconds (default 15)")
    parser.add_argument("--hold", type=float, default=10.0, help="hold them S seconds after the last (default 10)")
    parser.add_argument("--partial", type=int, default=3, help="every N-th sends half a request line (default 3)")
    parser.add_argument("--out", type=Path, required=True, help="where to write the JSON report")
    args = parser.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < args.count + 64:
        parser.error(f"this process may open {hard} files; {args.count} connections need more")
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    report = asyncio.run(attack(args))
    args.out.write_text(json.dumps(report), encoding="utf-8")
    print(f"DONE {len(report['records'])}", flush=True)
    return 0


# -- the scenario and its section ----------------------------------------------------------------
class HalfOpenScenario(RoundRobin):
    """A round-robin at a 1,024 open-file limit; once the players are in, ``count`` half-open connections."""

    open_files = OPEN_FILES
    track_files = True

    def __init__(self, players: int, count: int, spread_s: float) -> None:
        super().__init__(players)
        self.count = count
        self.spread_s = spread_s

    def after_welcome(self, port: int, work: Path, deadline: float) -> list[Proc]:
        argv = [sys.executable, str(BENCH / "load_halfopen.py"), "--port", str(port), "--count", str(self.count),
                "--spread", str(self.spread_s), "--out", str(work / "halfopen.json")]
        return [Proc("half-open", argv, work / "half-open.err")]

    def finish(self, result: RunResult, work: Path, backend: Proc, others: list[Proc]) -> None:
        result.extra["attack"] = helper_report(work / "halfopen.json", others)
        if "records" not in result.extra["attack"]:
            result.problems.append(f"the attacker wrote no report: {result.extra['attack'].get('failed')}")
        stats = server_stats(work)
        links = stats.get("links", {})
        result.extra["refused"] = links.get("refused", [])
        result.extra["pending_peak"] = links.get("pending_peak")
        result.extra["unready"] = [link for link in links.get("links", []) if link["ready"] is None]
        result.extra["capacity"] = stats.get("capacity")
        result.extra["nofile"] = stats.get("nofile")
        result.extra["peak_files"] = backend.peak_files


def section_f(players: int, count: int, think_s: float, cap: int, args: argparse.Namespace) -> list[Verdict]:
    """(f): half-open connections during a round-robin at a 1,024 open-file limit."""
    spread = 10.0 if count >= 500 else 1.0
    scenario = HalfOpenScenario(players, count, spread)
    print(f"(f) {count:,} half-open connections (every 3rd sends half a request line), opened over {spread:.0f} s "
          f"once the players are in, during a round-robin of {players} players ({scenario.games} games, bots think "
          f"{think_s * 1000:.0f} ms, step cap {cap}); server RLIMIT_NOFILE {OPEN_FILES}, default Limits")
    result = run_once("server", scenario.games, cap, think_s, args, f"f-{players}p-{count}h", scenario)
    extra = result.extra
    star = "" if result.ok else "*"
    logs = extra.get("logs", 0)
    complete = result.ok and logs == scenario.games and result.tournament_over == players \
        and result.backend_status == 0
    row("games recorded (logs) / expected", f"{logs} / {scenario.games}{star}", f"= {scenario.games}", mark(complete))
    row("players that heard tournament_over / server exit status",
        f"{result.tournament_over} of {players} / {result.backend_status}")
    row("server: open-file limit / connection capacity / most files open at once",
        f"{(extra.get('nofile') or ['?'])[0]} / {extra.get('capacity')} / {extra.get('peak_files')}")
    attack = extra.get("attack", {})
    records = attack.get("records", [])
    if records:
        made = [r for r in records if "made" in r]
        ended = [r["lost"] - r["made"] for r in made if "lost" in r]
        cut = [t for t in ended if t < CUT_AT_ONCE_S]
        held = [t for t in ended if t >= CUT_AT_ONCE_S]
        still = [r for r in made if "lost" not in r or "aborted_by_us" in r]
        failed = [r for r in records if "error" in r]
        row("attacker: connected / failed to connect", f"{len(made)} / {len(failed)}")
        row("attacker: cut within 1 s / held, then ended by the server / never ended by it",
            f"{len(cut)} / {len(held)} / {len(still)}")
        if held:
            row("  held ones lived: min / median / max", f"{min(held):.1f} / {percentile(held, 50):.1f} / {max(held):.1f} s")
    else:
        print(f"    !! attacker: {attack.get('failed', 'no report')}")
    unready = extra.get("unready", [])
    lives = [link["closed"] - link["opened"] for link in unready if link["closed"] is not None]
    row("server: accepted (never finished a handshake) / refused at once", f"{len(unready)} / {len(extra.get('refused', []))}")
    if lives:
        row("  accepted ones closed after: min / median / max",
            f"{min(lives):.1f} / {percentile(lives, 50):.1f} / {max(lives):.1f} s")
    row("server: most pending connections at once (cap 32 per address)", f"{extra.get('pending_peak')}")
    delay_row(result)
    diagnostics(result)
    return [Verdict(f"(f) {count:,} half-open at {OPEN_FILES} files, {players}-player round-robin: games recorded",
                    f"{logs} / {scenario.games}{star}", f"= {scenario.games}", complete)]


if __name__ == "__main__":
    sys.exit(main())

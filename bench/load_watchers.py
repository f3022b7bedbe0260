"""Section (e) of the load bench: spectators that never read, beside a round-robin tournament.

Run as a script, this opens ``--count`` spectator connections (at most ``--concurrency`` handshakes
at once, under the server's 32 pending connections per address). Each socket gets a small
``SO_RCVBUF`` before it connects (``--rcvbuf``, so the kernel holds little for it), finishes the
websocket handshake, sends ``hello`` (role spectator) and ``watch`` ``"*"`` in one write, waits
for its ``welcome`` (so that the server has taken it), and then never reads again
(``transport.pause_reading()``): everything the server sends it piles up in the server. Once all
are in, it prints ``WATCHING <n>`` and writes its JSON report (``--out``), then holds the
connections until it is stopped or ``--deadline`` passes.

As a module, ``WatchScenario`` starts those spectators once the server listens and before the
players connect (the server's resident memory is sampled before and after), and ``section_e``
prints the server's peak RSS (``VmHWM``) against its target and how many spectators the server
closed, why and when (from the router's view, ``link_recorder.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from load_report import Verdict, delay_row, diagnostics, mark, row   # bench/, beside this script
from load_run import RoundRobin, RunResult, percentile, run_once, server_stats
from procs import Proc
from ws_link import ClientLink

__all__ = ["WatchScenario", "section_e"]

BENCH = Path(__file__).resolve().parent


# -- the spectators (a script) --------------------------------------------------------------------
async def watch_one(port: int, rcvbuf: int, gate: asyncio.Semaphore, timeout: float,
                    links: list[ClientLink]) -> float:
    """One spectator: connect with a small receive buffer, hello + watch '*', wait for welcome, stop reading."""
    loop = asyncio.get_running_loop()
    welcomed: asyncio.Future[float] = loop.create_future()

    def on_text(text: str, now: float) -> None:
        if not welcomed.done() and text.startswith('{"type":"welcome"'):
            welcomed.set_result(now)

    async with gate, asyncio.timeout(timeout):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)   # before connect: it sets the window
        sock.setblocking(False)
        try:
            await loop.sock_connect(sock, ("127.0.0.1", port))
        except BaseException:
            sock.close()
            raise
        transport, link = await loop.create_connection(lambda: ClientLink(f"ws://127.0.0.1:{port}/", on_text),
                                                       sock=sock)
        links.append(link)
        await link.opened
        link.send_text(b'{"type": "hello", "protocol": 1, "role": "spectator", "key": "watcher"}')
        link.send_text(b'{"type": "watch", "game": "*"}')
        at = await welcomed
        transport.pause_reading()            # from now on: never read
    return at


async def watch(args: argparse.Namespace) -> dict[str, Any]:
    """Open every spectator; report; hold them until the deadline."""
    gate = asyncio.Semaphore(args.concurrency)
    links: list[ClientLink] = []
    began = time.monotonic()
    outcome = await asyncio.gather(*(watch_one(args.port, args.rcvbuf, gate, args.connect_timeout, links)
                                     for _ in range(args.count)), return_exceptions=True)
    failures = Counter(type(x).__name__ for x in outcome if isinstance(x, BaseException))
    welcomed = [x for x in outcome if isinstance(x, float)]
    report = {"count": args.count, "began": began, "welcomed": len(welcomed), "failures": dict(failures),
              "last_welcome": max(welcomed, default=None), "rcvbuf": args.rcvbuf}
    args.out.write_text(json.dumps(report), encoding="utf-8")
    print(f"WATCHING {len(welcomed)}", flush=True)
    remaining = args.deadline - (time.monotonic() - began)
    if remaining > 0:
        await asyncio.wait([link.lost for link in links], timeout=remaining)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    """Parse options and run the spectators."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True, help="the server's port on 127.0.0.1")
    parser.add_argument("--count", type=int, default=200, help="spectators (default 200)")
    parser.add_argument("--rcvbuf", type=int, default=4096, help="SO_RCVBUF of each socket, bytes (default 4096)")
    parser.add_argument("--concurrency", type=int, default=16, help="handshakes at once (default 16)")
    parser.add_argument("--connect-timeout", type=float, default=30.0, metavar="S")
    parser.add_argument("--deadline", type=float, default=300.0, metavar="S", help="exit after S seconds")
    parser.add_argument("--out", type=Path, required=True, help="where to write the JSON report")
    args = parser.parse_args(argv)
    asyncio.run(watch(args))
    return 0


# -- the scenario and its section --------------------------------------------------------------
class WatchScenario(RoundRobin):
    """A round-robin of ``players`` with ``spectators`` non-reading spectators connected before it starts."""

    track_memory = True

    def __init__(self, players: int, spectators: int) -> None:
        super().__init__(players)
        self.spectators = spectators
        self.started_at = 0.0

    def before_clients(self, port: int, work: Path, deadline: float) -> list[Proc]:
        self.started_at = time.monotonic()
        argv = [sys.executable, str(BENCH / "load_watchers.py"), "--port", str(port), "--count", str(self.spectators),
                "--deadline", str(deadline), "--out", str(work / "watchers.json")]
        proc = Proc("spectators", argv, work / "spectators.err")
        proc.wait_line("WATCHING", 60)
        self.watching_at = time.monotonic()
        return [proc]

    def finish(self, result: RunResult, work: Path, backend: Proc, others: list[Proc]) -> None:
        path = work / "watchers.json"
        result.extra["watchers"] = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        if result.extra["watchers"].get("welcomed") != self.spectators:
            result.problems.append(f"{result.extra['watchers'].get('welcomed', 0)} of {self.spectators} spectators "
                                   f"were taken: {result.extra['watchers'].get('failures')}")
        before = [kb for t, kb in backend.rss if t <= self.started_at]
        after = [kb for t, kb in backend.rss if t >= self.watching_at]
        result.extra["rss_before_kb"] = before[-1] if before else None
        result.extra["rss_watching_kb"] = after[0] if after else None
        result.extra["rss_peak_kb"] = backend.peak_kb
        result.extra["rss_last_kb"] = backend.rss[-1][1] if backend.rss else None
        links = server_stats(work).get("links", {})
        result.extra["spectator_links"] = [link for link in links.get("links", []) if link["role"] == "spectator"]


def section_e(players: int, spectators: int, think_s: float, cap: int, peak_target_mb: float,
              args: argparse.Namespace) -> list[Verdict]:
    """(e): non-reading spectators beside a round-robin; the server's peak RSS, the spectators' fate."""
    scenario = WatchScenario(players, spectators)
    print(f"(e) {spectators} spectators watching \"*\" that never read (SO_RCVBUF 4096) beside a round-robin of "
          f"{players} players ({scenario.games} games, bots think {think_s * 1000:.0f} ms, step cap {cap}); "
          "the server's default Limits")
    result = run_once("server", scenario.games, cap, think_s, args, f"e-{players}p-{spectators}w", scenario)
    star = "" if result.ok else "*"
    extra = result.extra
    peak_mb = extra.get("rss_peak_kb", 0) / 1024
    ok = result.ok and 0 < peak_mb <= peak_target_mb
    mb = (lambda kb: f"{kb / 1024:.1f}" if kb else "?")
    row("server RSS: before the spectators / once they watch / at the end (MB)",
        f"{mb(extra.get('rss_before_kb'))} / {mb(extra.get('rss_watching_kb'))} / {mb(extra.get('rss_last_kb'))}")
    row("server peak RSS (VmHWM)", f"{peak_mb:.1f} MB{star}", f"<= {peak_target_mb:.0f} MB", mark(ok))
    watchers = extra.get("watchers", {})
    row("spectators welcomed / failed to connect",
        f"{watchers.get('welcomed', '?')} / {sum(watchers.get('failures', {}).values())}")
    links = extra.get("spectator_links", [])
    closed = [link for link in links if link["close"] is not None]
    reasons = Counter(f"{link['close'][1]} {link['close'][2]}" for link in closed)
    row("spectators the server closed (of those it took)", f"{len(closed)} of {len(links)}")
    for reason, count in reasons.most_common():
        row(f"  closed with {reason!r}", f"{count}")
    if closed:
        into = [link["close"][0] - result.window_start for link in closed]
        gone = [link["closed"] - link["close"][0] for link in closed if link["closed"] is not None]
        row("  closed at, s after the first game_start: first / median / last",
            f"{min(into):.1f} / {percentile(into, 50):.1f} / {max(into):.1f} s")
        if gone:
            row("  TCP gone after the close began: median / max", f"{percentile(gone, 50):.1f} / {max(gone):.1f} s")
        row("  tournament window (first game_start to last game_over)", f"{result.window_s:.1f} s")
    row("tournament: games recorded (logs) / expected; clients that heard tournament_over",
        f"{extra.get('logs', 0)} / {scenario.games}; {result.tournament_over} of {players}")
    delay_row(result)
    diagnostics(result)
    return [Verdict(f"(e) {spectators} non-reading spectators, {players}-player round-robin: server peak RSS",
                    f"{peak_mb:.1f} MB{star}", f"<= {peak_target_mb:.0f} MB", ok)]


if __name__ == "__main__":
    sys.exit(main())

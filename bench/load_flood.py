"""Section (d) of the load bench: a seated bot floods stale steps beside honest games.

Run as a script, this is the flooder: one player connection (key ``flood``) that says hello,
waits for its game's first ``turn``, answers it with a legal step, and then writes that same
step (its turn is now old: every copy is stale) as fast as the socket takes it, up to
``--frames`` frames or ``--seconds``, whichever comes first, or until the connection is gone. It
never answers the server's close frame or pings (a hostile client), and writes JSON (``--out``):
when the flood began, frames handed to the socket, when the server's close frame arrived (code,
reason) and when the TCP connection was gone, the error frames it was sent.

The frames are made by websockets' ``ClientProtocol.send_text`` (a chunk of ``CHUNK`` frames,
each with its own mask, taken with ``data_to_send``), and that chunk is written again and
again: the flood costs the flooder a ``write`` per chunk, not a frame encoding per frame.

As a module, ``FloodScenario`` adds the flooder to a run of ``load_run.run_once`` (the server's
default ``Limits``, the router's view of every link recorded) and ``section_d`` prints the
figures: the honest games' added delay and timeouts (the flooder's own rows left out), how long
the server took to close the flooder and how many of its frames it read.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from load_report import Verdict, diagnostics, mark, row   # bench/, beside this script
from load_run import RunResult, Scenario, helper_report, percentile, run_once, server_stats
from procs import Proc
from ws_link import ClientLink

__all__ = ["FloodScenario", "section_d", "FLOOD_KEY"]

BENCH = Path(__file__).resolve().parent
FLOOD_KEY = "flood"
CHUNK = 1000                 # frames per write
HIGH_WATER = 1 << 20         # bytes the flooder lets its transport buffer before it waits


# -- the flooder (a script) ---------------------------------------------------------------------
class FloodLink(ClientLink):
    """A client link that knows when its transport's buffer is full (``writable``)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.writable = asyncio.Event()
        self.writable.set()
        transport.set_write_buffer_limits(high=HIGH_WATER)  # type: ignore[attr-defined]
        super().connection_made(transport)

    def pause_writing(self) -> None:
        self.writable.clear()

    def resume_writing(self) -> None:
        self.writable.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.writable.set()
        super().connection_lost(exc)


async def flood(args: argparse.Namespace) -> dict[str, Any]:
    """Take a seat, answer the first turn, then flood that (now stale) step; the report."""
    report: dict[str, Any] = {"errors": Counter(), "frames_written": 0, "bytes_written": 0}
    first_turn: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

    def on_text(text: str, now: float) -> None:
        if len(text) > 600:
            return
        message = json.loads(text)
        kind = message.get("type")
        if kind == "turn" and not first_turn.done():
            report["turn_at"] = now
            first_turn.set_result(message)
        elif kind == "error":
            report["errors"][message.get("code", "?")] += 1
        elif kind == "game_start":
            report["game"], report["seat"] = message["game"], message.get("seat")

    loop = asyncio.get_running_loop()
    stop_at = time.monotonic() + args.deadline
    async with asyncio.timeout(args.deadline):
        transport, link = await loop.create_connection(lambda: FloodLink(args.url, on_text), "127.0.0.1", args.port)
        await link.opened
        link.send_text(json.dumps({"type": "hello", "protocol": 1, "role": "player", "key": FLOOD_KEY,
                                   "name": FLOOD_KEY}).encode())
        turn = await first_turn
    x, y = turn["my_loc"]
    step = json.dumps({"type": "step", "game": turn["game"], "turn": turn["turn"],
                       "move": [x - 1 if x >= 5 else x + 1, y], "wall": None}).encode()
    link.send_text(step)                     # the legal answer: from now on this turn is old
    protocol = link.protocol
    for _ in range(CHUNK):
        protocol.send_text(step)
    chunk = b"".join(protocol.data_to_send())
    link.silent = True                       # from now on: no pong, no close reply
    report["frame_bytes"] = len(chunk) // CHUNK
    report["flood_start"] = began = time.monotonic()
    until = min(stop_at, began + args.seconds)
    while report["frames_written"] < args.frames and not link.lost.done() and time.monotonic() < until:
        if not link.writable.is_set():
            try:
                async with asyncio.timeout(max(until - time.monotonic(), 0.001)):
                    await link.writable.wait()
            except TimeoutError:
                break
            continue
        transport.write(chunk)
        report["frames_written"] += CHUNK
        report["bytes_written"] += len(chunk)
        await asyncio.sleep(0)               # let the server's frames in (its errors, its close)
    report["flood_end"] = time.monotonic()
    report["unsent_bytes"] = 0 if link.lost.done() else transport.get_write_buffer_size()
    try:                                     # wait for the server to end it (at most 10 s)
        await asyncio.wait_for(asyncio.shield(link.lost), max(min(10.0, stop_at - time.monotonic()), 0.01))
    except TimeoutError:
        report["still_open"] = True
        transport.abort()
    report.update(close_at=link.close_received_at, close_code=link.close_code, close_reason=link.close_reason,
                  lost_at=link.lost_at)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    """Parse options, flood, write the report."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True, help="the server's port on 127.0.0.1")
    parser.add_argument("--frames", type=int, default=300_000, help="stale step frames to write at most")
    parser.add_argument("--seconds", type=float, default=20.0, help="flood for at most this long (default 20)")
    parser.add_argument("--deadline", type=float, default=120.0, metavar="S", help="give up after S seconds")
    parser.add_argument("--out", type=Path, required=True, help="where to write the JSON report")
    args = parser.parse_args(argv)
    args.url = f"ws://127.0.0.1:{args.port}/"
    try:
        report = asyncio.run(flood(args))
    except (TimeoutError, OSError) as exc:
        report = {"failed": f"{type(exc).__name__}: {exc}"}
    args.out.write_text(json.dumps(report), encoding="utf-8")
    print(f"DONE frames_written={report.get('frames_written')} failed={report.get('failed')}", flush=True)
    return 0 if "failed" not in report else 1


# -- the scenario and its section --------------------------------------------------------------
class FloodScenario(Scenario):
    """M - 1 honest games and one game with the flooder in a seat; the server's default limits."""

    launcher_args = ("--limits", "default", "--record-links")
    client_args = ("--connect-concurrency", "16")     # under the server's 32 pending handshakes per address
    excluded = frozenset({FLOOD_KEY})

    def __init__(self, frames: int) -> None:
        self.frames = frames

    def honest(self, games: int) -> int:
        return 2 * games - 1

    def before_clients(self, port: int, work: Path, deadline: float) -> list[Proc]:
        argv = [sys.executable, str(BENCH / "load_flood.py"), "--port", str(port), "--frames", str(self.frames),
                "--deadline", str(deadline), "--out", str(work / "flood.json")]
        return [Proc("flooder", argv, work / "flooder.err")]

    def finish(self, result: RunResult, work: Path, backend: Proc, others: list[Proc]) -> None:
        result.extra["flood"] = helper_report(work / "flood.json", others)
        if "flood_start" not in result.extra["flood"]:
            result.problems.append(f"the flooder never flooded: {result.extra['flood'].get('failed', 'no report')}")
        links = server_stats(work).get("links", {})
        result.extra["flood_link"] = next((link for link in links.get("links", []) if link["key"] == FLOOD_KEY), None)


def section_d(games: int, think_s: float, cap: int, frames: int, p99_target: float,
              args: argparse.Namespace) -> list[Verdict]:
    """(d): the flood beside ``games`` honest games; honest added delay and timeouts, the flooder's fate."""
    print(f"(d) stale-step flood: {games} honest games ({2 * games} bots think {think_s * 1000:.0f} ms, step cap {cap}) "
          f"+ 1 game with a flooder seated (up to {frames:,} stale steps as fast as it can write); "
          "the server's default Limits")
    result = run_once("server", games + 1, cap, think_s, args, f"d-M{games}-flood", FloodScenario(frames))
    star = "" if result.ok else "*"
    added = result.added_all_ms
    p50, p99 = percentile(added, 50), percentile(added, 99)
    ok_delay = result.ok and p99 <= p99_target
    ok_timeouts = result.ok and result.timeouts == 0
    row(f"honest added delay p50 / p99 / max (n={len(added):,} steps)",
        f"{p50:.1f} / {p99:.1f} / {max(added, default=float('nan')):.1f} ms{star}", f"p99 <= {p99_target:.0f}",
        mark(ok_delay))
    row("timeouts charged to honest bots", f"{result.timeouts}{star}", "= 0", mark(ok_timeouts))
    flooder = result.extra.get("flood", {})
    link = result.extra.get("flood_link")
    if "flood_start" in flooder:
        began = flooder["flood_start"]
        row("flooder: frames written (bytes each) / in", f"{flooder['frames_written']:,} ({flooder['frame_bytes']}) / "
            f"{flooder['flood_end'] - began:.2f} s")
        if flooder.get("close_at") is not None:
            row("flooder: server's close frame arrived after / code, reason",
                f"{(flooder['close_at'] - began) * 1000:,.0f} ms / {flooder['close_code']} "
                f"{flooder['close_reason']!r}")
        else:
            row("flooder: server's close frame", "never read")
        if flooder.get("lost_at") is not None:
            row("flooder: TCP connection gone after", f"{(flooder['lost_at'] - began) * 1000:,.0f} ms")
        row("flooder: error frames it was sent", ", ".join(f"{k} {v}" for k, v in sorted(flooder["errors"].items()))
            or "none")
    else:
        print(f"    !! flooder: {flooder.get('failed', 'no report')}")
    if link is not None:
        row("server: flooder's frames read by the router / after it began closing",
            f"{link['frames']:,} / {link['after_close']:,}")
        if link["close"] is not None and "flood_start" in flooder:
            row("server: began closing it after (code, reason)",
                f"{(link['close'][0] - flooder['flood_start']) * 1000:,.0f} ms ({link['close'][1]} {link['close'][2]!r})")
        if link["closed"] is not None and "flood_start" in flooder:
            row("server: connection gone after", f"{(link['closed'] - flooder['flood_start']) * 1000:,.0f} ms")
    elif result.backend == "server" and not result.failed:
        print("    !! the server's link records have no connection with the flooder's key")
    if result.extra.get("excluded_rows"):
        row("flooder's own log rows (left out above) / its timeouts",
            f"{result.extra['excluded_rows']} / {result.extra.get('excluded_timeouts', 0)}")
    row("steps/s in the window", f"{result.rate:,.0f}")
    diagnostics(result)
    label = f"(d) flood beside M={games}, {think_s * 1000:.0f} ms bots"
    return [Verdict(f"{label}: honest added delay p99", f"{p99:.1f} ms{star}", f"<= {p99_target:.0f} ms", ok_delay),
            Verdict(f"{label}: honest timeouts", f"{result.timeouts}{star}", "= 0", ok_timeouts)]


if __name__ == "__main__":
    sys.exit(main())

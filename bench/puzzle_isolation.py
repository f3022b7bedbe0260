"""How well the puzzle rooms keep users apart. A benchmark, not a test: it prints figures against targets.

Run from the repository root::

    .venv/bin/python bench/puzzle_isolation.py                 # 2 hint hogs, 10 s
    .venv/bin/python bench/puzzle_isolation.py --hogs 1 --seconds 5

The real server (``ArenaServer`` with ``players=0``: the puzzle rooms only) runs in this process
on 127.0.0.1 port 0, its data in a temporary folder. One client plays cheap frames (a move, then
undo, again and again, each sent when the previous answer came) on a small level:

1. alone, for a baseline;
2. while ``--hogs`` other clients each ask for Sokoban hints on a large hard level (100x100,
   60 boxes, within the room's caps; before the solver's budget held from its first
   instruction, its set-up alone ran for seconds), one hint after another.

Printed: the cheap frames' round trips (p50/p99/max) against the 100 ms target, the hints'
round trips against their budget (``HINT_SECONDS``, plus the desk's grace before a worker is
killed), the hints' statuses, and how fast a 63 KB level (250x250, over the caps) is refused.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

from server.app import ArenaServer  # noqa: E402
from server.rooms.desk import GRACE_S, WORKERS  # noqa: E402
from server.rooms.sokoban import HINT_SECONDS  # noqa: E402
from server.settings import ServerSettings  # noqa: E402

TARGET_WAIT_MS = 100.0       # a cheap frame's round trip, at most, whatever others ask for
SMALL = "#######\n#@ $ .#\n#######"


def room_level(width: int, height: int, boxes: int, seed: int = 1) -> str:
    """A walled room with ``boxes`` boxes and goals at random inner cells (two cells off the walls)."""
    rng = random.Random(seed)
    inner = [(r, c) for r in range(2, height - 2) for c in range(2, width - 2)]
    cells = rng.sample(inner, 2 * boxes + 1)
    marks = {cell: "$" for cell in cells[:boxes]} | {cell: "." for cell in cells[boxes:2 * boxes]}
    marks[cells[-1]] = "@"
    return "\n".join("".join("#" if r in (0, height - 1) or c in (0, width - 1) else marks.get((r, c), " ")
                             for c in range(width)) for r in range(height))


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of ``values`` (``share`` from 0 to 1)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


class RoomClient:
    """One websocket connection to the sokoban room; every wait is bounded."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws

    @classmethod
    async def enter(cls, url: str, key: str) -> RoomClient:
        """Connect and say hello to the sokoban room."""
        ws = await asyncio.wait_for(connect(url, max_size=2**20), 10)
        client = cls(ws)
        welcome = await client.ask({"type": "hello", "protocol": 1, "role": "player", "key": key, "room": "sokoban"})
        if welcome["type"] != "welcome":
            raise SystemExit(f"no welcome: {welcome}")
        return client

    async def ask(self, frame: dict[str, Any]) -> dict[str, Any]:
        """Send a frame and return the answer."""
        await self.ws.send(json.dumps(frame))
        return json.loads(await asyncio.wait_for(self.ws.recv(), 30))

    async def puzzle(self, xsb: str) -> str:
        """A new puzzle from XSB text; its id."""
        reply = await self.ask({"type": "puzzle_request", "room": "sokoban", "xsb": xsb})
        if reply["type"] != "puzzle":
            raise SystemExit(f"no puzzle: {reply}")
        return reply["puzzle"]


async def cheap_frames(client: RoomClient, puzzle: str, until: float) -> list[float]:
    """Round trips (ms) of a move then an undo, again and again, until ``until``, 25 ms apart (under the rate)."""
    waits: list[float] = []
    actions = ("r", "undo")
    while time.perf_counter() < until:
        sent = time.perf_counter()
        reply = await client.ask({"type": "action", "puzzle": puzzle, "action": actions[len(waits) % 2]})
        waits.append((time.perf_counter() - sent) * 1000)
        if reply["type"] != "state":
            raise SystemExit(f"a cheap frame was refused: {reply}")
        await asyncio.sleep(0.025)
    return waits


async def hints(client: RoomClient, puzzle: str, until: float) -> list[tuple[float, str]]:
    """Hints one after another until ``until``: (round trip in s, status) each."""
    done: list[tuple[float, str]] = []
    while time.perf_counter() < until:
        sent = time.perf_counter()
        reply = await client.ask({"type": "action", "puzzle": puzzle, "action": "hint"})
        status = reply["state"]["hint_status"] if reply["type"] == "state" else f"error {reply['code']}"
        done.append((time.perf_counter() - sent, status))
        if reply["type"] != "state":
            await asyncio.sleep(0.05)                # refused busy: ask again a little later
    return done


def line(name: str, waits: list[float]) -> str:
    """p50/p99/max of round trips in ms, with the target's mark."""
    p50, p99, top = percentile(waits, 0.5), percentile(waits, 0.99), max(waits)
    mark = "PASS" if top <= TARGET_WAIT_MS else "FAIL"
    return (f"  {name:28} {len(waits):5} frames   p50 {p50:7.2f} ms   p99 {p99:7.2f} ms   max {top:7.2f} ms   "
            f"(target max <= {TARGET_WAIT_MS:g} ms: {mark})")


async def main(argv: list[str] | None = None) -> int:
    """Run the two phases and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each phase (default 10)")
    parser.add_argument("--hogs", type=int, default=2, help="clients asking for hints at once (default 2)")
    parser.add_argument("--boxes", type=int, default=60, help="boxes of the large level (default 60)")
    args = parser.parse_args(argv)
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
          f"{WORKERS} puzzle workers, hint budget {HINT_SECONDS:g} s + grace {GRACE_S:g} s")
    with tempfile.TemporaryDirectory(prefix="puzzle-isolation-") as folder:
        server = ArenaServer(ServerSettings(players=0, port=0, data_dir=Path(folder) / "replays"))
        started = time.perf_counter()
        await server.start()
        print(f"server started in {time.perf_counter() - started:.2f} s (workers ready)")
        url = f"ws://127.0.0.1:{server.port}/"
        try:
            cheap = await RoomClient.enter(url, "cheap")
            small = await cheap.puzzle(SMALL)
            alone = await cheap_frames(cheap, small, time.perf_counter() + args.seconds / 2)

            big = room_level(100, 100, args.boxes)
            hogs = [await RoomClient.enter(url, f"hog{i}") for i in range(args.hogs)]
            puzzles = [await hog.puzzle(big) for hog in hogs]
            until = time.perf_counter() + args.seconds
            loaded, *hinted = await asyncio.gather(cheap_frames(cheap, small, until),
                                                   *(hints(hog, p, until) for hog, p in zip(hogs, puzzles)))

            huge = room_level(250, 250, 20)
            sent = time.perf_counter()
            refused = await cheap.ask({"type": "puzzle_request", "room": "sokoban", "xsb": huge})
            refusal_ms = (time.perf_counter() - sent) * 1000
        finally:
            await server.close()

    print("cheap frames (a move or an undo) of one client:")
    print(line("alone", alone))
    print(line(f"beside {args.hogs} hint hog(s)", loaded))
    rounds = [seconds for one in hinted for seconds, status in one if not status.startswith("error")]
    statuses: dict[str, int] = {}
    for one in hinted:
        for _, status in one:
            statuses[status] = statuses.get(status, 0) + 1
    limit = HINT_SECONDS + GRACE_S
    if rounds:
        top = max(rounds)
        print(f"hints on a 100x100 level with {args.boxes} boxes ({len(big.encode())} bytes): {len(rounds)} answered, "
              f"round trip p50 {percentile(rounds, 0.5):.3f} s, max {top:.3f} s against a budget of "
              f"{HINT_SECONDS:g} s (worker killed past {limit:g} s: {'PASS' if top <= limit + 0.1 else 'FAIL'})")
    print(f"  statuses: {', '.join(f'{k} {v}' for k, v in sorted(statuses.items()))}")
    print(f"a {len(huge.encode()) // 1024} KB level (250x250): {refused['type']} {refused.get('code', '')} "
          f"in {refusal_ms:.1f} ms: {refused.get('message', '')}")
    return 0


if __name__ == "__main__":          # the workers import this module again: nothing may run on import
    sys.exit(asyncio.run(main()))

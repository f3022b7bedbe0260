"""The end of a tournament: the ``tournament_over`` frames and bytes the server sends, and the event loop's time.

Issue 34: with 1,000 players ``tournament_over`` sent each one the whole table, 1,002 frames and
206.8 MB in one pass. Now a player gets the top 10 rows and its own row, spectators (and players
that sent ``final_table_request``) every row, so the end costs O(N). A benchmark, not a test. Run
from the repository root::

    .venv/bin/python bench/tournament_end.py            # N = 100, 300, 1,000 (about 10 s on 2 cores)
    .venv/bin/python bench/tournament_end.py --quick    # N = 100, 300

The end state is built through the server's own API, without playing the games: an ``ArenaServer``
(not listening), a seeded table of N players from ``shared.tournament.Standings`` (8 rounds of
random pairings; the rows are the server's ``standing_rows``, Elo and its interval included),
N player connections and 2 spectators (watching every game) registered in its ``Connections`` as
the router registers them, and ``ArenaServer._farewell``, the server's real end. The frames are
counted at the send boundary: each connection is a stand-in for a peer that frames what ``send_now``
is given as a websocket text frame (``websockets.frames.Frame.serialize``, the copy a link makes
before its transport writes it) and counts the bytes that would go on the wire.
Alternating with it, in the same run on fresh connections, the end as it was until now: the
validated ``TournamentOver`` of the whole table, the ``replays`` frame to the spectators, the whole
table to every connection (``Connections.send_all``) and the close.

Figures per N: ``tournament_over`` frames and bytes sent, bytes per player; the farewell's CPU time
on the event loop and its longest pass (the longest time it held the loop: every other connection
waits that long), as medians of ``--repeats`` alternating runs. Targets: bytes per player flat in N
(at 1,000 within 1.25x of 100: O(N) in all), at 1,000 players the bytes at most 1/20 of before.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.app import TOURNAMENT_OVER, ArenaServer                          # noqa: E402
from server.tournament.final_table import FinalTables                                    # noqa: E402
from server.games.updates import standing_rows                               # noqa: E402
from server.net.connection import Encoded, Gathered                          # noqa: E402
from server.settings import ServerSettings                                   # noqa: E402
from server.web.records import folder_listing                                # noqa: E402
from websockets.frames import Frame, Opcode                                  # noqa: E402
from shared.protocol import Replays, StandingRow, TournamentOver, dump       # noqa: E402
from shared.tournament import GameResult, Standings                          # noqa: E402

#: The figure of issue 34 for 1,000 players, before: frames and bytes of ``tournament_over``.
ISSUE_FRAMES, ISSUE_BYTES = 1_002, 206.8e6
SPECTATORS = 2
ROUNDS = 8
FLAT_TARGET = 1.25          # bytes per player at the largest N / at the smallest
SHRINK_TARGET = 20.0        # bytes before / after, at 1,000 players
_OVER = b'{"type":"tournament_over"'


class StandIn:
    """A connection as the registry sees one, keeping the frames it is sent (the send boundary)."""

    def __init__(self, registry: Any, address: str) -> None:
        self.registry = registry
        self.address = address
        self.closed = False
        self.frames = 0
        self.bytes = 0

    def send_now(self, message: Any) -> bool:
        """Frame a message (``Encoded``, or a model) as a link would; count a ``tournament_over`` and its bytes."""
        payload = message.payload if isinstance(message, Encoded) else dump(message).encode()
        wire = Frame(Opcode.TEXT, payload).serialize(mask=False, extensions=[])
        if payload.startswith(_OVER):
            self.frames += 1
            self.bytes += len(wire)
        return True

    def send_latest(self, kind: Hashable, message: Encoded) -> bool:
        """Nothing latest-state is sent at the end."""
        return True

    def send_latest_many(self, gathered: Gathered) -> None:
        """Nothing latest-state is sent at the end."""

    def forget_latest(self, kind: Hashable) -> None:
        """Nothing latest-state is kept."""

    def tell(self, code: str, message: str, frame_type: str | None = None) -> None:
        """No error is told at the end."""

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Closed: the registry forgets it (as a closed link's callback makes it)."""
        if not self.closed:
            self.closed = True
            self.registry.remove(self)


@dataclass
class End:
    """One end of a tournament as measured."""

    frames: int
    bytes: int
    cpu_s: float
    longest_pass_s: float


def final_rows(n: int, seed: int = 1) -> list[StandingRow]:
    """A seeded final table of ``n`` players (``ROUNDS`` rounds of random pairings), as the server builds it."""
    rng = random.Random(seed)
    names = [f"student{i:04d}" for i in range(n)]
    standings = Standings(names)
    for _ in range(ROUNDS):
        order = names[:]
        rng.shuffle(order)
        for white, black in zip(order[::2], order[1::2]):
            standings.add(GameResult(white, black, rng.choice((0, 1)), "goal",
                                     (rng.randrange(100, 9_000), rng.randrange(100, 9_000)), (rng.randrange(3), 0)))
    return standing_rows(standings)


def seat(server: ArenaServer, n: int) -> tuple[list[StandIn], list[StandIn]]:
    """``n`` players and ``SPECTATORS`` spectators of every game, registered as the router registers them."""
    registry = server.connections
    players = [StandIn(registry, f"10.0.{i // 250}.{i % 250}") for i in range(n)]
    spectators = [StandIn(registry, "10.1.0.1") for _ in range(SPECTATORS)]
    for conn in players + spectators:
        registry.add(conn)                               # type: ignore[arg-type]
        registry.settle(conn, anonymous=conn in spectators)  # type: ignore[arg-type]
        registry.greeted.add(conn)                       # type: ignore[arg-type]
    for conn in spectators:
        registry.spectate(conn)                          # type: ignore[arg-type]
        registry.watch(conn, "*")                        # type: ignore[arg-type]
    return players, spectators


async def measured(work: Any) -> tuple[float, float]:
    """Run ``work`` (a coroutine): its CPU time, and the longest pass of the loop it took (seen by a ticker)."""
    longest, running = 0.0, True

    async def ticker() -> None:
        nonlocal longest
        while running:
            before = time.perf_counter()
            await asyncio.sleep(0)
            longest = max(longest, time.perf_counter() - before)

    tick = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    cpu = time.process_time()
    await work
    cpu = time.process_time() - cpu
    running = False
    await tick
    return cpu, longest


async def end_now(server: ArenaServer, rows: list[StandingRow], names: list[str]) -> End:
    """The server's end as it is: ``ArenaServer._farewell``."""
    players, spectators = seat(server, len(rows))
    tables = FinalTables(server.folder.name, rows, rows[0].player)       # type: ignore[union-attr]
    cpu, longest = await measured(server._farewell(tables, dict(zip(players, names))))   # type: ignore[arg-type]
    conns = players + spectators
    return End(sum(c.frames for c in conns), sum(c.bytes for c in conns), cpu, longest)


async def end_before(server: ArenaServer, rows: list[StandingRow]) -> End:
    """The end as it was until now: the whole table, validated, to every connection."""
    players, spectators = seat(server, len(rows))
    registry = server.connections

    async def farewell() -> None:
        name = server.folder.name                                   # type: ignore[union-attr]
        goodbye = TournamentOver(tournament=name, rows=rows, champion=rows[0].player)
        await registry.flush()
        listing = await asyncio.to_thread(folder_listing, server.folder)
        await registry.send_all(Replays(folders=[listing]), list(registry.spectators))
        await registry.send_all(goodbye)
        await registry.close_all(1000, TOURNAMENT_OVER)

    cpu, longest = await measured(farewell())
    conns = players + spectators
    return End(sum(c.frames for c in conns), sum(c.bytes for c in conns), cpu, longest)


async def run(sizes: list[int], repeats: int) -> int:
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} before the run")
    print(f"{SPECTATORS} spectators; {repeats} alternating runs of each end per N (medians)")
    print()
    print(f"{'N':>6} {'end':<8} {'frames':>7} {'bytes':>13} {'bytes/player':>13} {'CPU ms':>8} {'longest pass ms':>16}")
    per_player: dict[int, float] = {}
    totals: dict[int, tuple[int, int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            rows = final_rows(n)
            names = [row.player for row in rows]
            ends: dict[str, list[End]] = {"before": [], "now": []}
            for repeat in range(repeats):
                for which in (("before", "now") if repeat % 2 == 0 else ("now", "before")):
                    server = ArenaServer(ServerSettings(port=0, data_dir=Path(tmp), players=max(2, n)))
                    server.folder = Path(tmp) / f"tournament-{n}"
                    server.folder.mkdir(exist_ok=True)
                    ends[which].append(await (end_now(server, rows, names) if which == "now"
                                              else end_before(server, rows)))
            for which in ("before", "now"):
                runs = ends[which]
                frames, sent = runs[0].frames, runs[0].bytes
                cpu = statistics.median(e.cpu_s for e in runs) * 1e3
                longest = statistics.median(e.longest_pass_s for e in runs) * 1e3
                print(f"{n:>6,} {which:<8} {frames:>7,} {sent:>13,} {sent / n:>13,.0f} {cpu:>8.1f} {longest:>16.1f}")
            now = ends["now"][0]
            per_player[n] = now.bytes / n
            totals[n] = (ends["before"][0].bytes, now.bytes)
    print()
    small, large = min(sizes), max(sizes)
    flat = per_player[large] / per_player[small]
    ok = flat <= FLAT_TARGET
    print(f"bytes per player, N = {large:,} / N = {small:,}: {flat:.2f}x (target <= {FLAT_TARGET}x: O(N) in all) "
          f"{'PASS' if ok else 'FAIL'}")
    if 1_000 in totals:
        before, now = totals[1_000]
        shrink = before / now
        ok = ok and shrink >= SHRINK_TARGET
        print(f"1,000 players: {before / 1e6:.1f} MB before, {now / 1e6:.2f} MB now: {shrink:.0f}x less "
              f"(target >= {SHRINK_TARGET:.0f}x) {'PASS' if shrink >= SHRINK_TARGET else 'FAIL'}; "
              f"issue 34's figure before: {ISSUE_FRAMES:,} frames, {ISSUE_BYTES / 1e6:.1f} MB")
    print(f"load after the run {os.getloadavg()[0]:.2f}")
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="N = 100 and 300 only")
    parser.add_argument("--sizes", type=int, nargs="+", help="the numbers of players (default 100 300 1000)")
    parser.add_argument("--repeats", type=int, default=3, help="alternating runs of each end per N (default 3)")
    args = parser.parse_args(argv)
    sizes = args.sizes or ([100, 300] if args.quick else [100, 300, 1_000])
    if any(n < 2 for n in sizes) or args.repeats < 1:
        parser.error("every N must be at least 2, and --repeats at least 1")
    return asyncio.run(run(sorted(sizes), args.repeats))


if __name__ == "__main__":
    sys.exit(main())

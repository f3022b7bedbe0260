"""Scripted load clients for ``bench/server_load.py``: many websocket players in one asyncio process.

Each connection says ``hello`` and answers every ``turn`` with a legal sideways shuffle (from
``my_loc`` in the turn: one cell left from column 5 or more, one right otherwise). The pawns stay
on their start rows, so no step is ever illegal, nobody reaches a goal and every game lasts
exactly ``step_cap`` steps per player. Answers go out at once (``--think 0``: capacity) or
``--think`` seconds after the turn arrived (fairness).

To keep the client cheap and its clock honest, each connection is a small asyncio protocol
over websockets' documented sans-I/O ``ClientProtocol`` (``ws_link.ClientLink``, the shape of
``server/net/wire.py``), and frames are handled in its ``data_received`` callback, not through a
``recv()`` task: ``t_recv`` is stamped there when the turn's bytes arrive, as the server stamps
arrivals, and an instant answer is written to the socket in the same callback; ``t_send`` is
stamped just before the write. Frames larger than a turn (``standings``, ``tournament_over``)
are counted, not parsed. The cyclic garbage collector is off: a client pause would be charged
to the bot by the server and would count here as the server's added delay.

``--until-tournament-over`` keeps the bots playing game after game (a round-robin) until
``tournament_over`` or the deadline. Once every bot is welcomed the process prints
``WELCOMED <n>`` on stdout (the bench starts hostile clients after it).

Writes a JSON file (``--out``) with, per step, ``[game, turn, t_recv, t_send]`` (``time.monotonic``
seconds, the same clock in every process of the machine), per game the arrival times of
``game_start`` and ``game_over`` and the ``thinking_ms`` the server reported, error codes,
the client's own event loop lag and its CPU time.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import resource
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ws_link import ClientLink, open_link   # bench/ws_link.py, beside this script

PROBE_INTERVAL_S = 0.01
STALL_MS = 50.0


class Recorder:
    """Everything the clients of this process saw, for the JSON report."""

    def __init__(self) -> None:
        self.steps: list[tuple[str, int, float, float]] = []
        self.starts: dict[str, float] = {}
        self.overs: dict[str, list[Any]] = {}
        self.errors: Counter[str] = Counter()
        self.big_frames = 0
        self.big_bytes = 0
        self.lags_ms: list[float] = []
        self.stalls: list[tuple[float, float]] = []


class Bot:
    """One scripted player on one connection."""

    def __init__(self, number: int, think_s: float, recorder: Recorder, leave_after_game: bool) -> None:
        self.number = number
        self.think_s = think_s
        self.rec = recorder
        self.leave_after_game = leave_after_game
        self.ws: ClientLink | None = None
        self.game: str | None = None
        self.welcomed = asyncio.Event()
        self.finished = asyncio.Event()
        self.game_done = asyncio.Event()
        self.games_over = 0
        self.tournament_over = False

    def on_text(self, text: str, now: float) -> None:
        """Handle one text frame that arrived at ``now``."""
        if len(text) > 600:                 # standings / tournament_over: count only
            self.rec.big_frames += 1
            self.rec.big_bytes += len(text)
            if text.startswith('{"type":"tournament_over"'):
                self.tournament_over = True
                self.finished.set()
            return
        message = json.loads(text)
        kind = message.get("type")
        if kind == "turn":
            self.on_turn(message, now)
        elif kind == "game_start":
            self.game = message["game"]
            self.rec.starts[self.game] = now
        elif kind == "game_over":
            self.rec.overs.setdefault(message["game"], []).append(
                [now, message.get("thinking_ms"), message.get("reason"), message.get("log"), message.get("result")])
            self.game = None
            self.games_over += 1
            self.game_done.set()
            if self.leave_after_game:
                self.finished.set()
        elif kind == "welcome":
            self.welcomed.set()
        elif kind == "tournament_over":
            self.tournament_over = True
            self.finished.set()
        elif kind == "error":
            self.rec.errors[message.get("code", "?")] += 1

    def on_turn(self, message: dict[str, Any], now: float) -> None:
        """Answer a turn (now or after the thinking time)."""
        if message["game"] != self.game:
            self.rec.errors["turn_for_unknown_game"] += 1
            return
        x, y = message["my_loc"]
        frame = json.dumps({"type": "step", "game": self.game, "turn": message["turn"],
                            "move": [x - 1 if x >= 5 else x + 1, y], "wall": None})
        if self.think_s <= 0:
            self.send_step(frame, message["turn"], now)
        else:
            loop = asyncio.get_running_loop()
            loop.call_at(now + self.think_s, self.send_step, frame, message["turn"], now)

    def send_step(self, frame: str, turn: int, received: float) -> None:
        """Write the step and record its times."""
        ws = self.ws
        if ws is None or self.game is None:
            return
        sent = time.monotonic()
        if ws.send_text(frame.encode()):
            self.rec.steps.append((self.game, turn, received, sent))

    def on_frame(self, text: str, now: float) -> None:
        """The link's callback: one text frame that arrived at ``now`` (never raises into the protocol)."""
        try:
            self.on_text(text, now)
        except Exception as exc:  # noqa: BLE001 - record, never break the protocol callback
            self.rec.errors[f"client_exception:{type(exc).__name__}"] += 1

    def on_lost(self) -> None:
        """The connection is gone: nothing more will come."""
        self.finished.set()
        self.game_done.set()


async def probe_loop(rec: Recorder, stop: asyncio.Event) -> None:
    """Record how late a 10 ms timer fires (this process's own loop lag)."""
    while not stop.is_set():
        before = time.monotonic()
        await asyncio.sleep(PROBE_INTERVAL_S)
        now = time.monotonic()
        rec.lags_ms.append((now - before - PROBE_INTERVAL_S) * 1000)
        if rec.lags_ms[-1] >= STALL_MS:
            rec.stalls.append((now, rec.lags_ms[-1]))


async def run_bot(bot: Bot, url: str, key: str, compression: str | None, gate: asyncio.Semaphore,
                  connect_timeout: float) -> bool:
    """Connect and say hello; True once welcomed."""
    async with gate:
        ws = await open_link(url, bot.on_frame, compression=compression is not None, timeout=connect_timeout)
        ws.on_lost = bot.on_lost
        bot.ws = ws
        ws.send_text(json.dumps({"type": "hello", "protocol": 1, "role": "player", "key": key, "name": key}).encode())
        await asyncio.wait_for(bot.welcomed.wait(), connect_timeout)
    return True


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    """Connect every bot, let them play, gather the records."""
    rec = Recorder()
    stop = asyncio.Event()
    probe = asyncio.get_running_loop().create_task(probe_loop(rec, stop))
    compression = None if args.compression == "none" else "deflate"
    bots = [Bot(args.first + i, args.think, rec, args.leave_after_game) for i in range(args.players)]
    gate = asyncio.Semaphore(args.connect_concurrency)
    started = time.monotonic()
    deadline = started + args.deadline
    outcome = await asyncio.gather(
        *(run_bot(bot, args.url, f"{args.key_prefix}{bot.number:05d}", compression, gate, args.connect_timeout)
          for bot in bots), return_exceptions=True)
    failures = [repr(x) for x in outcome if isinstance(x, BaseException)]
    connected_at = time.monotonic()
    print(f"WELCOMED {sum(bot.welcomed.is_set() for bot in bots)}", flush=True)
    timed_out = False
    live = [bot for bot in bots if bot.ws is not None]
    # One game each (a knockout round), or every game until tournament_over (a round-robin).
    wanted = "finished" if args.until_tournament_over else "game_done"
    for bot in live:
        try:
            await asyncio.wait_for(getattr(bot, wanted).wait(), max(deadline - time.monotonic(), 0.01))
        except TimeoutError:
            timed_out = True
            break
    games_over_at = time.monotonic()
    # Stay connected (as real bots do) until tournament_over, but at most --linger seconds more.
    lingered = True
    for bot in live:
        try:
            await asyncio.wait_for(bot.finished.wait(), max(games_over_at + args.linger - time.monotonic(), 0.01))
        except TimeoutError:
            lingered = False
            break
    stop.set()
    await asyncio.gather(*(b.ws.close() for b in bots if b.ws is not None), return_exceptions=True)
    probe.cancel()
    times = os.times()
    return {
        "players": args.players, "first": args.first, "think_s": args.think, "compression": args.compression,
        "connect_failures": failures[:5], "connect_failed": len(failures), "timed_out": timed_out,
        "closed_by_server": lingered, "tournament_over": sum(bot.tournament_over for bot in bots),
        "started": started, "connected": connected_at, "steps": rec.steps, "starts": rec.starts,
        "overs": rec.overs, "errors": dict(rec.errors), "big_frames": rec.big_frames, "big_bytes": rec.big_bytes,
        "lags_ms": rec.lags_ms, "stalls": rec.stalls, "cpu_s": times.user + times.system,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Parse options, run the bots, write the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="ws://127.0.0.1:PORT/")
    parser.add_argument("--players", type=int, required=True, help="connections opened by this process")
    parser.add_argument("--first", type=int, default=0, help="number of the first bot (keys are unique)")
    parser.add_argument("--key-prefix", default="load", help="key prefix (default 'load')")
    parser.add_argument("--think", type=float, default=0.0, metavar="S", help="thinking time per step (default 0)")
    parser.add_argument("--compression", choices=["deflate", "none"], default="deflate",
                        help="offer permessage-deflate (the websockets default, as client/runner.py) or not")
    parser.add_argument("--leave-after-game", action="store_true",
                        help="close after the first game_over instead of waiting for tournament_over")
    parser.add_argument("--until-tournament-over", action="store_true",
                        help="play every game until tournament_over (a round-robin), not just the first one")
    parser.add_argument("--linger", type=float, default=10.0, metavar="S",
                        help="after the last game_over, wait at most S seconds for tournament_over (default 10)")
    parser.add_argument("--connect-concurrency", type=int, default=64, help="handshakes in flight (default 64)")
    parser.add_argument("--connect-timeout", type=float, default=60.0, metavar="S")
    parser.add_argument("--deadline", type=float, default=300.0, metavar="S", help="stop after S seconds")
    parser.add_argument("--out", type=Path, required=True, help="where to write the JSON report")
    args = parser.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ValueError, OSError):
        pass
    # The clients' own pauses would be charged to the bots by the server and counted as the
    # server's added delay: no cyclic garbage collector here (a short run; refcounting frees the rest).
    gc.disable()
    report = asyncio.run(main_async(args))
    args.out.write_text(json.dumps(report), encoding="utf-8")
    print(f"DONE steps={len(report['steps'])} games_over={len(report['overs'])} "
          f"connect_failed={report['connect_failed']} timed_out={report['timed_out']}", flush=True)
    return 0 if not report["connect_failed"] and not report["timed_out"] else 1


if __name__ == "__main__":
    sys.exit(main())

"""The web pages' cost: spectators beside live games, and the game page's redraw.

Runs a server process (``quoridor-server -n 100``: 50 games at once), 100 bots in a second process
and, in the second run, 100 spectator connections (as the pages are: ``hello`` spectator, ``watch
"*"``) in a third, each reading every update. Prints, against their targets:

1. the bots' p99 added delay (from sending a step to the next ``turn``, minus the opponent's
   fixed thinking time), with spectators beside the same run without: at most +2 ms;
2. how long a step's ``game_update`` takes to reach a spectator (from the bot's send; both
   processes stamp with CLOCK_MONOTONIC, which is one clock on Linux): p99 at most 20 ms;
3. the game page's redraw of one step of a 200-step game in chromium (``performance.now()``):
   p99 at most 16 ms (skipped without chromium).

Usage: .venv/bin/python bench/web_spectators.py [--seconds 15] [--think-ms 100] [--spectators 100]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


# -- the bots (a child process) ---------------------------------------------------------------------
async def bots(port: int, count: int, think_s: float, seconds: float, out: Path) -> None:
    from websockets.asyncio.client import connect

    delays: list[float] = []
    sent: list[tuple[str, int, float]] = []
    stop = time.monotonic() + seconds

    gate = asyncio.Semaphore(16)        # the server admits 32 connections per address before their hello

    async def one(i: int) -> None:
        await gate.acquire()
        async with connect(f"ws://127.0.0.1:{port}/", max_size=None) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "player", "key": f"bench{i}"}))
            await ws.recv()
            gate.release()
            seat, last_sent = 0, None
            async for raw in ws:
                now = time.monotonic()
                frame = json.loads(raw)
                kind = frame["type"]
                if kind == "game_start":
                    seat, last_sent = frame["seat"], None
                elif kind == "turn":
                    if last_sent is not None:
                        delays.append(now - last_sent - think_s)
                    if now > stop:
                        return
                    # Nobody places walls: walk straight to the goal row, jumping the other pawn (cheap,
                    # so that the bots' own process measures the server, not itself).
                    (x, y), enemy = frame["my_loc"], frame["enemy_loc"]
                    ahead = [x, y + (1 if seat == 0 else -1)]
                    if ahead == enemy:
                        ahead = [x, y + (2 if seat == 0 else -2)]
                    await asyncio.sleep(think_s)
                    last_sent = time.monotonic()
                    sent.append((frame["game"], frame["turn"], last_sent))
                    await ws.send(json.dumps({"type": "step", "game": frame["game"], "turn": frame["turn"],
                                              "move": ahead, "wall": None}))
                elif kind in ("game_over",):
                    last_sent = None
                elif kind == "tournament_over":
                    return

    # A bot between games when the time is up hears nothing more: stop it a little later.
    await asyncio.gather(*(asyncio.wait_for(one(i), seconds + 3) for i in range(count)), return_exceptions=True)
    out.write_text(json.dumps({"delays": delays, "sent": sent}))


# -- the spectators (a child process) ---------------------------------------------------------------
async def spectators(port: int, count: int, seconds: float, out: Path) -> None:
    """``count`` spectators on the bench's sans-I/O client links (cheap: the server is measured, not them)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from ws_link import open_link
    seen: list[tuple[str, int, float]] = []
    frames = [0]
    gate = asyncio.Semaphore(16)         # the server admits 32 connections per address before their hello

    def reader(record: bool):
        def on_text(text: str, now: float) -> None:
            frames[0] += 1
            # Every spectator reads every frame; a tenth of them parse the updates and record them.
            if record and text.startswith('{"type":"game_update"'):
                frame = json.loads(text)
                seen.append((frame["game"], frame["turn"], now))
        return on_text

    links = []
    for i in range(count):
        async with gate:
            link = await open_link(f"ws://127.0.0.1:{port}/", reader(i % 10 == 0))
            link.send_text(json.dumps({"type": "hello", "protocol": 1, "role": "spectator", "key": f"page{i}"}).encode())
            link.send_text(b'{"type": "watch", "game": "*"}')
            links.append(link)
    await asyncio.sleep(seconds)
    out.write_text(json.dumps({"seen": seen, "frames": frames[0]}))


def child(role: str, args: argparse.Namespace, port: int, out: Path) -> subprocess.Popen:
    return subprocess.Popen([PY, __file__, "--child", role, "--port", str(port), "--out", str(out),
                             "--seconds", str(args.seconds), "--think-ms", str(args.think_ms),
                             "--spectators", str(args.spectators), "--players", str(args.players)],
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})


def run(args: argparse.Namespace, with_spectators: bool) -> dict:
    work = Path(tempfile.mkdtemp(prefix="web-bench-"))
    port = free_port()
    server = subprocess.Popen([str(Path(PY).parent / "quoridor-server"), "-n", str(args.players), "-p", str(port),
                               "--data-dir", str(work / "data"), "--view", "plain"],
                              cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(1.5)
        watchers = child("spectators", args, port, work / "spectators.json") if with_spectators else None
        if watchers is not None:
            time.sleep(1.0)
        players = child("bots", args, port, work / "bots.json")
        players.wait(timeout=args.seconds + 60)
        if watchers is not None:
            watchers.wait(timeout=args.seconds + 60)
    finally:
        server.terminate()
        server.wait(timeout=10)
    result = json.loads((work / "bots.json").read_text())
    if with_spectators:
        result.update(json.loads((work / "spectators.json").read_text()))
    return result


def page_redraw_ms() -> float | None:
    """The p99 of one step's redraw of a 200-step game in chromium, or None without a browser."""
    chromium = "/usr/lib/chromium/chromium"
    if not os.path.exists(chromium):
        return None
    from playwright.sync_api import sync_playwright

    from client.replay.webpage import inline_modules
    script = inline_modules("board.js", "player.js")
    profile = tempfile.mkdtemp(prefix="web-bench-chromium-")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(profile, executable_path=chromium, headless=True, args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        page = context.new_page()
        page.set_content('<div id="player"></div>')
        page.add_script_tag(content=script + """
            const steps = [];
            const walls = [];
            for (let i = 0; i < 200; i++) {
              const seat = i % 2, k = Math.floor(i / 2) % 8;
              if (i % 10 === 9 && walls.length < 20) walls.push([[1 + (walls.length % 4) * 2, 1 + Math.floor(walls.length / 4) + (walls.length % 2) * 4], [3 + (walls.length % 4) * 2, 1 + Math.floor(walls.length / 4) + (walls.length % 2) * 4]]);
              steps.push({type: "game_update", game: "bench", players: ["a", "b"], turn: i, seat, move: [5, 1 + k], wall: null,
                notation: "e" + (1 + k), status: i % 37 === 0 ? 7 : 0, clocks_ms: [i, i], thinking_ms: 10 + (i * 7) % 90,
                reason: "", over: false, board: {pawns: [[5, 1 + k], [5, 9 - k]], walls: walls.slice(), walls_left: [10, 10]}});
            }
            window.player = new GamePlayer(document.getElementById('player'), {url: false});
            window.player.mount({game: "bench", players: ["a", "b"], steps, live: false, result: null, problems: []}, 0);
        """)
        times = page.evaluate("""() => new Promise(done => {
            const t = []; let i = 0;
            function next() {
              const a = performance.now(); window.player.render(1 + (i * 37) % 200);
              document.body.offsetHeight;            // layout included
              t.push(performance.now() - a);
              if (++i < 400) requestAnimationFrame(next); else done(t);
            }
            requestAnimationFrame(next);
        })""")
        context.close()
    return percentile(times, 0.99)


def mark(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="seconds of play per run (default 15)")
    parser.add_argument("--think-ms", type=float, default=100.0, help="each bot's thinking time (default 100 ms)")
    parser.add_argument("--players", type=int, default=100, help="bots (default 100: 50 games at once)")
    parser.add_argument("--spectators", type=int, default=100, help="spectator connections (default 100)")
    parser.add_argument("--child", choices=["bots", "spectators"], help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child == "bots":
        asyncio.run(bots(args.port, args.players, args.think_ms / 1000, args.seconds, args.out))
        return 0
    if args.child == "spectators":
        try:
            import uvloop
            asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
        except ImportError:
            pass
        asyncio.run(spectators(args.port, args.spectators, args.seconds + 2, args.out))
        return 0
    print(f"{args.players} bots ({args.players // 2} games at once), think {args.think_ms:g} ms, "
          f"{args.seconds:g} s per run, {args.spectators} spectators in the second run")
    alone = run(args, False)
    watched = run(args, True)
    p99_alone = percentile(alone["delays"], 0.99) * 1000
    p99_watched = percentile(watched["delays"], 0.99) * 1000
    sent = {(g, t): at for g, t, at in watched["sent"]}
    reach = [(at - sent[(g, t)]) * 1000 for g, t, at in watched["seen"] if (g, t) in sent]
    print(f"steps: {len(alone['delays'])} alone, {len(watched['delays'])} watched; "
          f"updates recorded: {len(reach)} ({watched.get('frames', 0)} frames read by the spectators)")
    added = p99_watched - p99_alone
    print(f"bots' p99 added delay: {p99_alone:.2f} ms alone, {p99_watched:.2f} ms watched: "
          f"{added:+.2f} ms (target <= +2 ms) {mark(added <= 2)}")
    p99_reach = percentile(reach, 0.99)
    print(f"step -> spectator: p50 {percentile(reach, 0.5):.2f} ms, p99 {p99_reach:.2f} ms "
          f"(target <= 20 ms) {mark(p99_reach <= 20)}")
    redraw = page_redraw_ms()
    if redraw is None:
        print("game page redraw: skipped (no chromium: apt-get install chromium)")
    else:
        print(f"game page redraw of one step (200-step game): p99 {redraw:.2f} ms (target <= 16 ms) "
              f"{mark(redraw <= 16)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

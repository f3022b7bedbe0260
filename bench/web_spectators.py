"""The web pages' cost: spectators beside live games, and the game page's redraw.

Runs a server process (``quoridor-server -n 100``: 50 games at once), 100 bots in a second process
and, in the second run, 100 spectator connections (as the pages are: ``hello`` spectator, ``watch
"*"``) in a third, each reading every frame (``LeanSpectator``, or websockets' own parser with
``--reader websockets``). Prints the load average before and after (the figures depend on it: the
machine's cores are shared) and, against their targets:

1. the bots' p99 added delay (from sending a step to the next ``turn``, minus the time the opponent
   really took to answer: from its ``turn`` arriving to its step going out, stamped in the same
   process), with spectators beside the same run without: at most +2 ms. That is the two trips
   through the server and the bot's own reading. Subtracting the opponent's nominal thinking time
   instead (printed too, as "nominal") also counts how late the opponent's timer fired: the bots'
   process competing for the two cores with the spectators' process, which stands in for 100
   browsers that would run on other machines;
2. how long a step's ``game_update`` takes to reach a spectator (from the bot's send; both
   processes stamp with CLOCK_MONOTONIC, which is one clock on Linux): p99 at most 20 ms;
3. the game page's redraw of one step of a 200-step game in chromium (``performance.now()`` around
   ``render`` and the layout it forces, on the real page with its stylesheet): median, p99 and max over
   600 redraws, step after step and jumping: p99 at most 16 ms (skipped without chromium).

Usage: .venv/bin/python bench/web_spectators.py [--seconds 15] [--think-ms 100] [--spectators 100]
       [--only spectators|redraw] [--reader lean|websockets] [--repeat 1]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
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
    nominal: list[float] = []
    sent: list[tuple[str, int, float]] = []
    took: dict[tuple[str, int], float] = {}     # (game, turn) -> how long its bot took, turn arrived to step out
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
                        nominal.append(now - last_sent - think_s)
                        other = took.pop((frame["game"], frame["turn"] - 1), None)
                        if other is not None:
                            delays.append(now - last_sent - other)
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
                    took[(frame["game"], frame["turn"])] = last_sent - now
                    await ws.send(json.dumps({"type": "step", "game": frame["game"], "turn": frame["turn"],
                                              "move": ahead, "wall": None}))
                elif kind in ("game_over",):
                    last_sent = None
                elif kind == "tournament_over":
                    return

    # A bot between games when the time is up hears nothing more: stop it a little later.
    await asyncio.gather(*(asyncio.wait_for(one(i), seconds + 3) for i in range(count)), return_exceptions=True)
    out.write_text(json.dumps({"delays": delays, "nominal": nominal, "sent": sent}))


# -- the spectators (a child process) ---------------------------------------------------------------
class LeanSpectator(asyncio.Protocol):
    """A spectator that reads every frame at little cost: websockets' ``ClientProtocol`` for the handshake and
    what it sends, then the server's frames (RFC 6455 5.2: unmasked, never fragmented by this server) read
    straight off the bytes.

    A hundred of them in one process read ~40,000 frames a second: on websockets' own parser that is a
    fifth of a core, taken from the two the server and the bots share; a browser reads on its own machine.
    ``on_text`` gets each text message and the moment its bytes arrived (stamped first, as the server does).
    """

    def __init__(self, url: str, on_text: Callable[[str, float], None]) -> None:
        from websockets.client import ClientProtocol
        from websockets.uri import parse_uri

        self.protocol = ClientProtocol(parse_uri(url))
        self.on_text = on_text
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.protocol.send_request(self.protocol.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        now = time.monotonic()
        if not self.opened.done():       # the handshake's response: the server sends nothing more before hello
            self.protocol.receive_data(data)
            self.protocol.events_received()
            if self.protocol.handshake_exc is not None:
                self.opened.set_exception(self.protocol.handshake_exc)
            elif self.protocol.state.name == "OPEN":
                self.opened.set_result(None)
            return
        buf = self.buffer
        buf += data
        at, size = 0, len(buf)
        while size - at >= 2:
            first, length = buf[at], buf[at + 1] & 0x7F
            head = 2
            if length == 126:
                if size - at < 4:
                    break
                length, head = int.from_bytes(buf[at + 2:at + 4], "big"), 4
            elif length == 127:
                if size - at < 10:
                    break
                length, head = int.from_bytes(buf[at + 2:at + 10], "big"), 10
            if size - at < head + length:
                break
            payload = bytes(buf[at + head:at + head + length])
            at += head + length
            opcode = first & 0x0F
            if opcode == 0x1:
                self.on_text(payload.decode(), now)
            elif opcode == 0x9:                   # a ping: answered, as a browser does
                self.protocol.send_pong(payload)
                self._flush()
        del buf[:at]

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(f"connection lost during the handshake: {exc}"))

    def send_text(self, data: bytes) -> None:
        """Send one text message."""
        self.protocol.send_text(data)
        self._flush()

    def _flush(self) -> None:
        for data in self.protocol.data_to_send():
            if data and self.transport is not None:
                self.transport.write(data)


async def spectators(port: int, count: int, seconds: float, out: Path, reader_kind: str = "lean",
                     batch: bool = True) -> None:
    """``count`` spectators, each reading every frame (``lean``: ``LeanSpectator``; ``websockets``: the bench's
    sans-I/O client links, websockets' parser for every frame); ``batch``: they watch as the pages do, with
    ``"batch": true`` (updates that come together in one ``game_updates`` frame)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from ws_link import open_link
    seen: list[tuple[str, int, float]] = []
    frames = [0]
    gate = asyncio.Semaphore(16)         # the server admits 32 connections per address before their hello
    loop = asyncio.get_running_loop()

    def reader(record: bool) -> Callable[[str, float], None]:
        def on_text(text: str, now: float) -> None:
            frames[0] += 1
            # Every spectator reads every frame; a tenth of them parse the updates and record them.
            if record and text.startswith('{"type":"game_update'):
                frame = json.loads(text)
                for update in frame["updates"] if frame["type"] == "game_updates" else [frame]:
                    seen.append((update["game"], update["turn"], now))
        return on_text

    links: list = []
    for i in range(count):
        async with gate:
            url, on_text = f"ws://127.0.0.1:{port}/", reader(i % 10 == 0)
            if reader_kind == "lean":
                _, link = await loop.create_connection(lambda u=url, t=on_text: LeanSpectator(u, t), "127.0.0.1", port)
                await asyncio.wait_for(link.opened, 30)
            else:
                link = await open_link(url, on_text)
            link.send_text(json.dumps({"type": "hello", "protocol": 1, "role": "spectator", "key": f"page{i}"}).encode())
            link.send_text(json.dumps({"type": "watch", "game": "*", "batch": batch}).encode())
            links.append(link)
    await asyncio.sleep(seconds)
    out.write_text(json.dumps({"seen": seen, "frames": frames[0]}))


def child(role: str, args: argparse.Namespace, port: int, out: Path) -> subprocess.Popen:
    return subprocess.Popen([PY, __file__, "--child", role, "--port", str(port), "--out", str(out),
                             "--seconds", str(args.seconds), "--think-ms", str(args.think_ms),
                             "--spectators", str(args.spectators), "--players", str(args.players),
                             "--reader", args.reader, *(["--no-batch"] if args.no_batch else [])],
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})


def wait_for_port(port: int, server: subprocess.Popen, timeout_s: float = 60.0) -> None:
    """Wait until the server listens on ``port`` (a busy machine starts it slowly); raise if it never does."""
    until = time.monotonic() + timeout_s
    while time.monotonic() < until:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited with {server.returncode} before it listened")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1.0):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server did not listen on port {port} within {timeout_s:g} s")


def run(args: argparse.Namespace, with_spectators: bool) -> dict:
    work = Path(tempfile.mkdtemp(prefix="web-bench-"))
    port = free_port()
    server = subprocess.Popen([str(Path(PY).parent / "quoridor-server"), "-n", str(args.players), "-p", str(port),
                               "--data-dir", str(work / "data"), "--view", "plain"],
                              cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, server)
        watchers = child("spectators", args, port, work / "spectators.json") if with_spectators else None
        if watchers is not None:
            time.sleep(1.0)
        players = child("bots", args, port, work / "bots.json")
        players.wait(timeout=args.seconds + 60)
        if watchers is not None:
            watchers.wait(timeout=args.seconds + 60)
        result = json.loads((work / "bots.json").read_text())
        if with_spectators:
            result.update(json.loads((work / "spectators.json").read_text()))
        return result
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)     # the run's logs and reports (figures are in memory)


#: Redraws measured (after ``REDRAW_WARMUP`` unmeasured ones), each in its own animation frame.
REDRAWS = 600
REDRAW_WARMUP = 60

#: A 200-step game for the game page, built in the page: both pawns walk up and down, a wall every 10th step.
SYNTHETIC_GAME = """() => {
  const steps = [], walls = [];
  for (let i = 0; i < 200; i++) {
    const seat = i % 2, k = Math.floor(i / 2) % 8;
    if (i % 10 === 9 && walls.length < 20) walls.push([[1 + (walls.length % 4) * 2, 1 + Math.floor(walls.length / 4) + (walls.length % 2) * 4], [3 + (walls.length % 4) * 2, 1 + Math.floor(walls.length / 4) + (walls.length % 2) * 4]]);
    steps.push({type: "game_update", game: "bench", players: ["a", "b"], turn: i, seat, move: [5, 1 + k], wall: null,
      notation: "e" + (1 + k), status: i % 37 === 0 ? 7 : 0, clocks_ms: [i, i], thinking_ms: 10 + (i * 7) % 90,
      reason: i % 37 === 0 ? "the wall crosses another" : "", over: false,
      board: {pawns: [[5, 1 + k], [5, 9 - k]], walls: walls.slice(), walls_left: [10 - Math.ceil(walls.length / 2), 10 - Math.floor(walls.length / 2)]}});
  }
  window.quoridorPlayer.mount({type: "game_record", game: "bench", players: ["a", "b"], steps, live: false,
                               result: null, problems: []}, 0);
}"""

#: Redraws in the page: ``order`` picks the steps (``next``: one after another as the arrow key goes; ``jump``:
#: anywhere, as the slider goes); each is ``render(step)`` plus the layout it forces, timed with performance.now().
MEASURE = """([order, count, warmup]) => new Promise(done => {
  const player = window.quoridorPlayer, times = [];
  let i = 0;
  function next() {
    const step = order === "next" ? 1 + i % 200 : 1 + (i * 37) % 200;
    const a = performance.now();
    player.render(step);
    document.body.offsetHeight;                      // the style and layout the redraw causes, included
    const t = performance.now() - a;
    if (i >= warmup) times.push(t);
    if (++i < count + warmup) requestAnimationFrame(next); else done(times);
  }
  requestAnimationFrame(next);
})"""


@contextlib.contextmanager
def _removed(folder: str) -> Iterator[None]:
    """Remove ``folder`` (a browser profile) when the block ends, however it ends."""
    try:
        yield
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def page_redraws_ms() -> dict[str, list[float]] | None:
    """Redraw times (ms) of one step of a 200-step game on the real game page (its HTML, CSS and modules) in
    chromium, by order (``next``, ``jump``); None without a browser.

    The page is served from ``shared/web/static`` by Playwright's request routing at a made-up origin, so
    it keeps ``?step=N`` in its URL as on a server; its websocket finds no server, which changes nothing drawn.
    """
    chromium = "/usr/lib/chromium/chromium"
    if not os.path.exists(chromium):
        return None
    from playwright.sync_api import sync_playwright

    from server.web.http import CONTENT_TYPES
    from shared.web import PAGES, STATIC

    def serve(route) -> None:
        path = route.request.url.split("://", 1)[1].split("/", 1)[1].split("?", 1)[0]
        name = PAGES.get("/" + path) if not path.startswith("static/") else path[len("static/"):]
        target = STATIC / name if name else None
        if target is None or not target.is_file():
            route.fulfill(status=404, body="not found")
            return
        route.fulfill(status=200, body=target.read_bytes(),
                      content_type=CONTENT_TYPES["." + name.rsplit(".", 1)[-1]])

    profile = tempfile.mkdtemp(prefix="web-bench-chromium-")
    results: dict[str, list[float]] = {}
    with _removed(profile), sync_playwright() as p:
        context = p.chromium.launch_persistent_context(profile, executable_path=chromium, headless=True,
                                                       viewport={"width": 1920, "height": 1080}, args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        page = context.new_page()
        page.route("http://bench.invalid/**", serve)
        page.goto("http://bench.invalid/game?game=bench")
        page.wait_for_function("() => window.quoridorPlayer !== undefined")
        page.evaluate(SYNTHETIC_GAME)
        for order in ("next", "jump"):
            results[order] = page.evaluate(MEASURE, [order, REDRAWS, REDRAW_WARMUP])
        context.close()
    return results


def mark(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def spectator_figures(args: argparse.Namespace) -> None:
    """Run the tournament without and with the spectators (``--repeat`` pairs, alternating), and print the
    delays against their targets: each pair's, then each figure's median when there are several."""
    print(f"{args.players} bots ({args.players // 2} games at once), think {args.think_ms:g} ms, "
          f"{args.seconds:g} s per run, {args.spectators} spectators in the second run of each pair "
          f"({args.reader} reader, {'a frame per update' if args.no_batch else 'watching with batch, as the pages do'})")
    pairs = []
    for n in range(args.repeat):
        alone = run(args, False)
        watched = run(args, True)
        p99_alone = percentile(alone["delays"], 0.99) * 1000
        p99_watched = percentile(watched["delays"], 0.99) * 1000
        sent = {(g, t): at for g, t, at in watched["sent"]}
        reach = [(at - sent[(g, t)]) * 1000 for g, t, at in watched["seen"] if (g, t) in sent]
        pair = (p99_alone, p99_watched, percentile(reach, 0.5), percentile(reach, 0.99),
                percentile(alone["delays"], 0.5) * 1000, percentile(alone["nominal"], 0.99) * 1000,
                percentile(watched["nominal"], 0.99) * 1000)
        pairs.append(pair)
        label = f"pair {n + 1}: " if args.repeat > 1 else ""
        print(f"{label}steps: {len(alone['delays'])} alone, {len(watched['delays'])} watched; "
              f"updates recorded: {len(reach)} ({watched.get('frames', 0)} frames read by the spectators); "
              f"load average {os.getloadavg()[0]:.2f}")
        print_pair(label, *pair)
    if args.repeat > 1:
        print_pair("medians: ", *(sorted(p[i] for p in pairs)[len(pairs) // 2] for i in range(7)))


def print_pair(label: str, p99_alone: float, p99_watched: float, p50_reach: float, p99_reach: float,
               p50_alone: float, nominal_alone: float, nominal_watched: float) -> None:
    """One pair of runs against the targets (and the bots' own p50 alone: the machine's floor for both)."""
    added = p99_watched - p99_alone
    print(f"{label}bots' p99 added delay: {p99_alone:.2f} ms alone, {p99_watched:.2f} ms watched: "
          f"{added:+.2f} ms (target <= +2 ms) {mark(added <= 2)}; nominal (the opponent's timer's "
          f"lateness included): {nominal_alone:.2f} / {nominal_watched:.2f} ms, {nominal_watched - nominal_alone:+.2f} ms")
    print(f"{label}step -> spectator: p50 {p50_reach:.2f} ms, p99 {p99_reach:.2f} ms "
          f"(target <= 20 ms) {mark(p99_reach <= 20)}; beside the bots' added delay without spectators "
          f"(two trips through the server): p50 {p50_alone:.2f} ms, p99 {p99_alone:.2f} ms")


def redraw_figures() -> None:
    """Measure the game page's redraws in chromium and print them against the target."""
    redraws = page_redraws_ms()
    if redraws is None:
        print("game page redraw: skipped (no chromium: apt-get install chromium)")
    else:
        for order, what in (("next", "step after step (arrow key)"), ("jump", "any step (slider)")):
            times = redraws[order]
            p99 = percentile(times, 0.99)
            print(f"game page redraw of one step, 200-step game, {what}: {len(times)} redraws, median "
                  f"{percentile(times, 0.5):.2f} ms, p99 {p99:.2f} ms, max {max(times):.2f} ms "
                  f"(target p99 <= 16 ms) {mark(p99 <= 16)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="seconds of play per run (default 15)")
    parser.add_argument("--think-ms", type=float, default=100.0, help="each bot's thinking time (default 100 ms)")
    parser.add_argument("--players", type=int, default=100, help="bots (default 100: 50 games at once)")
    parser.add_argument("--spectators", type=int, default=100, help="spectator connections (default 100)")
    parser.add_argument("--only", choices=["spectators", "redraw"], help="run one of the two parts only")
    parser.add_argument("--repeat", type=int, default=1,
                        help="pairs of runs (without, with spectators), alternating; the median is printed too")
    parser.add_argument("--reader", choices=["lean", "websockets"], default="lean",
                        help="how the spectators read their frames (default lean: see LeanSpectator)")
    parser.add_argument("--no-batch", action="store_true",
                        help="spectators watch without \"batch\": a frame per update (the pages watch with it)")
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
        asyncio.run(spectators(args.port, args.spectators, args.seconds + 2, args.out, args.reader, not args.no_batch))
        return 0
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
    if args.only != "redraw":
        spectator_figures(args)
    if args.only != "spectators":
        redraw_figures()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

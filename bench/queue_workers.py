"""Figures for games on worker machines (``server/queue``, issue 19). Not a test.

Run from the repository root (redis-server and bubblewrap installed, ``pip install -e '.[queue]'``)::

    .venv/bin/python bench/queue_workers.py            # 1, 2 and 4 workers (a few minutes on 2 cores)
    .venv/bin/python bench/queue_workers.py --quick    # 1 and 2 workers, fewer and shorter games (a check that it runs)

It starts its own ``redis-server`` on 127.0.0.1 and a free port (in a temporary folder), then for each
count of workers N starts N ``quoridor-worker`` processes (one pairing at once each) and has a
``QueueGameHost`` play 3N pairings of two handed-in bots that sleep instead of computing (so the
machine's two cores measure the machinery, not the bots). Targets (issue 19):

* games per hour with N workers >= 0.9 x N x the games per hour of one worker (``scaling``);
* scheduling overhead per game <= 20 ms: the time the server waits for a pairing (enqueue to answer,
  logs written) less the time the worker spent in it (saq's ``started`` to ``completed``), per game,
  measured with one worker and one pairing at a time;
* a step's event reaches the server's step hook (the spectators' feed) within 20 ms at p99: the
  worker stamps each entry when the referee judged the step; the server notes when its hook hears it
  (the same machine's clock).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from redis.asyncio import Redis  # noqa: E402
from saq.queue.redis import RedisQueue  # noqa: E402

from server.queue.bots import read_folder  # noqa: E402
from server.queue.engine import Keys  # noqa: E402
from server.queue.events import StepEntry  # noqa: E402
from server.queue.host import QueueGameHost  # noqa: E402
from server.queue.jobs import job_for  # noqa: E402
from server.sandbox import BotEntry, GameSpec, Pairing, SandboxLimits, sandbox_status  # noqa: E402
from server.submissions.files import content_digest  # noqa: E402
from shared.referee import RefereeSettings  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SLEEPER = '''
import time

from client.bots import runner


class Sleeper(runner.RunnerPlayer):
    """Sleeps instead of thinking, then steps as ``runner`` does."""

    def next_step(self, change):
        time.sleep({sleep_s})
        return super().next_step(change)
'''


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_engine(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    engine = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
                               "--save", "", "--appendonly", "no", "--logfile", str(folder / "redis.log")])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), 0.2):
                return engine, f"redis://127.0.0.1:{port}/0"
        except OSError:
            time.sleep(0.05)
    engine.kill()
    raise SystemExit("redis-server did not start")


def start_workers(url: str, count: int, folder: Path) -> list[subprocess.Popen[bytes]]:
    processes = []
    for i in range(count):
        with open(folder / f"worker-{count}-{i}.log", "ab") as log:
            processes.append(subprocess.Popen([sys.executable, "-m", "server.queue.worker_cli", "--queue", url,
                                               "--cache", str(folder / "cache"), "--name", f"bench-{count}-{i}"],
                                              cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log))
    return processes


def stop(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def pairings(folder: Path, bots: list[BotEntry], count: int, prefix: str, referee: RefereeSettings) -> list[Pairing]:
    out = []
    for number in range(count):
        a, b = bots[number % len(bots)], bots[(number + 1) % len(bots)]
        games = tuple(GameSpec(f"{prefix}-p{number}-g{g}", folder / f"{prefix}-p{number}-g{g}.csv", white=g % 2)
                      for g in range(2))
        out.append(Pairing((a, b), games, referee, tournament=prefix))
    return out


async def throughput(url: str, folder: Path, workers: int, bots: list[BotEntry], per_worker: int,
                     referee: RefereeSettings, lags: list[float]) -> float:
    """Games per hour of ``workers`` worker processes playing ``per_worker`` pairings each (after a warm-up)."""
    processes = start_workers(url, workers, folder)

    def heard(entry: StepEntry) -> None:
        if entry.sent_at is not None:
            lags.append((time.time() - entry.sent_at) * 1000)

    host = QueueGameHost(url, SandboxLimits(), on_entry=heard)
    try:
        await asyncio.gather(*(host.play(p) for p in pairings(folder, bots, workers, f"warm{workers}", referee)))
        lags.clear()
        todo = pairings(folder, bots, workers * per_worker, f"run{workers}", referee)
        started = time.monotonic()
        await asyncio.gather(*(host.play(p) for p in todo))
        seconds = time.monotonic() - started
    finally:
        await host.close()
        stop(processes)
    return 2 * len(todo) / seconds * 3600


async def overhead(url: str, folder: Path, bots: list[BotEntry], count: int, referee: RefereeSettings) -> list[float]:
    """Per game: the server's wait for a pairing less the worker's time in it (ms), one pairing at a time."""
    processes = start_workers(url, 1, folder)
    limits = SandboxLimits()
    host = QueueGameHost(url, limits)
    redis = Redis.from_url(url)
    queue = RedisQueue(redis, name=Keys().queue)
    digests = {bot.name: content_digest(read_folder(bot.folder), bot.spec) for bot in bots if bot.folder is not None}
    per_game = []
    try:
        for pairing in pairings(folder, bots, count + 1, "over", referee):
            started = time.time()
            await host.play(pairing)
            waited_ms = (time.time() - started) * 1000
            job = await queue.job(job_for(pairing, limits, digests).key)
            if job is not None and job.started and job.completed:
                per_game.append((waited_ms - (job.completed - job.started)) / len(pairing.games))
    finally:
        await host.close()
        await redis.aclose()
        stop(processes)
    return per_game[1:]                      # the first one fetches and unpacks the bots


def pct(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1 and 2 workers, fewer and shorter games")
    args = parser.parse_args()
    if shutil.which("redis-server") is None:
        raise SystemExit("redis-server is not installed (apt-get install redis-server)")
    if (problem := sandbox_status()) is not None:
        raise SystemExit(problem)
    counts = (1, 2) if args.quick else (1, 2, 4)
    sleep_s = 0.01 if args.quick else 0.1
    per_worker = 1 if args.quick else 3
    referee = RefereeSettings(time_limit_ms=2000, step_cap=20 if args.quick else 40)
    with tempfile.TemporaryDirectory(prefix="queue-bench-") as tmp:
        folder = Path(tmp)
        bots = []
        for name in ("ann", "ben", "cid"):
            (folder / "bots" / name).mkdir(parents=True)
            (folder / "bots" / name / "bot.py").write_text(SLEEPER.format(sleep_s=sleep_s), encoding="utf-8")
            bots.append(BotEntry(name, "bot.py", folder / "bots" / name))
        engine, url = start_engine(folder)
        try:
            print(f"bots sleep {sleep_s * 1000:.0f} ms a step; {per_worker} pairing(s) of 2 games per worker")
            rates: dict[int, float] = {}
            lags: list[float] = []
            for count in counts:
                rates[count] = await throughput(url, folder, count, bots, per_worker, referee, lags)
                scaling = rates[count] / (rates[counts[0]] * count)
                print(f"workers {count}: {rates[count]:8.0f} games/hour  scaling {scaling:.2f}x of linear "
                      f"(target >= 0.90)")
                if count == counts[-1]:
                    print(f"step event to the server's hook, {len(lags)} steps with {count} workers: "
                          f"p50 {pct(lags, 0.5):.1f} ms  p99 {pct(lags, 0.99):.1f} ms (target p99 <= 20 ms)")
            per_game = await overhead(url, folder, bots, 2 if args.quick else 8, referee)
            if per_game:
                print(f"scheduling overhead per game: median {statistics.median(per_game):.1f} ms  "
                      f"max {max(per_game):.1f} ms over {len(per_game)} pairings (target <= 20 ms)")
        finally:
            engine.terminate()
            engine.wait(10)


if __name__ == "__main__":
    asyncio.run(main())

"""Faults with the real engine and real worker processes: a worker SIGKILLed mid-game, the engine stopped for a
few seconds, the server killed and resumed; every game ends up recorded exactly once, never a partial one."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.server.queue.conftest import require_engine_client

require_engine_client()         # before saq is imported: a skip saying how to install it

from redis.asyncio import Redis  # noqa: E402

from server.queue import PROTOCOL  # noqa: E402
from server.web import WebDesk  # noqa: E402
from server.tournament.results import Results  # noqa: E402
from shared.gamelog import parse_log  # noqa: E402
from tests.server.queue.conftest import ROOT  # noqa: E402
from tests.server.queue.cup import run_cup  # noqa: E402

pytestmark = pytest.mark.usefixtures("sandboxed")


def recorded(data: Path) -> Counter[str]:
    lines = (data / "recorded.txt").read_text(encoding="utf-8").splitlines() if (data / "recorded.txt").exists() else []
    return Counter(line.split()[1] for line in lines if line.startswith("recorded "))


async def finished_games(data: Path) -> list:
    async with await Results.open(data / "arena.db") as results:
        row = await results.latest_unfinished()
        assert row is None, "the cup is not finished"
        return await results.games(1)


def assert_complete(games: list, data: Path, expected: int) -> None:
    assert len(games) == expected and all(g.status == "finished" for g in games)
    counts = recorded(data)
    assert sorted(counts) == sorted(g.game_id for g in games) and set(counts.values()) == {1}
    for game in games:
        log = parse_log(Path(game.log_path).read_text(encoding="utf-8"))
        assert log.problems == [] and log.outcome is not None
        assert (log.outcome.winner, log.outcome.reason) == (game.winner, game.reason)


async def test_a_worker_killed_mid_game_loses_nothing_and_counts_nothing_twice(engine, workers, tmp_path, sleeper):
    for name in ("w1", "w2"):
        workers.start(name)
    workers.wait_ready("w1", "w2")
    bots = {name: sleeper(name, 0.05) for name in ("amy", "bob", "cat")}
    killed: list[str] = []
    restarted: list[tuple[str, int]] = []
    desk = WebDesk(tmp_path)                    # the web pages' memory of the games, fed as the server feeds it

    def on_step(view, judged) -> None:
        desk.step(view.game_id, view.referee.players, judged, view.log_path, view.referee.outcome)
        if not killed and view.worker == "w1":
            killed.append(view.game_id)
            workers.kill("w1")                  # SIGKILL, mid-game: its sandboxed bots die with it

    def on_restart(game: str, attempt: int) -> None:
        restarted.append((game, attempt))
        desk.restart(game)

    data = tmp_path / "cup"
    await asyncio.wait_for(run_cup(engine.url, data, bots, heartbeat_s=2, on_step=on_step, on_restart=on_restart), 90)
    assert killed, "w1 never played"
    games = await finished_games(data)
    assert_complete(games, data, 6)
    for game in games:              # a page shows each game from its one counted start: no step of attempt 1
        record = desk.live_record(game.game_id)
        assert record is not None and [s.turn for s in record.steps] == list(range(game.steps))
    # The pairing w1 was playing was played to its end by w2 (a job handed back starts again: attempt 2;
    # saq may also have handed it to w2 early, as a stale sweep does: docs/queue.md), and none is counted twice.
    job = killed[0].rsplit("-g", 1)[0]
    assert f"played job {job}-g1+{job}-g2#" in workers.log("w2")
    assert all(attempt >= 2 for _, attempt in restarted)


async def test_the_engine_stopped_for_seconds_mid_run_loses_nothing(engine, workers, tmp_path, sleeper):
    for name in ("w1", "w2"):
        workers.start(name)
    workers.wait_ready("w1", "w2")
    bots = {name: sleeper(name, 0.05) for name in ("amy", "bob", "cat")}
    stopped = asyncio.Event()
    steps = 0

    def on_step(view, judged) -> None:
        nonlocal steps
        steps += 1
        if steps == 5:
            stopped.set()

    async def outage() -> None:
        await stopped.wait()
        await asyncio.to_thread(engine.stop)
        await asyncio.sleep(3)
        await asyncio.to_thread(engine.start)

    data = tmp_path / "cup"
    await asyncio.wait_for(asyncio.gather(run_cup(engine.url, data, bots, heartbeat_s=5, on_step=on_step), outage()),
                           90)
    assert_complete(await finished_games(data), data, 6)


async def test_the_server_killed_and_resumed_while_workers_play_records_every_game_once(engine, workers, tmp_path,
                                                                                       sleeper):
    for name in ("w1", "w2"):
        workers.start(name)
    workers.wait_ready("w1", "w2")
    bots = {name: sleeper(name, 0.05) for name in ("amy", "bob", "cat")}
    data = tmp_path / "cup"
    data.mkdir()
    argv = [sys.executable, "-m", "tests.server.queue.cup", engine.url, str(data),
            *(f"{name}={folder}" for name, folder in bots.items())]

    def server(*extra: str) -> subprocess.Popen[bytes]:
        with open(data / "server.log", "ab") as out:
            return subprocess.Popen([*argv, *extra], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                    start_new_session=True)

    first = server("--hold-after", "1")         # one whole pairing recorded, then killed: never between two games
    deadline = time.monotonic() + 60
    while sum(recorded(data).values()) < 2 and time.monotonic() < deadline and first.poll() is None:
        await asyncio.sleep(0.05)
    first.send_signal(signal.SIGKILL)
    first.wait(10)
    assert sum(recorded(data).values()) < 6, "the cup ended before the server could be killed"
    await asyncio.sleep(1.5)                    # the workers go on playing the pairings they hold
    second = server()
    try:
        assert second.wait(90) == 0, (data / "server.log").read_text()
    finally:
        if second.poll() is None:
            os.killpg(second.pid, signal.SIGKILL)
    assert_complete(await finished_games(data), data, 6)
    plays = Counter(line.split("played job ")[1].split(" ")[0] for name in ("w1", "w2")
                    for line in workers.log(name).splitlines() if "played job" in line)
    assert len(plays) == 3                      # the three pairings (saq may replay one: recorded once all the same)
    redis = Redis.from_url(engine.url)
    try:
        jobs = [key async for key in redis.scan_iter(f"saq:job:quoridor-p{PROTOCOL}:*")]
        assert len(jobs) == 3                   # enqueued once each
    finally:
        await redis.aclose()

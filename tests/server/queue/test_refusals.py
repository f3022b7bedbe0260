"""Bad input, refused with one clear log line and never recorded: a bot version a worker cannot fetch or whose
files do not match it, a duplicate result, a result for a game the server did not ask for, a worker of another
protocol; and what a worker says when the engine is away or its URL is wrong (never a traceback)."""

from __future__ import annotations

import asyncio
import json
import logging
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.server.queue.conftest import require_engine_client

require_engine_client()         # before saq is imported: a skip saying how to install it

from redis.asyncio import Redis  # noqa: E402
from saq import Job, Status  # noqa: E402
from saq.queue.redis import RedisQueue  # noqa: E402

from server.queue.bots import read_folder, zip_text  # noqa: E402
from server.queue.engine import Keys  # noqa: E402
from server.queue.host import JobRefused, QueueGameHost, QueueSettings  # noqa: E402
from server.queue.jobs import JOB_FUNCTION, GameOut, JobResult, ReportOut, job_for  # noqa: E402
from server.sandbox import BotEntry, GameSpec, Pairing, SandboxLimits  # noqa: E402
from server.submissions.files import content_digest  # noqa: E402
from shared.gamelog import GameOutcome  # noqa: E402
from shared.referee import RefereeSettings  # noqa: E402
from tests.server.conftest import bounded  # noqa: E402
from tests.server.queue.conftest import ROOT  # noqa: E402

pytestmark = pytest.mark.usefixtures("sandboxed")

LIMITS = SandboxLimits(startup_timeout_s=10.0, cpu_seconds=60)
KEYS = Keys()


def pairing(folder: Path, a: BotEntry, b: BotEntry, prefix: str, games: int = 2) -> Pairing:
    folder.mkdir(parents=True, exist_ok=True)
    specs = tuple(GameSpec(f"{prefix}-g{i + 1}", folder / f"{prefix}-g{i + 1}.csv", white=i % 2) for i in range(games))
    return Pairing((a, b), specs, RefereeSettings(time_limit_ms=2000, step_cap=40), tournament="cup")


async def wait_for_status(queue: RedisQueue, key: str, seconds: float = 30.0) -> Job:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        job = await queue.job(key)
        if job is not None and job.status == Status.COMPLETE:
            return job
        await asyncio.sleep(0.1)
    raise AssertionError(f"job {key} did not complete")


async def test_a_bot_version_no_worker_can_fetch_is_refused(engine, workers, tmp_path):
    workers.start("w1")
    redis = Redis.from_url(engine.url)
    queue = RedisQueue(redis, name=KEYS.queue)
    await queue.connect()
    ghost = BotEntry("ghost", "bot.py", tmp_path, "deadbeef0000")
    job = job_for(pairing(tmp_path, ghost, BotEntry("random", "random"), "x", games=1), LIMITS, {"ghost": "de" * 32})
    await queue.enqueue(Job(JOB_FUNCTION, kwargs={"job": job.model_dump(mode="json")}, key=job.key, timeout=60,
                            retries=3))
    answer = (await wait_for_status(queue, job.key)).result
    await queue.disconnect()
    assert answer["kind"] == "refused" and answer["code"] == "unfetchable"
    assert f"refused job {job.key}: bot version dededededede is not in the engine" in workers.log("w1")
    assert "Traceback" not in workers.log("w1")


async def test_bots_the_engine_lost_are_shelved_again_once(engine, workers, tmp_path, sleeper, caplog):
    host = QueueGameHost(engine.url, LIMITS, settings=QueueSettings(poll_s=0.2))
    mine = BotEntry("mine", "bot.py", sleeper("mine", 0.0))
    play = asyncio.ensure_future(host.play(pairing(tmp_path / "games", mine, BotEntry("random", "random"), "l",
                                                   games=1)))
    redis = Redis.from_url(engine.url)
    key = KEYS.bot(content_digest(read_folder(mine.folder), "bot.py"))
    deadline = time.monotonic() + 20
    while not await redis.exists(key) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    await redis.delete(key)                         # evicted before any worker fetched it
    await redis.aclose()
    with caplog.at_level(logging.WARNING, "quoridor.queue"):
        workers.start("w1")
        result = await bounded(play, 60)
    await host.close()
    assert len(result.games) == 1 and "is not in the engine" in workers.log("w1")
    assert any("shelving its bots again" in r.getMessage() for r in caplog.records)


async def test_files_that_do_not_match_their_version_are_refused_and_nothing_is_recorded(engine, workers, tmp_path,
                                                                                         sleeper, caplog):
    workers.start("w1")
    mine = BotEntry("mine", "bot.py", sleeper("mine"))
    other = sleeper("other", 0.5)
    digest = content_digest(read_folder(mine.folder), "bot.py")
    redis = Redis.from_url(engine.url)
    await redis.set(KEYS.bot(digest), zip_text(read_folder(other)))     # someone else's files under mine's digest
    await redis.aclose()
    host = QueueGameHost(engine.url, LIMITS)
    with caplog.at_level(logging.ERROR, "quoridor.queue"), pytest.raises(JobRefused, match="bad_digest"):
        await bounded(host.play(pairing(tmp_path / "games", mine, BotEntry("random", "random"), "d", games=1)), 60)
    await host.close()
    assert any("refused job" in r.getMessage() and "nothing is recorded" in r.getMessage() for r in caplog.records)
    assert not list((tmp_path / "games").glob("*.csv"))
    assert "hash to" in workers.log("w1")


async def test_a_refusal_the_engine_holds_is_asked_again_by_a_resumed_server(engine, workers, tmp_path, sleeper):
    workers.start("w1")
    mine = BotEntry("mine", "bot.py", sleeper("mine"))
    key = KEYS.bot(content_digest(read_folder(mine.folder), "bot.py"))
    redis = Redis.from_url(engine.url)
    await redis.set(key, zip_text(read_folder(sleeper("other", 0.5))))     # someone else's files under mine's digest
    host = QueueGameHost(engine.url, LIMITS)
    with pytest.raises(JobRefused, match="bad_digest"):
        await bounded(host.play(pairing(tmp_path / "games", mine, BotEntry("random", "random"), "r", games=1)), 60)
    await host.close()
    await redis.delete(key)                     # the organiser mends the engine; the server resumes
    await redis.aclose()
    again = QueueGameHost(engine.url, LIMITS)
    same = pairing(tmp_path / "games", mine, BotEntry("random", "random"), "r", games=1)
    result = await bounded(again.play(same), 60)
    await again.close()
    assert [g.game_id for g in result.games] == ["r-g1"] and (tmp_path / "games" / "r-g1.csv").exists()


async def test_a_result_delivered_twice_is_taken_once(engine, workers, tmp_path, caplog):
    workers.start("w1")
    host = QueueGameHost(engine.url, LIMITS)
    bots = (BotEntry("runner", "runner"), BotEntry("random", "random"))
    first = await bounded(host.play(pairing(tmp_path, *bots, "dup")), 60)
    assert len(first.games) == 2
    plays = workers.log("w1").count("played job dup-g1+dup-g2#")
    with caplog.at_level(logging.ERROR, "quoridor.queue"), pytest.raises(JobRefused, match="no acceptable result"):
        await bounded(host.play(pairing(tmp_path, *bots, "dup")), 60)         # the same job, answered again
    await host.close()
    refusals = [r.getMessage() for r in caplog.records if "refused a duplicate result" in r.getMessage()]
    assert len(refusals) == 2 and "dup-g1" in refusals[0] and "dup-g2" in refusals[1]
    assert workers.log("w1").count("played job dup-g1+dup-g2#") == plays       # answered from the engine: not replayed


def fake_answer(games: list[str], attempt: int) -> dict:
    out = [GameOut(game_id=game, outcome=GameOutcome(0, "goal", (1, 1), (0, 0)), started_at="2026-01-01T00:00:00Z",
                   ended_at="2026-01-01T00:00:01Z", steps=2, log_z="eJwrSS0uAQAEXQHB") for game in games]   # log "test"
    reports = (ReportOut(name="a", end=None, start_s=None, timings=()),
               ReportOut(name="b", end=None, start_s=None, timings=()))
    return JobResult(worker="rogue", attempt=attempt, games=tuple(out), reports=reports).model_dump(mode="json")


async def test_a_result_for_a_game_the_server_did_not_ask_for_is_refused(engine, tmp_path, caplog):
    host = QueueGameHost(engine.url, LIMITS, settings=QueueSettings(poll_s=0.2))
    play = asyncio.ensure_future(host.play(pairing(tmp_path, BotEntry("runner", "runner"),
                                                   BotEntry("random", "random"), "u")))
    redis = Redis.from_url(engine.url)
    queue = RedisQueue(redis, name=KEYS.queue)      # a rogue worker: answers with a stranger among the games
    await queue.connect()
    job = await bounded(queue.dequeue(timeout=10), 20)
    assert job is not None
    job.attempts = 1
    await job.update(status=Status.ACTIVE)
    with caplog.at_level(logging.ERROR, "quoridor.queue"):
        await job.finish(Status.COMPLETE, result=fake_answer(["u-g1", "t9-r1-p1-g1", "u-g2"], 1))
        result = await bounded(play, 20)
    await queue.disconnect()
    await host.close()
    assert [g.game_id for g in result.games] == ["u-g1", "u-g2"]
    assert (tmp_path / "u-g1.csv").read_text() == "test" and not (tmp_path / "t9-r1-p1-g1.csv").exists()
    assert any("refused a result of game t9-r1-p1-g1" in r.getMessage() and "did not ask" in r.getMessage()
               for r in caplog.records)


async def test_a_job_a_dead_worker_left_where_no_sweep_looks_is_enqueued_again(engine, workers, tmp_path, caplog):
    host = QueueGameHost(engine.url, LIMITS, settings=QueueSettings(heartbeat_s=1, poll_s=0.2, orphan_after_s=1.0))
    play = asyncio.ensure_future(host.play(pairing(tmp_path, BotEntry("runner", "runner"),
                                                   BotEntry("random", "random"), "o")))
    redis = Redis.from_url(engine.url)
    queue = RedisQueue(redis, name=KEYS.queue)
    await queue.connect()
    job = await bounded(queue.dequeue(timeout=10), 20)      # a worker takes it ...
    assert job is not None
    job.attempts = 1
    await job.update(status=Status.ACTIVE)
    await queue.abort(job, "swept")                         # ... a sweep takes it for stale, and the worker dies
    await queue.disconnect()
    with caplog.at_level(logging.WARNING, "quoridor.queue"):
        workers.start("w1")
        result = await bounded(play, 60)
    await host.close()
    assert len(result.games) == 2
    assert any("enqueued again" in r.getMessage() for r in caplog.records)
    assert "(attempt 2)" in workers.log("w1")


def run_worker(*args: str, seconds: float = 20.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "server.queue.worker_cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=seconds)


async def test_a_worker_of_another_protocol_is_refused(engine, tmp_path):
    redis = Redis.from_url(engine.url)
    await redis.set(KEYS.server, json.dumps({"protocol": 99, "version": "9.9.9"}))
    await redis.aclose()
    done = await asyncio.to_thread(run_worker, "--queue", engine.url, "--cache", str(tmp_path / "cache"))
    assert done.returncode == 3
    assert "refused: the server at " in done.stderr and "speaks job protocol 99" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_bad_url_is_one_line_and_no_traceback(tmp_path):
    done = run_worker("--queue", "http://example.org/", "--cache", str(tmp_path))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "redis://HOST:PORT/N" in done.stderr and "Traceback" not in done.stderr


def test_an_engine_that_is_away_is_waited_for_with_one_line_a_try(tmp_path):
    with open(tmp_path / "worker.log", "wb") as out:
        worker = subprocess.Popen([sys.executable, "-m", "server.queue.worker_cli", "--queue",
                                   "redis://127.0.0.1:9/0", "--cache", str(tmp_path / "cache")], cwd=ROOT, stdout=out,
                                  stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and (tmp_path / "worker.log").read_text().count("cannot reach") < 2:
            time.sleep(0.1)
    finally:
        worker.terminate()
        worker.wait(10)
    said = (tmp_path / "worker.log").read_text()
    assert said.count("cannot reach the engine at redis://127.0.0.1:9/0") >= 2 and "trying again in" in said
    assert "Traceback" not in said


def test_the_worker_command_explains_itself():
    done = run_worker("--help")
    assert done.returncode == 0
    for words in ("--queue URL", "--concurrency", "--cache", "--unsafe-no-sandbox", "content hash"):
        assert words in done.stdout

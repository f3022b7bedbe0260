"""Pairings played by ``quoridor-worker`` processes through a real redis-server: the same games as on the server
itself, handed-in bots fetched by content hash, every step streamed to the server's hooks as it is played."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.server.queue.conftest import require_engine_client

require_engine_client()         # before saq is imported: a skip saying how to install it


from server.queue.host import QueueGameHost, QueueSettings  # noqa: E402
from server.sandbox import BotEntry, GameSpec, LocalGameHost, Pairing, SandboxLimits  # noqa: E402
from shared.gamelog import parse_log  # noqa: E402
from shared.referee import RefereeSettings  # noqa: E402
from tests.server.conftest import bounded  # noqa: E402

pytestmark = pytest.mark.usefixtures("sandboxed")

LIMITS = SandboxLimits(startup_timeout_s=10.0, cpu_seconds=60)


def pairing(folder: Path, a: BotEntry, b: BotEntry, prefix: str, games: int = 2) -> Pairing:
    folder.mkdir(parents=True, exist_ok=True)
    specs = tuple(GameSpec(f"{prefix}-g{i + 1}", folder / f"{prefix}-g{i + 1}.csv", white=i % 2) for i in range(games))
    return Pairing((a, b), specs, RefereeSettings(time_limit_ms=2000, step_cap=40), tournament="cup")


def moves(path: Path) -> list[tuple[str, object, int]]:
    log = parse_log(path.read_text(encoding="utf-8"))
    assert log.problems == [] and log.outcome is not None
    return [(r.player, r.step, int(r.status)) for r in log.steps]


async def test_a_pairing_on_a_worker_is_the_same_game_as_on_the_server(engine, workers, tmp_path):
    workers.start("w1")
    bots = (BotEntry("runner", "runner"), BotEntry("defender", "defender"))
    local_steps: list[int] = []
    remote_steps: list[tuple[str, int, str | None]] = []
    local = LocalGameHost(LIMITS, concurrency=1)
    here = await bounded(local.play(pairing(tmp_path / "local", *bots, "same"),
                                    on_step=lambda runner, judged: local_steps.append(judged.record.turn)), 60)
    await local.close()
    remote = QueueGameHost(engine.url, LIMITS)
    there = await bounded(remote.play(
        pairing(tmp_path / "remote", *bots, "same"),
        on_step=lambda view, judged: remote_steps.append((view.game_id, judged.record.turn, view.worker))), 60)
    await remote.close()
    assert [moves(g.log_path) for g in there.games] == [moves(g.log_path) for g in here.games]
    assert [(g.outcome.winner, g.outcome.reason, g.steps) for g in there.games] == \
        [(g.outcome.winner, g.outcome.reason, g.steps) for g in here.games]
    assert [turn for _, turn, _ in remote_steps] == local_steps          # every step reached the hook, in order
    assert {worker for _, _, worker in remote_steps} == {"w1"}
    assert all(g.log_path.parent == tmp_path / "remote" for g in there.games)
    assert [r.end for r in there.reports] == [r.end for r in here.reports]
    assert all(r.timings for r in there.reports)
    assert "played job same-g1+same-g2#" in workers.log("w1")


async def test_handed_in_bots_are_fetched_by_content_hash_and_cached(engine, workers, tmp_path, sleeper):
    workers.start("w1")
    host = QueueGameHost(engine.url, LIMITS)
    mine = BotEntry("mine", "bot.py", sleeper("mine", 0.0))
    first = await bounded(host.play(pairing(tmp_path, mine, BotEntry("random", "random"), "a", games=1)), 60)
    second = await bounded(host.play(pairing(tmp_path, mine, BotEntry("runner", "runner"), "b", games=1)), 60)
    await host.close()
    for result in (first, second):
        log = parse_log(result.games[0].log_path.read_text(encoding="utf-8"))
        assert log.outcome is not None and log.outcome.note == "" and log.outcome.cpu_ms is not None
        assert result.reports[0].end is not None and result.reports[0].end.cause == "ok"
    cached = list((workers.folder / "cache" / "bots").iterdir())
    assert len(cached) == 1 and len(cached[0].name) == 64           # fetched once, kept under its digest
    assert (cached[0] / "bot.py").read_text(encoding="utf-8") == (mine.folder / "bot.py").read_text(encoding="utf-8")


async def test_two_workers_share_the_pairings(engine, workers, tmp_path, sleeper):
    for name in ("w1", "w2"):
        workers.start(name)
    workers.wait_ready("w1", "w2")
    host = QueueGameHost(engine.url, LIMITS, settings=QueueSettings(heartbeat_s=5))
    bot = BotEntry("slow", "bot.py", sleeper("slow", 0.03))
    pairings = [pairing(tmp_path, bot, BotEntry(other, other), f"p{i}") for i, other in
                enumerate(("runner", "random", "defender", "blocker"))]
    results = await bounded(asyncio.gather(*(host.play(p) for p in pairings)), 90)
    await host.close()
    assert [len(r.games) for r in results] == [2, 2, 2, 2]
    played = workers.log("w1") + workers.log("w2")
    # each pairing played (saq may hand one to both workers: docs/queue.md; its result is taken once all the same)
    assert {line.split("played job ")[1].split("#")[0] for line in played.splitlines() if "played job" in line} \
        == {f"p{i}-g1+p{i}-g2" for i in range(4)}
    assert "played job" in workers.log("w1") and "played job" in workers.log("w2")

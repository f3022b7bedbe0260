"""``LocalGameHost`` plays pairings of hosted bots with the server's referee: logs, timings, ends, isolation."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from server.sandbox import BotEntry, GameSpec, LocalGameHost, Pairing, SandboxLimits, default_concurrency
from shared.gamelog import parse_log
from shared.referee import RefereeSettings
from tests.server.conftest import bounded
from tests.server.sandbox.conftest import FAST, BotFactory, walker

pytestmark = pytest.mark.usefixtures("sandbox")


def pairing(tmp_path: Path, a: BotEntry, b: BotEntry, prefix: str, games: int = 2, step_cap: int = 30) -> Pairing:
    specs = tuple(GameSpec(f"{prefix}-g{i + 1}", tmp_path / f"{prefix}-g{i + 1}.csv", white=i % 2) for i in range(games))
    return Pairing((a, b), specs, RefereeSettings(time_limit_ms=1000, step_cap=step_cap), tournament="t")


async def test_a_pairing_plays_its_games_in_one_process_per_bot_and_logs_cpu_times(tmp_path, bot_folder: BotFactory):
    mine = BotEntry("mine", "bot.py", bot_folder(walker()))
    host = LocalGameHost(FAST, concurrency=1)
    result = await bounded(host.play(pairing(tmp_path, mine, BotEntry("random", "random"), "p")), 60)
    assert [g.game_id for g in result.games] == ["p-g1", "p-g2"]
    for game in result.games:
        log = parse_log(game.log_path.read_text(encoding="utf-8"))
        assert log.problems == [] and log.outcome is not None and log.outcome.note == ""
        assert log.header.players in (("mine", "random"), ("random", "mine"))
        assert log.outcome.cpu_ms is not None
        per_seat = [len([r for r in log.steps if r.player == name]) for name in log.header.players]
        assert [len(times) for times in log.outcome.cpu_ms] == per_seat
        assert all(ms is not None for times in log.outcome.cpu_ms for ms in times)
    mine_report = result.reports[0]
    assert mine_report.end is not None and mine_report.end.cause == "ok"
    assert mine_report.start_s is not None and len(mine_report.timings) == sum(
        len([r for r in parse_log(g.log_path.read_text()).steps if r.player == "mine"]) for g in result.games)
    assert all(t.cpu_ms is not None and t.cpu_ms >= 0 and t.wall_ms >= 0 for t in mine_report.timings)
    summary = mine_report.summary()
    assert summary["bot"] == "mine" and summary["steps"] == len(mine_report.timings) and summary["end"] == "ok"
    assert summary["wall_p50_ms"] is not None and summary["cpu_p95_ms"] is not None
    await host.close()


async def test_a_bot_that_dies_loses_as_a_disconnect_and_the_log_says_why(tmp_path, bot_folder: BotFactory):
    hog = BotEntry("hog", "bot.py", bot_folder(walker("import os\nos.abort()")))
    host = LocalGameHost(FAST)
    result = await bounded(host.play(pairing(tmp_path, hog, BotEntry("random", "random"), "d", games=1)), 60)
    log = parse_log(result.games[0].log_path.read_text(encoding="utf-8"))
    assert log.outcome is not None and log.outcome.reason == "disconnect"
    assert log.outcome.note.startswith("seat 0 crashed: killed by SIGABRT")
    assert result.reports[0].end is not None and result.reports[0].end.cause == "crashed"


async def test_other_games_never_notice_a_hostile_bot(tmp_path, bot_folder: BotFactory):
    bomb = BotEntry("bomb", "bot.py", bot_folder(walker("""
        import os
        hoard = []
        while True:
            hoard.append(bytearray(64 * 1024 * 1024))
    """), name="bomb"))
    calm = pairing(tmp_path, BotEntry("runner", "runner"), BotEntry("random", "random"), "calm", games=2)
    hostile = pairing(tmp_path, bomb, BotEntry("random", "random"), "hostile", games=2)
    host = LocalGameHost(FAST, concurrency=2)
    calm_result, hostile_result = await bounded(asyncio.gather(host.play(calm), host.play(hostile)), 90)
    assert hostile_result.reports[0].end is not None and hostile_result.reports[0].end.cause == "memory_limit"
    for game in calm_result.games:
        log = parse_log(game.log_path.read_text(encoding="utf-8"))
        assert log.outcome is not None and log.outcome.reason in ("goal", "step_cap") and log.outcome.note == ""
        assert not any(r.reason.startswith("no answer") for r in log.steps)
    assert all(r.end is not None and r.end.cause == "ok" for r in calm_result.reports)


def test_the_default_concurrency_leaves_a_core_free():
    assert default_concurrency() >= 1


async def test_a_handed_in_bot_never_runs_without_the_sandbox_unless_told(monkeypatch, tmp_path, bot_folder):
    from server.sandbox import process, validate_bot

    monkeypatch.setattr(process, "sandbox_status", lambda: "bwrap (bubblewrap) is not installed: install bubblewrap")
    monkeypatch.setattr("server.sandbox.validate.sandbox_status", lambda: "bwrap is not installed: install bubblewrap")
    verdict = await bounded(validate_bot(bot_folder(walker()), "bot.py", SandboxLimits()), 30)
    assert (verdict.cause, verdict.accepted) == ("sandbox_unavailable", False) and "bubblewrap" in verdict.reason
    unsafe = await bounded(validate_bot(bot_folder(walker()), "bot.py", SandboxLimits(unsafe=True)), 60)
    assert (unsafe.cause, unsafe.accepted) == ("ok", True)


async def test_files_the_sandboxs_user_cannot_read_are_refused_with_a_clear_cause(tmp_path, bot_folder: BotFactory):
    folder = bot_folder(walker())
    folder.chmod(0o700)
    verdict = await bounded(validate_bot_in(folder), 30)
    assert verdict.cause == "sandbox_unavailable" and "not readable by the sandbox's user" in verdict.reason


async def validate_bot_in(folder: Path):
    from server.sandbox import validate_bot

    return await validate_bot(folder, "bot.py", FAST)

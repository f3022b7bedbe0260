"""The ladder's residents are hosted by the server itself (issue 17): no websocket client, the same machinery."""

from __future__ import annotations

import asyncio

import pytest

from server.ladder.seats import HostedResidents, LadderLobby
from server.sandbox import BotEnd, BotEntry, HostedBot, HostedPeer, SandboxLimits
from shared.gamelog import parse_log
from shared.referee import RefereeSettings
from tests.server.conftest import bounded
from tests.server.sandbox.conftest import FAST, processes_of_bot_users, walker

LADDER = {"ladder": True, "ladder_opening_plies": 2, "ladder_refit_s": 3600.0}


async def _until(predicate, seconds: float = 60.0) -> None:
    async def wait() -> None:
        while not predicate():
            await asyncio.sleep(0.05)
    await bounded(wait(), seconds)


async def test_residents_play_each_other_on_the_ladder_without_a_websocket(make_server, tmp_path):
    server = await make_server(ladder_residents=["random", "runner"], **LADDER)
    ladder = asyncio.create_task(server.run_ladder())
    try:
        await _until(lambda: server.ladder is not None and server.ladder.games_played >= 2)
        assert server.residents is not None and set(server.residents.bots) == {"random", "runner"}
        sessions = {s.name: s for s in server.lobby.sessions}
        assert set(sessions) == {"random", "runner"} and all(s.resident for s in sessions.values())
        assert all(s.version for s in sessions.values())          # the hash of the bot's source, as the client sends
    finally:
        ladder.cancel()
        await bounded(asyncio.gather(ladder, return_exceptions=True), 30)
        await server.close()
    logs = sorted((tmp_path / "replays" / "ladder").rglob("*.csv"))
    assert logs
    log = parse_log(logs[0].read_text(encoding="utf-8"))
    assert log.outcome is not None and set(log.header.players) == {"random", "runner"}
    assert log.outcome.cpu_ms is not None                      # the residents' CPU times per step are logged
    measured = [ms for seat in log.outcome.cpu_ms for ms in seat if ms is not None]
    assert measured and len(measured) <= len(log.steps)        # the opening's plies, played for the bots, are not


async def test_a_resident_that_ends_is_restarted():
    lobby = LadderLobby()
    residents = HostedResidents(["random"], lobby, RefereeSettings(), restart_s=0.05)
    residents.start()
    try:
        await _until(lambda: len(lobby.sessions) == 1 and lobby.sessions[0].connected)
        first = residents.bots["random"]
        first.stop(BotEnd("crashed", "stopped by the test"))
        await _until(lambda: residents.bots["random"] is not first and lobby.sessions[0].connected)
        assert isinstance(residents.bots["random"], HostedBot) and len(lobby.sessions) == 1
    finally:
        await residents.stop()


async def test_a_stop_cancelled_as_it_waits_leaves_no_resident_running():
    lobby = LadderLobby()
    residents = HostedResidents(["random", "runner"], lobby, RefereeSettings(), restart_s=0.05)
    residents.start()
    await _until(lambda: len(lobby.sessions) == 2 and all(s.connected for s in lobby.sessions))
    stopping = asyncio.create_task(residents.stop())
    await asyncio.sleep(0)              # it cancelled the keepers and waits for them...
    stopping.cancel()                   # ...when it is cancelled itself (a server's bounded close running out)
    await bounded(asyncio.gather(stopping, return_exceptions=True), 30)
    await _until(lambda: processes_of_bot_users() == [], 10)      # the processes went all the same


class LosesOneCancellation(HostedResidents):
    """Residents whose keeper loses the first cancellation it gets, as ``asyncio.timeout`` can on Python 3.11 when
    the cancellation comes as its deadline passes (it raises ``TimeoutError`` instead): the keeper goes on."""

    lost = 0

    async def _serve(self, bot, session, player):
        try:
            return await super()._serve(bot, session, player)
        except asyncio.CancelledError:
            if self.lost:
                raise
            self.lost += 1
            return await bot.wait()


async def test_a_stop_whose_cancellation_a_keeper_loses_still_ends_and_starts_no_resident_again():
    lobby = LadderLobby()
    residents = LosesOneCancellation(["random"], lobby, RefereeSettings(), restart_s=0.05)
    residents.start()
    await _until(lambda: len(lobby.sessions) == 1 and lobby.sessions[0].connected)
    first = residents.bots["random"]
    await bounded(residents.stop(), 20)          # it waited for ever: the keeper started the bot again
    assert residents.lost == 1 and first.ended is not None
    await _until(lambda: processes_of_bot_users() == [], 10)


async def test_a_resident_is_judged_on_the_clock_of_its_games():
    lobby = LadderLobby()
    residents = HostedResidents(["random"], lobby, RefereeSettings(clock="cpu"), restart_s=0.05)
    residents.start()
    try:
        await _until(lambda: len(lobby.sessions) == 1 and lobby.sessions[0].connected)
        peer = lobby.sessions[0].peer
        assert isinstance(peer, HostedPeer) and peer.referee is not None and peer.referee.clock == "cpu"
    finally:
        await residents.stop()


async def test_an_accepted_submission_sits_on_the_ladder_in_its_sandbox(sandbox, bot_folder):
    folder = bot_folder(walker())
    lobby = LadderLobby()
    residents = HostedResidents([BotEntry("alice", "bot.py", folder, version="3f2a9c01b7de")], lobby,
                                RefereeSettings(), FAST, restart_s=0.05)
    residents.start()
    try:
        await _until(lambda: len(lobby.sessions) == 1 and lobby.sessions[0].connected)
        session = lobby.sessions[0]
        assert (session.name, session.version, session.resident) == ("alice", "3f2a9c01b7de", True)
        assert residents.bots["alice"].pid in processes_of_bot_users()       # in the sandbox, as its own user
    finally:
        await residents.stop()


async def test_a_resident_past_half_its_cpu_seconds_starts_afresh_between_pairings(sandbox, bot_folder):
    folder = bot_folder(walker(init="import time\nwhile time.process_time() < 1.2: pass"))
    lobby = LadderLobby()
    residents = HostedResidents([BotEntry("busy", "bot.py", folder)], lobby, RefereeSettings(),
                                SandboxLimits(cpu_seconds=2), restart_s=0.05, recycle_check_s=0.1)
    residents.start()
    try:
        await _until(lambda: "busy" in residents.bots and residents.bots["busy"].pid is not None)
        first = residents.bots["busy"]
        await _until(lambda: residents.bots["busy"] is not first)
        assert first.ended is not None and first.ended.cause == "ok" and "afresh" in first.ended.reason
    finally:
        await residents.stop()


async def test_a_start_cancelled_while_its_process_is_spawned_does_not_wait_for_the_spawn(sandbox, monkeypatch):
    # On 3.11, asyncio's subprocess_exec cancelled while it connects the pipes can wait for ever for a process whose
    # pipes never connected (the residents' stop() hung the suite there, in base_subprocess's _wait). A spawn that
    # does so: the cancelled start must end all the same, and its bot close.
    loop = asyncio.get_running_loop()
    release = asyncio.Event()

    async def stuck_after_cancel(*args, **kwargs):
        try:
            await release.wait()
        except asyncio.CancelledError:
            await release.wait()           # as 3.11 waits for the exit of a process whose pipes never connected
            raise
        raise OSError("not spawned")

    monkeypatch.setattr(loop, "subprocess_exec", stuck_after_cancel)
    bot = BotEntry("random", "random").hosted_bot(FAST)
    start = asyncio.create_task(bot.start())

    async def spawning() -> None:
        while bot.cage is None:
            await asyncio.sleep(0)
    await bounded(spawning(), 30)
    start.cancel()
    results = await bounded(asyncio.gather(start, return_exceptions=True), 10)    # waited for ever
    assert isinstance(results[0], asyncio.CancelledError)
    release.set()                          # the spawn ends (here, with no process); close waits for it first
    assert (await bounded(bot.close(), 10)).cause == "ok"
    assert bot.ended is not None and bot.pid is None


@pytest.mark.parametrize("turns", range(8))
async def test_a_start_cancelled_as_its_process_is_spawned_ends_and_leaves_no_process(sandbox, turns):
    # On 3.11, a cancellation that reaches asyncio's subprocess_exec while it connects the pipes can wait for ever
    # (the residents' stop() hung the suite there). The process is made synchronously just before that, when the
    # bot's cage exists: cancel the start that many turns of the loop later.
    bot = BotEntry("random", "random").hosted_bot(FAST)
    start = asyncio.create_task(bot.start())

    async def spawned() -> None:
        while bot.cage is None:
            await asyncio.sleep(0)
        for _ in range(turns):
            await asyncio.sleep(0)
    await bounded(spawned(), 30)
    start.cancel()
    results = await bounded(asyncio.gather(start, return_exceptions=True), 10)
    assert isinstance(results[0], asyncio.CancelledError) or results[0] is None
    ended = await bounded(bot.close(), 10)
    assert ended.cause == "ok"
    await _until(lambda: processes_of_bot_users() == [], 10)

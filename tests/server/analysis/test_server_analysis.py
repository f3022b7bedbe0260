"""A server analyses its finished games in the background: beside their logs, served at /analysis/GAME.json,
picked up again at a restart, and its analysis process ends with it."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

from server.analysis import child, kit
from server.analysis.store import analysis_path
from server.app import ArenaServer, SilentReporter
from server.settings import ServerSettings
from shared.analysis import GameAnalysis
from shared.gamelog import read_log_data

from tests.server.analysis.conftest import BOUND_S, InThread
from tests.server.analysis.test_process import ended_within
from tests.server.conftest import ScriptedBot, bounded, url
from tests.server.support import play


async def started(data_dir: Path, kit_name: str, **settings: Any) -> ArenaServer:
    server = ArenaServer(ServerSettings(port=0, data_dir=data_dir, seed=1, **settings), analysis_kit=kit_name)
    await server.start()
    return server


async def get(port: int, path: str) -> tuple[int, dict[str, Any]]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), BOUND_S)
    writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


async def idle(server: ArenaServer) -> None:
    assert server.analyses is not None and server.analyses.analyser is not None
    assert await asyncio.to_thread(server.analyses.analyser.wait_idle, BOUND_S)


async def test_a_tournaments_games_are_analysed_served_and_the_process_ends_with_the_server(tmp_path,
                                                                                           fake_kit_path):
    server = await started(tmp_path / "replays", fake_kit_path, players=2, analysis="local", analysis_nodes=9)
    try:
        await play(server, [ScriptedBot(url(server), "alice"), ScriptedBot(url(server), "bob")])
        await idle(server)
        assert server.folder is not None
        log = next(server.folder.glob("t1-r1-p1-g1_*.csv"))
        stored = json.loads(analysis_path(log).read_text())
        assert stored["nodes"] == 9 and len(stored["plies"]) == len(read_log_data(log.read_bytes(), "x").steps)
        status, body = await get(server.port, "/analysis/t1-r1-p1-g1.json")             # the live game's id
        assert status == 200 and body["status"] == "ready" and body["plies"] == stored["plies"]
        status, body = await get(server.port, f"/analysis/{server.folder.name}/{log.name}.json")    # its path
        assert status == 200 and body["key"] == stored["key"]
        assert (await get(server.port, "/analysis/t1-r9-p1-g1.json"))[0] == 404
        pid = server.analyses.analyser.analysis.pid     # type: ignore[union-attr]
        assert pid is not None
    finally:
        await server.close()
    assert ended_within(pid, 0)                         # closed and waited for: no orphan


async def test_a_restart_analyses_the_logs_left_unanalysed(tmp_path, fake_kit_path):
    first = await started(tmp_path / "replays", fake_kit_path, players=2, analysis="off")
    try:
        await play(first, [ScriptedBot(url(first), "alice"), ScriptedBot(url(first), "bob")])
        assert first.folder is not None
        log = next(first.folder.glob("t1-r1-p1-g1_*.csv"))
        assert not analysis_path(log).exists()
        assert (await get(first.port, "/analysis/t1-r1-p1-g1.json"))[1]["status"] == "off"
    finally:
        await first.close()
    second = await started(tmp_path / "replays", fake_kit_path, players=0, analysis="local")
    try:
        await idle(second)
        assert analysis_path(log).is_file()
        status, body = await get(second.port, f"/analysis/{log.parent.name}/{log.name}.json")
        assert status == 200 and body["status"] == "ready"
    finally:
        await second.close()


async def test_the_real_analysis_is_stored_and_served_as_a_game_analysis(tmp_path):
    server = await started(tmp_path / "replays", kit.__name__, players=2, analysis="off")
    try:
        await play(server, [ScriptedBot(url(server), "alice"), ScriptedBot(url(server), "bob")])
        assert server.folder is not None
        log = next(server.folder.glob("t1-r1-p1-g1_*.csv"))
        request = {"op": "analyse", "log": str(log)}
        # what the analysis process does, here (at the lowest priority a busy machine could keep it waiting)
        assert await asyncio.to_thread(child.answer, kit, request) == {"ok": True, "done": "analysed"}
        status, body = await get(server.port, "/analysis/t1-r1-p1-g1.json")
        assert status == 200 and body.pop("status") == "ready" and body.pop("key") == kit.analysis_key(log.read_bytes())
        analysis = GameAnalysis.from_json(body)
        assert analysis.engine == kit.ENGINE_VERSION and len(analysis.plies) == 15
        assert await asyncio.to_thread(child.answer, kit, request) == {"ok": True, "done": "current"}
    finally:
        await server.close()


async def test_a_ladder_games_are_analysed_as_they_end(tmp_path, fake_kit_path):
    server = await started(tmp_path / "replays", fake_kit_path, ladder=True, ladder_opening_plies=2,
                           ladder_refit_s=3600.0)
    assert server.analyses is not None and server.analyses.analyser is not None
    analysed: list[Path] = []
    one = threading.Event()
    server.analyses.analyser.on_done = lambda log, answer: (analysed.append(log), one.set())
    ladder = asyncio.create_task(server.run_ladder())
    bots = [asyncio.create_task(ScriptedBot(url(server), key).run()) for key in ("alice", "bob")]
    try:
        assert await asyncio.to_thread(one.wait, BOUND_S)
        log = analysed[0]
        assert log.parent.name == "ladder" and analysis_path(log).is_file()
        game = log.name.split("_")[0]                   # L1-g1
        status, body = await get(server.port, f"/analysis/{game}.json")
        assert status == 200 and body["status"] == "ready"
    finally:
        for task in (ladder, *bots):
            task.cancel()
        await bounded(asyncio.gather(ladder, *bots, return_exceptions=True), 30)
        await server.close()


async def test_a_finished_tournament_analyses_its_last_games_before_it_exits(tmp_path, fake_kit_path):
    said: list[str] = []

    class Told(SilentReporter):
        def message(self, text: str) -> None:
            said.append(text)
    server = ArenaServer(ServerSettings(port=0, data_dir=tmp_path / "replays", seed=1, players=2),
                         Told(), analysis_kit=fake_kit_path)      # type: ignore[arg-type]
    await server.start()
    assert server.analyses is not None and server.analyses.analyser is not None
    analysis = InThread(gated=True)                      # each game analysed when the test says so
    server.analyses.analyser.analysis = analysis
    try:
        await play(server, [ScriptedBot(url(server), "alice"), ScriptedBot(url(server), "bob")])
        rest = asyncio.create_task(server.analyse_the_rest())
        await asyncio.to_thread(analysis.wait_started, 1)
        assert not rest.done()
        assert any("analysing the tournament's last 1 game(s) before exiting" in line for line in said)
        analysis.release()
        await asyncio.wait_for(rest, BOUND_S)
        assert server.folder is not None and analysis_path(next(server.folder.glob("t1-*.csv"))).is_file()
    finally:
        await server.close()

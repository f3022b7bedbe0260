"""``--analysis queue``: the workers of ``--queue`` analyse the games (a queue of their own, one at a time each),
the server keeps the analyses beside its logs; a worker of another engine version refuses."""

from __future__ import annotations

import json

import pytest

from tests.server.queue.conftest import require_engine_client

require_engine_client()         # before saq is imported: a skip saying how to install it

from server.analysis.store import analysis_path  # noqa: E402
from server.settings import ServerSettings  # noqa: E402
from tests.server.analysis.test_server_analysis import idle, started  # noqa: E402
from tests.server.conftest import ScriptedBot, url  # noqa: E402
from tests.server.queue.conftest import engine, workers  # noqa: E402,F401 - the queue tests' fixtures
from tests.server.support import play  # noqa: E402


async def test_a_worker_analyses_the_games_and_the_server_keeps_them(engine, workers, tmp_path,  # noqa: F811
                                                                     fake_kit_path):
    workers.start("w1", "--unsafe-no-sandbox", "--analysis-kit", fake_kit_path)
    workers.wait_ready("w1")
    server = await started(tmp_path / "replays", fake_kit_path, players=2, analysis="queue", queue=engine.url,
                           analysis_nodes=11)
    try:
        await play(server, [ScriptedBot(url(server), "alice"), ScriptedBot(url(server), "bob")])
        await idle(server)
        assert server.folder is not None
        log = next(server.folder.glob("t1-r1-p1-g1_*.csv"))
        stored = json.loads(analysis_path(log).read_text())
        assert stored["engine"] == "fake-1" and stored["nodes"] == 11 and len(stored["plies"]) == 15
        assert server.analyses is not None and server.analyses.analyser is not None
        assert server.analyses.analyser.failure(log) is None
    finally:
        await server.close()
    assert f"analysed {log.name} for job analysis-" in workers.log("w1")
    assert "serves" in workers.log("w1") and "-analysis, one at a time" in workers.log("w1")


async def test_a_worker_of_another_engine_version_refuses_and_the_page_says_why(engine, workers, tmp_path,  # noqa: F811
                                                                                fake_kit_path, monkeypatch):
    monkeypatch.setenv("FAKE_ENGINE", "fake-2")
    workers.start("w1", "--unsafe-no-sandbox", "--analysis-kit", fake_kit_path)
    workers.wait_ready("w1")
    monkeypatch.setenv("FAKE_ENGINE", "fake-1")
    server = await started(tmp_path / "replays", fake_kit_path, players=2, analysis="queue", queue=engine.url)
    try:
        await play(server, [ScriptedBot(url(server), "alice"), ScriptedBot(url(server), "bob")])
        await idle(server)
        assert server.folder is not None and server.analyses is not None
        log = next(server.folder.glob("t1-r1-p1-g1_*.csv"))
        assert not analysis_path(log).exists()
        status, body = server.analyses.answer("t1-r1-p1-g1")
        assert status == 500 and "analyses with engine fake-2, the server with fake-1" in body["message"]
    finally:
        await server.close()


def test_analysis_queue_needs_a_queue():
    with pytest.raises(ValueError, match="--analysis queue has the workers of --queue analyse the games"):
        ServerSettings(analysis="queue")

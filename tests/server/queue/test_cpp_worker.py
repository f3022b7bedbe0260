"""A C++ bot handed in through the desk plays its tournament game on a worker (``quoridor-server --queue``): the
worker fetches the bot's files by version and builds it in its own cache."""

from __future__ import annotations

import pytest

from tests.server.queue.conftest import require_engine_client

require_engine_client()         # before saq is imported: a skip saying how to install it


from tests.client.cpp.conftest import HANDOUT_BOT, gpp  # noqa: E402, F401  (the fixture)
from tests.server.sandbox.conftest import walker  # noqa: E402
from tests.server.sandbox.cpp_hand_ins import cpp_builds  # noqa: E402, F401
from tests.server.sandbox.test_cpp_hand_ins import folder_files, hand_in  # noqa: E402
from tests.server.support import play  # noqa: E402

pytestmark = pytest.mark.usefixtures("sandboxed", "gpp")


async def test_a_handed_in_cpp_bot_plays_on_a_worker_built_in_the_workers_cache(engine, workers, make_server,
                                                                                cpp_builds):
    workers.start("w1")
    workers.wait_ready("w1")
    server = await make_server(players=2, players_from_submissions=True, roster={"k-cpp": "Cpp", "k-py": "Py"},
                               time_limit_ms=1000, step_cap=40, queue=engine.url, cpp_builds=cpp_builds)
    report = await hand_in(server, "k-cpp", folder_files(HANDOUT_BOT))
    assert report["accepted"] is True, report
    assert (await hand_in(server, "k-py", {"bot.py": walker().encode()}))["accepted"] is True
    standings = await play(server, [], seconds=120)
    assert standings.games_done == 1 and {row.player for row in standings.rows()} == {"Cpp", "Py"}
    assert type(server.game_host).__name__ == "QueueGameHost"
    assert workers.log("w1").count("played job ") == 1
    [row] = await server.results.games(server.tournament_id, "finished")
    assert row.reason != "disconnect" and row.steps > 4 and row.violations == (0, 0), row      # both played it
    built = workers.folder / "cache" / "cpp-builds"
    assert any((key / "stage" / "bot").is_file() for key in built.iterdir())     # the worker's own build

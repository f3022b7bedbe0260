"""``quoridor-server --queue URL``: a tournament of handed-in bots whose pairings two worker processes play."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.server.queue.conftest import require_engine_client

require_engine_client()         # before saq is imported: a skip saying how to install it


from server.cli import build_parser, settings_from_args  # noqa: E402
from shared.gamelog import parse_log  # noqa: E402
from shared.ladder import pawn_opening  # noqa: E402
from tests.server.queue.conftest import sleeper_source  # noqa: E402
from tests.server.sandbox.conftest import hand_in  # noqa: E402
from tests.server.support import play  # noqa: E402

pytestmark = pytest.mark.usefixtures("sandboxed")


async def test_a_tournament_with_a_queue_is_played_by_the_workers(engine, workers, make_server):
    for name in ("w1", "w2"):
        workers.start(name)
    workers.wait_ready("w1", "w2")
    server = await make_server(players=3, players_from_submissions=True, games_per_pairing=2, time_limit_ms=2000,
                               step_cap=40, queue=engine.url)
    for key in ("alice", "bob", "carol"):
        hand_in(server, key, sleeper_source(0.01))
    standings = await play(server, [], seconds=90)
    assert standings.games_done == 6 and {row.player for row in standings.rows()} == {"alice", "bob", "carol"}
    assert type(server.game_host).__name__ == "QueueGameHost"
    rows = await server.results.games(server.tournament_id, "finished")
    assert len(rows) == 6
    for row in rows:
        log = parse_log(Path(row.log_path).read_text(encoding="utf-8"))
        assert log.problems == [] and log.outcome is not None and log.outcome.reason == row.reason
        assert log.outcome.cpu_ms is not None                  # measured on the worker, logged as on the server
    played = workers.log("w1") + workers.log("w2")
    assert played.count("played job ") == 3


async def test_a_final_with_a_queue_is_played_by_the_workers_from_its_openings(engine, workers, make_server):
    workers.start("w1")
    workers.wait_ready("w1")
    server = await make_server(players=3, players_from_submissions=True, format="final", final_games=6,
                               time_limit_ms=2000, step_cap=40, queue=engine.url)
    for key in ("alice", "bob", "carol"):
        hand_in(server, key, sleeper_source(0.01))
    standings = await play(server, [], seconds=90)
    assert standings.games_done == 6 and type(server.game_host).__name__ == "QueueGameHost"
    seed = (await server.results.tournament(server.tournament_id)).seed
    for row in await server.results.games(server.tournament_id, "finished"):
        log = parse_log(Path(row.log_path).read_text(encoding="utf-8"))
        assert log.problems == [] and [r.step for r in log.steps[:4]] == list(pawn_opening(seed, row.pairing, 4))
    assert workers.log("w1").count("played job ") == 3


def test_the_server_takes_a_queue_url_and_refuses_a_bad_one():
    settings = settings_from_args(build_parser().parse_args(["--queue", "redis://10.0.0.5:6379/0"]))
    assert settings.queue == "redis://10.0.0.5:6379/0"
    assert settings_from_args(build_parser().parse_args([])).queue is None
    with pytest.raises(ValueError, match="redis://HOST:PORT/N"):
        settings_from_args(build_parser().parse_args(["--queue", "10.0.0.5:6379"]))

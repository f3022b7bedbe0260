"""``quoridor-server --ladder --queue URL``: pairings of the ladder's residents are played by a worker process, each
game recorded once, with both ratings it moved."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from tests.server.queue.conftest import require_engine_client

require_engine_client()         # before saq is imported: a skip saying how to install it

from shared.gamelog import parse_log  # noqa: E402
from shared.quoridor import step_name  # noqa: E402
from tests.server.conftest import bounded  # noqa: E402
from tests.server.queue.conftest import sleeper_source  # noqa: E402
from tests.server.sandbox.conftest import hand_in  # noqa: E402

pytestmark = pytest.mark.usefixtures("sandboxed")

LADDER = {"ladder": True, "ladder_opening_plies": 2, "ladder_refit_s": 3600.0,
          "ladder_pair_games_per_hour": 10_000, "time_limit_ms": 2000, "step_cap": 40}


async def test_the_ladder_plays_its_residents_pairings_on_a_worker(engine, workers, make_server, tmp_path):
    workers.start("w1")
    workers.wait_ready("w1")
    server = await make_server(ladder_residents=["random"], queue=engine.url, **LADDER)
    hand_in(server, "alice", sleeper_source(0.01))          # a handed-in resident: its files go to the worker
    ladder = asyncio.create_task(server.run_ladder())
    try:
        async def four_games() -> None:
            while server.ladder is None or server.ladder.games_played < 4:
                await asyncio.sleep(0.05)
        await bounded(four_games(), 120)
        assert type(server.ladder.host).__name__ == "QueueGameHost"
    finally:
        ladder.cancel()
        await bounded(asyncio.gather(ladder, return_exceptions=True), 30)
        await server.close()
    data = tmp_path / "replays"
    with sqlite3.connect(data / "ladder.db") as db:
        games = db.execute("SELECT game_id, white, black, winner, reason, opening, log_path FROM games").fetchall()
        tracks = {row[0]: row[1:] for row in db.execute("SELECT id, bot, games, sigma FROM tracks")}
    ids = [game[0] for game in games]
    assert len(ids) >= 4 and len(set(ids)) == len(ids)                     # each game recorded once
    played = workers.log("w1")
    for game_id, white, black, winner, reason, opening, log_path in games:
        pairing = game_id.rsplit("-g", 1)[0]
        assert f"played job {pairing}-g1+{pairing}-g2#" in played          # on the worker, not here
        log = parse_log(Path(log_path).read_text(encoding="utf-8"))
        assert log.problems == [] and log.outcome is not None
        assert (log.outcome.winner, log.outcome.reason) == (winner, reason)
        assert [tracks[white][0], tracks[black][0]] == list(log.header.players)
        plies = opening.split()
        assert len(plies) == 2 and [step_name(s.step) for s in log.steps[:2]] == plies    # the ladder's opening
        assert log.outcome.cpu_ms is not None                                  # measured on the worker
    # both games of a pairing: colours swapped, one opening; and ratings moved by every game
    by_id = {game[0]: game for game in games}
    for pairing in {game_id.rsplit("-g", 1)[0] for game_id in ids}:
        first, second = by_id[f"{pairing}-g1"], by_id[f"{pairing}-g2"]
        assert (first[1], first[2]) == (second[2], second[1]) and first[5] == second[5]
    assert sum(games for _, games, _ in tracks.values()) == 2 * len(ids)
    assert all(sigma < 8.3 for _, games, sigma in tracks.values() if games)     # openskill's initial sigma: 8.33

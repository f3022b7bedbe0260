"""One game, one name: the dashboard, the results, the players' game_over and the log file all say the game id."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from server.app import Stage
from server.tournament.runner import log_name
from shared.gamelog import parse_log
from tests.server.conftest import ScriptedBot, bounded, url
from tests.server.support import Recorder


def test_a_log_is_named_after_its_game_id():
    assert log_name("t3-r1-p1-g1", "carol", "bob") == "t3-r1-p1-g1_carol_vs_bob.csv"
    assert log_name("t3-r1-p1-g1-replay1", "Smith, J.", "a/b") == "t3-r1-p1-g1-replay1_Smith_J._vs_a_b.csv"


async def test_the_dashboard_the_results_and_the_files_name_each_game_alike(make_server):
    server = await make_server(players=3)
    server.reporter = recorder = Recorder()
    bots = [ScriptedBot(url(server), key) for key in ("carol", "bob", "alice")]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    await bounded(server.run_tournament())
    await bounded(asyncio.gather(*tasks))
    assert server.stage is Stage.FINISHED
    shown = [game_id for game_id, _, _ in recorder.of("game_started")]               # the dashboard's names
    games = json.loads((server.folder / "results.json").read_text())["games"]
    assert sorted(shown) == sorted(g["game_id"] for g in games) and len(shown) == 3
    for game in games:
        path = Path(game["log_path"])
        assert path.name == f"{game['game_id']}_{game['white']}_vs_{game['black']}.csv" and path.is_file()
        assert parse_log(path.read_text(encoding="utf-8")).steps                     # a complete log
    over = {frame["game"]: Path(frame["log"]) for bot in bots for frame in bot.games_over}
    assert all(path.name.startswith(game_id + "_") for game_id, path in over.items())
    ((standings, files, logs),) = recorder.of("tournament_finished")
    assert logs == [Path(g["log_path"]) for g in games]                              # for the end screen
    assert not list(server.folder.glob("r0*"))                                       # the old names are gone

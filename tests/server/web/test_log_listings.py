"""Every reader of a log folder lists the same games: ``/replays``, ``quoridor-replay FOLDER`` and a ``-n 0`` server's
pages, all by ``shared.gamelog.is_log_name``; a finished tournament on disk is shown with its final table."""

from __future__ import annotations

from client.replay.listing import list_folder
from server.web.records import champion, finished_info, list_replays
from shared.protocol import StandingRow
from tests.server.conftest import ScriptedBot, url
from tests.server.support import Client, hello, play


async def _finished_tournament(make_server, **settings):
    """A tournament played to its end by a real server: its logs, results.json and the old server's tables."""
    server = await make_server(**settings)
    players = settings.get("players", 2)
    await play(server, [ScriptedBot(url(server), f"k{i}", name=f"bot{i}") for i in range(players)])
    await server.close()
    return server


async def test_the_replays_page_and_quoridor_replay_list_the_same_games_and_no_table(make_server):
    server = await _finished_tournament(make_server, players=2, games_per_pairing=2)
    folder = server.folder
    assert {"result.csv", "player_list.csv", "results.csv"} <= {p.name for p in folder.iterdir()}
    (served,) = list_replays(server.settings.data_dir).folders
    listed = list_folder(folder)
    assert [g.game for g in served.games] == [e.game for e in listed] == ["t1-r1-p1-g1", "t1-r1-p1-g2"]
    assert all(g.white != "?" and g.score in ("1-0", "0-1", "½-½") for g in served.games)


async def test_a_server_that_plays_none_shows_the_newest_finished_tournament_with_its_table(make_server):
    played = await _finished_tournament(make_server, players=3, games_per_pairing=1)
    server = await make_server(players=0)                    # -n 0 on the same data directory
    page = await Client.open(url(server))
    await page.send(hello("web", "spectator"))
    await page.next("welcome")
    info = await page.next("tournament_info")
    assert info["stage"] == "finished" and info["tournament"] == played.folder.name
    assert [row["player"] for row in info["rows"]] and len(info["rows"]) == 3
    assert all(row["games"] == 2 for row in info["rows"])
    assert info["champion"] == (info["rows"][0]["player"] if info["rows"][1]["rank"] != 1 else None)
    await page.send({"type": "replays_request"})
    folders = (await page.next("replays"))["folders"]
    (here,) = [f for f in folders if f["name"] == info["tournament"]]
    assert len(here["games"]) == 3 and all(g["white"] != "?" for g in here["games"])
    await page.ws.close()


async def test_a_knockouts_champion_is_the_same_live_and_from_its_results(make_server):
    server = await make_server(players=3, format="knockout")
    eye = await Client.open(url(server))
    await eye.send(hello("eye", "spectator"))
    await eye.next("welcome")
    await play(server, [ScriptedBot(url(server), f"k{i}", name=f"bot{i}") for i in range(3)])
    over = await eye.next("tournament_over", timeout=10)
    assert over["champion"] == server.runner.champion and over["champion"] is not None
    assert finished_info(server.folder).champion == over["champion"]
    last_row = (server.folder / "result.csv").read_text().splitlines()[-1]
    assert last_row.split(",")[1] == over["champion"]        # the old server's result.csv ends with the champion


def test_a_shared_first_place_has_no_champion_and_an_unfinished_folder_no_final_table(tmp_path):
    rows = [StandingRow(rank=1, player="a", points=1.5, games=3, wins=1, losses=1, draws=1),
            StandingRow(rank=1, player="b", points=1.5, games=3, wins=1, losses=1, draws=1),
            StandingRow(rank=3, player="c", points=0, games=2, wins=0, losses=2, draws=0)]
    assert champion(rows) is None and champion(rows[1:]) == "b" and champion([]) is None
    (tmp_path / "results.json").write_text('{"tournament": {"name": "t", "finished": false}, "games": []}')
    assert finished_info(tmp_path) is None                   # a crashed tournament: --resume finishes it
    (tmp_path / "results.json").write_text("{not json")
    assert finished_info(tmp_path) is None


def test_a_tournaments_games_are_listed_in_the_order_they_ended_then_those_still_to_end(tmp_path):
    # The page's "recent results" are the listing's last games: in schedule order the newest result could sit
    # anywhere (games of a round end in any order).
    import json
    folder = tmp_path / "tournament-x"
    folder.mkdir()
    games = [{"game_id": "t1-r1-p1-g1", "white": "a", "black": "b", "status": "finished", "result": "1-0",
              "reason": "goal", "ended_at": "2026-11-27T12:00:09.000+00:00"},
             {"game_id": "t1-r1-p2-g1", "white": "c", "black": "d", "status": "finished", "result": "0-1",
              "reason": "goal", "ended_at": "2026-11-27T12:00:03.000+00:00"},
             {"game_id": "t1-r2-p1-g1", "white": "a", "black": "c", "status": "scheduled"}]
    (folder / "results.json").write_text(json.dumps({"games": games}), encoding="utf-8")
    (served,) = list_replays(tmp_path).folders
    assert [g.game for g in served.games] == ["t1-r1-p2-g1", "t1-r1-p1-g1", "t1-r2-p1-g1"]
    assert [g.score for g in served.games] == ["0-1", "1-0", "*"]

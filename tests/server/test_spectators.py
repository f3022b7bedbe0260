"""Spectators: watching one game sees only that game; everyone who said hello hears the standings."""

from __future__ import annotations

import asyncio

from server.updates import standing_rows
from shared.tournament import Standings
from tests.server.conftest import ScriptedBot, bounded, url
from tests.server.support import Client, GatedBot, hello


async def test_a_spectator_of_one_game_sees_only_it_and_every_standings(make_server):
    server = await make_server(players=3, concurrency=1, standings_interval_s=0)
    eye = await Client.open(url(server))
    await eye.send(hello("eye", "spectator"))
    assert (await eye.reply())["type"] == "welcome"
    await eye.send({"type": "watch", "game": "t1-r2-p2-g1"})      # a game of the second round

    async def watch() -> list[dict]:
        frames = []
        while not frames or frames[-1]["type"] != "tournament_over":
            frames.append(await eye.next(timeout=30))
        return frames

    watching = asyncio.create_task(watch())
    bots = [ScriptedBot(url(server), key) for key in ("a", "b", "c")]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    await bounded(server.run_tournament())
    await bounded(asyncio.gather(*tasks))
    frames = await bounded(watching)
    updates = [f for f in frames if f["type"] == "game_update"]
    assert updates and {u["game"] for u in updates} == {"t1-r2-p2-g1"} and updates[-1]["over"]
    standings = [f for f in frames if f["type"] == "standings"]
    assert [s["games_done"] for s in standings] == [1, 2, 3]
    assert frames[-1]["rows"][0]["games"] == 2
    await eye.close()


async def test_a_spectator_can_never_act(make_server):
    server = await make_server()
    eye = await Client.open(url(server))
    await eye.send(hello("eye", "spectator"))
    await eye.reply()
    bots = [ScriptedBot(url(server), key) for key in ("a", "b")]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    tournament = asyncio.create_task(server.run_tournament())
    await eye.send({"type": "step", "game": "t1-r1-p1-g1", "turn": 0, "move": [5, 2], "wall": None})
    assert (await eye.reply())["code"] == "not_a_player"
    await bounded(tournament)
    await bounded(asyncio.gather(*tasks))
    assert all(bot.errors == [] for bot in bots)
    assert all(status == 0 for bot in bots for status in bot.statuses)
    await eye.close()


async def test_players_hear_the_standings_only_between_their_games(make_server):
    # Two games at once in each round: the end of one must not send the table into the other.
    server = await make_server(players=4, games_per_pairing=2, standings_interval_s=0)
    bots = [ScriptedBot(url(server), key, delay=0.002 * n) for n, key in enumerate(("a", "b", "c", "d"))]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    await bounded(server.run_tournament())
    await bounded(asyncio.gather(*tasks))
    heard = 0
    for bot in bots:
        in_game = False
        for frame in bot.frames:
            if frame["type"] == "game_start":
                in_game = True
            elif frame["type"] == "game_over":
                in_game = False
            elif frame["type"] == "standings":
                assert not in_game, f"{bot.key} heard the standings during a game"
                heard += 1
    assert heard > 0                                  # and they do hear them, between games


async def test_the_table_is_built_only_when_someone_can_hear_it(make_server, monkeypatch):
    # Every connection is a player in a game, so the broadcast reaches nobody: building the table
    # (a row model per player, serialised) would only stall the clocks. A spectator's hello builds it.
    server = await make_server(players=2, standings_interval_s=0)
    built: list[Standings] = []

    def counted(standings: Standings) -> list:
        built.append(standings)
        return standing_rows(standings)

    monkeypatch.setattr("server.app.standing_rows", counted)
    gate = asyncio.Event()
    bots = [GatedBot(url(server), key, gate, free_steps=2) for key in ("a", "b")]   # held mid-game
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    tournament = asyncio.create_task(server.run_tournament())

    async def both_playing() -> None:
        while server.runner is None or not server.runner.running or min(b.steps_sent for b in bots) < 2:
            await asyncio.sleep(0.01)

    await bounded(both_playing(), 10)
    table = Standings(["a", "b"])
    await server._broadcast_standings(table)
    assert built == []
    eye = await Client.open(url(server))
    await eye.send(hello("eye", "spectator"))
    assert (await eye.reply())["type"] == "welcome"
    assert [row["player"] for row in (await eye.next("standings"))["rows"]] == ["a", "b"]
    assert built == [table]
    gate.set()
    await bounded(tournament)
    await bounded(asyncio.gather(*tasks))
    await eye.close()

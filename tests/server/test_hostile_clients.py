"""Hostile clients on a real server: what one client does never costs another a game or a timeout.

Each test is one attack found against an earlier server, replayed on 127.0.0.1 port 0 beside
honest bots; the assertions are on what the honest bots were charged and told.
"""

from __future__ import annotations

import asyncio
import logging

from server.settings import Limits
from shared.quoridor import GameStatus
from tests.server.conftest import ScriptedBot, bounded, url
from tests.server.support import Client, hello


async def seated_rogue(server, key: str = "rogue") -> Client:
    rogue = await Client.open(url(server))
    await rogue.send(hello(key))
    assert (await rogue.reply())["type"] == "welcome"
    return rogue


def step_frame(turn: dict, move: list[int]) -> dict:
    return {"type": "step", "game": turn["game"], "turn": turn["turn"], "move": move, "wall": None}


async def test_duplicate_steps_earn_strikes_then_a_close_and_the_opponent_wins(make_server):
    server = await make_server(limits=Limits(strikes_to_close=3))
    honest = ScriptedBot(url(server), "honest")
    rogue = await seated_rogue(server)
    tasks = [asyncio.create_task(honest.run()), asyncio.create_task(server.run_tournament())]
    start = await rogue.next("game_start")
    turn = await rogue.next("turn")
    if start["seat"] == 1:
        x, y = turn["my_loc"]
        move = [x, y - 1]
    else:
        x, y = turn["my_loc"]
        move = [x, y + 1]
    for _ in range(4):                                   # the answer, then three copies of it
        await rogue.send(step_frame(turn, move))
    assert await rogue.closed() == 1008
    codes = [f["code"] for f in rogue.frames if f["type"] == "error"]
    assert codes == ["stale_turn"] * 3
    await bounded(asyncio.gather(*tasks))
    over = honest.games_over[0]
    assert (over["result"], over["reason"], over["status"]) == ("win", "disconnect", GameStatus.ENEMY_CLOSED)
    # Its answer to its first turn may arrive just after the game ended: refused, as a late step is.
    assert {e["code"] for e in honest.errors} <= {"wrong_game"}


async def test_a_seated_bots_flood_of_stale_steps_closes_it_and_no_honest_bot_is_charged(make_server):
    server = await make_server(players=4, limits=Limits(strikes_to_close=5, burst=20, messages_per_second=10))
    honest = [ScriptedBot(url(server), f"h{n}") for n in range(3)]
    rogue = await seated_rogue(server)
    tasks = [asyncio.create_task(bot.run()) for bot in honest]
    tournament = asyncio.create_task(server.run_tournament())
    turn = await rogue.next("turn", timeout=10)
    stale = {**step_frame(turn, turn["my_loc"]), "turn": max(turn["turn"] - 1, 0) + 1000}
    sent = 0
    try:
        for _ in range(5000):                           # far more than any limit lets through
            await rogue.send({**stale, "turn": turn["turn"] + 1 + sent % 7})
            sent += 1
    except Exception:  # noqa: BLE001 - the server closed it: that is the point
        pass
    assert await rogue.closed() == 1008
    await bounded(tournament, 30)
    await bounded(asyncio.gather(*tasks))
    for bot in honest:                                  # every honest game played to its end, never charged
        assert GameStatus.TIMEOUT not in bot.statuses and bot.errors == []
        assert len(bot.games_over) == 3


async def test_a_plain_tcp_connect_and_close_is_one_quiet_line(make_server, caplog):
    server = await make_server()
    caplog.set_level(logging.INFO)
    _, writer = await bounded(asyncio.open_connection("127.0.0.1", server.port), 5)
    writer.close()
    for _ in range(500):                                # bounded: until the server saw the close
        if not server.connections.open:
            break
        await asyncio.sleep(0.01)
    about_it = [r for r in caplog.records if "127.0.0.1" in r.getMessage()]
    assert [(r.levelno, r.getMessage()) for r in about_it] == [
        (logging.INFO, "127.0.0.1 closed before finishing a websocket handshake")]
    assert not any(r.exc_info or r.levelno >= logging.WARNING for r in caplog.records)


async def test_a_spectator_behind_gets_the_newest_update_of_each_game(make_server):
    server = await make_server()
    eye = await Client.open(url(server))
    await eye.send(hello("eye", "spectator"))
    await eye.reply()
    await eye.send({"type": "watch", "game": "*"})
    [peer] = [p for p in server.connections.spectators]
    peer.link.pause_writing()                           # as the transport does when the client stops reading
    bots = [ScriptedBot(url(server), "a", delay=0.02), ScriptedBot(url(server), "b", delay=0.02)]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    tournament = asyncio.create_task(server.run_tournament())
    for _ in range(1000):                               # bounded: until six steps were played meanwhile
        running = list(server.runner.running.values()) if server.runner else []
        if running and len(running[0].referee.records) >= 6:
            break
        await asyncio.sleep(0.01)
    played = len(running[0].referee.records)
    assert peer.behind == 1                             # one game: only its newest update is kept
    peer.link.resume_writing()
    first = await eye.next("game_update")
    # The newest it was handed, not the first of the ones missed (the last step's may still wait for the lull).
    assert first["turn"] >= played - 2 >= 4
    await bounded(tournament, 30)
    await bounded(asyncio.gather(*tasks))


async def test_nothing_a_client_sends_after_its_close_for_misbehaviour_is_read(make_server, monkeypatch):
    from server.router import Router

    seen = []
    real = Router.received

    def counting(self, link, payload, text, arrived):
        seen.append(payload)
        return real(self, link, payload, text, arrived)

    monkeypatch.setattr(Router, "received", counting)
    server = await make_server(limits=Limits(strikes_to_close=3))
    client = await Client.open(url(server))
    await client.send(hello("eye", "spectator"))
    await client.reply()
    burst = [f"junk {n}" for n in range(3000)]
    try:
        for frame in burst:
            await client.send(frame)
    except Exception:  # noqa: BLE001 - the server hung up: the point
        pass
    assert await client.closed() == 1008
    assert 3 <= len([p for p in seen if p.startswith(b"junk")]) < 100    # closed on the 3rd; the rest never read

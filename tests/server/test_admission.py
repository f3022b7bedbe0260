"""Admission over real sockets (issue 31): a crowd of idle connections from one address cannot keep its players out."""

from __future__ import annotations

import asyncio

from websockets.asyncio.client import connect

from tests.server.conftest import ScriptedBot, bounded, url


async def _until(condition) -> None:
    while not condition():
        await asyncio.sleep(0.01)


async def _idle_forever(address: str, stop: asyncio.Event) -> None:
    """A websocket that never says hello, opened again as soon as it is closed or refused."""
    while not stop.is_set():
        try:
            async with connect(address, open_timeout=5) as ws:
                await ws.wait_closed()
        except Exception:  # noqa: BLE001 - refused or evicted, whichever way it shows: open another
            await asyncio.sleep(0.01)


async def test_idle_connections_that_reopen_cannot_keep_keyed_players_out(make_server):
    # Issue 31, broken 4: 32 idle websockets from the players' own address, reopened whenever closed; both keyed
    # players join, one drops after its first game (the game it
    # drops in may be lost) and comes back to play the rest.
    server = await make_server(roster={"k1": "Ann", "k2": "Bob"}, games_per_pairing=4)
    stop = asyncio.Event()
    crowd = [asyncio.create_task(_idle_forever(url(server), stop)) for _ in range(32)]
    try:
        await bounded(_until(lambda: server.connections.pending.get("127.0.0.1", 0) == 32), 10)
        ann, bob = ScriptedBot(url(server), "k1"), ScriptedBot(url(server), "k2")
        first = asyncio.create_task(ann.run(stop_after_games=1))
        bob_plays = asyncio.create_task(bob.run())
        tournament = asyncio.create_task(server.run_tournament())
        await bounded(first, 20)
        back = ScriptedBot(url(server), "k1")
        await bounded(back.run(), 30)
        standings = await bounded(tournament, 30)
        await bounded(bob_plays, 10)
    finally:
        stop.set()
        for task in crowd:
            task.cancel()
        await bounded(asyncio.gather(*crowd, return_exceptions=True), 30)
    assert ann.welcome is not None and back.welcome is not None and bob.welcome is not None
    assert standings.games_done == 4 and len(ann.games_over) == 1
    assert [game["reason"] for game in back.games_over][-2:] == ["goal", "goal"]    # back in, it plays the rest

"""The puzzle rooms as the server serves them: Sokoban over a real websocket, admission, wrong rooms,
a room beside a running tournament, the leaderboard across a restart, a failing room."""

from __future__ import annotations

import time

import asyncio

from server.rooms.sokoban import SokobanRoom
from shared.sokoban import Collection, solve
from tests.server.conftest import ScriptedBot, bounded, url
from tests.server.support import Client, hello

CORRIDOR = "#######\n#@ $ .#\n#######\nTitle: corridor\n"


async def enter(server, room: str = "sokoban", key: str = "solver", **extra) -> Client:
    client = await Client.open(url(server))
    await client.send(hello(key, room=room, **extra))
    welcome = await client.reply()
    assert welcome["type"] == "welcome", welcome
    return client


async def ask(client: Client, frame: dict) -> dict:
    await client.send(frame)
    return await client.reply()


async def test_sokoban_request_solve_and_play_over_a_websocket(make_server):
    server = await make_server()
    client = await enter(server, name="Ada")
    puzzle = await ask(client, {"type": "puzzle_request", "room": "sokoban", "collection": "Holland_81", "index": 1})
    assert puzzle["type"] == "puzzle" and puzzle["data"]["level"] == "Holland_81/1"
    lurd = solve(Collection(puzzle["data"]["xsb"]).level(0), time_limit=10, clock=time.monotonic).lurd
    assert lurd
    verdict = await ask(client, {"type": "solution", "puzzle": puzzle["puzzle"], "answer": lurd})
    assert verdict["type"] == "verdict" and verdict["valid"] and verdict["solved"]
    assert verdict["figures"]["rank"] == 1 and verdict["figures"]["moves"] == len(lurd)

    own = await ask(client, {"type": "puzzle_request", "room": "sokoban", "xsb": CORRIDOR})
    moves = []
    for action in ("r", "undo", "redo", "r", "r"):
        state = await ask(client, {"type": "action", "puzzle": own["puzzle"], "action": action})
        assert state["type"] == "state"
        moves.append(state["counters"]["moves"])
    assert moves == [1, 0, 1, 2, 3]
    assert state["solved"] and state["counters"] == {"moves": 3, "pushes": 2} and state["state"]["lurd"] == "rRR"
    board = await ask(client, {"type": "action", "puzzle": own["puzzle"], "action": "leaderboard"})
    assert [(e["player"], e["moves"]) for e in board["state"]["leaderboard"]] == [("Ada", 3)]

    wrong = await ask(client, {"type": "solution", "puzzle": own["puzzle"], "answer": "lll"})
    assert wrong["type"] == "verdict" and not wrong["valid"] and wrong["failed_at"] == 0
    bad = await ask(client, {"type": "puzzle_request", "room": "sokoban", "xsb": "#####\n#@$x.#\n#####"})
    assert (bad["type"], bad["code"], bad["frame_type"]) == ("error", "bad_level", "puzzle_request")
    assert "'x'" in bad["message"]
    await client.close()


async def test_a_connection_stays_in_the_room_it_chose(make_server):
    server = await make_server()
    client = await enter(server, room="ice")
    error = await ask(client, {"type": "puzzle_request", "room": "sokoban", "collection": "Holland_81"})
    assert error["code"] == "wrong_room" and "hello room 'sokoban'" in error["message"]
    error = await ask(client, {"type": "step", "game": "g1", "turn": 1, "move": [5, 2]})
    assert error["code"] == "not_a_player"
    await client.close()


async def test_puzzle_frames_on_a_quoridor_connection_name_the_rooms(make_server):
    server = await make_server()
    client = await Client.open(url(server))
    await client.send(hello("eye", "spectator"))
    assert (await client.reply())["type"] == "welcome"
    error = await ask(client, {"type": "puzzle_request", "room": "ice", "size": 10})
    assert error["code"] == "wrong_room" and "'ice'" in error["message"]
    await client.close()


async def test_room_players_take_no_seat_and_a_roster_still_applies(make_server):
    server = await make_server(roster={"k1": "Ada", "k2": "Bob"})
    client = await enter(server, key="k1", name="ignored")
    assert client.frames[-1]["player"] == "Ada"
    assert server.lobby.sessions == []
    stranger = await Client.open(url(server))
    await stranger.send(hello("intruder", room="sokoban"))
    assert (await stranger.reply())["code"] == "unknown_key"
    assert await stranger.closed() is not None
    await client.close()


async def test_a_tournament_runs_beside_room_players(make_server):
    server = await make_server()
    client = await enter(server)
    puzzle = await ask(client, {"type": "puzzle_request", "room": "sokoban", "collection": "Grigr2001", "index": 3})
    # Bots that think 0.1 s a step: the game lasts a few seconds, longer than the hints below.
    bots = [ScriptedBot(url(server), "a", delay=0.1), ScriptedBot(url(server), "b", delay=0.1)]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    tournament = asyncio.create_task(server.run_tournament())
    for _ in range(3):      # each hint is a solver search of up to 0.5 s, off the event loop
        state = await ask(client, {"type": "action", "puzzle": puzzle["puzzle"], "action": "hint"})
        assert state["type"] == "state" and "hint" in state["state"]
    assert not tournament.done()
    standings = await bounded(tournament, 30)
    await bounded(asyncio.gather(*tasks), 10)
    assert standings.games_done == 1
    assert all(bot.errors == [] and len(bot.games_over) == 1 for bot in bots)
    assert all(status == 0 for bot in bots for status in bot.statuses)    # nobody was charged a timeout
    assert all(frame["type"] != "standings" for frame in client.frames)   # broadcasts are for Quoridor


async def test_the_leaderboard_survives_a_restart(make_server, tmp_path):
    first = await make_server()
    client = await enter(first, name="Ada")
    puzzle = await ask(client, {"type": "puzzle_request", "room": "sokoban", "xsb": CORRIDOR})
    assert (await ask(client, {"type": "solution", "puzzle": puzzle["puzzle"], "answer": "rRR"}))["solved"]
    await client.close()
    await first.close()

    second = await make_server()
    client = await enter(second, key="other", name="Bob")
    puzzle = await ask(client, {"type": "puzzle_request", "room": "sokoban", "xsb": CORRIDOR})
    board = await ask(client, {"type": "action", "puzzle": puzzle["puzzle"], "action": "leaderboard"})
    assert [e["player"] for e in board["state"]["leaderboard"]] == ["Ada"]
    await client.close()


async def test_a_failing_room_answers_internal_error_and_keeps_the_connection(make_server, monkeypatch):
    def broken(self, ctx, message):
        raise RuntimeError("a bug in the room")

    monkeypatch.setattr(SokobanRoom, "action", broken)
    server = await make_server()
    client = await enter(server)
    puzzle = await ask(client, {"type": "puzzle_request", "room": "sokoban", "xsb": CORRIDOR})
    error = await ask(client, {"type": "action", "puzzle": puzzle["puzzle"], "action": "r"})
    assert error["code"] == "internal_error" and "sokoban room failed" in error["message"]
    verdict = await ask(client, {"type": "solution", "puzzle": puzzle["puzzle"], "answer": "rRR"})
    assert verdict["solved"]
    await client.close()


async def test_a_puzzles_only_server_serves_rooms_and_refuses_seats(make_server):
    server = await make_server(players=0)
    forever = asyncio.create_task(server.serve_forever())
    client = await enter(server, room="circuit")
    puzzle = await ask(client, {"type": "puzzle_request", "room": "circuit", "difficulty": "easy", "seed": 1})
    assert puzzle["type"] == "puzzle"
    player = await Client.open(url(server))
    await player.send(hello("k1"))
    refusal = await player.reply()
    assert refusal["code"] == "room_unavailable" and "-n 0" in refusal["message"]
    assert await player.closed() is not None
    assert not forever.done()
    forever.cancel()
    await client.close()


async def test_a_puzzle_room_takes_large_levels_that_a_tournament_frame_may_not_be(make_server):
    server = await make_server()
    client = await enter(server)
    wide = "#" * 3000 + "\n#@ $ ." + " " * 2993 + "#\n" + "#" * 3000     # about 9 KiB of XSB
    puzzle = await ask(client, {"type": "puzzle_request", "room": "sokoban", "xsb": wide})
    assert puzzle["type"] == "puzzle" and puzzle["data"]["width"] == 3000
    await client.close()
    player = await Client.open(url(server))
    await player.send(hello("eye", "spectator"))
    await player.reply()
    await player.send({"type": "watch", "game": "x" * 5000})
    assert (await player.reply())["code"] == "frame_too_large"
    await player.close()

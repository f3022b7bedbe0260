"""The ice room over a real websocket."""

import json

from websockets.asyncio.client import connect

from shared.ice import best_route, parse_maze
from tests.server.conftest import bounded, url

async def exchange(ws, frame):
    await ws.send(json.dumps(frame))
    return json.loads(await bounded(ws.recv(), 10))

async def test_request_solve_and_play_over_a_websocket(make_server):
    srv = await make_server()
    async with connect(url(srv)) as ws:
        welcome = await exchange(ws, {"type": "hello", "protocol": 1, "role": "player", "room": "ice", "key": "k1"})
        assert welcome["type"] == "welcome"
        puzzle = await exchange(ws, {"type": "puzzle_request", "room": "ice", "size": 10, "seed": 3})
        assert puzzle["type"] == "puzzle" and puzzle["room"] == "ice"
        route = best_route(parse_maze(puzzle["data"]["map"]))
        verdict = await exchange(ws, {"type": "solution", "puzzle": puzzle["puzzle"], "answer": route.letters})
        assert verdict["type"] == "verdict" and verdict["solved"] and verdict["figures"]["optimal"]
        assert verdict["figures"]["rank"] == 1
        state = await exchange(ws, {"type": "action", "puzzle": puzzle["puzzle"], "action": route.letters[0]})
        assert state["type"] == "state" and state["counters"]["moves"] == 1
        error = await exchange(ws, {"type": "puzzle_request", "room": "ice", "size": 99})
        assert error["type"] == "error" and error["code"] == "bad_level"

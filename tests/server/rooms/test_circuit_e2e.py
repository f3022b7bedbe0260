"""The circuit room over a real websocket."""

import json

from websockets.asyncio.client import connect

from shared.circuit import parse_circuit, solve
from tests.server.conftest import bounded, url

async def exchange(ws, frame):
    await ws.send(json.dumps(frame))
    return json.loads(await bounded(ws.recv(), 10))

async def test_request_solve_and_play_over_a_websocket(make_server):
    srv = await make_server()
    async with connect(url(srv)) as ws:
        welcome = await exchange(ws, {"type": "hello", "protocol": 1, "role": "player", "room": "circuit", "key": "k1"})
        assert welcome["type"] == "welcome"
        puzzle = await exchange(ws, {"type": "puzzle_request", "room": "circuit", "difficulty": "hell", "seed": 8})
        assert puzzle["type"] == "puzzle" and puzzle["data"]["difficulty"] == "hell"
        circuit = parse_circuit(puzzle["data"]["grid"])
        answer = circuit.with_rotations(solve(circuit)).rotations()
        verdict = await exchange(ws, {"type": "solution", "puzzle": puzzle["puzzle"], "answer": answer})
        assert verdict["type"] == "verdict" and verdict["solved"] and verdict["figures"]["connected"]
        pos = circuit.movable()[0]
        state = await exchange(ws, {"type": "action", "puzzle": puzzle["puzzle"], "action": "rotate",
                                    "args": {"row": pos.row, "col": pos.col}})
        assert state["type"] == "state" and state["counters"]["rotations"] == 1
        error = await exchange(ws, {"type": "action", "puzzle": "circuit-0", "action": "undo"})
        assert error["type"] == "error" and error["code"] == "unknown_puzzle"

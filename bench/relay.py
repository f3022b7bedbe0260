"""A bare websocket relay: the baseline of ``bench/server_load.py`` (what websockets + json cost alone).

It speaks just enough of the arena's protocol for the same scripted clients to play through
it: ``hello`` -> ``welcome``; once all ``--players`` are connected it pairs them in arrival
order and sends ``game_start`` to both; then it is a relay with a minimal "referee": every
``step`` frame is ``json.loads``-ed, turned into the opponent's next ``turn`` frame (the step's
cell becomes the opponent's ``enemy_loc``, its wall ``enemy_wall``) and ``json.dumps``-ed to
the opponent. No rules, no clocks, no logs, no database. After both players made
``--step-cap`` steps each gets ``game_over``; when every game is over the relay closes the
connections and exits. Prints ``PORT <n> websockets=<version>`` once listening: the bench runs it
with the server's interpreter (the same virtualenv, so the same websockets) and checks that
version against the server launcher's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

import websockets
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from server.net import eventloop

START = ([5, 1], [5, 9])


class Game:
    """One relayed game: two connections, their pawns as last reported, the steps made."""

    def __init__(self, game_id: str, players: tuple[ServerConnection, ServerConnection], step_cap: int) -> None:
        self.id = game_id
        self.players = players
        self.locs: list[Any] = [list(START[0]), list(START[1])]
        self.steps = [0, 0]
        self.turn = 0
        self.cap = step_cap
        self.over = False


class Relay:
    """Pairs connections and relays steps as turns."""

    def __init__(self, players: int, step_cap: int, time_limit_ms: int) -> None:
        self.expected = players
        self.step_cap = step_cap
        self.time_limit_ms = time_limit_ms
        self.connections: list[ServerConnection] = []
        self.games: dict[ServerConnection, tuple[Game, int]] = {}
        self.games_over = 0
        self.steps = 0
        self.all_over = asyncio.Event()

    def turn_frame(self, game: Game, seat: int, enemy_wall: Any) -> str:
        """The ``turn`` frame for ``seat``."""
        return json.dumps({"type": "turn", "game": game.id, "turn": game.turn, "status": 0,
                           "my_loc": game.locs[seat], "enemy_loc": game.locs[1 - seat], "enemy_wall": enemy_wall,
                           "walls_left": [10, 10], "time_limit_ms": self.time_limit_ms})

    async def start_games(self) -> None:
        """Pair everybody in arrival order and start every game."""
        conns = self.connections
        for number in range(len(conns) // 2):
            game = Game(f"relay-{number + 1}", (conns[2 * number], conns[2 * number + 1]), self.step_cap)
            for seat in (0, 1):
                self.games[game.players[seat]] = (game, seat)
        for number in range(len(conns) // 2):
            game, _ = self.games[conns[2 * number]]
            for seat in (0, 1):
                await game.players[seat].send(json.dumps({"type": "game_start", "game": game.id,
                                                          "opponent": f"p{1 - seat}", "seat": seat}))
            await game.players[0].send(self.turn_frame(game, 0, None))

    async def handle(self, ws: ServerConnection) -> None:
        """One connection: hello, then steps until it closes."""
        try:
            hello = json.loads(await ws.recv())
            if hello.get("type") != "hello":
                await ws.close(1002, "hello first")
                return
            await ws.send(json.dumps({"type": "welcome", "protocol": 1, "player": hello.get("name") or "p",
                                      "server": "relay", "rules": {"ruleset": "course",
                                                                   "time_limit_ms": self.time_limit_ms,
                                                                   "violations_allowed": 3,
                                                                   "step_cap": self.step_cap,
                                                                   "walls_per_player": 10}}))
            self.connections.append(ws)
            if len(self.connections) == self.expected:
                await self.start_games()
            async for raw in ws:
                await self.on_frame(ws, raw)
        except ConnectionClosed:
            pass
        finally:
            entry = self.games.get(ws)
            if entry is not None and not entry[0].over:
                await self.finish(entry[0], "disconnect")

    async def on_frame(self, ws: ServerConnection, raw: str | bytes) -> None:
        """Relay one step frame to the opponent as its turn."""
        message = json.loads(raw)
        entry = self.games.get(ws)
        if entry is None or message.get("type") != "step":
            return
        game, seat = entry
        if game.over or message.get("game") != game.id or message.get("turn") != game.turn or game.turn % 2 != seat:
            await ws.send(json.dumps({"type": "error", "code": "stale_turn", "message": "not your turn",
                                      "frame_type": "step"}))
            return
        if message.get("move") is not None:
            game.locs[seat] = message["move"]
        game.steps[seat] += 1
        self.steps += 1
        game.turn += 1
        if game.steps[0] >= game.cap and game.steps[1] >= game.cap:
            await self.finish(game, "step_cap")
            return
        await game.players[1 - seat].send(self.turn_frame(game, 1 - seat, message.get("wall")))

    async def finish(self, game: Game, reason: str) -> None:
        """Send ``game_over`` to both players; close everything after the last game."""
        game.over = True
        for seat in (0, 1):
            try:
                await game.players[seat].send(json.dumps({
                    "type": "game_over", "game": game.id, "status": 2000, "result": "draw", "reason": reason,
                    "winner": None, "log": None, "thinking_ms": None}))
            except ConnectionClosed:
                pass
        self.games_over += 1
        if self.games_over == self.expected // 2:
            self.all_over.set()


async def run(args: argparse.Namespace) -> int:
    """Listen, relay every game, close."""
    relay = Relay(args.players, args.step_cap, args.time_limit)
    # The server's transport settings (no permessage-deflate), so that only the work differs.
    async with serve(relay.handle, "127.0.0.1", args.port, max_size=1 << 20,
                     ping_interval=20, ping_timeout=20, compression=None) as server:
        port = server.sockets[0].getsockname()[1]
        print(f"PORT {port} websockets={websockets.__version__}", flush=True)
        try:
            await asyncio.wait_for(relay.all_over.wait(), args.deadline)
        except TimeoutError:
            print(f"relay: not every game was over within {args.deadline:.0f} s", file=sys.stderr)
            return 3
        await asyncio.gather(*(ws.close(1000, "over") for ws in relay.connections), return_exceptions=True)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Parse options and run the relay."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, required=True, help="connections to wait for (2 per game)")
    parser.add_argument("--port", type=int, default=0, help="port (default 0: any free port)")
    parser.add_argument("--step-cap", type=int, default=30, help="steps per player per game (default 30)")
    parser.add_argument("--time-limit", type=int, default=1000, metavar="MS", help="echoed in turn frames only")
    parser.add_argument("--deadline", type=float, default=600.0, metavar="S", help="give up after S seconds")
    args = parser.parse_args(argv)
    if args.players < 2 or args.players % 2:
        parser.error("--players must be an even number >= 2")
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ValueError, OSError):
        pass
    try:
        status = eventloop.run(run(args))     # the server's own loop: only the work differs
    except OSError as exc:
        print(f"relay: cannot listen: {exc}", file=sys.stderr)
        status = 2
    times = os.times()
    print(f"DONE {status} cpu_s={times.user + times.system:.3f}", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())

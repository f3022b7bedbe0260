"""Fixtures for server tests: a server on 127.0.0.1 port 0 and scripted websocket bots."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server.app import ArenaServer
from server.games.match import MatchRunner
from server.sandbox import sandbox_status
from server.settings import ServerSettings
from shared.quoridor import BlockBar, Location, Position, Step
from shared.referee import TurnRequest

Policy = Callable[[Position, int], Step | None]


def runner_policy(pos: Position, seat: int) -> Step:
    """Walk a shortest path (the board's mover is ``seat``)."""
    path = pos.shortest_path(seat)
    moves = pos.legal_moves()
    if path and len(path) > 1 and path[1] in moves:
        return Step(path[1])
    return Step(moves[0])


class ScriptedBot:
    """A websocket player that mirrors the board from `turn` frames and answers with a policy."""

    def __init__(self, url: str, key: str, policy: Policy = runner_policy, *, name: str | None = None,
                 delay: float = 0.0, after_hello: tuple[dict[str, Any], ...] = ()) -> None:
        self.url, self.key, self.policy, self.name, self.delay = url, key, policy, name, delay
        self.after_hello = after_hello          # frames sent right after hello
        self.frames: list[dict[str, Any]] = []
        self.games_over: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.welcome: dict[str, Any] | None = None
        self.statuses: list[int] = []

    async def run(self, *, stop_after_games: int | None = None) -> None:
        """Play until the server says the tournament is over (or ``stop_after_games`` games, then drop)."""
        try:
            await self._run(stop_after_games)
        except ConnectionClosed:
            pass            # a late answer after the server closed: nothing more to do

    async def _run(self, stop_after_games: int | None) -> None:
        async with connect(self.url) as ws:
            hello = {"type": "hello", "protocol": 1, "role": "player", "key": self.key}
            if self.name:
                hello["name"] = self.name
            await ws.send(json.dumps(hello))
            for frame in self.after_hello:
                await ws.send(json.dumps(frame))
            walls: list[BlockBar] = []
            seat = 0
            async for raw in ws:
                frame = json.loads(raw)
                self.frames.append(frame)
                kind = frame["type"]
                if kind == "welcome":
                    self.welcome = frame
                elif kind == "error":
                    self.errors.append(frame)
                elif kind == "game_start":
                    walls, seat = [], frame["seat"]
                elif kind == "turn":
                    self.statuses.append(frame["status"])
                    if frame["enemy_wall"]:
                        (a, b), (c, d) = frame["enemy_wall"]
                        walls.append(BlockBar.of(a, b, c, d))
                    mine, theirs = Location(*frame["my_loc"]), Location(*frame["enemy_loc"])
                    pawns = (mine, theirs) if seat == 0 else (theirs, mine)
                    left = frame["walls_left"]
                    pos = Position.setup(pawns, walls, walls_left=(left[0], left[1]) if seat == 0 else (left[1], left[0]),
                                         turn=seat)
                    step = self.policy(pos, seat)
                    if self.delay:
                        await asyncio.sleep(self.delay)
                    if step is not None:
                        if not step.is_move() and not step.new_wall.is_none():
                            walls.append(step.new_wall)
                        try:
                            await ws.send(json.dumps({
                                "type": "step", "game": frame["game"], "turn": frame["turn"],
                                "move": list(step.new_loc) if step.is_move() else None,
                                "wall": None if step.is_move() or step.new_wall.is_none()
                                else [list(step.new_wall.start), list(step.new_wall.stop)]}))
                        except ConnectionClosed:
                            pass    # too late: keep reading what the server sent before closing
                elif kind == "game_over":
                    self.games_over.append(frame)
                    if stop_after_games is not None and len(self.games_over) >= stop_after_games:
                        return
                elif kind == "tournament_over":
                    return


@pytest.fixture
async def make_server(tmp_path) -> AsyncIterator[Callable[..., Any]]:
    """Build and start an ``ArenaServer`` on 127.0.0.1 port 0 with test-friendly defaults."""
    servers: list[ArenaServer] = []

    async def factory(**overrides: Any) -> ArenaServer:
        values: dict[str, Any] = {"port": 0, "data_dir": tmp_path / "replays", "seed": 1, "rejoin_wait_s": 2.0}
        values.update(overrides)
        server = ArenaServer(ServerSettings(**values))
        await server.start()
        servers.append(server)
        return server

    yield factory
    for server in servers:
        await bounded(server.close(), 60)       # a server that cannot close fails its test's teardown, never hangs


def url(server: ArenaServer) -> str:
    """The websocket URL of a started server."""
    return f"ws://127.0.0.1:{server.port}/"


async def bounded(awaitable: Any, seconds: float = 30.0) -> Any:
    """Every wait in a test is bounded."""
    return await asyncio.wait_for(awaitable, seconds)


@pytest.fixture
def sandbox() -> None:
    """bubblewrap works here; else a skip saying how to install it (a failure when QUORIDOR_REQUIRE_SANDBOX=1)."""
    problem = sandbox_status()
    if problem is not None:
        if os.environ.get("QUORIDOR_REQUIRE_SANDBOX") == "1":
            pytest.fail(f"QUORIDOR_REQUIRE_SANDBOX=1 but {problem}")
        pytest.skip(problem)


class SocketlessSeat:
    """A ``server.games.match.Seat`` without a socket: what the runner sends it is recorded; ``present`` decides whether it is there."""

    def __init__(self, name: str, present: bool = True) -> None:
        self.name = name
        self.games: dict[str, tuple[MatchRunner, int]] = {}
        self.present = present
        self.started: list[tuple[str, str, int]] = []
        self.turns: asyncio.Queue[TurnRequest] = asyncio.Queue()
        self.over: list = []
        self.heard_over_at: float | None = None
        self.in_game_when_told: bool | None = None

    def enter(self, match: MatchRunner, seat: int) -> None:
        self.games[match.game_id] = (match, seat)

    def leave(self, match: MatchRunner) -> None:
        del self.games[match.game_id]

    async def send_game_start(self, game: str, opponent: str, seat: int) -> bool:
        self.started.append((game, opponent, seat))
        return self.present

    def send_turn(self, game: str, request: TurnRequest) -> float | None:
        if not self.present:
            return None
        self.turns.put_nowait(request)
        return time.monotonic()

    async def send_game_over(self, message) -> bool:
        self.over.append(message)
        self.heard_over_at = time.monotonic()
        self.in_game_when_told = message.game in self.games
        return True

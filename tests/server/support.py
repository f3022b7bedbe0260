"""Helpers for the server tests: a hand-driven websocket client, a bot that can be held between steps."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server.cli import main
from shared.quoridor import BlockBar, Location, Position, Step
from tests.server.conftest import Policy, bounded, runner_policy

__all__ = ["BROADCASTS", "Client", "GatedBot", "Recorder", "export", "fails", "hello", "play", "position_of", "step_frame"]

#: Frames the server sends on its own (not in answer to a frame).
BROADCASTS = frozenset({"standings", "game_update", "tournament_over", "tournament_info", "game_start", "turn",
                        "game_over"})


class Recorder:
    """A reporter that keeps every call."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: self.calls.append((name, args))

    def of(self, name: str) -> list[tuple[Any, ...]]:
        """The arguments of every call of ``name``."""
        return [args for called, args in self.calls if called == name]

    def messages(self) -> list[str]:
        """The text of every ``message`` call."""
        return [args[0] for args in self.of("message")]


async def play(server: Any, bots: list[Any], *, seconds: float = 30.0, **runs: Any) -> Any:
    """Run the server's tournament while ``bots`` play it (``runs``: each bot's ``run`` arguments); its standings.

    ``seconds`` bounds the tournament; the bots, once it is over, get the default bound.
    """
    tasks = [asyncio.create_task(bot.run(**runs)) for bot in bots]
    standings = await bounded(server.run_tournament(), seconds)
    await bounded(asyncio.gather(*tasks))
    return standings


def export(server: Any) -> dict[str, Any]:
    """The ``results.json`` the server wrote for its tournament."""
    return json.loads((server.folder / "results.json").read_text())


def hello(key: str, role: str = "player", **extra: Any) -> dict[str, Any]:
    """A hello frame."""
    return {"type": "hello", "protocol": 1, "role": role, "key": key, **extra}


def step_frame(game: str, turn: int, step: Step) -> dict[str, Any]:
    """The step frame for ``step``."""
    return {"type": "step", "game": game, "turn": turn,
            "move": list(step.new_loc) if step.is_move() else None,
            "wall": None if step.is_move() or step.new_wall.is_none()
            else [list(step.new_wall.start), list(step.new_wall.stop)]}


def position_of(turn: dict[str, Any], seat: int, walls: list[BlockBar]) -> Position:
    """The board as a ``turn`` frame shows it to ``seat`` (``walls``: every wall placed so far)."""
    mine, theirs = Location(*turn["my_loc"]), Location(*turn["enemy_loc"])
    pawns = (mine, theirs) if seat == 0 else (theirs, mine)
    left = turn["walls_left"]
    return Position.setup(pawns, walls, walls_left=(left[0], left[1]) if seat == 0 else (left[1], left[0]),
                          turn=seat)


class Client:
    """One websocket connection driven frame by frame; every wait is bounded."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, url: str, **kwargs: Any) -> Client:
        """Connect to ``url``."""
        return cls(await bounded(connect(url, **kwargs), 5))

    async def send(self, frame: dict[str, Any] | str | bytes) -> None:
        """Send a dict as JSON, or a str/bytes frame as it is."""
        await self.ws.send(json.dumps(frame) if isinstance(frame, dict) else frame)

    async def next(self, *types: str, skip: frozenset[str] = frozenset(), timeout: float = 5) -> dict[str, Any]:
        """The next frame of one of ``types`` (any type if none given), passing over the ``skip`` types."""
        while True:
            frame = json.loads(await bounded(self.ws.recv(), timeout))
            self.frames.append(frame)
            if frame["type"] in skip:
                continue
            if not types or frame["type"] in types:
                return frame

    async def reply(self, timeout: float = 5) -> dict[str, Any]:
        """The next frame that answers something this client sent (broadcasts passed over)."""
        return await self.next(skip=BROADCASTS, timeout=timeout)

    async def closed(self, timeout: float = 5) -> int | None:
        """Read (and keep) frames until the server closes the connection; its close code."""
        try:
            while True:
                self.frames.append(json.loads(await bounded(self.ws.recv(), timeout)))
        except ConnectionClosed as exc:
            return exc.rcvd.code if exc.rcvd is not None else None

    async def close(self) -> None:
        """Close from this side."""
        await self.ws.close()


class GatedBot:
    """A player like ``ScriptedBot`` that, after ``free_steps`` steps, waits for ``gate`` before each step."""

    def __init__(self, url: str, key: str, gate: asyncio.Event, *, free_steps: int = 0,
                 policy: Policy = runner_policy, on_game_over: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.url, self.key, self.gate, self.policy, self.free_steps = url, key, gate, policy, free_steps
        self.on_game_over = on_game_over
        self.frames: list[dict[str, Any]] = []
        self.games_over: list[dict[str, Any]] = []
        self.steps_sent = 0

    async def run(self) -> None:
        """Play until ``tournament_over`` or the connection closes."""
        try:
            async with connect(self.url) as ws:
                await ws.send(json.dumps(hello(self.key)))
                walls: list[BlockBar] = []
                seat = 0
                async for raw in ws:
                    frame = json.loads(raw)
                    self.frames.append(frame)
                    if frame["type"] == "game_start":
                        walls, seat = [], frame["seat"]
                    elif frame["type"] == "turn":
                        if frame["enemy_wall"]:
                            (a, b), (c, d) = frame["enemy_wall"]
                            walls.append(BlockBar.of(a, b, c, d))
                        step = self.policy(position_of(frame, seat, walls), seat)
                        if self.steps_sent >= self.free_steps:
                            await self.gate.wait()
                        await ws.send(json.dumps(step_frame(frame["game"], frame["turn"], step)))
                        self.steps_sent += 1
                    elif frame["type"] == "game_over":
                        self.games_over.append(frame)
                        if self.on_game_over is not None:
                            self.on_game_over(frame)
                    elif frame["type"] == "tournament_over":
                        return
        except ConnectionClosed:
            pass


def fails(capsys: Any, argv: list[str], code: int = 2) -> str:
    """Run ``quoridor-server``'s ``main(argv)``, expecting exit ``code``; the error line it printed (no traceback)."""
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == code
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.strip().splitlines()[-1]

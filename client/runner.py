"""``BotRunner``: connects one bot to a server and plays until the tournament is over.

The runner speaks protocol v1 (``docs/protocol.md``): hello, then for every ``turn`` it updates
the bot's board, asks the bot, and answers with a ``step``. A plain ``next_step`` runs in a
worker thread so the connection stays alive while the bot thinks; an ``async`` one is awaited.
A bot that raises or returns nonsense gets its traceback printed and an empty step sent (a
violation, as the rules say), and the connection is kept.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from shared.protocol import (
    ErrorMessage, GameOver, GameStart, ProtocolError, Standings, TournamentOver, Turn, Welcome, dump, parse_server,
    to_blockbar, to_location,
)
from shared.protocol import StepMessage
from shared.quoridor import GameStatus, Step, find_ruleset
from shared.quoridor.types import ChessboardChange

__all__ = ["BotRunner", "RunSummary", "ask_bot", "ServerUnavailable"]

#: Warn the author when a step used more than this share of the time limit.
CLOSE_CALL = 0.8


class ServerUnavailable(ConnectionError):
    """The server could not be reached within the waiting time."""


@dataclass
class RunSummary:
    """What happened to the bot over the whole run."""

    player: str = ""
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    violations: int = 0
    timeouts: int = 0
    close_calls: int = 0
    bot_errors: int = 0
    results: list[dict[str, Any]] = field(default_factory=list)

    def line(self) -> str:
        """One line for people: ``5 games: 3 won, 1 lost, 1 drawn; 2 violations (1 timeout)``."""
        return (f"{self.games} games: {self.wins} won, {self.losses} lost, {self.draws} drawn; "
                f"{self.violations} violations ({self.timeouts} timeouts)")


async def ask_bot(player: Any, change: ChessboardChange) -> tuple[Step, str | None]:
    """Ask a bot for its step; returns ``(step, problem)`` where ``problem`` explains an empty step."""
    method = getattr(player, "next_step", None) or getattr(player, "nextStep", None)
    if method is None:
        return Step(), f"{type(player).__name__} has no next_step(change) method"
    try:
        if inspect.iscoroutinefunction(method):
            result = await method(change)
        else:
            result = await asyncio.to_thread(method, change)
            if inspect.isawaitable(result):
                result = await result
    except Exception as exc:  # noqa: BLE001 - a bot's bug must never end the run
        trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        return Step(), f"next_step raised {type(exc).__name__}: {exc}\n{trace}"
    if not isinstance(result, Step):
        return Step(), f"next_step returned {result!r} ({type(result).__name__}); it must return a Step"
    return result, None


class BotRunner:
    """Plays ``player`` on the server at ``url`` under ``key``."""

    def __init__(self, player: Any, url: str, key: str, *, name: str | None = None,
                 console: Console | None = None, wait_s: float = 60.0,
                 on_game_over: Callable[[GameOver], None] | None = None) -> None:
        self.player = player
        self.url = url
        self.key = key
        self.name = name
        self.console = console or Console(stderr=True)
        self.wait_s = wait_s
        self.on_game_over = on_game_over
        self.summary = RunSummary()
        self.ruleset = find_ruleset("course")

    async def run(self) -> RunSummary:
        """Connect (waiting for the server to come up), play, and return the summary."""
        ws = await self._connect()
        async with ws:
            hello: dict[str, Any] = {"type": "hello", "protocol": 1, "role": "player", "key": self.key}
            if self.name:
                hello["name"] = self.name
            await ws.send(json.dumps(hello))
            try:
                async for raw in ws:
                    if await self._handle(ws, raw):
                        break
            except ConnectionClosed:
                self.console.print("[yellow]the server closed the connection[/]")
        return self.summary

    async def _connect(self) -> ClientConnection:
        """Retry with backoff while the server is not up yet."""
        deadline = time.monotonic() + self.wait_s
        delay = 0.1
        announced = False
        while True:
            try:
                return await connect(self.url, open_timeout=10)
            except (OSError, InvalidHandshake, TimeoutError) as exc:
                if time.monotonic() + delay > deadline:
                    raise ServerUnavailable(f"no server at {self.url} after {self.wait_s:.0f} s ({exc})") from None
                if not announced:
                    self.console.print(f"waiting for the server at {self.url} …")
                    announced = True
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
            except InvalidURI:
                raise ServerUnavailable(f"{self.url!r} is not a websocket URL (expected ws://HOST:PORT/)") from None

    async def _handle(self, ws: ClientConnection, raw: str | bytes) -> bool:
        """Handle one frame; True when the run is over."""
        try:
            message = parse_server(raw)
        except ProtocolError as exc:
            self.console.print(f"[red]unreadable frame from the server ({exc.code}): {exc.message}[/]")
            return False
        if isinstance(message, Turn):
            await self._turn(ws, message)
        elif isinstance(message, GameStart):
            begin = getattr(self.player, "begin_game", None)
            if begin is not None:
                begin(message.seat, self.ruleset)
            self.console.print(f"game {message.game}: you are seat {message.seat} against {message.opponent}")
        elif isinstance(message, GameOver):
            self._game_over(message)
        elif isinstance(message, Welcome):
            self.summary.player = message.player
            self.ruleset = find_ruleset(message.rules.ruleset)
            limit = message.rules.time_limit_ms
            self.console.print(f"joined {message.server} as [bold]{message.player}[/] · {message.rules.ruleset} rules · "
                               + (f"{limit} ms per step" if limit else "no time limit"))
        elif isinstance(message, ErrorMessage):
            self.console.print(f"[red]server error {message.code}: {message.message}[/]")
            if message.frame_type == "hello":
                return True
        elif isinstance(message, TournamentOver):
            self.console.print(f"tournament {message.tournament} is over")
            return True
        elif isinstance(message, Standings):
            pass
        return False

    async def _turn(self, ws: ClientConnection, turn: Turn) -> None:
        received = time.monotonic()
        status = GameStatus(turn.status)
        if status.is_violation:
            self.summary.violations += 1
            self.summary.timeouts += status is GameStatus.TIMEOUT
            self.console.print(f"[yellow]your previous step earned {status.name}[/]")
        change = ChessboardChange(status, to_location(turn.my_loc), to_location(turn.enemy_loc),
                                  to_blockbar(turn.enemy_wall))
        observe = getattr(self.player, "observe", None)
        if observe is not None:
            observe(change, turn.walls_left)
        step, problem = await ask_bot(self.player, change)
        if problem:
            self.summary.bot_errors += 1
            self.console.print(f"[red]bot error (answering with an empty step): {problem}[/]")
        elapsed_ms = (time.monotonic() - received) * 1000
        if turn.time_limit_ms and elapsed_ms > CLOSE_CALL * turn.time_limit_ms:
            self.summary.close_calls += 1
            self.console.print(f"[yellow]slow step: {elapsed_ms:.0f} ms of the {turn.time_limit_ms} ms limit[/]")
        sent = getattr(getattr(self.player, "tracker", None), "sent", None)
        if sent is not None:
            sent(step)
        message = StepMessage(game=turn.game, turn=turn.turn,
                              move=list(step.new_loc) if step.new_loc.is_valid() else None,  # type: ignore[arg-type]
                              wall=None if step.new_wall.is_none() else
                              [list(step.new_wall.start), list(step.new_wall.stop)])  # type: ignore[arg-type]
        await ws.send(dump(message))

    def _game_over(self, over: GameOver) -> None:
        s = self.summary
        s.games += 1
        if over.result == "win":
            s.wins += 1
        elif over.result == "loss":
            s.losses += 1
        else:
            s.draws += 1
        if over.status == GameStatus.RULES_BREAKER:
            s.violations += 1
        s.results.append(over.model_dump())
        style = {"win": "green", "loss": "red", "draw": "yellow"}[over.result]
        self.console.print(f"game {over.game}: [{style}]{over.result}[/] ({over.reason.replace('_', ' ')})"
                           + (f" · log {over.log}" if over.log else ""))
        restart = getattr(self.player, "restart", None)
        if restart is not None:
            restart()
        if self.on_game_over is not None:
            self.on_game_over(over)

"""``BotRunner``: connects one bot to a server and plays until the tournament is over.

The runner speaks protocol v1 (``docs/protocol.md``): hello, then for every ``turn`` it asks
the bot through its ``BotDriver`` (``client.driver``: the board updated, a plain ``next_step``
in a worker thread so the connection stays alive while the bot thinks, an ``async`` one
awaited) and answers with a ``step``. A bot that raises or returns nonsense is reported with
its own traceback and answered for with an empty step (a violation, as the rules say); the
connection is kept. With ``log_dir`` it rebuilds each game's log (``client.gamerecord``) and
writes it there (``client.logfiles``).

What happens is told as ``Notice``s to ``say`` (``client.notices``); the runner prints nothing
itself, and text from the bot or the server goes into a notice as it is.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from shared.gamelog import GameLog
from shared.protocol import (
    ErrorMessage, GameOver, GameStart, ProtocolError, Standings, StepMessage, TournamentOver, Turn, Welcome, dump,
    parse_server, to_blockbar, to_location,
)
from shared.quoridor import GameStatus, find_ruleset
from shared.quoridor.types import ChessboardChange

from .driver import BotDriver, BotProblem
from .gamerecord import GameRecorder
from .logfiles import log_path, write_log_atomic
from .notices import Notice, Say, Tone, say_plain

__all__ = ["BotRunner", "RunSummary", "ServerUnavailable", "GameOverHook", "CLOSE_CALL"]

#: Warn the author when a step used more than this share of the time limit.
CLOSE_CALL = 0.8

#: Called after each game with the ``game_over`` frame and the local log written for it (or ``None``;
#: the file is complete once ``BotRunner.run`` has returned).
GameOverHook = Callable[[GameOver, Path | None], None]

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
    #: True once the server said the tournament is over (``tournament_over``).
    completed: bool = False
    #: Why the run ended before that, for people (``None`` when it completed).
    problem: str | None = None
    #: True when the server refused this client at ``hello`` (it played nothing: ``problem`` says why).
    refused: bool = False
    #: The game logs the client wrote itself (``--save-log``), in play order.
    logs: list[Path] = field(default_factory=list)

    def line(self) -> str:
        """One line for people: ``5 games: 3 won, 1 lost, 1 drawn; 2 violations (1 timeout)``."""
        return (f"{self.games} games: {self.wins} won, {self.losses} lost, {self.draws} drawn; "
                f"{self.violations} violations ({self.timeouts} timeouts)")


class BotRunner:
    """Plays ``player`` on the server at ``url`` under ``key``; with ``log_dir`` it writes each game's log there.

    ``say`` hears what happens (default: plain text on standard error).
    """

    def __init__(self, player: Any, url: str, key: str, *, name: str | None = None,
                 say: Say = say_plain, wait_s: float = 60.0,
                 on_game_over: GameOverHook | None = None, log_dir: Path | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.player = player
        self.driver = BotDriver(player, self._bot_problem)
        self.url = url
        self.key = key
        self.name = name
        self.say = say
        self.wait_s = wait_s
        self.on_game_over = on_game_over
        self.log_dir = log_dir
        self.clock = clock
        self.summary = RunSummary()
        self.ruleset = find_ruleset("course")
        self.recorder: GameRecorder | None = None
        self._writes: set[asyncio.Task[None]] = set()

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
                pass
        if self._writes:
            await asyncio.wait(self._writes)        # every log is on disk before the run is over
        if not self.summary.completed and self.summary.problem is None:
            self.summary.problem = "the server closed the connection before the tournament was over"
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
                    self._tell(f"waiting for the server at {self.url} …")
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
            self._tell((f"unreadable frame from the server ({exc.code}): {exc.message}", Tone.BAD))
            return False
        if isinstance(message, Turn):
            await self._turn(ws, message)
        elif isinstance(message, GameStart):
            self._game_start(message)
        elif isinstance(message, GameOver):
            self._game_over(message)
        elif isinstance(message, Welcome):
            self.summary.player = message.player
            self.ruleset = find_ruleset(message.rules.ruleset)
            limit = message.rules.time_limit_ms
            self.driver.tell_time_limit(limit)
            rules = f" · {message.rules.ruleset} rules · " + (f"{limit} ms per step" if limit else "no time limit")
            self._tell(f"joined {message.server} as ", (message.player, Tone.NAME), rules)
        elif isinstance(message, ErrorMessage):
            if message.frame_type == "hello":
                self.summary.refused = True
                self.summary.problem = f"the server refused to let this client play ({message.code}: {message.message})"
                return True
            self._tell((f"server error {message.code}: {message.message}", Tone.BAD))
        elif isinstance(message, TournamentOver):
            self.summary.completed = True
            self._tell(f"tournament {message.tournament} is over")
            return True
        elif isinstance(message, Standings):
            pass
        return False

    def _tell(self, *parts: str | tuple[str, Tone]) -> None:
        self.say(Notice.of(*parts))

    def _bot_problem(self, problem: BotProblem) -> None:
        """Count and tell a failure of the bot (the driver has answered for it)."""
        self.summary.bot_errors += 1
        trace = "\n" + problem.traceback if problem.traceback else ""
        if problem.hook == "next_step":
            self._tell(("bot error (answering with an empty step): ", Tone.BAD), problem.message + trace)
        else:
            self._tell((f"bot error in {problem.hook}: ", Tone.BAD), problem.error_text + trace)

    def _game_start(self, start: GameStart) -> None:
        self.driver.begin_game(start.seat, self.ruleset)
        self.recorder = GameRecorder(start.game, self.summary.player or self.key, start.opponent, start.seat,
                                     self.ruleset)
        self._tell(f"game {start.game}: you are seat {start.seat} against {start.opponent}")

    async def _turn(self, ws: ClientConnection, turn: Turn) -> None:
        received = self.clock()
        status = GameStatus(turn.status)
        if status.is_violation:
            self.summary.violations += 1
            self.summary.timeouts += status is GameStatus.TIMEOUT
            self._tell((f"your previous step earned {status.name}", Tone.CAUTION))
        if self.recorder is not None:
            self.recorder.turn(turn)
        change = ChessboardChange(status, to_location(turn.my_loc), to_location(turn.enemy_loc),
                                  to_blockbar(turn.enemy_wall))
        step = await self.driver.ask(change, turn.walls_left, turn.time_limit_ms)
        elapsed_ms = (self.clock() - received) * 1000
        if turn.time_limit_ms and elapsed_ms > CLOSE_CALL * turn.time_limit_ms:
            self.summary.close_calls += 1
            self._tell((f"slow step: {elapsed_ms:.0f} ms of the {turn.time_limit_ms} ms limit", Tone.CAUTION))
        if self.recorder is not None:
            self.recorder.sent(step, turn.turn, elapsed_ms, turn.time_limit_ms)
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
        recorder = self.recorder if self.recorder is not None and self.recorder.game == over.game else None
        self.recorder = None
        # The status of the bot's last step never comes in a turn: the recorder judges it.
        last = recorder.finish(over) if recorder is not None else \
            (GameStatus.RULES_BREAKER if over.status == GameStatus.RULES_BREAKER else None)
        if last is not None and (last.is_violation or last is GameStatus.RULES_BREAKER):
            s.violations += 1
            s.timeouts += last is GameStatus.TIMEOUT
        s.results.append(over.model_dump())
        path = self._save_log(over, recorder)
        tone = {"win": Tone.GOOD, "loss": Tone.BAD, "draw": Tone.CAUTION}[over.result]
        where = f" · log {path}" if path is not None else (f" · server log {over.log}" if over.log else "")
        self._tell(f"game {over.game}: ", (over.result, tone), f" ({over.reason.replace('_', ' ')})" + where)
        self.driver.end_game()
        if self.on_game_over is not None:
            self.on_game_over(over, path)

    def _save_log(self, over: GameOver, recorder: GameRecorder | None) -> Path | None:
        """Start writing the game's log under ``log_dir`` (when asked to); its path, ``None`` when there is none.

        The file is written (and synced) in a worker thread, so the next game's first turn is not held up.
        """
        if self.log_dir is None or over.reason == "forfeit":
            return None
        log = recorder.log() if recorder is not None else None
        if log is None:
            why = recorder.broken if recorder is not None and recorder.broken else "it was not followed from its start"
            self._tell((f"no log for game {over.game}: {why}", Tone.CAUTION))
            return None
        try:
            path = log_path(self.log_dir, log, self.summary.logs)
        except OSError as exc:
            self._tell((f"could not write the log of game {over.game} under {self.log_dir}: {exc}", Tone.CAUTION))
            return None
        self.summary.logs.append(path)
        task = asyncio.get_running_loop().create_task(self._write(path, log))
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)
        return path

    async def _write(self, path: Path, log: GameLog) -> None:
        try:
            await asyncio.to_thread(write_log_atomic, path, log)
        except (OSError, ValueError) as exc:
            if path in self.summary.logs:
                self.summary.logs.remove(path)
            self._tell((f"could not write the log {path}: {exc}", Tone.CAUTION))

"""``BotRunner``: connects one bot to a server and plays until the tournament is over.

The runner speaks protocol v1 (``docs/protocol.md``): hello, then for every ``turn`` it asks
the bot through its ``BotDriver`` (``client.driver``: the board updated, a plain ``next_step``
in a worker thread so the connection stays alive while the bot thinks, an ``async`` one
awaited) and answers with a ``step``. A bot that raises or returns nonsense is reported with
its own traceback and answered for with an empty step (a violation, as the rules say); the
connection is kept. With ``log_dir`` it rebuilds each game's log (``client.gamerecord``) and
writes it there (``client.logfiles``).

Frames are read as they arrive, also while the bot thinks, and handled in order. A turn the
server has already timed out (a later turn, or the end of its game, came meanwhile) is not
answered: the late answer is dropped with a quiet note, as is one that crossed the server's move
on the wire (a ``stale_turn`` error). The server's ``tournament_over`` is always handled, even
when it closed the connection while the bot was thinking. A practice ladder's ``paused`` ends the run
with its reason (the ladder pairs the connection no more; a new run reconnects).

What happens is told as ``Notice``s to ``say`` (``client.notices``); the runner prints nothing
itself, and text from the bot or the server goes into a notice as it is. Every violation of the
bot is told with the referee's reason (``turn 12: your step a5 was illegal: a5 is not reachable in
one step from e1``), from the next ``turn`` or, for the last step of a game, from ``game_over``; the
bot itself finds it in ``last_judgement``. Reaching the server,
with its waiting and countdown, is ``client.connecting``'s.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from shared.gamelog import GameLog
from shared.protocol import (
    ErrorMessage, GameOver, GameStart, ProtocolError, ServerMessage, Standings, StepMessage, TournamentOver, Turn,
    Welcome, dump, parse_server, to_blockbar, to_location, to_verdict,
)
from shared.quoridor import GameStatus, Step, StepVerdict, find_ruleset
from shared.quoridor.types import ChessboardChange

from .connecting import ServerUnavailable, connect_waiting
from .driver import BotDriver, BotFailure, BotProblem, ProblemKind
from .gamerecord import GameRecorder
from .logfiles import log_path, write_log_atomic
from .notices import Notice, Say, Tone, say_plain, violation_text
from .process_bot import ProcessBot

__all__ = ["BotRunner", "RunSummary", "ServerUnavailable", "GameOverHook", "CLOSE_CALL", "final_place"]

#: Warn the author when a step used more than this share of the time limit.
CLOSE_CALL = 0.8

#: Called after each game with the ``game_over`` frame and the local log written for it (or ``None``;
#: the file is complete once ``BotRunner.run`` has returned).
GameOverHook = Callable[[GameOver, Path | None], None]

#: Errors the server answers a late step with, and what they mean for people.
_LATE = {"stale_turn": "its turn was over", "wrong_game": "its game was over"}


def final_place(over: TournamentOver, player: str) -> list[str | tuple[str, Tone]]:
    """Where ``player`` finished, from its ``tournament_over`` (the top and its own row, or the whole table), as
    notice parts: ``: alice placed 37th of 1,000 with 12 points; champion: bob``; empty without its row."""
    mine = next((row for row in over.rows if row.player == player), None)
    if mine is None:
        return []
    total = over.players if over.players is not None else len(over.rows)
    points = f"{mine.points:g} point" + ("" if mine.points == 1 else "s")
    parts: list[str | tuple[str, Tone]] = [": ", (player, Tone.NAME), f" placed {_ordinal(mine.rank)} of {total:,} "
                                           f"with {points}"]
    if over.champion is not None:
        parts += ["; champion: ", (over.champion, Tone.NAME)]
    return parts


def _ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, ..."""
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _refuses_hello(message: ServerMessage) -> bool:
    """True for the error that refuses this client at ``hello`` (the server closes next)."""
    return isinstance(message, ErrorMessage) and message.frame_type == "hello"


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

    ``say`` hears what happens (default: plain text on standard error). ``label`` names the bot
    on the line that says the client joined (default: its class), ``label_note`` adds why
    (``the default bot``); ``hint`` ends the question asked while no server answers.
    """

    def __init__(self, player: Any, url: str, key: str, *, name: str | None = None,
                 say: Say = say_plain, wait_s: float = 60.0,
                 on_game_over: GameOverHook | None = None, log_dir: Path | None = None,
                 clock: Callable[[], float] = time.monotonic, label: str | None = None,
                 label_note: str = "", hint: str = "", version: str | None = None) -> None:
        self.player = player
        #: Sent in hello: the practice ladder rates each version of a bot on its own (None: not sent).
        self.version = version
        self.label = label or type(player).__name__
        self.label_note = label_note
        self.hint = hint
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
        self._newest: dict[str, int] = {}     # the newest turn read per game (the reader's, ahead of the bot)
        self._ended: dict[str, GameOver] = {}  # the game_over frames read, by game
        self._sent: dict[str, tuple[int, Step]] = {}  # the last step sent per game, with its turn

    async def run(self) -> RunSummary:
        """Connect (waiting for the server to come up), play, and return the summary.

        ``ServerUnavailable`` when no server could be reached in ``wait_s``; ``ValueError`` for a URL
        that is not a websocket URL.
        """
        ws = await connect_waiting(self.url, self.wait_s, self.say, hint=self.hint)
        async with ws:
            hello: dict[str, Any] = {"type": "hello", "protocol": 1, "role": "player", "key": self.key}
            if self.name:
                hello["name"] = self.name
            if self.version:
                hello["version"] = self.version
            await ws.send(json.dumps(hello))
            await self._play(ws)
        if self._writes:
            await asyncio.wait(self._writes)        # every log is on disk before the run is over
        if not self.summary.completed and self.summary.problem is None:
            self.summary.problem = "the server closed the connection before the tournament was over"
        return self.summary

    async def _play(self, ws: ClientConnection) -> None:
        """Read frames as they come (``_read``) while they are handled in order here, the bot's turns included.

        Reading never waits for the bot: a turn that has passed, or a game that is over, is known
        the moment the server says so, and an answer that comes too late is not sent. Every frame
        that arrived before the server closed the connection (``tournament_over`` last) is handled.
        """
        inbox: asyncio.Queue[ServerMessage | None] = asyncio.Queue()
        reader = asyncio.get_running_loop().create_task(self._read(ws, inbox))
        try:
            while (message := await inbox.get()) is not None:
                if await self._handle(ws, message):
                    break
        finally:
            reader.cancel()
            await asyncio.wait({reader})
        failure = None if reader.cancelled() else reader.exception()
        if failure is not None:
            raise failure

    async def _read(self, ws: ClientConnection, inbox: asyncio.Queue[ServerMessage | None]) -> None:
        """Parse each frame, note what it says of the games in progress, and queue it; ``None`` once no more come."""
        try:
            async for raw in ws:
                try:
                    message = parse_server(raw)
                except ProtocolError as exc:
                    self._tell((f"unreadable frame from the server ({exc.code}): {exc.message}", Tone.BAD))
                    continue
                if isinstance(message, Turn):
                    self._newest[message.game] = max(message.turn, self._newest.get(message.game, -1))
                elif isinstance(message, GameOver):
                    self._ended[message.game] = message
                inbox.put_nowait(message)
                if isinstance(message, TournamentOver) or _refuses_hello(message):
                    break                           # the last frame of the run: the server closes next
        except ConnectionClosed:
            pass
        finally:
            inbox.put_nowait(None)

    def _overtaken(self, turn: Turn) -> bool:
        """True once the server has moved past ``turn`` (a later turn, or the end of its game, has arrived)."""
        return turn.game in self._ended or self._newest.get(turn.game, turn.turn) > turn.turn

    async def _handle(self, ws: ClientConnection, message: ServerMessage) -> bool:
        """Handle one frame; True when the run is over."""
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
            if isinstance(self.driver.bot, ProcessBot):      # a C++ or executable bot hears the rules as hosted
                self._process_call(self.driver.bot.welcome, message)
            rules = f" · {message.rules.ruleset} rules · " + (f"{limit} ms per step" if limit else "no time limit")
            self._tell(f"joined {message.server} as ", (message.player, Tone.NAME), " with ", (self.label, Tone.NAME),
                       *([(f" ({self.label_note})", Tone.CAUTION)] if self.label_note else []), rules)
        elif isinstance(message, ErrorMessage):
            if _refuses_hello(message):
                self.summary.refused = True
                self.summary.problem = f"the server refused to let this client play ({message.code}: {message.message})"
                return True
            if message.code == "paused":
                # The practice ladder pairs this connection no more (docs/protocol.md): staying would hang for
                # ever, reconnecting at once would replay the same bot. The run ends with the reason.
                why = message.message.removeprefix("paused: ")
                self.summary.problem = f"the practice ladder paused this bot: {why}"
                self._tell((f"server error {message.code}: {message.message}", Tone.BAD))
                return True
            if message.frame_type == "step" and message.code in _LATE:
                # A step that crossed the server's move on the wire: the turn was already a Timeout.
                self._tell((f"a late answer was discarded by the server ({_LATE[message.code]})", Tone.QUIET))
            else:
                self._tell((f"server error {message.code}: {message.message}", Tone.BAD))
        elif isinstance(message, TournamentOver):
            self.summary.completed = True
            self._tell(f"tournament {message.tournament} is over", *final_place(message, self.summary.player))
            return True
        elif isinstance(message, Standings):
            pass
        return False

    def _tell(self, *parts: str | tuple[str, Tone]) -> None:
        self.say(Notice.of(*parts))

    def _process_call(self, call: Callable[[Any], None], message: Any) -> None:
        """Tell a process bot a frame; its process failing is told as any failure of the bot."""
        try:
            call(message)
        except BotFailure as exc:
            self._bot_problem(BotProblem(ProblemKind.FAILED, call.__name__, type(self.driver.bot).__name__,
                                         error=exc))

    def _bot_problem(self, problem: BotProblem) -> None:
        """Count and tell a failure of the bot (the driver has answered for it)."""
        self.summary.bot_errors += 1
        trace = "\n" + problem.traceback if problem.traceback else ""
        if problem.hook == "next_step":
            self._tell(("bot error (answering with an empty step): ", Tone.BAD), problem.message + trace)
        else:
            self._tell((f"bot error in {problem.hook}: ", Tone.BAD),
                       (problem.message if problem.kind is ProblemKind.FAILED else problem.error_text) + trace)

    def _game_start(self, start: GameStart) -> None:
        if isinstance(self.driver.bot, ProcessBot):
            self.driver.bot.meet(start.opponent, start.game)
        self.driver.begin_game(start.seat, self.ruleset)
        self.recorder = GameRecorder(start.game, self.summary.player or self.key, start.opponent, start.seat,
                                     self.ruleset)
        self._tell(f"game {start.game}: you are seat {start.seat} against {start.opponent}")

    async def _turn(self, ws: ClientConnection, turn: Turn) -> None:
        received = self.clock()
        status = GameStatus(turn.status)
        judgement = to_verdict(turn.judgement)
        if status.is_violation:
            self.summary.violations += 1
            self.summary.timeouts += status is GameStatus.TIMEOUT
            self._tell_violation(turn.game, turn.turn - 2, status, judgement)
        if self.recorder is not None:
            self.recorder.turn(turn)
        if turn.game in self._ended:
            # The game ended while this turn waited to be handled (the bot was still on an earlier
            # one): nobody awaits an answer, and the bot hears of the end next (restart).
            self._unanswered(turn)
            return
        change = ChessboardChange(status, to_location(turn.my_loc), to_location(turn.enemy_loc),
                                  to_blockbar(turn.enemy_wall))
        step = await self.driver.ask(change, turn.walls_left, turn.time_limit_ms, judgement)
        elapsed_ms = (self.clock() - received) * 1000
        if turn.time_limit_ms and elapsed_ms > CLOSE_CALL * turn.time_limit_ms:
            self.summary.close_calls += 1
            self._tell((f"slow step: {elapsed_ms:.0f} ms of the {turn.time_limit_ms} ms limit", Tone.CAUTION))
        if self._overtaken(turn):
            # Too late: the server has timed the turn out and moved on (docs/protocol.md, Timing), so
            # the answer is not sent (it would only earn a stale_turn error, a strike).
            self._tell((f"a late answer to turn {turn.turn} was discarded", Tone.QUIET))
            self._unanswered(turn)
            return
        if self.recorder is not None:
            self.recorder.sent(step, turn.turn, elapsed_ms, turn.time_limit_ms)
        message = StepMessage(game=turn.game, turn=turn.turn,
                              move=list(step.new_loc) if step.new_loc.is_valid() else None,  # type: ignore[arg-type]
                              wall=None if step.new_wall.is_none() else
                              [list(step.new_wall.start), list(step.new_wall.stop)])  # type: ignore[arg-type]
        self._sent[turn.game] = (turn.turn, step)
        try:
            await ws.send(dump(message))
        except ConnectionClosed:
            # The server closed while the bot thought (after the last game's end, or a crash): the
            # frames it sent before are still handled, tournament_over among them.
            self._tell((f"a late answer to turn {turn.turn} was discarded (the connection is closed)", Tone.QUIET))

    def _tell_violation(self, game: str, turn: int, status: GameStatus, judgement: StepVerdict | None) -> None:
        """Tell the author why its step of ``turn`` was a violation (only the status, from a server that
        does not say why)."""
        if judgement is None:
            self._tell((f"your previous step earned {status.name}", Tone.CAUTION))
            return
        sent = self._sent.get(game)
        step = sent[1] if sent is not None and sent[0] == turn else None
        self._tell((violation_text(turn, judgement.cause, judgement.reason, step), Tone.CAUTION))

    def _unanswered(self, turn: Turn) -> None:
        """No answer to ``turn`` went out: the log gets what the server did instead."""
        over = self._ended.get(turn.game)
        if self.recorder is None or (over is not None and (over.reason, over.result) != ("violations", "loss")):
            return      # the game ended otherwise (the opponent left): the server judged no step of this turn
        # The server timed the turn out: an empty step, a Timeout (the losing violation when the game ended on it).
        self.recorder.sent(Step(), turn.turn, math.inf, turn.time_limit_ms)

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
        # The status of the bot's last step never comes in a turn: game_over says why it was a violation
        # (a server that does not say so leaves the recorder to judge it).
        last = recorder.finish(over) if recorder is not None else \
            (GameStatus.RULES_BREAKER if over.status == GameStatus.RULES_BREAKER else None)
        judgement = to_verdict(over.judgement)
        if judgement is not None:
            s.violations += 1
            s.timeouts += judgement.late
            newest = self._newest.get(over.game)
            if newest is not None:     # the bot's last step answered (or let pass) its newest turn
                self._tell_violation(over.game, newest, judgement.status, judgement)
        elif "judgement" not in over.model_fields_set and last is not None and \
                (last.is_violation or last is GameStatus.RULES_BREAKER):
            s.violations += 1
            s.timeouts += last is GameStatus.TIMEOUT
        self._sent.pop(over.game, None)
        s.results.append(over.model_dump())
        path = self._save_log(over, recorder)
        tone = {"win": Tone.GOOD, "loss": Tone.BAD, "draw": Tone.CAUTION}[over.result]
        where = f" · log {path}" if path is not None else (f" · server log {over.log}" if over.log else "")
        self._tell(f"game {over.game}: ", (over.result, tone), f" ({over.reason.replace('_', ' ')})" + where)
        if isinstance(self.driver.bot, ProcessBot):
            self._process_call(self.driver.bot.game_over, over)
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

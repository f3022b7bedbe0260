"""``ProcessBot``: a bot that is a process speaking the hosted-bot channel (docs/hosted-bots.md), played like any bot.

Locally (``quoridor-match``, ``quoridor-client``) ``client.loader.load_bot`` makes one of a C++ bot
(``FILE.cpp``, ``FILE.cpp:CLASS``), built with the arena's ``main`` into the user's cache (``client.cppcache``: a
second run does not build again), and of an executable of the bot's own (any other path), run as it is; there is no
sandbox: it is the user's own code on the user's machine, as a Python bot is.

The process is started in the bot's folder. ``ProcessBot`` writes it the channel's lines (``welcome``,
``game_start``, ``turn``, ``game_over``, ``tournament_over``, built by ``shared.protocol`` as the server builds them)
and reads its ``step`` lines; its stderr is the terminal's, as a Python bot's prints are. ``close`` ends it (at the
end of a run, on Ctrl-C or an exception; the process dies with this one besides). A process that ends mid-game, or
writes 10 lines in a row that are no step for its turn, is a ``BotFailure`` (one line, no traceback): its game goes
on with empty steps, and the next game starts it afresh, as the server does with a hosted bot that left a game.
"""

from __future__ import annotations

import ctypes
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Sequence
from pathlib import Path

from shared.hosting import EXIT_CODES
from shared.protocol import (
    GameOver, GameStart, ProtocolError, RulesInfo, StepMessage, TournamentOver, Welcome, dump, parse_client, to_step,
)
from shared.protocol.codec import step_judgement, turn_frame
from shared.quoridor import BLOCK_SUM, Ruleset, Step, StepVerdict
from shared.quoridor.types import ChessboardChange
from shared.referee import GameFinished, RefereeSettings

from .driver import BotFailure

__all__ = ["ProcessBot", "local_game_over", "welcome_for", "HELLO_TIMEOUT_S", "BAD_LINES"]

HELLO_TIMEOUT_S = 10.0
"""Seconds a bot's process has to say ``hello`` after its start (the server's figure)."""

BAD_LINES = 10
"""Lines in a row that are no step for the bot's turn after which its process is stopped (the server's figure)."""

_CAUSES = {code: cause for cause, code in EXIT_CODES.items()}


def welcome_for(name: str, settings: RefereeSettings) -> Welcome:
    """The ``welcome`` a local run's process bot gets: the rules its games are played by (as the server's)."""
    rules = RulesInfo(ruleset=settings.ruleset.name, time_limit_ms=settings.time_limit_ms,
                      violations_allowed=settings.violations_to_lose, step_cap=settings.step_cap,
                      walls_per_player=BLOCK_SUM)
    return Welcome(player=name, server="quoridor-arena (local)", rules=rules)


def local_game_over(final: GameFinished, players: tuple[str, str], seat: int) -> GameOver:
    """The ``game_over`` telling ``seat`` how a local game ended (as the server's, without a server log)."""
    winner = final.outcome.winner
    return GameOver(game="local", status=int(final.statuses[seat]), result=final.result(seat),
                    reason=final.termination.value, winner=None if winner is None else players[winner],
                    thinking_ms=(final.outcome.thinking_ms[seat], final.outcome.thinking_ms[1 - seat]),
                    judgement=step_judgement(final.judgements[seat]))


def _object_of(line: bytes) -> object:
    """The JSON value of a line (``None`` when it is none)."""
    try:
        return json.loads(line)
    except ValueError:
        return None


def _die_with_parent() -> None:
    """In the child, before it runs the bot: it is killed when the thread that started it ends (Linux)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)     # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _kill(process: subprocess.Popen[bytes]) -> None:
    """End ``process`` at once and reap it (a finalizer: no exception escapes)."""
    try:
        if process.poll() is None:
            process.kill()
        process.wait(5)
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()
    except (OSError, subprocess.SubprocessError):
        pass


class ProcessBot:
    """A bot played through a process of its own over the hosted-bot channel; the ``Player`` hooks the driver calls
    become its lines (``begin_game``: ``game_start``, ``next_step``: ``turn`` and its ``step``, ``restart``:
    ``game_over``)."""

    #: Thinking time per step (ms), set by the driver; also how long a step is waited for (3 times it, and 1 s).
    time_limit_ms: int | None = None
    #: The verdict on the bot's previous step (the turn's ``judgement``), set by the driver.
    last_judgement: StepVerdict | None = None

    def __init__(self, command: Sequence[str], name: str, *, cwd: Path,
                 hello_timeout_s: float = HELLO_TIMEOUT_S) -> None:
        self.command = list(command)
        self.name = name
        self.cwd = cwd
        self.hello_timeout_s = hello_timeout_s
        #: The ``version`` its ``hello`` said (the C++ build's: a hash of the bot's files), ``None`` if none.
        self.version: str | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._finalizer: weakref.finalize | None = None
        self._buffer = bytearray()
        self._welcome: Welcome | None = None
        self._games = 0
        self._game = ""
        self._turn = 0
        self._walls_left = (BLOCK_SUM, BLOCK_SUM)
        self._over_told = False
        self._next: tuple[str, str | None] = ("opponent", None)     # the next game's opponent and id (``meet``)
        self._failed = False        # told once: the game's remaining steps are empty, the next game starts it again
        self._start()

    # -- the process -------------------------------------------------------------------------------
    def _start(self) -> None:
        """Start the process and wait for its ``hello``; ``BotFailure`` when it ends or says nothing in time."""
        in_main = threading.current_thread() is threading.main_thread()
        try:
            self._process = subprocess.Popen(self.command, cwd=self.cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             start_new_session=True,      # Ctrl-C is this process's to handle
                                             preexec_fn=_die_with_parent if in_main and sys.platform == "linux"
                                             else None)
        except OSError as exc:
            raise BotFailure(f"cannot start {self.command[0]}: {exc.strerror}") from None
        self._finalizer = weakref.finalize(self, _kill, self._process)
        self._buffer.clear()
        self._failed = False
        deadline = time.monotonic() + self.hello_timeout_s
        while True:
            line = self._line(deadline)
            if line is None:
                self._fail(f"its process ended before it said hello ({self._exit_text()})")
            elif line == b"":
                self._fail(f"it said no hello within {self.hello_timeout_s:g} s of its start")
            elif isinstance(hello := _object_of(line), dict) and hello.get("type") == "hello":
                version = hello.get("version")
                self.version = version if isinstance(version, str) and version else None
                break
        if self._welcome is not None:
            self._send(dump(self._welcome))

    def _exit_text(self) -> str:
        """How the process ended: ``exit code 15: crashed, see its stderr above``, ``killed by SIGSEGV``."""
        assert self._process is not None
        try:
            code = self._process.wait(2)
        except subprocess.TimeoutExpired:
            return "its output closed"
        if code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        cause = _CAUSES.get(code)
        return f"exit code {code}" + (f": {cause}" if cause else "") + (", see its stderr above" if code else "")

    def _line(self, deadline: float | None) -> bytes | None:
        """The next line of the process (without its newline); ``None`` once its output has ended, ``b""`` when
        ``deadline`` (``time.monotonic``) passed first."""
        assert self._process is not None and self._process.stdout is not None
        fd = self._process.stdout.fileno()
        while (end := self._buffer.find(b"\n")) < 0:
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                return b""
            if not select.select([fd], [], [], wait)[0]:
                return b""
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            self._buffer += chunk
        line = bytes(self._buffer[:end])
        del self._buffer[:end + 1]
        return line if line.strip() else self._line(deadline)

    def _send(self, line: str) -> None:
        """Write one channel line; ``BotFailure`` when the process is gone."""
        assert self._process is not None and self._process.stdin is not None
        try:
            self._process.stdin.write(line.encode() + b"\n")
            self._process.stdin.flush()
        except (BrokenPipeError, ConnectionResetError, ValueError):
            self._fail(f"its process ended ({self._exit_text()})")

    def _fail(self, why: str) -> None:
        """Stop the process and raise ``BotFailure(why)``: told once, the rest of the game is played empty."""
        self._failed = True
        if self._finalizer is not None:
            self._finalizer()
        raise BotFailure(why)

    def close(self) -> None:
        """Tell the process the run is over and end it (killed if it lingers); safe to call twice."""
        process = self._process
        if process is None or self._finalizer is None or not self._finalizer.alive:
            return
        if process.poll() is None and not self._failed:
            try:
                assert process.stdin is not None
                process.stdin.write(dump(TournamentOver(tournament="local", rows=[])).encode() + b"\n")
                process.stdin.close()
                process.wait(1.0)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        self._finalizer()

    # -- what the driver calls --------------------------------------------------------------------
    def welcome(self, message: Welcome) -> None:
        """The run's rules (the server's ``welcome``, or ``welcome_for`` a local run): told now and at every start."""
        self._welcome = message
        if not self._failed:
            self._send(dump(message))

    def meet(self, opponent: str, game: str | None = None) -> None:
        """The next game's opponent (and its id, the server's; else ``g1``, ``g2``...), for its ``game_start``."""
        self._next = (opponent, game)

    def begin_game(self, seat: int | None, ruleset: Ruleset) -> None:
        """A game starts: ``game_start`` (the process is started again first when it failed in the last game)."""
        if self._failed:
            self._start()
        self._games += 1
        opponent, game = self._next
        self._game, self._turn, self._over_told = game or f"g{self._games}", 0, False
        self._walls_left = (BLOCK_SUM, BLOCK_SUM)
        self._send(dump(GameStart(game=self._game, opponent=opponent, seat=0 if seat is None else seat)))

    def observe(self, change: ChessboardChange, walls_left: tuple[int, int] | None = None) -> None:
        """A turn's change: its walls left go into the ``turn`` line."""
        if walls_left is not None:
            self._walls_left = walls_left

    def next_step(self, change: ChessboardChange) -> Step:
        """Write the ``turn`` and read the process's ``step`` for it (an empty step once it has failed this game, or
        when it has not answered within 3 times the limit and 1 s: the referee judges it late)."""
        if self._failed:
            return Step()
        turn, self._turn = self._turn, self._turn + 1
        self._send(turn_frame(self._game, turn, change, self._walls_left, self.time_limit_ms, self.last_judgement))
        deadline = None if self.time_limit_ms is None else time.monotonic() + 3 * self.time_limit_ms / 1000 + 1
        bad = 0
        while True:
            line = self._line(deadline)
            if line is None:
                self._fail(f"its process ended mid-game ({self._exit_text()})")
            if line == b"":
                return Step()
            try:
                message = parse_client(line.decode("utf-8", "replace"))
            except ProtocolError:
                message = None
            if isinstance(message, StepMessage):
                if message.game == self._game and message.turn == turn:
                    return to_step(message)
                if message.game != self._game or message.turn < turn:
                    continue             # the late answer to a turn it was not waited for: refused, as by the server
            bad += 1
            if bad >= BAD_LINES:
                text = line[:80].decode("utf-8", "replace")
                self._fail(f"it wrote {bad} lines in a row that are no step for its turn (the last: {text!r})")

    def game_over(self, message: GameOver) -> None:
        """How the game ended (the server's ``game_over``, or the local referee's): written now."""
        if self._failed or not self._game:
            return
        self._over_told = True
        self._send(dump(message.model_copy(update={"game": self._game})))

    def restart(self) -> None:
        """The game ended: its ``game_over`` is written if ``game_over`` did not write it."""
        if not self._failed and self._game and not self._over_told:
            self._send('{"type":"game_over","game":"' + self._game + '"}')

"""``python -s -P -m client.hosted SPEC``: host one bot over stdin/stdout, for a server that runs it in its sandbox.

The server starts this module as a process (inside bubblewrap for a handed-in bot); it never imports
it. The channel is one JSON message a line, the messages of the websocket protocol (docs/protocol.md):
``welcome``, ``game_start``, ``turn``, ``game_over``, ``error`` and ``tournament_over`` come in on
stdin; ``hello`` (once the bot is loaded) and ``step`` go out on stdout. The bot is driven by the one
``BotDriver``, as on a websocket.

* The bot is loaded (its files imported, its class created) before ``hello`` is written: loading
  never counts against a step.
* The arena's packages always win: started with ``-P`` (the working directory, the bot's folder,
  is not put first on the import path) and ``PYTHONPATH`` naming the arena, the host puts the bot's
  folder on the path after the arena's packages (``loader.add_bot_folder``), so a handed-in
  ``client/hosted.py`` or ``shared/`` is never imported in place of the arena's.
* The bot's ``print()`` cannot corrupt the channel: the protocol keeps a copy of the original
  stdout, and file descriptor 1 (``sys.stdout`` with it) is made a copy of stderr; stdin is the
  protocol's alone (the bot's ``input()`` reads nothing).
* When the bot cannot be loaded, or runs out of memory, the process exits with a code from
  ``EXIT_CODES`` and its last line on stderr says why in one line, starting with the bot's own
  ``file:line`` when its code raised (``server/sandbox/causes.py`` reads both).
"""

from __future__ import annotations

import hashlib
import inspect
import io
import json
import os
import re
import select
import sys
import traceback
from collections import deque
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from shared.hosting import EXIT_CODES

__all__ = ["EXIT_CODES", "HostedBotHost", "load_failure", "own_line", "source_version", "main"]


def load_failure(exc: BaseException) -> str:
    """The cause code of an exception raised while loading a bot (``BotLoadError``, ``BotCrashed``, ...)."""
    from .loader import BotCrashed, BotLoadError

    inner = exc.__cause__ if exc.__cause__ is not None else exc
    if isinstance(inner, MemoryError) or isinstance(exc, MemoryError):
        return "memory_limit"
    if isinstance(inner, SyntaxError):
        return "syntax_error"
    if isinstance(exc, BotCrashed):
        return "init_error" if "creating the bot" in str(exc) else "import_error"
    if isinstance(exc, BotLoadError):
        return "import_error" if "cannot import" in str(exc) or "does not exist" in str(exc) else "no_player"
    return "crashed"


def source_version(bot: Any) -> str | None:
    """The bot's version for the practice ladder: 12 hex digits of the SHA-256 of its class's source file (as
    ``quoridor-client`` sends it; ``client.cli.source_version``, not imported here: it would load the terminal UI)."""
    try:
        path = inspect.getsourcefile(type(bot))
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12] if path else None
    except (OSError, TypeError):
        return None


_FRAME = re.compile(r'^  File "([^"]+)", line (\d+)', re.MULTILINE)


def own_line(trace: str) -> str | None:
    """``file:line`` of the innermost frame of ``trace`` in the bot's own folder (the working directory)."""
    here = os.getcwd().rstrip(os.sep) + os.sep
    found = None
    for path, line in _FRAME.findall(trace):
        if path.startswith(here):
            found = f"{path[len(here):]}:{line}"
    return found


def _one_line(text: str) -> str:
    return " ".join(text.split())


class _Inbox:
    """The protocol lines read so far, parsed; read as they come (blocking) or as far as they have come (``poll``)."""

    def __init__(self, incoming: BinaryIO, errors: TextIO) -> None:
        self.incoming = incoming
        self.errors = errors
        self.queue: deque[dict[str, Any]] = deque()
        self.buffer = bytearray()
        self.ended = False
        try:
            self.fd: int | None = incoming.fileno()
        except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
            self.fd = None                   # an in-memory stream (tests): all of it is there already

    def next(self) -> dict[str, Any] | None:
        """The next message, waiting for it; ``None`` once the input has ended."""
        while not self.queue and not self.ended:
            self._read(block=True)
        return self.queue.popleft() if self.queue else None

    def poll(self) -> list[dict[str, Any]]:
        """Every message that has arrived by now, without waiting (they stay queued)."""
        if self.fd is not None:
            while not self.ended and select.select([self.fd], [], [], 0)[0]:
                self._read(block=False)
        return list(self.queue)

    def _read(self, block: bool) -> None:
        if self.fd is None:
            line = self.incoming.readline()
            chunk = line if line else b""
        else:
            chunk = os.read(self.fd, 65536)
        if not chunk:
            self.ended = True
            return
        self.buffer += chunk
        while (end := self.buffer.find(b"\n")) >= 0:
            raw = bytes(self.buffer[:end])
            del self.buffer[:end + 1]
            try:
                message = json.loads(raw)
            except ValueError:
                self.errors.write(f"unreadable line from the server: {raw[:200]!r}\n")
                continue
            if isinstance(message, dict):
                self.queue.append(message)


class HostedBotHost:
    """Plays a loaded bot through the messages read from ``incoming``, writing its answers to ``outgoing``."""

    def __init__(self, bot: Any, incoming: BinaryIO, outgoing: TextIO, errors: TextIO) -> None:
        from .driver import BotDriver
        from shared.quoridor import find_ruleset

        self.bot = bot
        self.inbox = _Inbox(incoming, errors)
        self.outgoing = outgoing
        self.errors = errors
        self.driver = BotDriver(bot, self._problem)
        self.ruleset = find_ruleset("course")
        self.fatal: tuple[str, str] | None = None

    def _problem(self, problem: Any) -> None:
        where = own_line(problem.traceback)
        self.errors.write(f"bot error in {problem.hook}: {where + ': ' if where else ''}{problem.message}\n"
                          f"{problem.traceback}")
        if isinstance(problem.error, MemoryError):
            self.fatal = ("memory_limit", f"{where + ': ' if where else ''}{problem.hook} raised MemoryError")

    def send(self, message: dict[str, Any]) -> None:
        """Write one protocol line."""
        self.outgoing.write(json.dumps(message, separators=(",", ":")) + "\n")
        self.outgoing.flush()

    def run(self, name: str) -> int:
        """Say hello, then answer every turn until the input ends; the exit code."""
        hello: dict[str, Any] = {"type": "hello", "protocol": 1, "role": "player", "key": "hosted", "name": name}
        version = source_version(self.bot)
        if version is not None:
            hello["version"] = version
        self.send(hello)
        while (message := self.inbox.next()) is not None:
            if self.handle(message):
                break
            if self.fatal is not None:
                self.errors.write(f"{self.fatal[0]}: {self.fatal[1]}\n")
                self.errors.flush()
                return EXIT_CODES[self.fatal[0]]
        return 0

    def handle(self, message: dict[str, Any]) -> bool:
        """Act on one message; True when the run is over (``tournament_over``)."""
        from shared.quoridor import find_ruleset

        kind = message.get("type")
        if kind == "turn":
            self.turn(message)
        elif kind == "game_start":
            self.driver.begin_game(message.get("seat"), self.ruleset)
        elif kind == "game_over":
            self.driver.end_game()
        elif kind == "welcome":
            rules = message.get("rules") or {}
            self.ruleset = find_ruleset(rules.get("ruleset", "course"))
            self.driver.tell_time_limit(rules.get("time_limit_ms"))
        elif kind == "error":
            self.errors.write(f"server error {message.get('code')}: {message.get('message')}\n")
        elif kind == "tournament_over":
            return True
        return False

    def turn(self, message: dict[str, Any]) -> None:
        """Ask the bot for the turn's step and send it."""
        from shared.quoridor import BlockBar, Cause, ChessboardChange, GameStatus, Location, StepVerdict

        wall = message.get("enemy_wall")
        change = ChessboardChange(GameStatus(message["status"]), Location(*message["my_loc"]),
                                  Location(*message["enemy_loc"]),
                                  BlockBar() if wall is None else BlockBar(Location(*wall[0]), Location(*wall[1])))
        verdict = None
        judged = message.get("judgement")
        if judged:
            try:
                cause: Cause | str = Cause(judged["cause"])
            except ValueError:
                cause = judged["cause"]
            verdict = StepVerdict(GameStatus(judged["status"]), cause, judged["reason"], judged["thinking_ms"])
        walls = message.get("walls_left")
        step = self.driver.ask_now(change, tuple(walls) if walls else None, message.get("time_limit_ms"), verdict)
        if self._overtaken(message["game"], message["turn"]):
            # Too late: the referee has timed the turn out and moved on; the answer would only be refused.
            self.errors.write(f"a late answer to turn {message['turn']} was discarded\n")
            return
        move = list(step.new_loc) if step.new_loc.is_valid() else None
        bar = None if step.new_wall.is_none() else [list(step.new_wall.start), list(step.new_wall.stop)]
        self.send({"type": "step", "game": message["game"], "turn": message["turn"], "move": move, "wall": bar})


    def _overtaken(self, game: str, turn: int) -> bool:
        """True once a later turn of ``game``, or its end, has arrived."""
        return any(m.get("game") == game and (m.get("type") == "game_over" or
                                               (m.get("type") == "turn" and m.get("turn", -1) > turn))
                   for m in self.inbox.poll())


def _channel() -> tuple[BinaryIO, TextIO]:
    """The protocol's own stdin and stdout; fd 0 becomes /dev/null and fd 1 a copy of stderr for the bot."""
    incoming = os.fdopen(os.dup(0), "rb", buffering=0)
    outgoing = os.fdopen(os.dup(1), "w", encoding="utf-8", newline="\n")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull, encoding="utf-8")   # noqa: SIM115 - lives as long as the process
    sys.stdout = sys.stderr
    return incoming, outgoing


def main(argv: list[str] | None = None) -> int:
    """Load the bot named by the one argument and host it; the exit code (``EXIT_CODES``)."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        sys.stderr.write("usage: python -s -P -m client.hosted SPEC (a built-in name, FILE.py or FILE.py:CLASS)\n")
        return EXIT_CODES["usage"]
    incoming, outgoing = _channel()
    try:
        from .loader import add_bot_folder, bot_label, load_bot

        add_bot_folder(Path.cwd())      # the bot's folder, after the arena's packages (python -P put it nowhere)
        bot = load_bot(args[0], "hosted")
    except BaseException as exc:  # noqa: BLE001 - every way loading fails is reported, in one line
        cause = load_failure(exc)
        if cause == "crashed":
            traceback.print_exc()
        sys.stderr.write(f"{cause}: {_one_line(str(exc)) or type(exc).__name__}\n")
        sys.stderr.flush()
        return EXIT_CODES[cause]
    try:
        return HostedBotHost(bot, incoming, outgoing, sys.stderr).run(bot_label(args[0]))
    except BrokenPipeError:
        return 0
    except MemoryError:
        sys.stderr.write("memory_limit: MemoryError\n")
        return EXIT_CODES["memory_limit"]


if __name__ == "__main__":
    sys.exit(main())

"""A bot written for the course framework, built with the arena's main (``client.cppbuild``), plays over the
hosted-bot channel (docs/hosted-bots.md) against the built-in ``random`` hosted as the server hosts it
(``python -s -P -m client.hosted random``); the test is the server: the referee's own ``GameReferee`` judges."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

from shared.protocol.codec import parse_client, to_step, turn_frame
from shared.protocol import StepMessage
from shared.referee.game import GameFinished, GameReferee, StepJudged, Termination, TurnRequest

from client.cppbuild import build
from server.sandbox.bwrap import host_command
from server.sandbox.process import project_root

from .conftest import HANDOUT_BOT

_LINE_WAIT_S = 20.0


class LineBot:
    """A hosted bot's process: lines to its stdin, lines from its stdout, each read within ``_LINE_WAIT_S``."""

    def __init__(self, argv: list[str], cwd: Path, errors: IO[bytes]) -> None:
        env = dict(os.environ, PYTHONPATH=str(project_root()))
        self.process = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=errors)
        self.buffer = b""

    def send(self, message: dict[str, Any] | str) -> None:
        """Write one line."""
        assert self.process.stdin is not None
        text = message if isinstance(message, str) else json.dumps(message)
        self.process.stdin.write(text.encode() + b"\n")
        self.process.stdin.flush()

    def line(self) -> str:
        """The next line it writes (the test fails when none comes in time)."""
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        deadline = time.monotonic() + _LINE_WAIT_S
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            assert left > 0, "the bot wrote no line in time"
            if select.select([fd], [], [], left)[0]:
                chunk = os.read(fd, 65536)
                assert chunk, f"the bot ended (exit code {self.process.wait(5)})"
                self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode()

    def close(self) -> int:
        """Say the run is over and wait for the exit code."""
        self.send({"type": "tournament_over"})
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.process.wait(10)


def play(bots: list[LineBot], names: list[str], game: str, white: int) -> tuple[GameFinished, list[StepJudged]]:
    """One game, ``bots[white]`` in seat 0, refereed as the server does; the end and every judged step."""
    seats = [bots[white], bots[1 - white]]
    for seat, bot in enumerate(seats):
        bot.send({"type": "game_start", "game": game, "opponent": names[1 - seat], "seat": seat})
    referee = GameReferee(players=(names[white], names[1 - white]))
    events = referee.start()
    judged: list[StepJudged] = []
    while True:
        event = events.pop(0)
        if isinstance(event, GameFinished):
            for seat, bot in enumerate(seats):
                bot.send({"type": "game_over", "game": game, "status": int(event.statuses[seat]),
                          "result": event.result(seat), "reason": str(event.termination)})
            return event, judged
        if isinstance(event, StepJudged):
            judged.append(event)
        elif isinstance(event, TurnRequest):
            bot = seats[event.seat]
            bot.send(turn_frame(game, event.turn, event.change, event.walls_left, event.time_limit_ms,
                                event.judgement))
            referee.clock_started(event.turn, 0.0)
            message = parse_client(bot.line())
            assert isinstance(message, StepMessage) and (message.game, message.turn) == (game, event.turn)
            events += referee.receive_step(event.seat, message.turn, to_step(message), 0.0)


def test_a_handout_bot_plays_random_over_the_hosted_channel_to_legal_wins(gpp: str, tmp_path: Path) -> None:
    built = build(HANDOUT_BOT, tmp_path / "build")
    errors = (tmp_path / "stderr").open("wb")
    cpp = LineBot([str(built.output)], HANDOUT_BOT, errors)
    python = LineBot(host_command(sys.executable, "random"), tmp_path, errors)
    try:
        hello = json.loads(cpp.line())
        assert hello == {"type": "hello", "protocol": 1, "role": "player", "key": "hosted", "name": "MyPlayer",
                         "version": built.version}
        assert json.loads(python.line())["type"] == "hello"
        for bot in (cpp, python):
            bot.send({"type": "welcome", "protocol": 1, "player": "p", "server": "test",
                      "rules": {"ruleset": "course", "time_limit_ms": 1000}})
        for number, white in enumerate((0, 1)):
            end, judged = play([cpp, python], ["MyPlayer", "random"], f"g{number}", white)
            cpp_seat = 0 if white == 0 else 1
            assert end.termination is Termination.GOAL and end.result(cpp_seat) == "win"
            assert all(step.cause is None for step in judged if step.seat == cpp_seat)   # every step it sent stood
        assert (cpp.close(), python.close()) == (0, 0)
    finally:
        for bot in (cpp, python):
            if bot.process.poll() is None:
                bot.process.kill()
                bot.process.wait(5)
        errors.close()
    # Its prints went to stderr, not into the channel (every line above was a step), in both games (restart()).
    printed = (tmp_path / "stderr").read_text(errors="replace")
    assert printed.count("game status: Ok; my loc: (5, 1); enemy loc: (5, 9) -> move to: (5, 2)") == 1
    assert "my loc: (5, 9); enemy loc:" in printed

"""The C example for authors of other languages (``examples/c/bot.c``) compiles with gcc, warning-free, and plays
legal games over the hosted-bot channel with the messages docs/hosted-bots.md lists, judged by the referee's own
``GameReferee``; its reader finds the message's own fields, not ones spelled alike inside a judgement's text."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from server.sandbox.bwrap import host_command
from server.sandbox.process import project_root
from shared.referee.game import Termination

from .test_arena_main import LineBot, play

EXAMPLE = project_root() / "examples" / "c"
WELCOME = {"type": "welcome", "protocol": 1, "player": "p", "server": "test",
           "rules": {"ruleset": "course", "time_limit_ms": 1000}}


@pytest.fixture
def c_bot(gcc: str, tmp_path: Path) -> Path:
    """``examples/c/bot.c`` built with the example's own flags (warnings are errors here)."""
    output = tmp_path / "bot"
    built = subprocess.run([gcc, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-static", "-o", str(output),
                            str(EXAMPLE / "bot.c")], capture_output=True, text=True, timeout=120, check=False)
    assert built.returncode == 0, built.stderr
    return output


def test_the_c_example_plays_legal_games_and_beats_random(c_bot: Path, tmp_path: Path) -> None:
    errors = (tmp_path / "stderr").open("wb")
    c = LineBot([str(c_bot)], EXAMPLE, errors)
    opponents = {name: LineBot(host_command(sys.executable, name), tmp_path, errors) for name in ("random", "runner")}
    try:
        assert json.loads(c.line()) == {"type": "hello", "protocol": 1, "role": "player", "key": "hosted",
                                        "name": "c-runner"}
        for bot in (c, *opponents.values()):
            if bot is not c:
                assert json.loads(bot.line())["type"] == "hello"
            bot.send(WELCOME)
        jumps = 0
        for name, opponent in opponents.items():
            for white in (0, 1):
                end, judged = play([c, opponent], ["c-runner", name], f"{name}{white}", white)
                seat = 0 if white == 0 else 1
                mine = [step for step in judged if step.seat == seat]
                assert mine and all(step.cause is None for step in mine), [s.reason for s in mine if s.cause]
                if name == "random":
                    assert end.termination is Termination.GOAL and end.result(seat) == "win"
                places = [step.position.pawn(seat) for step in mine]
                jumps += sum(abs(a.x - b.x) + abs(a.y - b.y) == 2 for a, b in zip(places, places[1:]))
        assert jumps > 0                     # it met the runner head on and jumped over it
        assert [bot.close() for bot in (c, *opponents.values())] == [0, 0, 0]
    finally:
        for bot in (c, *opponents.values()):
            if bot.process.poll() is None:
                bot.process.kill()
                bot.process.wait(5)
        errors.close()


def test_the_c_reader_takes_the_messages_own_fields_not_those_inside_a_judgement(c_bot: Path, tmp_path: Path) -> None:
    errors = (tmp_path / "stderr").open("wb")
    c = LineBot([str(c_bot)], EXAMPLE, errors)
    try:
        c.line()
        c.send(WELCOME)
        c.send({"type": "game_start", "game": 'g "7"', "opponent": "x", "seat": 1})
        # A field it does not know, before the known ones, holding keys spelled as theirs; a reason quoting them.
        reason = 'it sent {"turn":99,"my_loc":[1,1],"enemy_wall":[[0,1],[2,1]]}'
        c.send(json.dumps({"type": "turn", "hint": {"turn": 98, "my_loc": [1, 1], "enemy_loc": [2, 1]},
                           "judgement": {"status": 7, "cause": "bad_wall", "reason": reason, "thinking_ms": 3},
                           "game": 'g "7"', "turn": 3, "status": 7, "my_loc": [5, 9], "enemy_loc": [5, 2],
                           "enemy_wall": [[4, 8], [6, 8]], "walls_left": [9, 10], "time_limit_ms": 1000},
                          separators=(", ", ": ")))
        step = json.loads(c.line())
        # Seat 1 runs down to y = 1; the wall under (5, 9) and (6, 9) sends it left to (4, 9), then down.
        assert step == {"type": "step", "game": 'g "7"', "turn": 3, "move": [4, 9], "wall": None}
        assert c.close() == 0
    finally:
        if c.process.poll() is None:
            c.process.kill()
            c.process.wait(5)
        errors.close()

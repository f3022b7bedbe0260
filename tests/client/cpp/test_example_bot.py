"""The C++ example for students (``examples/cpp/MyPlayer.{h,cpp}``, written against the handout's API) builds with
the arena's main and plays legal games over the hosted-bot channel: it beats ``runner`` from either seat, walling it
while it leads the race, and beats ``random``; the referee (``GameReferee``) judges every step it sends."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from client.cppbuild import build
from client.match_cli import main as match_main
from server.sandbox.bwrap import host_command
from server.sandbox.process import project_root
from shared.referee.game import Termination

from .test_arena_main import LineBot, play

EXAMPLE = project_root() / "examples" / "cpp"


def test_the_cpp_example_builds_and_beats_runner_and_random_with_legal_steps(arena_objects: Path,
                                                                             tmp_path: Path) -> None:
    built = build(EXAMPLE, tmp_path / "build", arena_objects=arena_objects)
    assert (built.entry_class, built.notes) == ("MyPlayer", [])
    errors = (tmp_path / "stderr").open("wb")
    cpp = LineBot([str(built.output)], EXAMPLE, errors)
    opponents = {name: LineBot(host_command(sys.executable, name), tmp_path, errors) for name in ("runner", "random")}
    try:
        assert json.loads(cpp.line())["name"] == "MyPlayer"
        for bot in (cpp, *opponents.values()):
            if bot is not cpp:
                assert json.loads(bot.line())["type"] == "hello"
            bot.send({"type": "welcome", "protocol": 1, "player": "p", "server": "test",
                      "rules": {"ruleset": "course", "time_limit_ms": 1000}})
        walls = 0
        for name, opponent in opponents.items():
            for white in (0, 1):             # the C++ bot first (seat 0), then second
                end, judged = play([cpp, opponent], ["MyPlayer", name], f"{name}{white}", white)
                seat = 0 if white == 0 else 1
                assert end.termination is Termination.GOAL and end.result(seat) == "win", (name, white)
                mine = [step for step in judged if step.seat == seat]
                assert all(step.cause is None for step in mine), [s.reason for s in mine if s.cause]
                walls += sum(not step.record.step.new_wall.is_none() for step in mine)
        assert walls > 0                     # the runner, a move ahead when it starts, was walled
        assert [bot.close() for bot in (cpp, *opponents.values())] == [0, 0, 0]
    finally:
        for bot in (cpp, *opponents.values()):
            if bot.process.poll() is None:
                bot.process.kill()
                bot.process.wait(5)
        errors.close()


def test_the_cpp_example_beats_runner_with_the_command_its_readme_gives(gpp: str, tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch,
                                                                         capsys: pytest.CaptureFixture) -> None:
    command = "quoridor-match examples/cpp/MyPlayer.cpp runner"
    assert command in (EXAMPLE / "README.md").read_text(encoding="utf-8")
    monkeypatch.chdir(project_root())
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))       # a cold build, in a cache of the test's own
    assert match_main(command.split()[1:] + ["--log-dir", "none"]) == 0
    assert re.search(r"MyPlayer\s+│\s+10\s+│\s+10/0/0", capsys.readouterr().out)

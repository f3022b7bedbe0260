"""The examples for students, hosted by the server as hand-ins are (``play_pairing``, in the sandbox): the C++ bot
(``examples/cpp``, ``MyPlayer.cpp``) is built in the sandbox and beats ``runner``; the C bot (``examples/c``), built
statically as its Makefile does and handed in as the executable ``bot``, plays ``random``; every step stands."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from server.sandbox import SandboxLimits
from server.sandbox.host import BotEntry, GameSpec, Pairing, play_pairing
from server.sandbox.process import project_root
from shared.referee import RefereeSettings
from tests.client.cpp.conftest import gcc, gpp  # noqa: F401  (the fixtures)
from tests.server.sandbox.cpp_hand_ins import cpp_builds  # noqa: F401  (the fixture)

pytestmark = pytest.mark.usefixtures("sandbox", "gpp")

EXAMPLES = project_root() / "examples"
LIMITS = SandboxLimits(startup_timeout_s=5.0, cpu_seconds=20)


def hosted_pairing(mine: BotEntry, opponent: str, tmp_path: Path) -> tuple[list[int], list[int], list[str]]:
    """A two-game pairing of ``mine`` against a built-in bot: the seat ``mine`` had and the winner of each game,
    and the violations ``mine`` committed."""
    pairing = Pairing((mine, BotEntry(opponent, opponent)),
                      (GameSpec("g1", tmp_path / "g1.csv", 0), GameSpec("g2", tmp_path / "g2.csv", 1)),
                      RefereeSettings(time_limit_ms=1000))
    seats: dict[str, int] = {}
    violations: list[str] = []

    def on_step(match, judged) -> None:   # type: ignore[no-untyped-def]
        seat = 0 if match.sessions[0].name == mine.name else 1
        seats[match.game_id] = seat
        if judged.seat == seat and judged.cause is not None:
            violations.append(judged.reason)

    result = asyncio.run(play_pairing(pairing, LIMITS, on_step=on_step))
    assert result.reports[0].end is not None and result.reports[0].end.cause == "ok", result.reports[0].output_tail
    return ([seats[game.game_id] for game in result.games], [game.outcome.winner for game in result.games],
            violations)


def test_the_cpp_example_is_built_in_the_sandbox_and_beats_runner_from_both_seats(cpp_builds: Path,
                                                                                  tmp_path: Path) -> None:
    mine = BotEntry("MyPlayer", "MyPlayer.cpp", EXAMPLES / "cpp", builds=cpp_builds)
    seats, winners, violations = hosted_pairing(mine, "runner", tmp_path)
    assert sorted(seats) == [0, 1] and winners == seats and violations == []


def test_the_c_example_handed_in_as_an_executable_plays_random_to_wins(gcc: str, tmp_path: Path) -> None:
    folder = tmp_path / "hand-in"
    folder.mkdir()
    shutil.copy(EXAMPLES / "c" / "bot.c", folder / "bot.c")
    built = subprocess.run([gcc, "-std=c11", "-O2", "-Wall", "-static", "-o", str(folder / "bot"),
                            str(folder / "bot.c")], capture_output=True, text=True, timeout=120, check=False)
    assert built.returncode == 0, built.stderr
    os.chmod(folder / "bot", 0o555)
    seats, winners, violations = hosted_pairing(BotEntry("c-runner", "bot", folder), "random", tmp_path)
    assert sorted(seats) == [0, 1] and winners == seats and violations == []

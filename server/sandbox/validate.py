"""``validate_bot``: is a handed-in bot fit to play? Import it (a C++ bot: build it), create it, play one short game
against ``random``.

Everything runs in the sandbox (``HostedBot``). The answer is a ``Validation``: accepted or not, a
stable ``cause`` code and one line a student understands:

==================  =============================================================================
``ok``              accepted
``syntax_error``    a file does not compile (the line is named)
``import_error``    the entry file is missing, or importing it raised (a module that is not there), or the
                    hand-in holds a ``client``, ``shared`` or ``server`` of its own (the arena's always win)
``no_player``       the entry names no bot class, or several (name one: ``FILE.py:CLASS``)
``init_error``      creating the player raised (the bot's own ``file:line``)
``compile_error``   a C++ bot did not build (its first compile error, ``file:line: message``, or the build's limit)
``no_compiler``     the server cannot build C++ bots (no g++, or no JSON headers: what to install)
``too_slow``        importing and creating it took longer than the startup limit
``timeout``         a step came at or after the referee's time limit (the ``late`` judgement)
``illegal_steps``   a step broke the rules (the first one's reason; a ``next_step`` that raised)
``memory_limit``    it ran out of its address space
``cpu_limit``       it used up its CPU seconds
``output_limit``    it printed more than allowed, or wrote an overlong line
``crashed``         its process ended otherwise (the last line it printed)
``sandbox_unavailable``  bubblewrap does not work here (and the server was not told to run unsafe)
==================  =============================================================================
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from shared.hosting import bot_language
from shared.referee import RefereeSettings, StepJudged

from server.games.match import MatchRunner
from server.sandbox.cppbuild import BUILD_WALL_S
from server.sandbox.host import BotEntry, GameSpec, Pairing, play_pairing
from server.sandbox.limits import SandboxLimits
from server.sandbox.process import SandboxUnavailable
from server.sandbox.status import sandbox_status

__all__ = ["Validation", "validate_bot", "VALIDATION_STEP_CAP", "VALIDATION_OPPONENT"]

#: Steps each side makes at most in the validation game (a short game: it ends on the cap if not sooner).
VALIDATION_STEP_CAP = 20
#: The built-in bot a handed-in bot plays its validation game against.
VALIDATION_OPPONENT = "random"
_NAME = "submission"


@dataclass(frozen=True)
class Validation:
    """The verdict on a handed-in bot: ``accepted``, a stable ``cause`` code, one line for people, seconds taken."""

    accepted: bool
    cause: str
    reason: str
    seconds: float


def _entry_problem(folder: Path, entry: str) -> str | None:
    """Why ``entry`` cannot name a bot in ``folder`` (outside it, not a bot's file); ``None`` when it can."""
    language = bot_language(entry)
    where = entry.rsplit(":", 1)[0] if ":" in entry and language != "executable" else entry
    path = PurePosixPath(where)
    if not where or path.is_absolute() or ".." in path.parts or "\\" in where:
        return (f"the entry {entry!r} must name a file inside the handed-in files "
                "(like mybot.py, mybot.py:MyPlayer or MyPlayer.cpp:MyPlayer)")
    if language == "builtin":
        return f"the entry {entry!r} is the name of a built-in bot: name your bot's file"
    if language == "python" and not where.endswith(".py"):
        return f"the entry {entry!r} must name a .py file (like mybot.py or mybot.py:MyPlayer)"
    if not (folder / where).is_file():
        return f"there is no file {where} in the handed-in files"
    return None


#: The arena's own top-level packages (``client.loader.ARENA_PACKAGES``: the server may not import the client).
ARENA_PACKAGES = ("client", "shared", "server")


def _arena_name(folder: Path, entry: str) -> str | None:
    """A module or package of the hand-in named like one of the arena's (``client/``, ``shared.py``, ...), as a path
    in the hand-in; ``None`` when there is none. The bot imports from its own folder and its entry's folder, where
    such a name could only ever find the arena's package (a folder without Python files is data, not a package)."""
    where = PurePosixPath(entry.rsplit(":", 1)[0] if ":" in entry else entry).parent
    for base in dict.fromkeys((PurePosixPath("."), where)):
        for name in ARENA_PACKAGES:
            path = folder / base / name
            if path.is_dir() and any(path.rglob("*.py")):
                return f"{(base / name).as_posix()}/"
            if (folder / base / f"{name}.py").is_file():
                return (base / f"{name}.py").as_posix()
    return None


def _bot_error(output: str) -> str:
    """What the bot's ``next_step`` last raised, as the bot host printed it (``bot.py:12: next_step raised ...``)."""
    found = [line.removeprefix("bot error in next_step: ") for line in output.splitlines()
             if line.startswith("bot error in next_step: ")]
    return found[-1] if found else ""


async def validate_bot(folder: Path, entry: str, limits: SandboxLimits, *, builds: Path | None = None) -> Validation:
    """Import (a C++ bot: build, cached under ``builds``), create and play one short game against ``random`` in the
    sandbox; never raises for the bot's faults."""
    started = time.monotonic()

    def verdict(cause: str, reason: str) -> Validation:
        return Validation(cause == "ok", cause, reason, round(time.monotonic() - started, 3))

    if not limits.unsafe:
        problem = sandbox_status()
        if problem is not None:
            return verdict("sandbox_unavailable", problem)
    problem = _entry_problem(folder, entry)
    if problem is not None:
        return verdict("import_error", problem)
    clash = _arena_name(folder, entry) if bot_language(entry) == "python" else None
    if clash is not None:
        package = clash.rstrip("/").rsplit("/", 1)[-1].removesuffix(".py")
        return verdict("import_error", f"{clash} has the name of the arena's own package {package}: the arena's "
                       "client, shared and server always come first on a bot's import path, so the bot would never "
                       "import yours; rename it, or leave it out if it is a copy of the arena's")
    referee = RefereeSettings(time_limit_ms=1000, step_cap=VALIDATION_STEP_CAP)
    judged: list[StepJudged] = []

    def on_step(runner: MatchRunner, event: StepJudged) -> None:
        if runner.sessions[event.seat].name == _NAME:
            judged.append(event)

    with tempfile.TemporaryDirectory(prefix="quoridor-validate-") as scratch:
        pairing = Pairing((BotEntry(_NAME, entry, folder, builds=builds),
                           BotEntry(VALIDATION_OPPONENT, VALIDATION_OPPONENT)),
                          (GameSpec("validation", Path(scratch) / "validation.csv", white=0),), referee)
        budget = limits.startup_timeout_s * 2 + VALIDATION_STEP_CAP * 2 * 1.2 + 30
        budget += BUILD_WALL_S if bot_language(entry) == "cpp" else 0     # a cold build comes first
        try:
            async with asyncio.timeout(budget):
                result = await play_pairing(pairing, limits, on_step=on_step)
        except SandboxUnavailable as exc:
            return verdict("sandbox_unavailable", str(exc))
        except TimeoutError:
            return verdict("too_slow", f"the validation game took longer than {budget:.0f} s")
    mine, theirs = result.reports
    end = mine.end
    if end is not None and end.cause not in ("ok",):
        return verdict(end.cause, end.reason)
    late = next((e for e in judged if e.late), None)
    if late is not None:
        return verdict("timeout", f"a step was too late: {late.reason}")
    illegal = next((e for e in judged if e.illegal), None)
    if illegal is not None:
        said = _bot_error(mine.output_tail) or illegal.reason
        return verdict("illegal_steps", f"turn {illegal.record.turn}: {said} ({illegal.cause})")
    if theirs.end is not None and theirs.end.cause != "ok":
        return verdict("crashed", f"the validation opponent failed ({theirs.end}); try again")
    if not judged:
        return verdict("crashed", "the bot made no step in the validation game")
    steps = len(judged)
    return verdict("ok", f"played {steps} steps against {VALIDATION_OPPONENT} without a violation")


"""A C++ bot hosted by the server (``HostedBot`` of a ``FILE.cpp[:CLASS]`` spec): built before its startup clock
starts, found in the cache the second time, its compile error its end; an executable bot run as it is."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import pytest

from server.sandbox import SandboxLimits
from server.sandbox.cage import CgroupCage
from server.sandbox.cppbuild import sandboxed_cpp_build
from server.sandbox.host import BotEntry, GameSpec, Pairing, play_pairing
from server.sandbox import buildcache, cppbuild, process
from server.sandbox.status import SandboxUnavailable
from server.sandbox.process import HostedBot
from shared.referee import RefereeSettings
from tests.client.cpp.conftest import HANDOUT_BOT, gpp  # noqa: F401  (the fixture)
from tests.server.sandbox.cpp_hand_ins import HANDOUT_ENTRY, HANDOUT_PLAYER, cpp_builds, handout_copy  # noqa: F401

pytestmark = pytest.mark.usefixtures("sandbox", "gpp")

LIMITS = SandboxLimits(startup_timeout_s=5.0, cpu_seconds=20)


class SlowClock:
    """A clock a slow build moves on: what the build takes shows in any time measured across it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_cold_build_does_not_count_against_the_startup_limit(cpp_builds: Path) -> None:
    clock = SlowClock()
    built: list[bool] = []

    def slow_build(folder: Path, cache: Path, **kwargs: object):
        clock.now += 60.0                               # a build of a minute, on the bot's own clock
        built.append(True)
        return sandboxed_cpp_build(folder, cache, **kwargs)  # type: ignore[arg-type]

    async def run() -> None:
        bot = HostedBot(HANDOUT_ENTRY, HANDOUT_BOT, LIMITS, builds=cpp_builds, builder=slow_build, clock=clock)
        assert await bot.start() is None
        assert built and bot.start_s is not None and bot.start_s < LIMITS.startup_timeout_s
        assert bot.hello is not None and bot.hello["name"] == "MyPlayer"
        assert (await bot.close()).cause == "ok"

    asyncio.run(run())


def test_a_second_bot_finds_its_build_in_the_cache(cpp_builds: Path) -> None:
    async def run() -> None:
        bots = []
        for _ in range(2):
            bot = HostedBot(HANDOUT_ENTRY, HANDOUT_BOT, LIMITS, builds=cpp_builds)
            assert await bot.start() is None
            bots.append(bot)
            await bot.close()
        first, second = (bot.built for bot in bots)
        assert first is not None and second is not None and second.cached
        assert second.executable == first.executable and any(cpp_builds.iterdir())

    asyncio.run(run())


def test_a_compile_error_ends_the_bot_with_the_students_file_and_line(cpp_builds: Path, tmp_path: Path) -> None:
    folder = handout_copy(tmp_path, after="int broken = undeclared_name;\n")
    line = (folder / HANDOUT_PLAYER).read_text(encoding="utf-8").count("\n")

    async def run() -> None:
        bot = HostedBot(HANDOUT_ENTRY, folder, LIMITS, builds=cpp_builds)
        end = await bot.start()
        assert end is not None and end.cause == "compile_error"
        assert end.reason.startswith(f"{HANDOUT_PLAYER}:{line}: ") and "undeclared_name" in end.reason

    asyncio.run(run())


def test_a_cpp_bot_plays_a_pairing_against_a_python_bot_with_its_times_measured(cpp_builds: Path,
                                                                                tmp_path: Path) -> None:
    pairing = Pairing((BotEntry("cpp", HANDOUT_ENTRY, HANDOUT_BOT, builds=cpp_builds), BotEntry("random", "random")),
                      (GameSpec("g1", tmp_path / "g1.csv", 0), GameSpec("g2", tmp_path / "g2.csv", 1)),
                      RefereeSettings(time_limit_ms=1000, step_cap=30))
    result = asyncio.run(play_pairing(pairing, LIMITS))
    mine = result.reports[0]
    assert mine.end is not None and mine.end.cause == "ok" and len(result.games) == 2
    assert mine.timings and all(t.cpu_ms is not None for t in mine.timings)     # the CPU clock reads its process


def test_an_executable_bot_runs_as_it_is(cpp_builds: Path, tmp_path: Path) -> None:
    built = sandboxed_cpp_build(HANDOUT_BOT, cpp_builds, entry=HANDOUT_ENTRY)
    assert built.executable is not None
    folder = tmp_path / "exe"
    folder.mkdir()
    (folder / "mybot").write_bytes(built.executable.read_bytes())
    os.chmod(folder / "mybot", 0o555)
    pairing = Pairing((BotEntry("exe", "mybot", folder), BotEntry("random", "random")),
                      (GameSpec("g1", tmp_path / "g1.csv", 0),), RefereeSettings(time_limit_ms=1000, step_cap=20))
    result = asyncio.run(play_pairing(pairing, LIMITS))
    assert result.reports[0].end is not None and result.reports[0].end.cause == "ok"
    assert result.reports[0].timings


def test_an_executable_entry_that_is_not_executable_is_refused_in_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "exe"
    folder.mkdir()
    (folder / "mybot").write_text("not a program\n", encoding="utf-8")
    os.chmod(folder / "mybot", 0o444)
    end = asyncio.run(HostedBot("mybot", folder, LIMITS).start())
    assert end is not None and end.cause == "no_player" and "not an executable file" in end.reason


def test_unsafe_a_cpp_bot_runs_its_executable_without_bubblewrap_and_clocked(cpp_builds: Path) -> None:
    async def run() -> None:
        bot = HostedBot(HANDOUT_ENTRY, HANDOUT_BOT, SandboxLimits(unsafe=True, startup_timeout_s=5.0), builds=cpp_builds)
        assert await bot.start() is None and bot.pid is not None and bot.built is not None
        assert Path(f"/proc/{bot.pid}/exe").resolve() == bot.built.executable.resolve()     # no bwrap around it
        assert bot.cpu_seconds() is not None
        assert (await bot.close()).cause == "ok"

    asyncio.run(run())


def test_sandboxed_the_bots_own_process_is_found_under_bubblewrap(cpp_builds: Path) -> None:
    async def run() -> None:
        bot = HostedBot(HANDOUT_ENTRY, HANDOUT_BOT, LIMITS, builds=cpp_builds)
        assert await bot.start() is None and bot.pid is not None
        cmdline = Path(f"/proc/{bot.pid}/cmdline").read_bytes().split(b"\0")[0]
        assert cmdline == b"/program/bot"             # bwrap -> its init -> the bot: the CPU clock reads the bot
        cage = bot.cage
        if isinstance(cage, CgroupCage):              # its whole tree is in its cage, frozen between turns
            assert str(bot.pid) in (cage.path / "cgroup.procs").read_text().split()
            bot.freeze()
            events = cage.path / "cgroup.events"
            async with asyncio.timeout(5):             # the kernel freezes the tree asynchronously
                while "frozen 1" not in events.read_text():
                    await asyncio.sleep(0.01)
            bot.thaw()
        assert (await bot.close()).cause == "ok"

    asyncio.run(run())


def test_unsafe_without_bubblewrap_a_cpp_bot_is_built_unsandboxed_and_plays(monkeypatch, cpp_builds: Path,
                                                                            tmp_path: Path) -> None:
    """--unsafe-no-sandbox where bwrap does not work: the build is a plain process (no bwrap), and the bot runs."""
    def no_bwrap(*args, **kwargs):
        raise AssertionError("bubblewrap was started")

    monkeypatch.setattr(cppbuild, "sandbox_status", lambda: "bwrap (bubblewrap) is not installed")
    monkeypatch.setattr(cppbuild, "bwrap_launch", no_bwrap)
    monkeypatch.setattr(process, "sandbox_status", lambda: "bwrap (bubblewrap) is not installed")
    folder = handout_copy(tmp_path, after="// an unsandboxed build, not one of the cache\n")

    async def run() -> None:
        bot = HostedBot(HANDOUT_ENTRY, folder, SandboxLimits(unsafe=True, startup_timeout_s=5.0), builds=cpp_builds)
        assert await bot.start() is None and bot.built is not None and not bot.built.cached
        assert bot.built.executable is not None and bot.built.executable.is_relative_to(cpp_builds)
        assert (await bot.close()).cause == "ok"

    asyncio.run(run())


def test_unsafe_without_bubblewrap_a_compile_error_is_still_one_line(monkeypatch, cpp_builds: Path,
                                                                     tmp_path: Path) -> None:
    monkeypatch.setattr(cppbuild, "sandbox_status", lambda: "bwrap (bubblewrap) is not installed")
    folder = handout_copy(tmp_path, after="int broken( {\n")
    built = cppbuild.sandboxed_cpp_build(folder, cpp_builds, entry=HANDOUT_ENTRY, unsafe=True)
    assert built.executable is None and "\n" not in built.reason and HANDOUT_PLAYER in built.reason


def test_without_bubblewrap_and_not_unsafe_a_build_is_refused(monkeypatch, cpp_builds: Path, tmp_path: Path) -> None:
    monkeypatch.setattr(cppbuild, "sandbox_status", lambda: "bwrap (bubblewrap) is not installed")
    folder = handout_copy(tmp_path, after="// never built\n")
    with pytest.raises(SandboxUnavailable, match="bwrap"):
        cppbuild.sandboxed_cpp_build(folder, cpp_builds, entry=HANDOUT_ENTRY)


def test_a_running_bots_build_is_never_evicted_and_is_once_it_ended(cpp_builds: Path, tmp_path: Path) -> None:
    built = sandboxed_cpp_build(HANDOUT_BOT, cpp_builds, entry=HANDOUT_ENTRY)      # copied: evicted in its own cache
    assert built.executable is not None
    own = tmp_path / "builds"
    shutil.copytree(built.executable.parent.parent, own / built.executable.parent.parent.name, symlinks=True)

    async def run() -> None:
        bot = HostedBot(HANDOUT_ENTRY, HANDOUT_BOT, LIMITS, builds=own)
        assert await bot.start() is None and bot.built is not None and bot.built.cached
        assert buildcache.evict(own, keep=0, arena="arena-none") == []     # held by the running bot
        assert bot.built.executable.is_file()
        assert (await bot.close()).cause == "ok"
        assert buildcache.evict(own, keep=0, arena="arena-none") == [built.executable.parent.parent.name]

    asyncio.run(run())

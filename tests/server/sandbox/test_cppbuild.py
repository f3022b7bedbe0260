"""The C++ build of a hand-in inside the sandbox (``server.sandbox.cppbuild``): the handout's bot builds and its
executable, run in the sandbox, plays ``random`` over the hosted-bot channel; a compile error is one line naming
file and line; each compile-time attack ends inside the build's limits with a one-line reason; the cache hits on
the same files and misses on a changed one."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from server.sandbox import SandboxLimits, buildcache
from server.sandbox.bwrap import BOT_DIR, OBJECTS_DIR, bwrap_argv, bwrap_launch, current_layout, host_command
from server.sandbox.cppbuild import (BUILD_LIMITS, CppBuilt, arena_key, build_key, compiler_version,
                                     sandboxed_cpp_build)
from server.sandbox.process import project_root
from server.sandbox.procfs import UIDS
from server.sandbox.seccomp import bot_filter
from shared.referee.game import Termination
from tests.client.cpp.conftest import HANDOUT_BOT, gpp  # noqa: F401  (the fixture)
from tests.client.cpp.test_arena_main import LineBot, play

pytestmark = pytest.mark.usefixtures("sandbox", "gpp")

_PLAYER = "QuoridorClient/MyPlayer.cpp"


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A build cache shared by this module's tests (the handout bot is built once)."""
    return tmp_path_factory.mktemp("cpp-cache")


def handout_with(tmp_path: Path, *, before: str = "", after: str = "") -> Path:
    """A copy of the handout bot with ``before`` put at the start of its ``MyPlayer.cpp`` and ``after`` at its end."""
    folder = tmp_path / "bot"
    shutil.copytree(HANDOUT_BOT, folder)
    player = folder / _PLAYER
    player.write_text(before + player.read_text(encoding="utf-8") + after, encoding="utf-8")
    return folder


def one_line_failure(built: CppBuilt) -> str:
    """The reason of a failed build, checked to be one line."""
    assert built.executable is None
    assert built.reason and "\n" not in built.reason
    return built.reason


class SandboxedLineBot(LineBot):
    """A built executable run in the bot's sandbox, spoken to line by line."""

    def __init__(self, executable: Path, errors) -> None:
        root = os.geteuid() == 0
        self.uid = UIDS.take() if root else 0
        launch = bwrap_launch(current_layout(str(project_root()), root=root), str(executable.parent),
                              [f"{BOT_DIR}/{executable.name}"], SandboxLimits(), self.uid, bot_filter())
        try:
            self.process = subprocess.Popen(launch.argv, pass_fds=launch.fds, stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=errors)
        finally:
            launch.close()
        self.buffer = b""


def test_the_handout_bot_builds_in_the_sandbox_and_plays_random_over_the_channel(cache: Path, tmp_path: Path) -> None:
    built = sandboxed_cpp_build(HANDOUT_BOT, cache)
    assert built.executable is not None and built.executable.is_file(), built.reason
    assert (built.entry_class, built.cached) == ("MyPlayer", False)
    errors = (tmp_path / "stderr").open("wb")
    cpp = SandboxedLineBot(built.executable, errors)
    python = LineBot(host_command(sys.executable, "random"), tmp_path, errors)
    try:
        assert '"hello"' in cpp.line() and '"hello"' in python.line()
        for bot in (cpp, python):
            bot.send({"type": "welcome", "protocol": 1, "player": "p", "server": "test",
                      "rules": {"ruleset": "course", "time_limit_ms": 1000}})
        end, judged = play([cpp, python], ["MyPlayer", "random"], "g0", 0)
        assert end.termination is Termination.GOAL and end.result(0) == "win"
        assert all(step.cause is None for step in judged if step.seat == 0)
        assert (cpp.close(), python.close()) == (0, 0)
    finally:
        for bot in (cpp, python):
            if bot.process.poll() is None:
                bot.process.kill()
                bot.process.wait(5)
        errors.close()
        if cpp.uid:
            UIDS.give(cpp.uid)


def test_the_same_files_are_a_lookup_and_a_changed_file_is_a_new_build(cache: Path, tmp_path: Path) -> None:
    first = sandboxed_cpp_build(HANDOUT_BOT, cache)
    again = sandboxed_cpp_build(HANDOUT_BOT, cache)
    assert again.cached and again.executable == first.executable
    changed = sandboxed_cpp_build(handout_with(tmp_path, after="// a changed comment\n"), cache)
    assert not changed.cached and changed.executable is not None and changed.executable != first.executable


def test_a_compile_error_is_one_line_with_the_students_file_and_line(cache: Path, tmp_path: Path) -> None:
    lines = (HANDOUT_BOT / _PLAYER).read_text(encoding="utf-8").count("\n")
    built = sandboxed_cpp_build(handout_with(tmp_path, after="int broken = undeclared_name;\n"), cache)
    assert one_line_failure(built).startswith(f"{_PLAYER}:{lines + 1}: ")
    assert "undeclared_name" in built.reason


@pytest.mark.parametrize(("before", "after", "reason"), [
    ('#include "/etc/passwd"\n', "", f"{_PLAYER}:1: /etc/passwd: No such file or directory"),
    ("#include </dev/zero>\n", "", f"the compiler needed more than {BUILD_LIMITS.address_space_mb} MB of memory"),
    ("", "template <int N> struct Forever { static constexpr int value = Forever<N + 1>::value; };\n"
         "int forever = Forever<0>::value;\n", "template instantiation depth exceeds maximum"),
    ("", 'asm(".data\\n.fill 0x7fffffff, 1, 1\\n.text");\n',
     f"the build wrote a file larger than {BUILD_LIMITS.file_size_mb} MB"),
    ("", "#define A0 1, 1\n" + "".join(f"#define A{n} A{n - 1}, A{n - 1}\n" for n in range(1, 31))
     + "int huge[] = {A30};\n", f"the compiler needed more than {BUILD_LIMITS.address_space_mb} MB of memory"),
], ids=["include-etc-passwd", "include-dev-zero", "endless-templates", "object-of-gigabytes", "huge-initialiser"])
def test_a_compile_time_attack_ends_inside_the_limits_with_a_one_line_reason(
        cache: Path, tmp_path: Path, before: str, after: str, reason: str) -> None:
    built = sandboxed_cpp_build(handout_with(tmp_path, before=before, after=after), cache)
    assert reason in one_line_failure(built)


def test_including_dev_stdin_reads_an_empty_file_and_waits_for_nothing(cache: Path, tmp_path: Path) -> None:
    built = sandboxed_cpp_build(handout_with(tmp_path, before="#include </dev/stdin>\n"), cache, wall_s=60)
    assert built.executable is not None, built.reason      # its stdin is /dev/null: nothing to read, nothing hangs


def test_without_a_compiler_the_build_says_in_one_line_what_to_install(monkeypatch: pytest.MonkeyPatch,
                                                                       tmp_path: Path) -> None:
    monkeypatch.setattr("server.sandbox.cppbuild.shutil.which", lambda name: None)
    monkeypatch.setattr("server.sandbox.cppbuild.compiler_version", compiler_version.__wrapped__)
    built = sandboxed_cpp_build(HANDOUT_BOT, tmp_path / "cache")
    assert one_line_failure(built) == ("no C++ compiler on the server: install g++ (apt-get install g++) "
                                       "to build C++ bots")


def test_a_build_past_its_wall_clock_limit_is_stopped_with_a_one_line_reason(tmp_path: Path) -> None:
    built = sandboxed_cpp_build(HANDOUT_BOT, tmp_path / "cache", wall_s=0.5)    # a cold build takes seconds
    assert one_line_failure(built) == "the build took more than 0.5 s (the build's limit)"
    assert not any((tmp_path / "cache").iterdir())                              # nothing half-built is kept


def test_the_arenas_objects_are_built_once_read_only_and_linked_by_every_build(cache: Path) -> None:
    handout = sandboxed_cpp_build(HANDOUT_BOT, cache)
    example = sandboxed_cpp_build(project_root() / "examples" / "cpp", cache)
    assert handout.executable is not None and example.executable is not None, example.reason
    objects = cache / f"arena-{arena_key(compiler_version() or '')}" / "objects"
    assert [p.name for p in cache.iterdir() if p.name.startswith("arena-")] == [objects.parent.name]   # one for both
    assert sorted(p.name for p in objects.iterdir()) == ["QuoridorUtils.o", "arena_main.o"]
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o444 for p in objects.iterdir())
    argv = bwrap_argv(current_layout(str(project_root()), root=False), "/b", ["true"], SandboxLimits(), 0,
                      objects=str(objects))
    assert argv[argv.index(str(objects)) - 1:argv.index(str(objects)) + 2] == ["--ro-bind", str(objects), OBJECTS_DIR]


def test_a_change_of_the_build_command_is_a_new_build(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    shutil.copytree(project_root() / "client" / "cpp", tmp_path / "client" / "cpp")
    command = tmp_path / "client" / "cppbuild.py"
    command.write_text('CXXFLAGS = ("-std=c++17", "-O2")\n', encoding="utf-8")
    monkeypatch.setattr("server.sandbox.cppbuild.project_root", lambda: tmp_path)
    before = (build_key(HANDOUT_BOT, entry=None, name=None, compiler="g++ 12"), arena_key("g++ 12"))
    command.write_text('CXXFLAGS = ("-std=c++17", "-O3")\n', encoding="utf-8")
    after = (build_key(HANDOUT_BOT, entry=None, name=None, compiler="g++ 12"), arena_key("g++ 12"))
    assert before[0] != after[0] and before[1] != after[1]


def test_a_new_build_evicts_the_least_recently_used_beyond_the_caches_bound(monkeypatch: pytest.MonkeyPatch,
                                                                             cache: Path, tmp_path: Path) -> None:
    first = sandboxed_cpp_build(handout_with(tmp_path / "a", after="// first\n"), cache)
    monkeypatch.setattr(buildcache, "_KEEP", {})
    buildcache.bound(cache, 1)
    second = sandboxed_cpp_build(handout_with(tmp_path / "b", after="// second\n"), cache)
    assert first.executable is not None and second.executable is not None and second.hold is None
    assert not first.executable.exists() and second.executable.is_file()
    builds = [path.name for path in cache.iterdir() if not path.name.startswith(".")]
    assert len(builds) == 2 and any(name.startswith("arena-") for name in builds)   # the arena's objects stay

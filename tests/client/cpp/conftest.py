"""Fixtures of the C++ (and C) bot tests: a compiler (skipped with the reason where there is none; CI installs g++,
which brings gcc, and sets QUORIDOR_REQUIRE_CPP, so that there a missing compiler fails the tests instead)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from client.cppbuild import ARENA_CPP, CXXFLAGS, build_arena_objects

HANDOUT_BOT = Path(__file__).parent / "handout_bot"
"""A bot written as a student writes one for the course framework: ``QuoridorClient/MyPlayer.{h,cpp}``."""


def require_gpp() -> str:
    """The path of g++; the test is skipped when there is none (``apt-get install g++``), or the JSON headers."""
    missing = pytest.fail if os.environ.get("QUORIDOR_REQUIRE_CPP") else pytest.skip
    found = shutil.which("g++")
    if found is None:
        missing("g++ is not installed (apt-get install g++): the C++ bot tests need it")
    if not Path("/usr/include/nlohmann/json.hpp").is_file():
        missing("nlohmann-json3-dev is not installed (apt-get install nlohmann-json3-dev): the arena's main needs it")
    assert found is not None
    return found


@pytest.fixture
def gpp() -> str:
    """The path of g++ (``require_gpp``)."""
    return require_gpp()


@pytest.fixture(scope="session")
def arena_objects(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The arena's own objects, compiled once for the session's builds to link (``build(..., arena_objects=)``)."""
    require_gpp()
    folder = tmp_path_factory.mktemp("arena-objects")
    build_arena_objects(folder)
    return folder


@pytest.fixture
def gcc() -> str:
    """The path of gcc (with the static C library: ``examples/c`` links with ``-static``); skipped when there is none."""
    missing = pytest.fail if os.environ.get("QUORIDOR_REQUIRE_CPP") else pytest.skip
    found = shutil.which("gcc")
    if found is None:
        missing("gcc is not installed (apt-get install gcc): the C bot tests need it")
    assert found is not None
    return found


def compile_and_run(gpp: str, source: str, tmp_path: Path) -> str:
    """Build ``source`` (a program including the arena's headers) with the arena's flags; what it prints."""
    program = tmp_path / "program.cpp"
    program.write_text(source, encoding="utf-8")
    built = subprocess.run([gpp, *CXXFLAGS, "-iquote", str(ARENA_CPP / "QuoridorClient"), "-o", str(tmp_path / "p"),
                            str(program), str(ARENA_CPP / "QuoridorUtils" / "QuoridorUtils.cpp")],
                           capture_output=True, text=True, timeout=120, check=False)
    assert built.returncode == 0, built.stderr
    ran = subprocess.run([str(tmp_path / "p")], capture_output=True, text=True, timeout=10, check=False)
    assert ran.returncode == 0, ran.stderr
    return ran.stdout

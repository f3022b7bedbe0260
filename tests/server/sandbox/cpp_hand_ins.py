"""Shared by the tests of C++ and executable hand-ins: one build cache for the whole session (the handout bot is
built once, ~4 s cold), and copies of the handout bot."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.client.cpp.conftest import HANDOUT_BOT

#: The handout bot's entry, as a student names it (``--entry``).
HANDOUT_ENTRY = "QuoridorClient/MyPlayer.cpp:MyPlayer"
#: The file of the handout bot a test breaks.
HANDOUT_PLAYER = "QuoridorClient/MyPlayer.cpp"


@pytest.fixture(scope="session")
def cpp_builds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's C++ build cache (the same folder for every module that uses it: each bot is built once)."""
    return tmp_path_factory.getbasetemp() / "cpp-builds"


def handout_copy(where: Path, *, after: str = "") -> Path:
    """A copy of the handout bot in ``where``, ``after`` put at the end of its ``MyPlayer.cpp``."""
    folder = where / "handout"
    shutil.copytree(HANDOUT_BOT, folder)
    if after:
        player = folder / HANDOUT_PLAYER
        player.write_text(player.read_text(encoding="utf-8") + after, encoding="utf-8")
    return folder

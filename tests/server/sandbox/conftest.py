"""Fixtures for the sandbox tests: bubblewrap present (else a skip saying how to install it), bots as files."""

from __future__ import annotations

import os
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from server.sandbox import SandboxLimits
from server.sandbox.process import sandbox_uids
from server.sandbox.procfs import stat_fields
from server.submissions.files import content_digest
from server.submissions.store import StoredVersion, SubmissionStore
from server.timestamps import utc_now_seconds

#: Set (as .ci/run does) to make a missing bubblewrap fail the sandbox tests instead of skipping them.

#: Limits that keep each test short: a hostile bot is stopped within seconds.
FAST = SandboxLimits(startup_timeout_s=5.0, cpu_seconds=20)


BotFactory = Callable[..., Path]


@pytest.fixture
def bot_folder(tmp_path: Path) -> BotFactory:
    """Write a bot's files (``bot.py`` by default) into a folder of their own; the folder."""
    def make(source: str, name: str = "bot", filename: str = "bot.py") -> Path:
        folder = tmp_path / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / filename).write_text(textwrap.dedent(source), encoding="utf-8")
        return folder
    return make


def walker(body: str = "", init: str = "") -> str:
    """A bot that runs ``body`` at the start of each ``next_step`` (``init`` in ``__init__``), then walks to its goal."""
    body_lines = textwrap.indent(textwrap.dedent(body), " " * 8) if body else ""
    init_lines = textwrap.indent(textwrap.dedent(init), " " * 8) if init else ""
    return (
        "from client.player import Player\n"
        "from shared.quoridor import Step\n\n"
        "class Walker(Player):\n"
        "    def __init__(self, key=''):\n"
        "        super().__init__(key)\n"
        f"{init_lines}\n"
        "    def next_step(self, change):\n"
        f"{body_lines}\n"
        "        return Step(self.shortest_path()[1])\n"
    )


def processes_of_bot_users() -> list[int]:
    """Processes of this test run's sandbox users: none may outlive its validation."""
    users = sandbox_uids()
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if os.stat(f"/proc/{name}").st_uid in users:
                    found.append(int(name))
            except OSError:
                pass
    return found


def zombies_of_this_process() -> list[int]:
    """This test process's children that exited and were never waited for."""
    found = []
    for name in os.listdir("/proc"):
        fields = stat_fields(name) if name.isdigit() else None
        if fields is not None and fields[0] == b"Z" and int(fields[1]) == os.getpid():
            found.append(int(name))
    return found


def hand_in(server, key: str, source: str) -> str:
    """Store ``source`` as ``key``'s accepted bot (as a validated ``quoridor-submit`` would); its version.

    Written through a connection of its own to the server's ``submissions.db``, as another process would.
    """
    store = SubmissionStore(server.settings.data_dir)
    try:
        files = {"bot.py": source.encode()}
        digest = content_digest(files, "bot.py")
        store.put_files(digest, files)
        version = StoredVersion(key, digest, "bot.py", utc_now_seconds(), True, "ok", "accepted", 0.1, 1,
                                len(files["bot.py"]))
        return store.record(version).version
    finally:
        store.close()

"""``quoridor-submit`` hands in C++ bots and programs of their own: the two MyPlayer files, a folder, a single
``.cpp`` or a program, with the entry it names (and against a real server with its sandbox, a C++ bot accepted and a
compile error refused in one line with its file and line)."""

from __future__ import annotations

import asyncio
import io
import shutil
import stat
import sys
import zipfile
from pathlib import Path

import pytest
from rich.console import Console

from client.submit_cli import SubmitError, main as submit, pack_bot
from tests.client.cpp.conftest import HANDOUT_BOT
from tests.server.conftest import sandbox, url  # noqa: F401 - sandbox: the fixture (bubblewrap, or skipped)

SOURCES = HANDOUT_BOT / "QuoridorClient"


def members(data: bytes) -> dict[str, int]:
    """The archive's file names and their modes."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {info.filename: stat.S_IMODE(info.external_attr >> 16) for info in archive.infolist()}


def test_the_two_myplayer_files_go_in_side_by_side_with_the_entry_named():
    cpp, header = SOURCES / "MyPlayer.cpp", SOURCES / "MyPlayer.h"
    data, entry = pack_bot([cpp, header], None)
    assert members(data) == {"MyPlayer.cpp": 0o644, "MyPlayer.h": 0o644}
    assert entry is None                                     # the server's rule: MyPlayer.cpp, or the only C++ file
    assert pack_bot([header, cpp], "MyPlayer.cpp:MyPlayer") == (data, "MyPlayer.cpp:MyPlayer")   # the same archive
    assert pack_bot([cpp, header], ":MyPlayer")[1] == "MyPlayer.cpp:MyPlayer"


def test_a_folder_goes_in_with_its_layout_and_a_single_cpp_file_names_itself(tmp_path):
    data, entry = pack_bot(HANDOUT_BOT, "QuoridorClient/MyPlayer.cpp:MyPlayer")
    assert set(members(data)) == {"QuoridorClient/MyPlayer.cpp", "QuoridorClient/MyPlayer.h"}
    assert entry == "QuoridorClient/MyPlayer.cpp:MyPlayer"
    shutil.copy(SOURCES / "MyPlayer.cpp", tmp_path / "Solo.cpp")
    assert pack_bot(tmp_path / "Solo.cpp", ":Solo")[1] == "Solo.cpp:Solo"
    assert pack_bot(tmp_path / "Solo.cpp", None)[1] == "Solo.cpp"


def test_a_program_of_its_own_goes_in_executable(tmp_path):
    program = tmp_path / "mybot"
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    data, entry = pack_bot(program, None)
    assert (members(data), entry) == ({"mybot": 0o755}, "mybot")
    (tmp_path / "folder").mkdir()
    shutil.copy(program, tmp_path / "folder" / "mybot")
    (tmp_path / "folder" / "notes.txt").write_text("x")
    data, entry = pack_bot(tmp_path / "folder", "mybot")
    assert (members(data), entry) == ({"mybot": 0o755, "notes.txt": 0o644}, "mybot")


def test_files_that_make_no_bot_say_why_in_one_line(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for folder in ("a", "b"):
        (tmp_path / folder / "MyPlayer.cpp").write_text("x")
    (tmp_path / "MyPlayer.h").write_text("x")
    (tmp_path / "notes.txt").write_text("x")
    for paths, words in (([tmp_path / "a" / "MyPlayer.cpp", tmp_path / "b" / "MyPlayer.cpp"], "two files are called"),
                         ([tmp_path / "a", tmp_path / "MyPlayer.h"], "give one folder or .zip, or the bot's files"),
                         ([tmp_path / "MyPlayer.h"], "is a header: hand it in with its .cpp file"),
                         ([tmp_path / "notes.txt"], "is not a .py file, a C\\+\\+ file, a program"),
                         ([tmp_path / "a" / "MyPlayer.cpp", tmp_path / "nope.h"], "nope.h does not exist")):
        with pytest.raises(SubmitError, match=words) as info:
            pack_bot(paths, None)
        assert "\n" not in str(info.value)


async def run(*argv: str) -> tuple[int, str]:
    """``quoridor-submit ARGV`` in a thread; its exit code and what it printed."""
    out = io.StringIO()
    code = await asyncio.to_thread(submit, list(argv), console=Console(file=out, width=300, color_system=None))
    return code, out.getvalue()


async def test_the_two_files_are_accepted_and_a_compile_error_refused_by_a_real_server(make_server, sandbox, gpp,
                                                                                       tmp_path):
    server = await make_server(players=0)
    code, out = await run(str(SOURCES / "MyPlayer.cpp"), str(SOURCES / "MyPlayer.h"), "-k", "alice",
                          "--server", url(server))
    assert code == 0, out
    assert "handing in " in out and "MyPlayer.h (" in out
    assert out.strip().splitlines()[-1].startswith("accepted: version ")
    broken = tmp_path / "MyPlayer.cpp"
    lines = (SOURCES / "MyPlayer.cpp").read_text().splitlines()
    at = lines.index("    block.normalization();")
    lines[at] = "    undeclared = 1;"
    broken.write_text("\n".join(lines) + "\n")
    shutil.copy(SOURCES / "MyPlayer.h", tmp_path / "MyPlayer.h")
    code, out = await run(str(broken), str(tmp_path / "MyPlayer.h"), "-k", "alice", "--server", url(server),
                          "--entry", "MyPlayer.cpp:MyPlayer")
    assert code == 1, out
    refused = out.strip().splitlines()[-1]
    assert f"MyPlayer.cpp:{at + 1}: 'undeclared' was not declared in this scope" in refused, refused

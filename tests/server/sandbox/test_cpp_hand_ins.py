"""C++ and executable bots handed in through the real desk (a submitter connection, the real sandbox): the course's
handout bot is built, validated and plays a tournament against a Python bot and a ladder resident's games; a compile
error refuses it naming the student's file and line; a program of the bot's own is accepted and plays; a server
without a compiler refuses C++ bots in one line and still takes Python ones."""

from __future__ import annotations

import asyncio
import base64
import io
import zipfile
from pathlib import Path

import pytest

from server.sandbox.cppbuild import sandboxed_cpp_build
from server.submissions import desk as submission_desk
from shared.ladder import pair_key
from shared.protocol import SUBMIT_PART_CHARS
from tests.client.cpp.conftest import HANDOUT_BOT, gpp  # noqa: F401  (the fixture)
from tests.server.conftest import bounded, url
from tests.server.sandbox.conftest import walker
from tests.server.sandbox.cpp_hand_ins import HANDOUT_ENTRY, HANDOUT_PLAYER, cpp_builds, handout_copy  # noqa: F401
from tests.server.support import Client, hello, play

pytestmark = pytest.mark.usefixtures("sandbox", "gpp")

FAST = {"time_limit_ms": 1000, "step_cap": 40}


def folder_files(folder: Path) -> dict[str, bytes]:
    """The files under ``folder`` by their relative path."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def zipped(files: dict[str, bytes], modes: dict[str, int] | None = None) -> str:
    """The base64 zip of ``files`` (as quoridor-submit sends it)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            info = zipfile.ZipInfo(name)
            info.external_attr = (0o100000 | (modes or {}).get(name, 0o644)) << 16
            archive.writestr(info, data)
    return base64.b64encode(buffer.getvalue()).decode()


async def hand_in(server, key: str, files: dict[str, bytes], entry: str | None = None) -> dict:
    """Hand ``files`` in as ``key`` through a submitter connection; the server's answer (``submitted`` or an error)."""
    client = await Client.open(url(server))
    try:
        await client.send(hello(key, "submitter"))
        assert (await client.reply())["type"] == "welcome"
        text = zipped(files)
        parts = [text[i:i + SUBMIT_PART_CHARS] for i in range(0, len(text), SUBMIT_PART_CHARS)]
        for number, part in enumerate(parts):
            await client.send({"type": "submit", "entry": entry, "part": number, "parts": len(parts), "zip": part})
        return await client.reply(timeout=150)
    finally:
        await client.close()


async def test_the_handout_bot_is_accepted_and_plays_a_tournament_against_a_python_bot(make_server, cpp_builds):
    server = await make_server(players=2, players_from_submissions=True, roster={"k-cpp": "Cpp", "k-py": "Py"},
                               cpp_builds=cpp_builds, **FAST)
    report = await hand_in(server, "k-cpp", folder_files(HANDOUT_BOT))
    assert (report["type"], report["accepted"], report["cause"]) == ("submitted", True, "ok"), report
    assert report["entry"] == "QuoridorClient/MyPlayer.cpp"              # found: the handout's MyPlayer
    assert (await hand_in(server, "k-py", {"bot.py": walker().encode()}))["accepted"] is True
    standings = await play(server, [], seconds=120)
    assert standings.games_done == 1 and {row.player for row in standings.rows()} == {"Cpp", "Py"}
    assert sorted(seat.name for seat in server.hosted) == ["Cpp", "Py"]
    [row] = await server.results.games(server.tournament_id, "finished")
    assert row.reason != "disconnect" and row.steps > 4 and row.violations == (0, 0), row      # both played it


async def test_a_compile_error_refuses_the_bot_naming_the_students_file_and_line(make_server, cpp_builds, tmp_path):
    folder = handout_copy(tmp_path, after="int broken = undeclared_name;\n")
    line = (folder / HANDOUT_PLAYER).read_text(encoding="utf-8").count("\n")
    server = await make_server(players=0, cpp_builds=cpp_builds)
    report = await hand_in(server, "alice", folder_files(folder), entry=HANDOUT_ENTRY)
    assert (report["type"], report["accepted"], report["cause"]) == ("submitted", False, "compile_error"), report
    assert report["reason"].startswith(f"{HANDOUT_PLAYER}:{line}: ") and "undeclared_name" in report["reason"]
    versions = await server.submissions.store.versions("alice")
    assert [(v.accepted, v.cause) for v in versions] == [(False, "compile_error")]       # stored, as said


async def test_a_program_of_the_bots_own_is_accepted_and_plays(make_server, cpp_builds, tmp_path):
    built = await asyncio.to_thread(sandboxed_cpp_build, HANDOUT_BOT, cpp_builds, entry=HANDOUT_ENTRY)
    assert built.executable is not None
    server = await make_server(players=2, players_from_submissions=True, roster={"k-exe": "Exe", "k-py": "Py"},
                               cpp_builds=cpp_builds, **FAST)
    report = await hand_in(server, "k-exe", {"bin/mybot": built.executable.read_bytes(), "notes.txt": b"hi"},
                           entry="bin/mybot")
    assert (report["accepted"], report["cause"], report["entry"]) == (True, "ok", "bin/mybot"), report
    stored = (await server.submissions.accepted_bots())["k-exe"]
    assert stored.folder is not None and (stored.folder / "bin" / "mybot").stat().st_mode & 0o777 == 0o555
    assert (stored.folder / "notes.txt").stat().st_mode & 0o777 == 0o444
    assert (await hand_in(server, "k-py", {"bot.py": walker().encode()}))["accepted"] is True
    standings = await play(server, [], seconds=120)
    assert standings.games_done == 1 and {row.player for row in standings.rows()} == {"Exe", "Py"}


async def test_without_a_compiler_a_cpp_bot_is_refused_in_one_line_and_a_python_bot_still_taken(
        make_server, monkeypatch):
    monkeypatch.setattr(submission_desk, "cpp_status", lambda: "no C++ compiler on this server: its organiser can "
                                                               "install g++ (apt-get install g++)")
    server = await make_server(players=0)
    refused = await hand_in(server, "alice", folder_files(HANDOUT_BOT))
    assert (refused["type"], refused["code"]) == ("error", "no_compiler"), refused
    assert "apt-get install g++" in refused["message"] and "\n" not in refused["message"]
    assert await server.submissions.store.versions("alice") == []                       # nothing judged
    taken = await hand_in(server, "alice", {"bot.py": walker().encode()})
    assert (taken["type"], taken["accepted"]) == ("submitted", True)


async def test_a_cpp_bot_handed_in_while_the_ladder_runs_is_seated_as_a_resident_and_plays(make_server, cpp_builds):
    server = await make_server(ladder=True, ladder_residents=["random"], ladder_opening_plies=2,
                               ladder_refit_s=3600.0, ladder_pair_games_per_hour=10_000, cpp_builds=cpp_builds, **FAST)
    ladder = asyncio.create_task(server.run_ladder())
    try:
        report = await hand_in(server, "carla", folder_files(HANDOUT_BOT))
        assert report["accepted"] is True, report

        async def played() -> None:
            while server.ladder is None or server.ladder.meetings[pair_key("carla", "random")] < 2:
                await asyncio.sleep(0.05)
        await bounded(played(), 90)
        session = server.lobby.session("carla")
        assert session is not None and session.resident and session.version == report["version"]
        assert server.residents.bots["carla"].built is not None                     # its C++ build runs
    finally:
        ladder.cancel()
        await bounded(asyncio.gather(ladder, return_exceptions=True), 30)


async def test_a_roster_line_naming_a_handed_in_cpp_bot_seats_it(make_server, cpp_builds, tmp_path):
    data = tmp_path / "cup"
    desk = await make_server(players=0, data_dir=data, cpp_builds=cpp_builds)        # quoridor-submit, before the cup
    report = await hand_in(desk, "k-cpp", folder_files(HANDOUT_BOT))
    assert report["accepted"] is True, report
    assert (await hand_in(desk, "k-py", {"bot.py": walker().encode()}))["accepted"] is True
    await desk.close()
    server = await make_server(players=2, data_dir=data, roster={"k-cpp": "Cpp", "k-py": "Py"},
                               roster_submissions={"k-cpp": report["version"], "k-py": None}, cpp_builds=cpp_builds,
                               **FAST)
    standings = await play(server, [], seconds=120)
    assert standings.games_done == 1 and {row.player for row in standings.rows()} == {"Cpp", "Py"}
    assert [(seat.name, seat.entry.version) for seat in server.hosted if seat.name == "Cpp"] == \
        [("Cpp", report["version"])]
    [row] = await server.results.games(server.tournament_id, "finished")
    assert row.reason != "disconnect" and row.steps > 4 and row.violations == (0, 0), row

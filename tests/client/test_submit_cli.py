"""``quoridor-submit``: the bot zipped as the server wants it, the report in one line, errors without tracebacks.

The end-to-end runs against a real server (accepted, refused with the line of a syntax error) are in
``tests/server/test_submissions_e2e.py``; here a scripted server stands in for it where the test is
about the client.
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import os
import socket
import zipfile

import pytest
from rich.console import Console
from websockets.asyncio.server import serve

from client.submit_cli import (
    SubmitError, build_parser, main, pack_bot, parts_of, report_line, versions_table,
)
from shared.protocol import (
    SUBMISSION_CEILING_BYTES, SUBMIT_PART_CHARS, ErrorMessage, RulesInfo, SubmissionEntry, Submissions, Submitted,
    Welcome, dump, parse_client,
)

BOT = ("from client.player import Player\n\n\nclass Mine(Player):\n"
       "    def next_step(self, change):\n        return None\n")


def console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=100, color_system=None), out


def names(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


# --- the archive ---

def test_a_single_file_is_zipped_under_its_name_and_is_the_entry(tmp_path):
    (tmp_path / "mybot.py").write_text(BOT)
    data, entry = pack_bot(tmp_path / "mybot.py", None)
    assert names(data) == {"mybot.py": BOT.encode()} and entry == "mybot.py"
    assert pack_bot(tmp_path / "mybot.py", ":Mine")[1] == "mybot.py:Mine"
    assert pack_bot(tmp_path / "mybot.py", None)[0] == data        # the same file, the same archive


def test_a_folder_is_zipped_without_caches_and_hidden_files(tmp_path):
    bot = tmp_path / "bot"
    (bot / "lib" / "__pycache__").mkdir(parents=True)
    (bot / ".git").mkdir()
    (bot / "main.py").write_text(BOT)
    (bot / "lib" / "paths.py").write_text("X = 1\n")
    (bot / "lib" / "__pycache__" / "paths.cpython-311.pyc").write_bytes(b"\0")
    (bot / ".git" / "HEAD").write_text("ref")
    (bot / ".env").write_text("SECRET=1")
    data, entry = pack_bot(bot, "main.py:Mine")
    assert set(names(data)) == {"main.py", "lib/paths.py"} and entry == "main.py:Mine"


def test_a_zip_is_sent_as_it_is(tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("pkg/mod.py", BOT)
    (tmp_path / "bot.zip").write_bytes(buffer.getvalue())
    assert pack_bot(tmp_path / "bot.zip", "pkg/mod.py:Mine") == (buffer.getvalue(), "pkg/mod.py:Mine")


def test_what_cannot_be_handed_in_says_why_in_one_line(tmp_path):
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "empty").mkdir()
    (tmp_path / "big").mkdir()
    (tmp_path / "big" / "bot.py").write_text(BOT)
    (tmp_path / "big" / "noise.bin").write_bytes(os.urandom(SUBMISSION_CEILING_BYTES + 1))
    (tmp_path / "linked").mkdir()
    (tmp_path / "linked" / "bot.py").symlink_to(tmp_path / "big" / "bot.py")
    for path, words in ((tmp_path / "nothing.py", "does not exist"), (tmp_path / "notes.txt", "not a .py file"),
                        (tmp_path / "empty", "holds no .py or C\\+\\+ file"), (tmp_path / "big", "no server takes more than 4,194,304 bytes"),
                        (tmp_path / "linked", "is a link")):
        with pytest.raises(SubmitError, match=words) as info:
            pack_bot(path, None)
        assert "\n" not in str(info.value)


def test_a_big_archive_goes_in_parts_that_join_to_its_base64():
    data = bytes(range(256)) * 1000
    parts = parts_of(data, "bot.py")
    assert len(parts) == -(-len(base64.b64encode(data)) // SUBMIT_PART_CHARS) > 1
    assert [(p.part, p.parts) for p in parts] == [(i, len(parts)) for i in range(len(parts))]
    assert base64.b64decode("".join(p.zip for p in parts)) == data
    assert all(len(dump(p).encode()) < 128 * 1024 for p in parts)     # each fits a submitter's frame


# --- what is printed ---

def test_the_report_is_one_line():
    accepted = Submitted(version="3f2a9c01b7de", entry="mybot.py", accepted=True, cause="ok", reason="",
                         seconds=1.42, files=1, bytes=90)
    refused = Submitted(version="a01c44e90f12", entry="mybot.py", accepted=False, cause="syntax_error",
                        reason="mybot.py:3: invalid syntax", seconds=0.2, files=1, bytes=90, new=False)
    assert report_line(accepted).plain == "accepted: version 3f2a9c01b7de (mybot.py), validated in 1.4 s"
    assert report_line(refused).plain == ("refused (syntax_error): mybot.py:3: invalid syntax "
                                          "[version a01c44e90f12 (handed in before)]")
    late = accepted.model_copy(update={"note": "this version does not play in it"})
    assert report_line(late).plain.endswith("validated in 1.4 s; this version does not play in it")


def test_the_versions_table_shows_each_version_and_its_result():
    listing = Submissions(player="Team 7", versions=[
        SubmissionEntry(version="a01c44e90f12", entry="mybot.py", submitted_at="2026-11-24T08:40:00Z",
                        accepted=False, cause="init_error", reason="mybot.py:7: ZeroDivisionError", seconds=0.31,
                        files=1, bytes=90),
        SubmissionEntry(version="3f2a9c01b7de", entry="mybot.py:Mine", submitted_at="2026-11-24T08:30:00Z",
                        accepted=True, cause="ok", reason="", seconds=1.42, files=2, bytes=4000)])
    out = io.StringIO()
    Console(file=out, width=160, color_system=None).print(versions_table(listing))
    text = out.getvalue()
    assert "bots handed in by Team 7" in text
    assert text.index("a01c44e90f12") < text.index("3f2a9c01b7de")
    assert "2026-11-24 08:40:00" in text and "init_error: mybot.py:7: ZeroDivisionError" in text
    assert "accepted" in text and "1.4" in text


# --- the command line ---

def test_help_names_every_option(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    for option in ("PATH", "--key", "--server", "--entry", "--list", "--wait", "--timeout"):
        assert option in text


@pytest.mark.parametrize("argv, words", [
    ([], "give the bot's PATH"),
    (["bot.py", "--list"], "not both"),
    (["--list", "--entry", "x.py"], "--entry goes with a PATH"),
    (["bot.py", "--server", "http://h:1/"], "not a websocket URL"),
    (["bot.py", "--bogus"], "unrecognized arguments: --bogus"),
    (["bot.py", "--wait", "soon"], "invalid float value"),
    (["bot.py"], "say whose bot it is with -k KEY: your player key"),
    (["--list", "-k", " "], "say whose bot it is with -k KEY"),
])
def test_bad_arguments_are_one_line(argv, words, capsys):
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_no_server_is_one_line_and_exit_code_1(tmp_path):
    (tmp_path / "mybot.py").write_text(BOT)
    shown, out = console()
    code = main([str(tmp_path / "mybot.py"), "-k", "alice", "--server", f"ws://127.0.0.1:{free_port()}/",
                 "--wait", "0.2"], console=shown)
    assert code == 1
    last = out.getvalue().strip().splitlines()[-1]
    assert last.startswith("quoridor-submit: no server at ws://127.0.0.1:") and "Traceback" not in out.getvalue()


def test_a_file_that_cannot_be_read_is_one_line(tmp_path):
    shown, out = console()
    assert main([str(tmp_path / "gone.py"), "-k", "alice", "--server", "ws://127.0.0.1:1/"], console=shown) == 1
    assert out.getvalue() == f"quoridor-submit: {tmp_path / 'gone.py'} does not exist\n"


class ScriptedServer:
    """A websocket server that answers a submitter as told, and keeps what it was sent."""

    def __init__(self, *answers: object) -> None:
        self.answers = answers
        self.received: list[object] = []

    async def __call__(self, ws) -> None:
        hello = parse_client(await ws.recv())
        self.received.append(hello)
        rules = RulesInfo(ruleset="course", time_limit_ms=1000, violations_allowed=3, step_cap=100,
                          walls_per_player=10)
        await ws.send(dump(Welcome(player="Team 7", server="script", rules=rules)))
        while True:
            message = parse_client(await ws.recv())
            self.received.append(message)
            if getattr(message, "part", 0) == getattr(message, "parts", 1) - 1:
                break
        for answer in self.answers:
            await ws.send(dump(answer))
        await ws.close()


async def run_against(script: ScriptedServer, argv: list[str]) -> tuple[int, str]:
    shown, out = console()
    async with serve(script, "127.0.0.1", 0, max_size=None) as server:
        port = server.sockets[0].getsockname()[1]
        code = await asyncio.to_thread(main, [*argv, "--server", f"ws://127.0.0.1:{port}/"], console=shown)
    return code, out.getvalue()


async def test_a_submission_is_sent_as_a_submitter_in_parts_and_its_report_printed(tmp_path):
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "main.py").write_text(BOT)
    (bot / "book.bin").write_bytes(os.urandom(200_000))    # more than one part
    script = ScriptedServer(Submitted(version="3f2a9c01b7de", entry="main.py", accepted=True, cause="ok",
                                      reason="", seconds=2.0, files=2, bytes=200_100))
    code, out = await run_against(script, [str(bot), "-k", "team-7", "--entry", "main.py"])
    assert code == 0 and out.splitlines()[-1] == "accepted: version 3f2a9c01b7de (main.py), validated in 2.0 s"
    hello, *parts = script.received
    assert (hello.role, hello.key) == ("submitter", "team-7")
    assert len(parts) > 1 and {p.entry for p in parts} == {"main.py"}
    assert set(names(base64.b64decode("".join(p.zip for p in parts)))) == {"main.py", "book.bin"}


async def test_a_refusal_and_an_error_end_with_exit_code_1(tmp_path):
    (tmp_path / "mybot.py").write_text(BOT)
    refused = ScriptedServer(Submitted(version="a01c44e90f12", entry="mybot.py", accepted=False,
                                       cause="syntax_error", reason="mybot.py:3: invalid syntax", seconds=0.1,
                                       files=1, bytes=90))
    code, out = await run_against(refused, [str(tmp_path / "mybot.py"), "-k", "alice"])
    assert code == 1 and out.splitlines()[-1].startswith("refused (syntax_error): mybot.py:3: invalid syntax")
    error = ScriptedServer(ErrorMessage(code="sandbox_unavailable", message="bwrap is not installed",
                                        frame_type="submit"))
    code, out = await run_against(error, [str(tmp_path / "mybot.py"), "-k", "alice"])
    assert code == 1 and out.splitlines()[-1] == "quoridor-submit: bwrap is not installed (sandbox_unavailable)"


async def test_the_server_closing_early_is_one_line(tmp_path):
    (tmp_path / "mybot.py").write_text(BOT)
    code, out = await run_against(ScriptedServer(), [str(tmp_path / "mybot.py"), "-k", "alice"])
    assert code == 1
    assert out.splitlines()[-1].startswith("quoridor-submit: the server closed the connection before the report")


def test_the_parser_is_the_documented_one():
    parser = build_parser()
    assert parser.prog == "quoridor-submit"
    args = parser.parse_args(["--list", "-k", "alice"])
    assert (args.list, args.key, args.path) == (True, "alice", [])
    assert json.dumps(vars(parser.parse_args(["bot.py"])), default=str)     # every default is plain data
    assert parser.parse_args(["bot.py"]).key is None                         # no made-up key: -k is asked for

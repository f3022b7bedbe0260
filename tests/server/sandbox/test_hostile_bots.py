"""Hostile bots, each contained: the attack fails or the bot is stopped, with a clear cause; nothing else notices.

Each bot is validated as a handed-in bot is (``validate_bot``: import, create, one short game against
``random``, all in the sandbox). An attack that the sandbox simply denies surfaces as the bot's own
exception (``illegal_steps``: ``next_step raised PermissionError ...``), which also proves that it failed.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from server.sandbox import SandboxLimits, validate_bot
from tests.server.conftest import bounded
from tests.server.sandbox.conftest import FAST, BotFactory, processes_of_bot_users, walker, zombies_of_this_process

pytestmark = pytest.mark.usefixtures("sandbox")


async def validate(folder: Path, limits: SandboxLimits = FAST):
    return await bounded(validate_bot(folder, "bot.py", limits), 90)


async def test_a_socket_to_the_servers_port_or_anywhere_else_goes_nowhere(bot_folder: BotFactory):
    accepted = []
    server = await asyncio.start_server(lambda r, w: accepted.append(w), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        folder = bot_folder(walker(f"""
            import socket
            for address in (("127.0.0.1", {port}), ("1.1.1.1", 80), ("8.8.8.8", 53)):
                try:
                    socket.create_connection(address, timeout=2).close()
                except OSError:
                    continue
                raise RuntimeError(f"CONNECTED to {{address}}")
            socket.create_connection(("127.0.0.1", {port}), timeout=2)
        """))
        verdict = await validate(folder)
    assert (verdict.cause, verdict.accepted) == ("illegal_steps", False)
    assert "ConnectionRefusedError" in verdict.reason and "CONNECTED" not in verdict.reason
    assert accepted == []


@pytest.mark.parametrize("target", ["results database", "another bot's file", "/etc/shadow"])
async def test_files_outside_its_own_cannot_be_read(bot_folder: BotFactory, tmp_path: Path, target: str):
    data = tmp_path / "data"
    data.mkdir()
    (data / "results.db").write_bytes(b"SQLite format 3\x00 secret results")
    other = bot_folder("SECRET = 'the other bot'\n", name="other")
    path = {"results database": str(data / "results.db"), "another bot's file": str(other / "bot.py"),
            "/etc/shadow": "/etc/shadow"}[target]
    verdict = await validate(bot_folder(walker(f"""
        text = open({path!r}, "rb").read()
        raise RuntimeError(f"READ {{len(text)}} bytes")
    """)))
    assert verdict.cause == "illegal_steps"
    assert "FileNotFoundError" in verdict.reason and "READ" not in verdict.reason


async def test_nothing_outside_its_tmp_can_be_written(bot_folder: BotFactory, tmp_path: Path):
    folder = bot_folder(walker("""
        open("/tmp/scratch.txt", "w").write("mine")            # its private /tmp works
        assert open("/tmp/scratch.txt").read() == "mine"
        for path in ("/bot/planted.py", "/planted.txt", "/usr/planted.txt"):
            try:
                open(path, "w").write("x")
            except OSError:
                continue
            raise RuntimeError(f"WROTE {path}")
        open("/bot/planted.py", "w")
    """))
    verdict = await validate(folder)
    assert verdict.cause == "illegal_steps"
    assert "Read-only file system" in verdict.reason and "WROTE" not in verdict.reason
    assert sorted(p.name for p in folder.iterdir()) == ["bot.py"]


async def test_a_thousand_processes_are_refused(bot_folder: BotFactory):
    verdict = await validate(bot_folder(walker(init="""
        import os, time
        for _ in range(1000):
            if os.fork() == 0:
                time.sleep(60)
                os._exit(0)
    """)))
    assert verdict.cause == "init_error"
    assert "BlockingIOError" in verdict.reason and "Resource temporarily unavailable" in verdict.reason
    assert processes_of_bot_users() == []          # the forked sleepers died with the sandbox
    assert zombies_of_this_process() == []


async def test_two_gigabytes_end_as_memory_limit(bot_folder: BotFactory):
    verdict = await validate(bot_folder(walker("""
        hoard = bytearray(2 * 1024 ** 3)
    """)))
    assert (verdict.cause, verdict.accepted) == ("memory_limit", False)
    assert "MemoryError" in verdict.reason and "bot.py" in verdict.reason


async def test_printing_100_mb_ends_as_output_limit(bot_folder: BotFactory):
    verdict = await validate(bot_folder(walker("""
        line = "x" * 1023
        for _ in range(100 * 1024):
            print(line)
    """)))
    assert (verdict.cause, verdict.accepted) == ("output_limit", False)
    assert "printed more than 1,048,576 bytes" in verdict.reason


async def test_sleeping_forever_ends_as_timeout(bot_folder: BotFactory):
    verdict = await validate(bot_folder(walker("""
        import time
        time.sleep(10 ** 6)
    """)))
    assert (verdict.cause, verdict.accepted) == ("timeout", False)
    assert "no answer within the limit of 1,000 ms" in verdict.reason
    assert processes_of_bot_users() == [] and zombies_of_this_process() == []


async def test_killing_its_parent_or_other_processes_changes_nothing(bot_folder: BotFactory):
    me = os.getpid()
    verdict = await validate(bot_folder(walker(init=f"""
        import os, signal
        for pid in (os.getppid(), 1, {me}, -1):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
    """)))
    assert (verdict.cause, verdict.accepted) == ("ok", True)      # it played on: nobody else was hurt


async def test_a_missing_module_is_an_import_error(bot_folder: BotFactory):
    verdict = await validate(bot_folder("import numpy_that_is_not_there\n" + walker()))
    assert (verdict.cause, verdict.accepted) == ("import_error", False)
    assert verdict.reason == ("bot.py:1: importing bot.py raised ModuleNotFoundError: "
                              "No module named 'numpy_that_is_not_there'")


async def test_looping_forever_in_init_is_too_slow(bot_folder: BotFactory):
    verdict = await validate(bot_folder(walker(init="while True: pass")), SandboxLimits(startup_timeout_s=2))
    assert (verdict.cause, verdict.accepted) == ("too_slow", False)
    assert "did not start within 2 s" in verdict.reason
    assert processes_of_bot_users() == []


async def test_computing_past_its_cpu_seconds_ends_as_cpu_limit(bot_folder: BotFactory):
    verdict = await validate(bot_folder(walker(init="while True: pass")),
                             SandboxLimits(cpu_seconds=1, startup_timeout_s=30))
    assert (verdict.cause, verdict.accepted) == ("cpu_limit", False)
    assert "CPU" in verdict.reason


async def test_junk_written_into_the_protocol_channel_stops_the_bot(bot_folder: BotFactory):
    verdict = await validate(bot_folder(walker("""
        import os
        for fd in range(3, 12):
            try:
                os.write(fd, b"not a step\\n" * 50)
            except OSError:
                pass
    """)))
    assert (verdict.cause, verdict.accepted) == ("crashed", False)
    assert "10 lines in a row that were no acceptable step" in verdict.reason

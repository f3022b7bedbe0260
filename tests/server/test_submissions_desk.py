"""Submitters over a real server on 127.0.0.1 port 0: admission, parts, refusals, the queue, versions per key.

The sandbox is replaced by a scripted ``validate_bot`` here (what is tested is the desk around it);
``test_submissions_e2e.py`` validates real bots in the real sandbox.
"""

from __future__ import annotations

import asyncio
import base64
import io
import zipfile
from pathlib import Path

import pytest

from server.submissions import desk as submission_desk
from server.sandbox import SandboxLimits
from server.sandbox.validate import Validation
from server.submissions.store import SubmissionStore
from shared.protocol import SUBMIT_PART_CHARS
from tests.server.conftest import bounded, url
from tests.server.support import Client, hello

BOT = (b"from client.player import Player\n\n\nclass Mine(Player):\n"
       b"    def next_step(self, change):\n        return None\n")


def archive(*members: tuple[str, bytes]) -> str:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zipped:
        for name, data in members:
            zipped.writestr(name, data)
    return base64.b64encode(buffer.getvalue()).decode()


def submit(text: str, entry: str | None = None, part: int = 0, parts: int = 1) -> dict:
    return {"type": "submit", "entry": entry, "part": part, "parts": parts, "zip": text}


class Sandbox:
    """A scripted ``validate_bot``: each call's verdict, and an optional gate it waits at."""

    def __init__(self, *, accepted: bool = True, cause: str = "ok", reason: str = "played 12 steps") -> None:
        self.verdict = Validation(accepted=accepted, cause=cause, reason=reason, seconds=0.5)
        self.calls: list[tuple[Path, str, SandboxLimits]] = []
        self.gate: asyncio.Event | None = None
        self.files_seen: list[dict[str, bytes]] = []

    async def __call__(self, folder: Path, entry: str, limits: SandboxLimits, *, builds: Path | None = None) -> Validation:
        self.calls.append((folder, entry, limits))
        self.files_seen.append({p.relative_to(folder).as_posix(): p.read_bytes()
                                for p in folder.rglob("*") if p.is_file()})
        if self.gate is not None:
            await self.gate.wait()
        return self.verdict


@pytest.fixture
def sandbox(monkeypatch) -> Sandbox:
    fake = Sandbox()
    monkeypatch.setattr(submission_desk, "validate_bot", fake)
    monkeypatch.setattr(submission_desk, "sandbox_status", lambda: None)
    return fake


async def submitter(server, key: str = "alice", **extra) -> Client:
    client = await Client.open(url(server))
    await client.send(hello(key, "submitter", **extra))
    assert (await client.reply())["type"] == "welcome"
    return client


async def test_a_bot_is_stored_validated_and_reported_with_its_version(make_server, sandbox, tmp_path):
    server = await make_server(players=0)
    client = await submitter(server)
    await client.send(submit(archive(("mybot.py", BOT))))
    report = await client.reply(timeout=10)
    assert report["type"] == "submitted"
    assert (report["accepted"], report["cause"], report["entry"], report["new"]) == (True, "ok", "mybot.py", True)
    assert (report["files"], report["bytes"], report["seconds"]) == (1, len(BOT), 0.5)
    folder, entry, limits = sandbox.calls[0]
    assert entry == "mybot.py" and sandbox.files_seen == [{"mybot.py": BOT}] and limits == server.submissions.sandbox
    assert folder.name.startswith(report["version"]) and not folder.stat().st_mode & 0o222   # read-only
    store = SubmissionStore(tmp_path / "replays")   # stored before it was said
    assert [(v.version, v.accepted) for v in store.versions("alice")] == [(report["version"], True)]
    store.close()
    await client.close()


async def test_the_newest_accepted_bot_of_each_key_is_ready_to_play(make_server, sandbox):
    server = await make_server(players=0, roster={"k-alice": "Alice", "k-bob": "Bob"})
    alice = await submitter(server, "k-alice")
    await alice.send(submit(archive(("old.py", BOT))))
    await alice.reply(timeout=10)
    await alice.send(submit(archive(("new.py", BOT), ("lib.py", b"")), entry="new.py:Mine"))
    newest = await alice.reply(timeout=10)
    sandbox.verdict = Validation(accepted=False, cause="init_error", reason="new.py:5: boom", seconds=0.1)
    bob = await submitter(server, "k-bob")
    await bob.send(submit(archive(("bob.py", BOT))))
    assert (await bob.reply(timeout=10))["accepted"] is False
    bots = await server.submissions.accepted_bots()
    assert list(bots) == ["k-alice"]
    entry = bots["k-alice"]
    assert (entry.name, entry.spec, entry.version) == ("Alice", "new.py:Mine", newest["version"])
    assert entry.folder is not None and sorted(p.name for p in entry.folder.iterdir()) == ["lib.py", "new.py"]
    await alice.close()
    await bob.close()


async def test_the_same_files_again_are_the_same_version_validated_once(make_server, sandbox):
    server = await make_server(players=0)
    client = await submitter(server)
    await client.send(submit(archive(("mybot.py", BOT))))
    first = await client.reply(timeout=10)
    await client.send(submit(archive(("mybot.py", BOT)), entry="mybot.py"))
    again = await client.reply(timeout=10)
    assert again["version"] == first["version"] and again["new"] is False and len(sandbox.calls) == 1
    await client.send(submit(archive(("mybot.py", BOT)), entry="mybot.py:Mine"))    # another entry: another bot
    other = await client.reply(timeout=10)
    assert other["version"] != first["version"] and len(sandbox.calls) == 2
    await client.send({"type": "submissions_request"})
    listing = await client.reply()
    assert listing["player"] == "alice"
    assert [v["version"] for v in listing["versions"]] == [other["version"], first["version"]]
    await client.close()


async def test_a_refused_bot_handed_in_again_is_validated_again(make_server, sandbox):
    sandbox.verdict = Validation(accepted=False, cause="syntax_error", reason="mybot.py:3: invalid syntax\n  x =",
                                 seconds=0.1)
    server = await make_server(players=0)
    client = await submitter(server)
    await client.send(submit(archive(("mybot.py", BOT))))
    refused = await client.reply(timeout=10)
    assert (refused["accepted"], refused["cause"]) == (False, "syntax_error")
    assert refused["reason"] == "mybot.py:3: invalid syntax x ="         # one line, whatever the sandbox said
    await client.send(submit(archive(("mybot.py", BOT))))
    assert (await client.reply(timeout=10))["new"] is False and len(sandbox.calls) == 2
    await client.close()


async def test_a_big_bot_comes_in_parts_of_a_rooms_frame_size(make_server, sandbox):
    server = await make_server(players=0)
    client = await submitter(server)
    book = bytes(range(256)) * 1200             # stored, not compressed much: several parts
    text = archive(("mybot.py", BOT), ("book.bin", book))
    chunks = [text[i:i + SUBMIT_PART_CHARS] for i in range(0, len(text), SUBMIT_PART_CHARS)]
    assert len(chunks) > 1
    for number, chunk in enumerate(chunks):
        await client.send(submit(chunk, "mybot.py", number, len(chunks)))
    report = await client.reply(timeout=10)
    assert report["accepted"] and sandbox.files_seen == [{"mybot.py": BOT, "book.bin": book}]
    await client.close()


async def test_a_part_out_of_order_drops_the_submission_and_its_other_parts_quietly(make_server, sandbox):
    server = await make_server(players=0)
    client = await submitter(server)
    text = archive(("mybot.py", BOT))
    await client.send(submit(text[:8], None, 0, 3))
    await client.send(submit(text[8:16], None, 2, 3))
    error = await client.reply()
    assert (error["code"], error["frame_type"]) == ("bad_part", "submit") and "expected part 1 of 3" in error["message"]
    await client.send(submit(text[16:], None, 1, 3))        # the rest of the dropped one: no answer
    await client.send(submit(text[:8], None, 1, 3))
    await client.send(submit(text))                          # a new one is taken
    assert (await client.reply(timeout=10))["type"] == "submitted"
    await client.close()


@pytest.mark.parametrize("members, code", [
    ([("../evil.py", BOT)], "unsafe_path"),
    ([("/tmp/evil.py", BOT)], "unsafe_path"),
    ([("notes.txt", b"hello")], "no_python"),
    ([("a.py", BOT), ("b.py", BOT)], "bad_entry"),
])
async def test_unsafe_or_unusable_archives_are_refused_with_their_code(make_server, sandbox, tmp_path, members, code):
    server = await make_server(players=0)
    client = await submitter(server)
    await client.send(submit(archive(*members)))
    error = await client.reply(timeout=10)
    assert (error["type"], error["code"]) == ("error", code)
    assert not sandbox.calls and not (tmp_path / "evil.py").exists() and not Path("/tmp/evil.py").exists()
    await client.send(submit("this is not base64 at all!"))
    assert (await client.reply(timeout=10))["code"] == "bad_zip"
    await client.close()


async def test_an_archive_over_the_servers_limit_is_refused(make_server, sandbox):
    server = await make_server(players=0, max_submission_bytes=4096)
    client = await submitter(server)
    text = base64.b64encode(bytes(6000)).decode()
    await client.send(submit(text))
    error = await client.reply()
    assert error["code"] == "submission_too_large" and "4096 bytes" in error["message"]
    await client.close()


async def test_with_a_roster_only_its_keys_may_hand_bots_in(make_server, sandbox):
    server = await make_server(players=0, roster={"k-alice": "Alice"})
    stranger = await Client.open(url(server))
    await stranger.send(hello("k-mallory", "submitter"))
    refused = await stranger.reply()
    assert (refused["code"], refused["frame_type"]) == ("unknown_key", "hello")
    assert await stranger.closed() == 1008
    alice = await submitter(server, "k-alice")
    await alice.send({"type": "submissions_request"})
    assert await alice.reply() == {"type": "submissions", "player": "Alice", "versions": []}
    await alice.close()


async def test_without_a_sandbox_submissions_are_refused_with_the_reason(make_server, sandbox, monkeypatch):
    monkeypatch.setattr(submission_desk, "sandbox_status", lambda: "bwrap (bubblewrap) is not installed: install it")
    server = await make_server(players=0)
    client = await submitter(server)
    await client.send(submit(archive(("mybot.py", BOT))))
    error = await client.reply(timeout=10)
    assert error["code"] == "sandbox_unavailable" and "bwrap (bubblewrap) is not installed" in error["message"]
    assert not sandbox.calls
    await client.close()


async def test_a_sandbox_that_fails_mid_validation_records_no_refusal_and_says_to_hand_in_again(make_server, sandbox):
    sandbox.verdict = Validation(accepted=False, cause="sandbox_unavailable", seconds=0.1,
                                 reason="the sandbox could not start the bot here (bwrap: Can't fork for pid 1)")
    server = await make_server(players=0)
    client = await submitter(server)
    await client.send(submit(archive(("mybot.py", BOT))))
    error = await client.reply(timeout=10)
    assert error["code"] == "sandbox_unavailable" and "hand it in again later" in error["message"]
    await client.send({"type": "submissions_request"})
    assert (await client.reply())["versions"] == []          # the student's bot was not refused: it was not judged
    await client.close()


async def test_unsafe_no_sandbox_validates_without_asking_for_bwrap(make_server, sandbox, monkeypatch):
    monkeypatch.setattr(submission_desk, "sandbox_status", lambda: "bwrap (bubblewrap) is not installed")
    server = await make_server(players=0, sandbox=SandboxLimits(unsafe=True))
    client = await submitter(server)
    await client.send(submit(archive(("mybot.py", BOT))))
    assert (await client.reply(timeout=10))["accepted"] is True
    await client.close()


async def test_one_bot_is_validated_at_a_time_and_a_full_queue_says_busy(make_server, sandbox):
    sandbox.gate = asyncio.Event()
    server = await make_server(players=0, submission_queue=1)
    alice, bob, carol = [await submitter(server, key) for key in ("alice", "bob", "carol")]
    await alice.send(submit(archive(("a.py", BOT))))
    await bounded(_until(lambda: len(sandbox.calls) == 1))
    await bob.send(submit(archive(("b.py", BOT))))           # waits behind alice's
    await bounded(_until(lambda: server.submissions.waiting == 2))
    await carol.send(submit(archive(("c.py", BOT))))         # one too many
    busy = await carol.reply()
    assert busy["code"] == "busy"
    assert len(sandbox.calls) == 1                           # bob's waits: one validation at a time
    sandbox.gate.set()
    assert (await alice.reply(timeout=10))["entry"] == "a.py"
    assert (await bob.reply(timeout=10))["entry"] == "b.py"
    for client in (alice, bob, carol):
        await client.close()


async def _until(condition) -> None:
    while not condition():
        await asyncio.sleep(0.01)


async def test_frames_of_other_roles_are_refused_both_ways(make_server, sandbox):
    server = await make_server(players=0)
    spectator = await Client.open(url(server))
    await spectator.send(hello("bob", "spectator"))
    await spectator.reply()
    await spectator.send(submit(archive(("mybot.py", BOT))))
    assert (await spectator.reply())["code"] == "not_a_submitter"
    await spectator.send({"type": "submissions_request"})
    assert (await spectator.reply())["code"] == "not_a_submitter"
    client = await submitter(server)
    for frame, code in (({"type": "step", "game": "g1", "turn": 0, "move": [5, 2]}, "not_a_player"),
                        ({"type": "watch", "game": "*"}, "not_a_spectator"),
                        ({"type": "puzzle_request", "room": "sokoban", "collection": "Microban", "index": 0},
                         "wrong_room"),
                        ({"type": "replays_request"}, "not_a_spectator")):
        await client.send(frame)
        assert (await client.reply())["code"] == code
    await client.send(hello("alice", "submitter"))
    assert (await client.reply())["code"] == "already_hello"
    await client.close()
    await spectator.close()


async def test_a_server_that_takes_more_than_the_default_takes_what_quoridor_submit_packs(make_server, sandbox,
                                                                                          tmp_path):
    """The client refuses only what no server takes: a server's own --max-submission-bytes decides the rest."""
    import os

    from client.submit_cli import pack_bot, parts_of
    from shared.protocol import MAX_SUBMISSION_BYTES, dump

    folder = tmp_path / "bigbot"
    folder.mkdir()
    (folder / "bot.py").write_bytes(BOT)
    (folder / "table.bin").write_bytes(os.urandom(MAX_SUBMISSION_BYTES + 300_000))     # does not compress
    data, entry = pack_bot(folder, None)
    assert MAX_SUBMISSION_BYTES < len(data) < 2 * 1024 * 1024
    server = await make_server(players=0, max_submission_bytes=2 * 1024 * 1024)
    client = await submitter(server)
    for frame in parts_of(data, entry):
        await client.send(dump(frame))
    report = await client.reply(timeout=20)
    assert (report["type"], report["accepted"]) == ("submitted", True)
    await client.close()


async def test_a_bot_handed_in_after_a_finals_freeze_is_told_it_does_not_play_in_it(make_server, sandbox):
    server = await make_server(players=4, format="final", players_from_submissions=True,
                               freeze_at="2020-01-01T00:00:00Z")
    run = asyncio.create_task(server.run_tournament())      # froze long ago: it waits for its seats
    try:
        async def frozen() -> None:
            while server.submissions.closed_at is None:
                await asyncio.sleep(0.01)
        await bounded(frozen(), 10)
        client = await submitter(server)
        await client.send(submit(archive(("mybot.py", BOT))))
        report = await client.reply(timeout=10)
        assert report["accepted"] and "took its bots at 2020-01-01T00:00:00Z" in report["note"]
        assert "does not play in it" in report["note"]
        await client.close()
    finally:
        run.cancel()
        await asyncio.gather(run, return_exceptions=True)


async def test_a_bot_handed_in_with_no_tournament_seated_has_no_note(make_server, sandbox):
    server = await make_server(players=0)
    client = await submitter(server)
    await client.send(submit(archive(("mybot.py", BOT))))
    assert (await client.reply(timeout=10))["note"] is None
    await client.close()

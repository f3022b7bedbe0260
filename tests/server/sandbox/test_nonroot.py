"""A server that is not root (the Dockerfile's ``USER arena``) takes hand-ins and plays its handed-in bots.

As root (CI) the server and ``quoridor-submit`` run as another user (``tests.server.sandbox.nonroot``);
not root, as the suite's own user. Skipped with the reason when no such user can be had, except
under ``QUORIDOR_REQUIRE_SANDBOX=1`` (``.ci/run``), where that fails.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.submissions.files import content_digest
from tests.server.sandbox.nonroot import NonRoot

ROOT = Path(__file__).resolve().parents[3]
BIN = Path(sys.executable).parent
#: Threads of the server's user besides the server (another server, a worker, a shell): more than the 32 processes
#: a sandbox may hold, which a process limit counting the user's processes, not the sandbox's, refused to start.
OTHER_TASKS = 40


@pytest.fixture
def user(sandbox) -> NonRoot:
    """The non-root user commands run as."""
    found = NonRoot.find()
    if isinstance(found, str):
        if os.environ.get("QUORIDOR_REQUIRE_SANDBOX") == "1":
            pytest.fail(f"QUORIDOR_REQUIRE_SANDBOX=1 but no non-root user to run the server as: {found}")
        pytest.skip(found)
    return found


@pytest.fixture
def data(user: NonRoot) -> Iterator[Path]:
    """A new data directory of the user's, in a folder it can reach (pytest's own is root's, mode 0700)."""
    folder = Path(tempfile.mkdtemp(prefix="quoridor-nonroot-"))
    user.own(folder)
    yield folder
    for path in [folder, *folder.rglob("*")]:
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o755)
    shutil.rmtree(folder)


def environment(home: Path) -> dict[str, str]:
    return {"PATH": f"{BIN}:/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8", "PYTHONPATH": str(ROOT)}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)


def test_a_non_root_store_keeps_a_hand_in_read_only(user: NonRoot, data: Path):
    files = {"bot.py": b"print('hi')\n", "lib/util.py": b"X = 1\n"}
    digest = content_digest(files, "bot.py")
    script = ("import sys; from pathlib import Path; from server.submissions.store import SubmissionStore; "
              f"print(SubmissionStore(Path({str(data)!r})).put_files({digest!r}, {files!r}))")
    done = user.run([sys.executable, "-c", script], env=environment(data), timeout=60)
    assert done.returncode == 0, done.stderr
    folder = Path(done.stdout.strip())
    assert folder == data / "submissions" / digest and (folder / "lib" / "util.py").read_bytes() == b"X = 1\n"
    modes = [oct(p.stat().st_mode & 0o777) for p in (folder, folder / "lib", folder / "bot.py")]
    assert modes == ["0o555", "0o555", "0o444"]
    assert [p.name for p in (data / "submissions").iterdir()] == [digest]      # no staging folder left


def test_a_non_root_server_accepts_hand_ins_and_plays_its_handed_in_bots(user: NonRoot, data: Path, tmp_path: Path):
    env = environment(data)
    port = free_port()
    busy = user.popen([sys.executable, "-c", "import threading, time\n"
                       f"for _ in range({OTHER_TASKS}): threading.Thread(target=time.sleep, args=(300,), "
                       "daemon=True).start()\nprint('busy', flush=True)\ntime.sleep(300)"],
                      env=env, output=tmp_path / "busy.txt")
    server = user.popen([str(BIN / "quoridor-server"), "--host", "127.0.0.1", "-p", str(port), "-n", "3",
                         "--players-from-submissions", "--data-dir", str(data), "--view", "plain"],
                        env=env, output=tmp_path / "server.txt")
    try:
        for key in ("k-ana", "k-bo", "k-cy"):
            handed = user.run([str(BIN / "quoridor-submit"), str(ROOT / "examples" / "my_first_bot.py"), "-k", key,
                               "--entry", ":MyPlayer", "--server", f"ws://127.0.0.1:{port}/", "--wait", "30"],
                              env=env, timeout=180)
            assert handed.returncode == 0, handed.stdout + handed.stderr + (tmp_path / "server.txt").read_text()
            assert handed.stdout.strip().splitlines()[-1].startswith("accepted: version ")
        server.wait(timeout=240)               # the round robin of the three handed-in bots, then the server ends
        said = (tmp_path / "server.txt").read_text()
        assert server.returncode == 0, said
        results = json.loads(next(data.glob("*/results.json")).read_text())
        games = results["games"]
        assert len(games) == 3, said
        assert all(game["reason"] == "goal" for game in games), said           # every bot started and played
    finally:
        stop(server)
        stop(busy)


FORK_BOMB = '''from client.player import Player


class Bomb(Player):
    def __init__(self, key=""):
        super().__init__(key)
        import os, time
        forked = 0
        try:
            for _ in range(1000):
                if os.fork() == 0:
                    time.sleep(60)
                    os._exit(0)
                forked += 1
        except BlockingIOError:
            raise RuntimeError(f"forked {forked} then refused") from None

    def next_step(self, change):
        return None
'''


def test_a_fork_bomb_under_a_non_root_server_gets_the_sandboxs_own_allowance(user: NonRoot, data: Path,
                                                                             tmp_path: Path):
    bot = data / "bomb"
    bot.mkdir(mode=0o755)
    (bot / "bot.py").write_text(FORK_BOMB)
    (bot / "bot.py").chmod(0o644)
    env = environment(data)
    busy = user.popen([sys.executable, "-c", "import threading, time\n"
                       f"for _ in range({OTHER_TASKS}): threading.Thread(target=time.sleep, args=(300,), "
                       "daemon=True).start()\nprint('busy', flush=True)\ntime.sleep(300)"],
                      env=env, output=tmp_path / "busy.txt")
    script = ("import asyncio; from pathlib import Path; from server.sandbox import SandboxLimits, validate_bot\n"
              f"v = asyncio.run(validate_bot(Path({str(bot)!r}), 'bot.py', SandboxLimits(startup_timeout_s=10, "
              "cpu_seconds=20)))\nprint(v.cause); print(v.reason)")
    try:
        done = user.run([sys.executable, "-c", script], env=env, timeout=120)
    finally:
        stop(busy)
    assert done.returncode == 0, done.stderr
    cause, reason = done.stdout.strip().splitlines()[:2]
    assert cause == "init_error", reason
    forked = int(reason.split("forked ")[1].split()[0])
    # The sandbox's init and the bot are two of its 32: the user's 40 other threads are not counted, nor exceeded.
    assert 20 <= forked <= 30, reason

"""The sandbox's command line, its rlimits and the causes of an exit: pure functions, checked as text."""

from __future__ import annotations

import resource
import signal
import threading
from types import SimpleNamespace

import pytest

from server.sandbox import CAUSES, BotEnd, SandboxLayout, SandboxLimits, bwrap, bwrap_argv, classify_exit, rlimits
from server.sandbox.bwrap import kernel_counts, nproc_per_namespace
from shared.hosting import EXIT_CODES

LAYOUT = SandboxLayout(python="/opt/venv/bin/python", runtime=("/opt/py/3.11", "/opt/venv"),
                       packages=("/srv/arena/shared", "/srv/arena/client"))


def binds(argv: list[str]) -> list[tuple[str, str, str]]:
    return [(argv[i], argv[i + 1], argv[i + 2]) for i, a in enumerate(argv) if a in ("--ro-bind", "--bind")]


def test_the_sandbox_sees_the_runtime_its_packages_and_its_own_folder_only_and_all_read_only():
    argv = bwrap_argv(LAYOUT, "/data/bots/abc", ["/opt/venv/bin/python", "-m", "client.hosted", "bot.py"],
                      SandboxLimits(), uid=100_007)
    assert binds(argv) == [("--ro-bind", "/usr", "/usr"), ("--ro-bind", "/opt/py/3.11", "/opt/py/3.11"),
                           ("--ro-bind", "/opt/venv", "/opt/venv"),
                           ("--ro-bind", "/srv/arena/shared", "/arena/shared"),
                           ("--ro-bind", "/srv/arena/client", "/arena/client"), ("--ro-bind", "/data/bots/abc", "/bot")]
    assert "/etc" not in argv and "--bind" not in argv and "--share-net" not in argv
    for flag in ("--unshare-net", "--unshare-pid", "--unshare-ipc", "--die-with-parent", "--new-session", "--clearenv"):
        assert flag in argv
    tmp = argv.index("--tmpfs")
    assert argv[tmp + 1] == "/tmp" and argv[tmp - 4:tmp - 2] == ["--size", str(16 * 1024 * 1024)]
    command = argv[argv.index("--") + 1:]
    assert command[:5] == ["/usr/bin/setpriv", "--reuid", "100007", "--regid", "100007"]
    assert command[-4:] == ["/opt/venv/bin/python", "-m", "client.hosted", "bot.py"]


def test_the_folders_above_a_bound_path_are_made_readable():
    argv = bwrap_argv(LAYOUT, None, ["python"], SandboxLimits(), uid=1)
    made = [argv[i + 3] for i, a in enumerate(argv) if a == "--perms" and argv[i + 2] == "--dir"]
    assert made[:2] == ["/opt", "/opt/py"] and "/arena" in made and "/bot" in made


def test_a_runtime_that_lives_under_tmp_is_bound_over_the_private_tmp_not_hidden_by_it():
    layout = SandboxLayout("/tmp/ci/main/.venv/bin/python", ("/opt/py/3.11", "/tmp/ci/main/.venv"),
                           ("/tmp/ci/main/shared", "/tmp/ci/main/client"))
    argv = bwrap_argv(layout, None, ["python"], SandboxLimits(), uid=1)
    tmpfs = argv.index("--tmpfs")
    venv = argv.index("/tmp/ci/main/.venv")
    assert argv[tmpfs + 1] == "/tmp" and argv[venv - 1] == "--ro-bind" and tmpfs < venv


def test_without_root_the_bot_keeps_the_servers_user_in_a_user_namespace():
    layout = SandboxLayout(LAYOUT.python, LAYOUT.runtime, LAYOUT.packages, switch_user=False)
    argv = bwrap_argv(layout, None, ["python"], SandboxLimits(), uid=0)
    assert "--unshare-user" in argv and "/usr/bin/setpriv" not in argv and "--cap-add" not in argv


@pytest.mark.parametrize("root", [True, False])
def test_the_process_limit_is_set_inside_the_sandbox_just_before_the_bot_host(root: bool):
    layout = SandboxLayout(LAYOUT.python, LAYOUT.runtime, LAYOUT.packages, switch_user=root)
    argv = bwrap_argv(layout, None, ["python", "-m", "client.hosted", "bot.py"], SandboxLimits(processes=12), uid=7)
    assert argv[-7:] == ["/usr/bin/prlimit", "--nproc=12:12", "--", "python", "-m", "client.hosted", "bot.py"]
    assert argv.index("/usr/bin/prlimit") > argv.index("--")        # run by the sandbox's user, not by bubblewrap


def test_where_the_kernel_counts_the_users_tasks_the_limit_adds_those_there_are(monkeypatch):
    layout = SandboxLayout(LAYOUT.python, LAYOUT.runtime, LAYOUT.packages, switch_user=False, counted_outside=40)
    argv = bwrap_argv(layout, None, ["python"], SandboxLimits(processes=32), uid=0)
    assert argv[-4:] == ["/usr/bin/prlimit", "--nproc=72:72", "--", "python"]
    assert [nproc_per_namespace(r) for r in ("5.10.0-21-amd64", "4.19.0", "5.14.0-70.el9", "6.1.0-18-amd64", "x")] == [
        False, False, True, True, False]
    monkeypatch.setattr(bwrap.os, "uname", lambda: SimpleNamespace(release="5.10.0-21-amd64"))
    assert kernel_counts(root=True) == 0                          # a user of its own: only the bot's tasks count
    assert kernel_counts(root=False) >= threading.active_count()  # this process's threads are the user's
    monkeypatch.setattr(bwrap.os, "uname", lambda: SimpleNamespace(release="6.1.0-18-amd64"))
    assert kernel_counts(root=False) == 0                         # counted per user namespace: the sandbox's own


def test_rlimits_follow_the_limits():
    table = {which: (soft, hard) for which, soft, hard in rlimits(SandboxLimits(address_space_mb=128, cpu_seconds=9))}
    assert table[resource.RLIMIT_AS] == (128 * 1024 * 1024,) * 2
    assert table[resource.RLIMIT_CPU] == (9, 10)          # SIGXCPU first, SIGKILL a second later
    assert table[resource.RLIMIT_NOFILE] == (64, 64)
    assert resource.RLIMIT_NPROC not in table          # set inside the sandbox (bwrap_argv), where it counts its own
    assert table[resource.RLIMIT_FSIZE] == (8 * 1024 * 1024,) * 2


def test_limits_refuse_nonsense():
    with pytest.raises(ValueError, match="address_space_mb"):
        SandboxLimits(address_space_mb=0)


@pytest.mark.parametrize(("cause", "code"), sorted(EXIT_CODES.items()))
def test_each_exit_code_of_the_host_is_told_as_its_cause_with_the_hosts_line(cause, code):
    line = f"{cause}: bot.py:3: why"
    expected = BotEnd("crashed", line) if cause == "usage" else BotEnd(cause, "bot.py:3: why")   # usage: bad arguments
    assert classify_exit(code, line) == expected and expected.cause in CAUSES


@pytest.mark.parametrize(("code", "line", "expected"), [
    (0, "", "ok"),
    (10, "syntax_error: bot.py:3: importing bot.py raised SyntaxError: invalid syntax", "syntax_error"),
    (14, "memory_limit: next_step raised MemoryError", "memory_limit"),
    (128 + signal.SIGXCPU, "", "cpu_limit"),
    (-signal.SIGXCPU, "", "cpu_limit"),
    (1, "MemoryError", "memory_limit"),
    (128 + signal.SIGSEGV, "", "crashed"),
    (1, "ZeroDivisionError: division by zero", "crashed"),
    (1, "bwrap: Creating new namespace failed: Operation not permitted", "sandbox_unavailable"),   # not the bot's
])
def test_an_exit_is_told_by_its_code_signal_and_last_line(code, line, expected):
    assert classify_exit(code, line, cpu_limit_s=300, address_space_mb=256).cause == expected


def test_the_servers_own_stop_wins_and_reasons_drop_the_repeated_code():
    stopped = BotEnd("output_limit", "printed more than 1,048,576 bytes")
    assert classify_exit(137, "", stopped=stopped) is stopped
    assert classify_exit(13, "init_error: bot.py:5: creating the bot A raised ValueError: boom").reason == \
        "bot.py:5: creating the bot A raised ValueError: boom"
    assert str(classify_exit(128 + signal.SIGSEGV, "")) == "crashed: killed by SIGSEGV"

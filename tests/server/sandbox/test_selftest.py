"""The sandbox closed further, and its self-test: hostile probes in the real sandbox, judged one line each.

The probe bot (client/sandbox_probe.py) tries, from inside bubblewrap, what the sandbox must refuse:
the network, the host's files, a fork bomb, a thread that computes between turns, ptrace, a new user
namespace, mount, keyctl, bpf; it reads its capabilities, its environment and /proc/1/cmdline.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from server.queue import worker_cli
from server.sandbox.bwrap import SandboxLayout, bwrap_argv, bwrap_launch
from server.sandbox.limits import SandboxLimits
from server.sandbox.process import project_root
from server.sandbox.status import sandbox_status
from server.sandbox.seccomp import REFUSED, SeccompUnavailable, bot_filter
from server.sandbox.selftest import (
    CONTAINED, NOT_CHECKED, NOT_CONTAINED, ProbeResult, ProbeTargets, SelfTest, freezer_in_build, judge, run_self_test,
)
from tests.server.conftest import bounded

LAYOUT = SandboxLayout(python="/opt/venv/bin/python", runtime=("/opt/py/3.11", "/opt/venv"),
                       packages=("/srv/arena/shared", "/srv/arena/client"))
COMMAND = ["/opt/venv/bin/python", "-m", "client.hosted", "bot.py"]
TARGETS = ProbeTargets(4242, ("/host/secret.txt", "/srv/arena/server/app.py"), ("/bot", "/usr"),
                       ("/srv/arena/shared", "/data/bots/abc"))
PROBES = ["network", "files of the host", "fork bomb", "threads off-turn", "ptrace", "user namespaces",
          "mount, keyctl, bpf", "capabilities", "environment", "/proc/1/cmdline"]


# -- the command line ------------------------------------------------------------------------------------------
def test_as_root_bubblewrap_keeps_only_what_setpriv_needs_and_setpriv_empties_the_bounding_set():
    argv = bwrap_argv(LAYOUT, None, COMMAND, SandboxLimits(), uid=100_007)
    caps = [(argv[i], argv[i + 1]) for i, a in enumerate(argv) if a in ("--cap-add", "--cap-drop")]
    assert caps == [("--cap-drop", "ALL"), ("--cap-add", "CAP_SETUID"), ("--cap-add", "CAP_SETGID"),
                    ("--cap-add", "CAP_SETPCAP")]
    command = argv[argv.index("--") + 1:]
    assert "--bounding-set=-all" in command and "--inh-caps=-all" in command


def test_the_sandboxs_root_is_made_read_only_after_every_folder_is_in_place():
    argv = bwrap_argv(LAYOUT, "/data/bots/abc", COMMAND, SandboxLimits(), uid=1)
    made = [i for i, a in enumerate(argv) if a in ("--dir", "--ro-bind", "--symlink", "--tmpfs", "--proc", "--dev")]
    assert argv[argv.index("--remount-ro") + 1] == "/" and argv.index("--remount-ro") > max(made)


def test_the_filter_goes_to_bubblewrap_and_the_environment_is_only_the_sandboxs_own():
    argv = bwrap_argv(LAYOUT, None, COMMAND, SandboxLimits(), uid=1, seccomp_fd=9)
    assert argv[argv.index("--seccomp") + 1] == "9" and argv.index("--seccomp") < argv.index("--")
    assert "--clearenv" in argv
    assert {argv[i + 1] for i, a in enumerate(argv) if a == "--setenv"} == {"PYTHONPATH", "PYTHONDONTWRITEBYTECODE",
                                                                            "HOME", "LANG"}


def test_the_options_and_their_host_paths_reach_bubblewrap_through_a_memory_file_not_its_command_line():
    launch = bwrap_launch(LAYOUT, "/data/bots/abc", COMMAND, SandboxLimits(), 1, b"\x06\x00\x00\x00\x00\x00\xff\x7f")
    try:
        args_fd = int(launch.argv[2])
        assert os.path.basename(launch.argv[0]) == "bwrap" and launch.argv[1] == "--args" and launch.argv[3] == "--"
        shown = " ".join(launch.argv)
        assert "/data/bots/abc" not in shown and "/srv/arena" not in shown and "/opt/py" not in shown
        options = os.pread(args_fd, 1 << 16, 0).split(b"\0")
        assert options[-1] == b"" and b"--" not in options          # the command stays on the command line
        assert [b"--ro-bind", b"/data/bots/abc", b"/bot"] == options[options.index(b"/data/bots/abc") - 1:][:3]
        filter_fd = int(options[options.index(b"--seccomp") + 1])
        assert set(launch.fds) == {args_fd, filter_fd}
        assert os.pread(filter_fd, 64, 0) == b"\x06\x00\x00\x00\x00\x00\xff\x7f"
    finally:
        launch.close()
    with pytest.raises(OSError):
        os.fstat(args_fd)


def test_the_filter_compiles_every_refused_call_into_whole_bpf_instructions():
    program = bot_filter()
    assert len(program) % 8 == 0 and len(program) // 8 > len(REFUSED)     # at least one jump per refused call
    assert {"unshare", "ptrace", "mount", "keyctl", "bpf", "setns"} <= set(REFUSED)


# -- the judge ---------------------------------------------------------------------------------------------------
def open_sandbox_report() -> dict:
    """What the probe sees with no sandbox at all (run as root, without the filter)."""
    return {
        "network": {"connected": ["127.0.0.1:4242", "1.1.1.1:80"], "interfaces": ["lo", "eth0"]},
        "files": {"read": ["/host/secret.txt"], "written": ["/usr"]},
        "fork_bomb": {"tried": 200, "forked": 200, "refused": ""},
        "ptrace": {"init": "EPERM", "child": "allowed"},
        "kernel": {"unshare_user": "allowed", "mount": "EPERM", "keyctl": "allowed", "bpf": "EPERM"},
        "status": {"CapInh": "0000000000000000", "CapPrm": "0000000000000000", "CapEff": "0000000000000000",
                   "CapAmb": "0000000000000000", "CapBnd": "000001ffffffffff", "NoNewPrivs": "1", "Seccomp": "0"},
        "environment": ["HOME", "LANG", "PWD", "REDIS_PASSWORD"],
        "init_environ": "unreadable (EACCES)",
        "init_cmdline": "bwrap --ro-bind /srv/arena/shared /arena/shared --ro-bind /data/bots/abc /bot",
        "fds": {"0": "pipe:[1]", "5": "/memfd:bot-args (deleted)"},
        "turns": {"on_ticks": 1000, "on_s": 0.5, "off_ticks": 900, "off_s": 0.5, "steps": 5},
    }


@pytest.mark.parametrize("freezer", [True, False])
def test_each_escape_is_told_not_contained_with_what_the_probe_saw(freezer: bool):
    results = {r.name: r for r in judge(open_sandbox_report(), TARGETS, root=True, freezer=freezer)}
    assert list(results) == PROBES
    escaped = set(PROBES) if freezer else set(PROBES) - {"threads off-turn"}
    assert {name for name, r in results.items() if r.status == NOT_CONTAINED} == escaped
    assert results["threads off-turn"].status == (NOT_CONTAINED if freezer else NOT_CHECKED)
    assert "90%" in results["threads off-turn"].saw
    assert results["network"].saw == "connected to 127.0.0.1:4242, 1.1.1.1:80"
    assert results["ptrace"].saw == "init: EPERM, child: allowed"
    assert "REDIS_PASSWORD" in results["environment"].saw
    assert "/srv/arena/shared, /data/bots/abc" in results["/proc/1/cmdline"].saw
    assert "memfd:bot-args" in results["/proc/1/cmdline"].saw
    outcome = SelfTest("header", tuple(results.values()))
    assert outcome.exit_code == 1
    assert outcome.lines()[-1].startswith(f"{len(escaped)} of 10 probes NOT contained: do not play handed-in bots")


def test_without_root_a_bounding_set_in_the_bots_own_user_namespace_is_no_escape():
    report = open_sandbox_report()
    assert judge(report, TARGETS, root=False, freezer=True)[7].status == CONTAINED
    report["status"]["CapEff"] = "0000000000000001"
    assert judge(report, TARGETS, root=False, freezer=True)[7].status == NOT_CONTAINED


def test_a_probe_not_checked_does_not_fail_the_self_test_but_is_counted():
    outcome = SelfTest("header", (ProbeResult("network", CONTAINED, "none"),
                                  ProbeResult("threads off-turn", NOT_CHECKED, "the freezer is not in this build")))
    assert outcome.exit_code == 0
    assert outcome.lines()[1:] == ["contained      network: none",
                                   "not checked    threads off-turn: the freezer is not in this build",
                                   "all 1 probes checked were contained (1 not checked)"]


# -- the real sandbox ----------------------------------------------------------------------------------------------
@pytest.mark.usefixtures("sandbox")
async def test_every_probe_is_contained_by_this_machines_sandbox(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "arena.db").write_text("results")
    os.chmod(data / "arena.db", 0o644)
    outcome = await bounded(run_self_test(SandboxLimits(startup_timeout_s=10), data_dir=data, scratch=tmp_path), 90)
    results = {r.name: r for r in outcome.results}
    assert list(results) == PROBES, outcome.lines()
    expected = {name: CONTAINED for name in PROBES}
    if not freezer_in_build():
        expected["threads off-turn"] = NOT_CHECKED
    assert {name: r.status for name, r in results.items()} == expected, "\n".join(outcome.lines())
    assert outcome.exit_code == 0
    # What the filter answers: EPERM for each refused call, a bot's own child included.
    assert results["ptrace"].saw == "init: EPERM, child: EPERM"
    assert results["user namespaces"].saw == "unshare(CLONE_NEWUSER): EPERM"
    assert results["mount, keyctl, bpf"].saw.startswith("mount: EPERM, keyctl: EPERM, bpf: EPERM (seccomp mode 2)")
    if os.geteuid() == 0:
        assert "CapBnd 0000000000000000" in results["capabilities"].saw
    assert "bwrap --args" in results["/proc/1/cmdline"].saw
    assert not list(tmp_path.glob("quoridor-selftest-*"))          # the test's files are gone


# -- the commands ---------------------------------------------------------------------------------------------------
def canned(status: str):
    async def run(limits, *, data_dir=None, scratch=None):
        run.limits, run.data_dir = limits, data_dir
        return SelfTest("sandbox self-test on host", (ProbeResult("ptrace", status, "init: EPERM, child: EPERM"),))
    return run


@pytest.mark.parametrize(("status", "code"), [(CONTAINED, 0), (NOT_CONTAINED, 1)])
def test_the_worker_runs_the_self_test_without_a_queue_and_exits_0_only_when_contained(monkeypatch, capsys,
                                                                                       status, code):
    run = canned(status)
    monkeypatch.setattr("server.sandbox.selftest.run_self_test", run)
    assert worker_cli.main(["--self-test"]) == code
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "sandbox self-test on host" and lines[1] == f"{status:<14} ptrace: init: EPERM, child: EPERM"
    assert run.limits == SandboxLimits()


def test_the_worker_still_needs_a_queue_to_play(capsys):
    assert worker_cli.main([]) == 2
    assert "--queue URL is required" in capsys.readouterr().err


def test_the_server_runs_the_self_test_with_its_sandbox_limits_and_data_folder(monkeypatch, capsys, tmp_path):
    from server.cli import main
    run = canned(CONTAINED)
    monkeypatch.setattr("server.sandbox.selftest.run_self_test", run)
    assert main(["--sandbox-self-test", "--data-dir", str(tmp_path)]) == 0
    assert run.data_dir == tmp_path and run.limits == SandboxLimits()
    assert capsys.readouterr().out.splitlines()[-1] == "all 1 probes checked were contained"


def test_no_sandbox_here_is_one_line_and_exit_code_4(monkeypatch, capsys):
    monkeypatch.setattr("server.sandbox.selftest.sandbox_status", lambda: "bwrap (bubblewrap) is not installed")
    assert worker_cli.main(["--self-test"]) == 4
    assert capsys.readouterr().err == ("quoridor-worker: the sandbox does not work on this machine: "
                                       "bwrap (bubblewrap) is not installed\n")


def test_the_self_test_never_runs_its_probes_without_the_sandbox(monkeypatch, capsys):
    from server.cli import main
    monkeypatch.setattr("server.sandbox.selftest.run_self_test", None)     # never reached
    assert main(["--unsafe-no-sandbox", "--sandbox-self-test"]) == 2
    assert capsys.readouterr().err.startswith("quoridor-server: the self-test checks the sandbox, and "
                                              "--unsafe-no-sandbox runs without one")
    assert worker_cli.main(["--self-test", "--unsafe-no-sandbox"]) == 2


# -- without root -----------------------------------------------------------------------------------------------------
@pytest.mark.usefixtures("sandbox")
def test_without_root_every_probe_is_contained_too(tmp_path):
    """As a user of its own (the Dockerfile's USER arena) the bot owns its user namespace: the sandbox's root is
    read-only (it could fill the host's memory with files there) and bubblewrap's init has no environment to show."""
    from tests.server.sandbox.nonroot import NonRoot   # the non-root tests' helper: a user and its command prefix
    user = NonRoot.find()
    if isinstance(user, str):
        if os.environ.get("QUORIDOR_REQUIRE_SANDBOX") == "1":
            pytest.fail(f"QUORIDOR_REQUIRE_SANDBOX=1 but no non-root user to run the self-test as: {user}")
        pytest.skip(user)
    home = tempfile.mkdtemp(prefix="quoridor-selftest-home-")
    try:
        user.own(Path(home))
        env = {"PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", "PYTHONPATH": str(project_root())}
        done = user.run([sys.executable, "-m", "server.queue.worker_cli", "--self-test"], env=env, timeout=120)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "as uid" in lines[0] and lines[-1].startswith("all ")
    assert any(line.startswith("contained      files of the host: none of") for line in lines)
    assert any(line.startswith("contained      environment: ") and line.endswith("/proc/1/environ empty")
               for line in lines)


def test_without_libseccomp_the_sandbox_says_so_in_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyseccomp", None)          # the binding (or libseccomp.so.2) cannot be loaded
    with pytest.raises(SeccompUnavailable) as failed:
        bot_filter.__wrapped__()
    said = str(failed.value)
    assert said.startswith("the system-call filter needs libseccomp") and "apt-get install libseccomp2" in said
    assert "\n" not in said


@pytest.mark.usefixtures("sandbox")
def test_a_machine_without_the_filter_has_no_sandbox(monkeypatch):
    def missing() -> bytes:
        raise SeccompUnavailable("the system-call filter needs libseccomp (no libseccomp.so.2)")
    monkeypatch.setattr("server.sandbox.status.bot_filter", missing)
    assert sandbox_status.__wrapped__() == "the system-call filter needs libseccomp (no libseccomp.so.2)"

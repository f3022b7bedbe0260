"""The sandbox's self-test: hostile probes run in the real sandbox, one line each, contained or not.

``quoridor-worker --self-test`` and ``quoridor-server --sandbox-self-test`` hand in two copies of the
probe bot (``client/sandbox_probe.py``) and play one short game between them, with this machine's
sandbox and limits, exactly as a handed-in bot plays. Each copy tries the network (the host's port on
127.0.0.1, public addresses), the host's files (a file made for the test, the project's code, the data
folder), a fork bomb, ``ptrace``, a new user namespace, ``mount``, ``keyctl`` and ``bpf``; it reads
its capabilities, its environment and its sandbox's ``/proc/1/cmdline``, and a thread of it spins
through the game. ``judge`` reads what the probe saw (pure): an organiser checks a new machine before
it plays, and the command exits 0 only when every probe was contained.
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared.referee import RefereeSettings

from server.sandbox.host import BotEntry, GameSpec, Pairing, play_pairing
from server.sandbox.limits import SandboxLimits
from server.sandbox.process import HostedBot, SandboxUnavailable, project_root
from server.sandbox.status import sandbox_status

__all__ = ["CONTAINED", "NOT_CONTAINED", "NOT_CHECKED", "ProbeResult", "ProbeTargets", "SelfTest", "judge",
           "freezer_in_build", "run_self_test", "self_test_main", "ALLOWED_ENVIRONMENT", "REPORT_PREFIX",
           "UNSAFE_REFUSAL"]

CONTAINED, NOT_CONTAINED, NOT_CHECKED = "contained", "NOT contained", "not checked"
#: The environment a bot may see (``bwrap_argv``'s ``--setenv``, and ``PWD``, which ``--chdir`` sets): nothing
#: of the server's.
ALLOWED_ENVIRONMENT = frozenset({"PYTHONPATH", "PYTHONDONTWRITEBYTECODE", "HOME", "LANG", "PWD"})
#: How the probe's report line starts (``client.sandbox_probe.REPORT_PREFIX``: the server may not import the client).
REPORT_PREFIX = "SANDBOX-PROBE "
#: The probe's spinning thread may run at most this share of its on-turn speed between turns to count as frozen.
FROZEN_SHARE = 0.25
_STEP_CAP = 6
_EXIT_NOT_CONTAINED, _EXIT_USAGE, _EXIT_NO_SANDBOX = 1, 2, 4
#: Why the self-test never runs its probes without the sandbox.
UNSAFE_REFUSAL = ("the self-test checks the sandbox, and --unsafe-no-sandbox runs without one: its probes would "
                  "mount, ptrace and write on this machine itself; run it without --unsafe-no-sandbox")
_CAPABILITIES = ("CapInh", "CapPrm", "CapEff", "CapAmb", "CapBnd")


@dataclass(frozen=True)
class ProbeResult:
    """One probe's verdict: its name, ``contained`` / ``NOT contained`` / ``not checked``, and what it saw."""

    name: str
    status: str
    saw: str

    def line(self) -> str:
        """The line the self-test prints for it."""
        return f"{self.status:<14} {self.name}: {self.saw}"


@dataclass(frozen=True)
class ProbeTargets:
    """What the probe is pointed at on the host, and what must never show inside."""

    #: A port listening on the host's 127.0.0.1 for the whole test.
    port: int
    #: Files of the host the probe tries to read (all readable by any user of the host).
    read: tuple[str, ...]
    #: Folders the probe tries to write into (all but its private /tmp).
    write: tuple[str, ...]
    #: The host's paths that must not be seen inside (the project's packages, the bot's folder, the data folder;
    #: not the interpreter's, which is bound at its own path).
    host_paths: tuple[str, ...]

    def for_probe(self) -> dict[str, Any]:
        """The ``probe.json`` the probe reads."""
        return {"port": self.port, "read": list(self.read), "write": list(self.write)}


@dataclass(frozen=True)
class SelfTest:
    """The whole run: the machine it ran on, each probe's verdict, and the exit code."""

    header: str
    results: tuple[ProbeResult, ...]

    @property
    def contained(self) -> bool:
        """True when no probe got out (``not checked`` ones, features not in this build, do not count)."""
        return bool(self.results) and all(r.status != NOT_CONTAINED for r in self.results)

    @property
    def exit_code(self) -> int:
        """0 when every probe was contained, 1 otherwise."""
        return 0 if self.contained else _EXIT_NOT_CONTAINED

    def lines(self) -> list[str]:
        """What the command prints: the header, a line per probe, and the summary."""
        bad = sum(r.status == NOT_CONTAINED for r in self.results)
        unchecked = sum(r.status == NOT_CHECKED for r in self.results)
        summary = (f"{bad} of {len(self.results)} probes NOT contained: do not play handed-in bots on this machine"
                   if bad else f"all {len(self.results) - unchecked} probes checked were contained"
                   + (f" ({unchecked} not checked)" if unchecked else ""))
        return [self.header, *(r.line() for r in self.results), summary]


def freezer_in_build() -> bool:
    """True when this build stops a hosted bot between its turns (``HostedBot.freeze``)."""
    return callable(getattr(HostedBot, "freeze", None))


def _verdict(name: str, ok: bool, saw: str) -> ProbeResult:
    return ProbeResult(name, CONTAINED if ok else NOT_CONTAINED, saw)


def _listed(items: Sequence[str]) -> str:
    return ", ".join(items) if items else "none"


def judge(report: Mapping[str, Any], targets: ProbeTargets, *, root: bool, freezer: bool) -> list[ProbeResult]:
    """The verdict on each probe from the probe's report (``root``: the server runs as root; ``freezer``: this build
    freezes bots between turns)."""
    results = []
    net = report["network"]
    results.append(_verdict("network", not net["connected"],
                            f"connected to {_listed(net['connected'])}" if net["connected"] else
                            f"no connection to 127.0.0.1:{targets.port}, 1.1.1.1:80, 8.8.8.8:53 "
                            f"(interfaces: {_listed(net['interfaces'])})"))
    files = report["files"]
    leaks = [*files["read"], *(f"{path} (written)" for path in files["written"])]
    results.append(_verdict("files of the host", not leaks,
                            f"reached {_listed(leaks)}" if leaks else
                            f"none of {len(targets.read)} host files readable, none of {len(targets.write)} "
                            "folders writable"))
    bomb = report["fork_bomb"]
    results.append(_verdict("fork bomb", bomb["forked"] < bomb["tried"],
                            f"started {bomb['forked']} of {bomb['tried']} processes"
                            + (f", then refused ({bomb['refused']})" if bomb["refused"] else "")))
    results.append(_off_turn(report.get("turns", {}), freezer))
    trace = report["ptrace"]
    results.append(_verdict("ptrace", all(v != "allowed" for v in trace.values()),
                            ", ".join(f"{who}: {outcome}" for who, outcome in trace.items())))
    kernel = report["kernel"]
    results.append(_verdict("user namespaces", kernel["unshare_user"] != "allowed",
                            f"unshare(CLONE_NEWUSER): {kernel['unshare_user']}"))
    calls = {name: kernel[name] for name in ("mount", "keyctl", "bpf")}
    results.append(_verdict("mount, keyctl, bpf", all(v != "allowed" for v in calls.values()),
                            ", ".join(f"{k}: {v}" for k, v in calls.items())
                            + f" (seccomp mode {report['status'].get('Seccomp', '?')})"))
    results.append(_capabilities(report["status"], root))
    extra = sorted(set(report["environment"]) - ALLOWED_ENVIRONMENT)
    environ = report["init_environ"]
    environ_leak = not environ.startswith("unreadable") and bool(environ)
    results.append(_verdict("environment", not extra and not environ_leak,
                            (f"variables beyond the sandbox's own: {_listed(extra)}; " if extra else
                             f"only {_listed(sorted(report['environment']))}; ")
                            + (f"/proc/1/environ shows {environ[:80]!r}" if environ_leak else
                               f"/proc/1/environ {environ or 'empty'}")))
    results.append(_cmdline(report, targets))
    return results


def _off_turn(turns: Mapping[str, Any], freezer: bool) -> ProbeResult:
    name = "threads off-turn"
    on_s, off_s = turns.get("on_s", 0.0), turns.get("off_s", 0.0)
    if not on_s or not off_s or not turns.get("on_ticks"):
        return ProbeResult(name, NOT_CHECKED if not freezer else NOT_CONTAINED,
                           "the probe played too few turns to measure its thread")
    share = (turns["off_ticks"] / off_s) / (turns["on_ticks"] / on_s)
    saw = (f"between its {turns['steps']} turns its spinning thread ran at {share:.0%} of its speed during them "
           f"({off_s:.2f} s off turn)")
    if not freezer:
        return ProbeResult(name, NOT_CHECKED, f"the freezer is not in this build ({saw})")
    return _verdict(name, share <= FROZEN_SHARE, saw)


def _capabilities(status: Mapping[str, str], root: bool) -> ProbeResult:
    held = {name: status.get(name, "?") for name in _CAPABILITIES}
    live = [name for name in ("CapInh", "CapPrm", "CapEff", "CapAmb") if held[name].strip("0")]
    bounding = held["CapBnd"].strip("0")
    nnp = status.get("NoNewPrivs", "?")
    saw = ", ".join(f"{name} {value}" for name, value in held.items()) + f", NoNewPrivs {nnp}"
    # Without root the bot is an ordinary user in a user namespace of its own: a bounding set there grants nothing
    # on the host, and no new user namespace can be made (the filter).
    ok = not live and nnp == "1" and (not bounding or not root)
    return _verdict("capabilities", ok, saw)


def _cmdline(report: Mapping[str, Any], targets: ProbeTargets) -> ProbeResult:
    shown = report["init_cmdline"]
    fds = report["fds"]
    seen = [path for path in targets.host_paths if path in shown or any(path in t for t in fds.values())]
    passed = [f"fd {n} -> {t}" for n, t in sorted(fds.items()) if "memfd:" in t]
    return _verdict("/proc/1/cmdline", not seen and not passed,
                    (f"shows host paths {_listed(seen)}; " if seen else "no host path; ")
                    + (f"open: {_listed(passed)}; " if passed else "")
                    + f"init shows {shown[:160]!r}")


def read_report(output: str) -> dict[str, Any] | None:
    """The probe's last report in its stderr ``output`` (``None`` when it printed none)."""
    for line in reversed(output.splitlines()):
        if line.startswith(REPORT_PREFIX):
            try:
                found = json.loads(line[len(REPORT_PREFIX):])
            except ValueError:
                return None
            return found if isinstance(found, dict) else None
    return None


def _bwrap_version() -> str:
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return "no bubblewrap"
    try:
        done = subprocess.run([bwrap, "--version"], capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return "bubblewrap (version unknown)"
    return done.stdout.strip() or "bubblewrap (version unknown)"


def _header() -> str:
    who = "root" if os.geteuid() == 0 else f"uid {os.geteuid()}"
    return f"sandbox self-test on {platform.node()}: {_bwrap_version()}, as {who}, Linux {platform.release()}"


async def _listening() -> asyncio.Server:
    return await asyncio.start_server(lambda reader, writer: writer.close(), "127.0.0.1", 0)


async def run_self_test(limits: SandboxLimits, *, data_dir: Path | None = None,
                        scratch: Path | None = None) -> SelfTest:
    """Play the probes' game in this machine's sandbox with ``limits`` and judge what they saw (``data_dir``: the
    server's data folder, whose files the probes try too; ``scratch``: where the test's files go, default a
    temporary folder). ``SandboxUnavailable`` when bubblewrap does not work here; ``ValueError`` for unsafe limits
    (without the sandbox the probes would mount, ptrace and write on this machine itself)."""
    if limits.unsafe:
        raise ValueError(UNSAFE_REFUSAL)
    if (problem := sandbox_status()) is not None:
        raise SandboxUnavailable(problem)
    header = _header()
    with tempfile.TemporaryDirectory(prefix="quoridor-selftest-", dir=scratch) as where:
        base = Path(where)
        os.chmod(base, 0o755)             # the sandbox's own user must reach the probe's folder (as root)
        secret = base / "host-secret.txt"
        secret.write_text("the host's file\n")
        secret.chmod(0o644)
        probe = base / "probe"
        probe.mkdir(mode=0o755)
        project = project_root()
        read = [str(secret), str(project / "server" / "app.py"), "/etc/passwd", "/etc/hostname"]
        host_paths = [str(project / name) for name in ("shared", "client", "server")] + [str(probe.resolve())]
        if data_dir is not None:
            read += [str(p) for p in sorted(data_dir.glob("*.db"))[:3]]
            host_paths.append(str(data_dir.resolve()))
        server = await _listening()
        try:
            port = server.sockets[0].getsockname()[1]
            targets = ProbeTargets(port, tuple(read), (str(base), "/bot", "/arena", "/usr", "/"), tuple(host_paths))
            (probe / "probe.json").write_text(json.dumps(targets.for_probe()))
            (probe / "bot.py").write_text("from client.sandbox_probe import SandboxProbe\n\n\n"
                                          "class Probe(SandboxProbe):\n"
                                          "    \"\"\"The self-test's probe, handed in as a student's bot would be.\"\"\"\n")
            for path in probe.iterdir():
                path.chmod(0o644)
            referee = RefereeSettings(time_limit_ms=2000, step_cap=_STEP_CAP)
            pairing = Pairing((BotEntry("probe-1", "bot.py", probe), BotEntry("probe-2", "bot.py", probe)),
                              (GameSpec("self-test", base / "self-test.csv", white=0),), referee)
            async with asyncio.timeout(limits.startup_timeout_s * 2 + _STEP_CAP * 2 * 2.5 + 30):
                played = await play_pairing(pairing, limits)
        finally:
            server.close()
            await server.wait_closed()
    results: list[ProbeResult] = []
    report = read_report(played.reports[0].output_tail)
    if report is None:
        end = played.reports[0].end
        results.append(ProbeResult("probe bot", NOT_CONTAINED,
                                   f"it did not report ({end}): {played.reports[0].output_tail.strip()[-200:]}"))
    else:
        results = judge(report, targets, root=os.geteuid() == 0, freezer=freezer_in_build())
    return SelfTest(header, tuple(results))


def self_test_main(limits: SandboxLimits, *, program: str, data_dir: Path | None = None) -> int:
    """Run the self-test, print a line per probe, and return the exit code (0: all contained, 1: not, 2: asked
    without the sandbox, 4: no sandbox here)."""
    if limits.unsafe:
        print(f"{program}: {UNSAFE_REFUSAL}", file=sys.stderr)
        return _EXIT_USAGE
    try:
        outcome = asyncio.run(run_self_test(limits, data_dir=data_dir))
    except SandboxUnavailable as exc:
        print(f"{program}: the sandbox does not work on this machine: {exc}", file=sys.stderr)
        return _EXIT_NO_SANDBOX
    except TimeoutError:
        print(f"{program}: the self-test's game did not finish in time: the machine is too busy, or the sandbox "
              "hangs", file=sys.stderr)
        return _EXIT_NOT_CONTAINED
    for line in outcome.lines():
        print(line, flush=True)
    return outcome.exit_code

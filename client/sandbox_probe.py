"""``SandboxProbe``: a hostile bot that tries what a sandbox must refuse and reports what it saw, for the self-test.

``quoridor-server --sandbox-self-test`` and ``quoridor-worker --self-test`` (``server/sandbox/selftest.py``)
hand it in to the real sandbox with a ``probe.json`` beside it (the host's port and files to try). Once
created it tries the network, the host's files, a fork bomb, ``ptrace``, new user namespaces, ``mount``,
``keyctl`` and ``bpf``, and reads its capabilities, its environment, its open files and its sandbox's
``/proc/1/cmdline``; a thread then spins for the whole game, and each turn measures how fast it ran
during the bot's own turn and between turns (a frozen bot's thread does not run between its turns).

It judges nothing: it prints what it saw as one line, ``SANDBOX-PROBE {json}``, on stderr after each
step (the last one has it all), and the self-test decides what was contained. Its steps walk to its goal.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import platform
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

from client.player import Player
from shared.quoridor import Step

__all__ = ["SandboxProbe", "REPORT_PREFIX", "FORKS"]

#: How the report line starts (the self-test reads the last such line of the bot's stderr).
REPORT_PREFIX = "SANDBOX-PROBE "
#: Children the fork bomb tries to start (each sleeps until it is killed).
FORKS = 200
#: Seconds each step sleeps, so that its thread's on-turn rate is measured over a span the timer resolves.
_TURN_S = 0.1
_CLONE_NEWUSER = 0x10000000
_PTRACE_ATTACH, _PTRACE_DETACH = 16, 17
_KEYCTL_GET_KEYRING_ID, _KEY_SPEC_SESSION_KEYRING = 0, -3
_BPF_MAP_CREATE = 0
#: System-call numbers the C library has no wrapper for, by machine.
_SYSCALLS = {"x86_64": {"keyctl": 250, "bpf": 321}, "aarch64": {"keyctl": 219, "bpf": 280}}


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _outcome(result: int) -> str:
    """``allowed`` for a call that worked, else the error's name (``EPERM``)."""
    if result != -1:
        return "allowed"
    return errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno()))


def try_network(port: int) -> dict[str, Any]:
    """Connections that worked (the host's port on 127.0.0.1, two public addresses) and the interfaces seen."""
    connected = []
    for address in (("127.0.0.1", port), ("1.1.1.1", 80), ("8.8.8.8", 53)):
        try:
            socket.create_connection(address, timeout=1).close()
            connected.append(f"{address[0]}:{address[1]}")
        except OSError:
            pass
    try:
        interfaces = [name for _, name in socket.if_nameindex()]
    except OSError:
        interfaces = []
    return {"connected": connected, "interfaces": interfaces}


def try_files(read: list[str], write: list[str]) -> dict[str, Any]:
    """The host's files it could read and the places it could write."""
    could_read = []
    for path in read:
        try:
            with open(path, "rb") as handle:
                handle.read(1)
            could_read.append(path)
        except OSError:
            pass
    could_write = []
    for folder in write:
        target = os.path.join(folder, f"probe-{os.getpid()}")
        try:
            with open(target, "w") as handle:
                handle.write("x")
            could_write.append(folder)
            os.unlink(target)
        except OSError:
            pass
    return {"read": could_read, "written": could_write}


def try_fork_bomb(count: int = FORKS) -> dict[str, Any]:
    """How many of ``count`` sleeping children it could start (all killed and reaped before it returns)."""
    children = []
    refused = ""
    for _ in range(count):
        try:
            pid = os.fork()
        except OSError as exc:
            refused = errno.errorcode.get(exc.errno or 0, str(exc.errno))
            break
        if pid == 0:
            time.sleep(30)
            os._exit(0)
        children.append(pid)
    for pid in children:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except OSError:
            pass
    return {"tried": count, "forked": len(children), "refused": refused}


def try_ptrace() -> dict[str, Any]:
    """``ptrace`` attaching to the sandbox's init (pid 1) and to a child of its own."""
    libc = _libc()
    libc.ptrace.restype = ctypes.c_long
    libc.ptrace.argtypes = (ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p)
    seen = {"init": _outcome(libc.ptrace(_PTRACE_ATTACH, 1, None, None))}
    if seen["init"] == "allowed":
        libc.ptrace(_PTRACE_DETACH, 1, None, None)
    try:
        pid = os.fork()
    except OSError as exc:
        seen["child"] = f"no child ({errno.errorcode.get(exc.errno or 0, exc.errno)})"
        return seen
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    try:
        seen["child"] = _outcome(libc.ptrace(_PTRACE_ATTACH, pid, None, None))
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    return seen


def try_namespaces_and_kernel() -> dict[str, Any]:
    """A new user namespace (``unshare`` in a child), ``mount``, ``keyctl`` and ``bpf``: each call's outcome."""
    libc = _libc()
    seen: dict[str, Any] = {}
    read, write = os.pipe()
    try:
        pid = os.fork()
    except OSError as exc:
        seen["unshare_user"] = f"no child ({errno.errorcode.get(exc.errno or 0, exc.errno)})"
    else:
        if pid == 0:                       # in a child: a namespace that worked would change this process for good
            os.close(read)
            os.write(write, _outcome(libc.unshare(_CLONE_NEWUSER)).encode())
            os._exit(0)
        os.close(write)
        seen["unshare_user"] = os.read(read, 64).decode() or "no answer"
        os.waitpid(pid, 0)
    finally:
        for fd in (read, write):
            try:
                os.close(fd)
            except OSError:
                pass
    seen["mount"] = _outcome(libc.mount(b"none", b"/tmp", b"tmpfs", 0, None))
    numbers = _SYSCALLS.get(platform.machine())
    if numbers is None:
        seen["keyctl"] = seen["bpf"] = f"not tried on {platform.machine()}"
    else:
        libc.syscall.restype = ctypes.c_long
        seen["keyctl"] = _outcome(libc.syscall(ctypes.c_long(numbers["keyctl"]), ctypes.c_long(_KEYCTL_GET_KEYRING_ID),
                                               ctypes.c_long(_KEY_SPEC_SESSION_KEYRING), ctypes.c_long(0)))
        attr = (ctypes.c_uint32 * 16)(2, 4, 4, 1)             # an array map of one 4-byte value
        seen["bpf"] = _outcome(libc.syscall(ctypes.c_long(numbers["bpf"]), ctypes.c_long(_BPF_MAP_CREATE),
                                            ctypes.byref(attr), ctypes.c_long(ctypes.sizeof(attr))))
    return seen


def read_status() -> dict[str, str]:
    """Its capabilities, no-new-privileges and seccomp lines of ``/proc/self/status``."""
    wanted = ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp")
    found = {}
    with open("/proc/self/status") as handle:
        for line in handle:
            name, _, value = line.partition(":")
            if name in wanted:
                found[name] = value.strip()
    return found


def read_surroundings() -> dict[str, Any]:
    """Its environment's names, its sandbox's init command line and environment, and its open files."""
    def text(path: str) -> str:
        try:
            with open(path, "rb") as handle:
                return handle.read(600).replace(b"\0", b" ").decode("utf-8", "replace").strip()
        except OSError as exc:
            return f"unreadable ({errno.errorcode.get(exc.errno or 0, exc.errno)})"

    fds = {}
    for name in os.listdir("/proc/self/fd"):
        try:
            fds[name] = os.readlink(f"/proc/self/fd/{name}")
        except OSError:
            pass
    return {"environment": sorted(os.environ), "init_cmdline": text("/proc/1/cmdline"),
            "init_environ": text("/proc/1/environ")[:200], "fds": fds}


class _Spinner(threading.Thread):
    """A thread that counts as fast as it can for the whole game (a bot computing between its turns)."""

    def __init__(self) -> None:
        super().__init__(daemon=True, name="probe-spinner")
        self.count = 0

    def run(self) -> None:
        while True:
            self.count += 1


class SandboxProbe(Player):
    """Tries the sandbox once created, then walks to its goal; each step's report goes to stderr."""

    def __init__(self, key: str = "") -> None:
        super().__init__(key)
        targets = json.loads(Path("probe.json").read_text())
        self.report: dict[str, Any] = {
            "network": try_network(int(targets["port"])),
            "files": try_files(list(targets["read"]), list(targets["write"])),
            "fork_bomb": try_fork_bomb(),
            "ptrace": try_ptrace(),
            "kernel": try_namespaces_and_kernel(),
            "status": read_status(),
            **read_surroundings(),
        }
        self.turns = {"on_ticks": 0, "on_s": 0.0, "off_ticks": 0, "off_s": 0.0, "steps": 0}
        self.spinner = _Spinner()
        self.spinner.start()
        self.left: tuple[float, int] | None = None          # when (and at which count) its last step went out

    def next_step(self, change: Any) -> Step:
        """Measure the spinner off and on its turn, report, and step along its shortest path."""
        now, count = time.monotonic(), self.spinner.count
        if self.left is not None:
            self.turns["off_s"] += now - self.left[0]
            self.turns["off_ticks"] += count - self.left[1]
        time.sleep(_TURN_S)
        later, counted = time.monotonic(), self.spinner.count
        self.turns["on_s"] += later - now
        self.turns["on_ticks"] += counted - count
        self.turns["steps"] += 1
        print(REPORT_PREFIX + json.dumps({**self.report, "turns": self.turns}), file=sys.stderr, flush=True)
        self.left = (time.monotonic(), self.spinner.count)
        return Step(self.shortest_path()[1])

"""The bubblewrap command line of a hosted bot: a pure function of the layout, the bot's folder and the limits.

What the bot sees (nothing else exists for it):

* ``/usr`` (with the ``/bin``, ``/lib``, ``/lib64`` links) and the Python runtime (the interpreter's
  prefix and the virtual environment), read-only, at their own paths: the interpreter finds itself;
* the project's ``shared`` and ``client`` packages, read-only under ``/arena`` (``PYTHONPATH``): not
  ``server``, not the data directory, not the results database, not other bots;
* its own folder, read-only, at ``/bot`` (the working directory), on the import path after ``/arena``
  (``HOST_FLAGS``): a ``client``, ``shared`` or ``server`` of its own never shadows the arena's;
* a C++ bot's executable (built from its folder, kept in the server's build cache), read-only at ``/program/bot``;
* a private ``/tmp`` (a tmpfs of ``tmp_mb``), a fresh ``/proc`` of its own PID namespace and a minimal ``/dev``.

Namespaces: network (empty: only a loopback that leads nowhere), PID, IPC, UTS and cgroup; a new
session (no terminal to inject keys into); ``--die-with-parent``; no new privileges (bubblewrap
always sets it); the system-call filter of ``seccomp.py`` (``--seccomp FD``: no new user namespace,
no ptrace, no mount, no keyctl, no bpf). As root, bubblewrap keeps only the capabilities to change
user (``--cap-drop ALL``), and the process then becomes an unprivileged user of its own
(``setpriv``: every capability dropped, the bounding set emptied). The process limit
(``RLIMIT_NPROC``) is set inside, just before the bot host starts (``prlimit``), so that it counts
only the sandbox's own processes: as root those of the bot's own user; without root those of its
user namespace (the kernel counts per user namespace since Linux 5.14; on older kernels it counts
every task of the server's user, and the limit adds those there are at the start: ``kernel_counts``).
The environment is only what ``--setenv`` sets (``--clearenv``).

bubblewrap is started as ``bwrap --args FD -- COMMAND`` (``bwrap_launch``): its options, with the
host's paths of the runtime, the packages and the bot's folder, are read from a memory file, so the
sandbox's init (``/proc/1/cmdline``, which anyone inside may read) shows only the command, whose
paths are the same inside; it is started with no environment (its ``/proc/1/environ`` is empty).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from server.sandbox.limits import MB, SandboxLimits
from server.sandbox.procfs import stat_fields

__all__ = ["SandboxLayout", "bwrap_argv", "BwrapLaunch", "bwrap_launch", "host_command", "current_layout", "BOT_DIR",
           "PACKAGES_DIR", "BUILD_DIR", "PROGRAM", "OBJECTS_DIR", "HOST_MODULE", "HOST_FLAGS", "kernel_counts",
           "nproc_per_namespace"]

#: Where the bot's folder is seen inside the sandbox (its working directory).
BOT_DIR = "/bot"
#: Where a build's writable folder is seen inside the sandbox (``bwrap_argv(..., writable=)``: the C++ build's).
BUILD_DIR = "/build"
#: Where a built bot's executable is seen inside the sandbox (``bwrap_argv(..., program=)``: read-only).
PROGRAM = "/program/bot"
#: Where a C++ build sees the arena's own prebuilt objects, which it links (``bwrap_argv(..., objects=)``: read-only).
OBJECTS_DIR = "/objects"
#: Where the project's ``shared`` and ``client`` packages are seen inside the sandbox.
PACKAGES_DIR = "/arena"
#: The module the sandbox runs: the bot host (``client/hosted.py``), started as a process, never imported here.
HOST_MODULE = "client.hosted"
#: The system's programs and libraries, read-only; ``/bin``, ``/lib`` and ``/lib64`` link into it (merged /usr).
_SYSTEM = "/usr"
_LINKS = (("usr/bin", "/bin"), ("usr/lib", "/lib"), ("usr/lib64", "/lib64"))
_SETPRIV = "/usr/bin/setpriv"
_PRLIMIT = "/usr/bin/prlimit"


@dataclass(frozen=True)
class SandboxLayout:
    """The host's paths a sandbox needs: the interpreter, the runtime's folders and the project's packages."""

    #: The interpreter to run (the same path inside the sandbox).
    python: str
    #: Folders of the Python runtime, bound read-only at their own paths (prefix, base prefix).
    runtime: tuple[str, ...]
    #: The project's package folders (``shared``, ``client``), bound under ``PACKAGES_DIR`` by their names.
    packages: tuple[str, ...]
    #: True when the server runs as root: the bot then runs as an unprivileged user of its own.
    switch_user: bool = True
    #: Tasks of the server's user the kernel counts against the sandbox's process limit too (``kernel_counts``):
    #: without root on Linux before 5.14, which counts RLIMIT_NPROC per user, not per user namespace; else 0.
    counted_outside: int = 0


def _ancestors(path: str) -> list[str]:
    parts = PurePosixPath(path).parents
    return [str(p) for p in reversed(parts) if str(p) != "/"]


def _covered(path: str, by: Sequence[str]) -> bool:
    return any(path == root or path.startswith(root.rstrip("/") + "/") for root in by)


def bwrap_argv(layout: SandboxLayout, bot_folder: str | None, command: Sequence[str], limits: SandboxLimits,
               uid: int, *, seccomp_fd: int | None = None, writable: str | None = None,
               program: str | None = None, objects: str | None = None) -> list[str]:
    """The ``bwrap`` command line that runs ``command`` in the sandbox (``uid``: the bot's own user, as root;
    ``seccomp_fd``: an open file holding the compiled system-call filter; ``writable``: a host folder bound
    read-write at ``BUILD_DIR``, the one place outside its /tmp where it may write; ``program``: a host file, the
    bot's built executable, bound read-only at ``PROGRAM``; ``objects``: a host folder, the arena's prebuilt C++
    objects, bound read-only at ``OBJECTS_DIR``)."""
    argv = ["bwrap", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
            "--die-with-parent", "--new-session", "--hostname", "sandbox"]
    if not layout.switch_user:
        argv += ["--unshare-user"]
    argv += ["--ro-bind", _SYSTEM, _SYSTEM]
    for target, link in _LINKS:
        argv += ["--symlink", target, link]
    # The private /tmp first: a runtime that lives under /tmp (a checkout there) is bound over it, not hidden by it.
    argv += ["--size", str(limits.tmp_mb * MB), "--perms", "1777", "--tmpfs", "/tmp"]
    made: list[str] = []
    bound: list[str] = [_SYSTEM]

    def folder(path: str) -> None:
        for parent in _ancestors(path):
            if parent not in made and not _covered(parent, bound):
                argv.extend(["--perms", "0755", "--dir", parent])
                made.append(parent)

    for path in layout.runtime:
        if _covered(path, bound):
            continue
        folder(path)
        argv += ["--ro-bind", path, path]
        bound.append(path)
    for path in layout.packages:
        inside = f"{PACKAGES_DIR}/{PurePosixPath(path).name}"
        folder(inside)
        argv += ["--ro-bind", path, inside]
    if bot_folder is not None:
        argv += ["--ro-bind", bot_folder, BOT_DIR]
    else:
        argv += ["--perms", "0755", "--dir", BOT_DIR]
    if writable is not None:
        argv += ["--bind", writable, BUILD_DIR]
    if program is not None:
        folder(PROGRAM)                        # its folder made 0755 first: bubblewrap's own would be 0700
        argv += ["--ro-bind", program, PROGRAM]
    if objects is not None:
        argv += ["--ro-bind", objects, OBJECTS_DIR]
    # The sandbox's root (bubblewrap's own tmpfs, with the folders made above) read-only last: without root the bot
    # owns it in its user namespace, and could fill the host's memory with files there.
    argv += ["--proc", "/proc", "--dev", "/dev", "--remount-ro", "/",
             "--chdir", BOT_DIR, "--clearenv",
             "--setenv", "PYTHONPATH", PACKAGES_DIR, "--setenv", "PYTHONDONTWRITEBYTECODE", "1",
             "--setenv", "HOME", "/tmp", "--setenv", "LANG", "C.UTF-8"]
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    if layout.switch_user:
        # setpriv needs to change user (SETUID, SETGID) and to empty the bounding set (SETPCAP); nothing else is kept.
        argv += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP",
                 "--", _SETPRIV, "--reuid", str(uid), "--regid", str(uid), "--clear-groups", "--inh-caps=-all",
                 "--bounding-set=-all"]
    else:
        argv += ["--"]
    # The process limit is set last, inside the sandbox, by the bot's own user: the kernel counts RLIMIT_NPROC per
    # user namespace (Linux 5.14+), so without root it counts the sandbox's processes, not the server's user's.
    processes = limits.processes + layout.counted_outside
    return argv + [_PRLIMIT, f"--nproc={processes}:{processes}", "--"] + list(command)


class BwrapLaunch:
    """``bwrap --args FD -- COMMAND``: the command line to start and the files it reads (its options, the filter).

    Start the process with ``pass_fds=launch.fds`` and ``close`` the launch once it has started (bubblewrap
    reads both files and closes them before the bot runs).
    """

    def __init__(self, argv: list[str], fds: tuple[int, ...]) -> None:
        #: What the process is started with (``bwrap --args FD -- COMMAND``).
        self.argv = argv
        #: The files the process must inherit (the filter's, the arguments').
        self.fds = fds

    def close(self) -> None:
        """Close this side's copies of the files (once the process started, or when it will not)."""
        for fd in self.fds:
            try:
                os.close(fd)
            except OSError:
                pass
        self.fds = ()


def _memory_file(name: str, data: bytes) -> int:
    """An anonymous file holding ``data``, read from its start (closed on exec unless passed on)."""
    fd = os.memfd_create(name, os.MFD_CLOEXEC)
    try:
        os.write(fd, data)
        os.lseek(fd, 0, os.SEEK_SET)
    except OSError:
        os.close(fd)
        raise
    return fd


def bwrap_launch(layout: SandboxLayout, bot_folder: str | None, command: Sequence[str], limits: SandboxLimits,
                 uid: int, seccomp: bytes, *, writable: str | None = None, program: str | None = None,
                 objects: str | None = None) -> BwrapLaunch:
    """``bwrap_argv`` with the filter ``seccomp``; its options (everything before ``--``: bubblewrap takes the
    command from its own command line only) passed through memory files."""
    filter_fd = _memory_file("bot-seccomp", seccomp)
    try:
        argv = bwrap_argv(layout, bot_folder, command, limits, uid, seccomp_fd=filter_fd, writable=writable,
                          program=program, objects=objects)
        end = argv.index("--")
        args_fd = _memory_file("bot-args", b"".join(os.fsencode(arg) + b"\0" for arg in argv[1:end]))
    except OSError:
        os.close(filter_fd)
        raise
    # bwrap by its full path: it is started with no environment (no PATH), which its init would show the bot.
    return BwrapLaunch([shutil.which(argv[0]) or argv[0], "--args", str(args_fd), *argv[end:]], (filter_fd, args_fd))


#: How the interpreter runs the bot host: no user site-packages (``-s``) and nothing put before ``PYTHONPATH``
#: (``-P``: not the working directory, the bot's folder). The environment is the server's own (``--clearenv``),
#: so ``PYTHONPATH`` names only the arena: its packages always win, and the host puts the bot's folder after them.
HOST_FLAGS = ("-s", "-P")


def host_command(python: str, spec: str) -> list[str]:
    """The command that runs the bot host on ``spec`` (``python -s -P -m client.hosted SPEC``)."""
    return [python, *HOST_FLAGS, "-m", HOST_MODULE, spec]


def nproc_per_namespace(release: str) -> bool:
    """True when the kernel ``release`` (``os.uname().release``) counts RLIMIT_NPROC per user namespace (5.14+)."""
    numbers = [int(part) if part.isdigit() else -1 for part in release.split("-")[0].split(".")[:2]]
    return len(numbers) == 2 and tuple(numbers) >= (5, 14)


def _tasks_of(uid: int) -> int:
    """Processes and threads of the user ``uid`` now (``/proc``)."""
    count = 0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            owner = os.stat(f"/proc/{name}").st_uid
        except OSError:
            continue
        fields = stat_fields(name) if owner == uid else None
        if fields is not None and len(fields) > 17:
            count += int(fields[17])           # num_threads
    return count


def kernel_counts(*, root: bool) -> int:
    """How many tasks of the server's user a sandbox started now shares its process limit with (0: none).

    On Linux before 5.14 without root, RLIMIT_NPROC counts every task of the server's user, so the
    limit is those counted now plus the sandbox's own allowance. That cannot guarantee the
    allowance: the server's threads and the other sandboxes started after this one use the same
    count, so a fork bomb in one sandbox can leave another (or a new thread of the server's) short.
    """
    if root or nproc_per_namespace(os.uname().release):
        return 0
    return _tasks_of(os.getuid())


def current_layout(project: str, *, root: bool) -> SandboxLayout:
    """The layout of this server's own interpreter, with the packages of the project folder ``project``; read at
    each start (``counted_outside``: the tasks a process limit shares, on kernels that count them)."""
    runtime = tuple(dict.fromkeys(p for p in (sys.base_prefix, sys.prefix, sys.exec_prefix) if p))
    return SandboxLayout(python=sys.executable, runtime=runtime,
                         packages=(f"{project}/shared", f"{project}/client"), switch_user=root,
                         counted_outside=kernel_counts(root=root))

"""``sandbox_status``: can this machine run bots in bubblewrap? ``cpp_status``: can it build C++ bots? ``None`` when
it can, else why not and the fix."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

from server.sandbox.seccomp import SeccompUnavailable, bot_filter

__all__ = ["sandbox_status", "sandbox_notice", "cpp_status", "SandboxUnavailable", "project_root", "INSTALL_HINT",
           "UNSAFE_WARNING"]

INSTALL_HINT = ("install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) and allow namespaces "
                "(or start the server with --unsafe-no-sandbox to run handed-in bots under rlimits only)")
"""How to make the sandbox work, for people."""
UNSAFE_WARNING = ("WARNING: --unsafe-no-sandbox: handed-in bots run WITHOUT the sandbox, under rlimits only: they can "
                  "reach the network and read every file this server can. Use this only on a machine of no value.")
"""What a server started with ``--unsafe-no-sandbox`` says at every start."""

class SandboxUnavailable(RuntimeError):
    """bubblewrap cannot run here, and the server was not told to run bots without it."""


def project_root() -> Path:
    """The folder holding the project's ``shared``, ``client`` and ``server`` packages."""
    return Path(__file__).resolve().parents[2]


_PROBE = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--die-with-parent", "--new-session",
          "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
          "--symlink", "usr/lib64", "/lib64", "--proc", "/proc", "--dev", "/dev"]


@functools.cache
def sandbox_status() -> str | None:
    """``None`` when ``bwrap`` starts a sandbox here; else one line: what is wrong and how to install bubblewrap."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return f"bwrap (bubblewrap) is not installed: {INSTALL_HINT}"
    root = os.geteuid() == 0
    if root and not os.path.exists("/usr/bin/setpriv"):
        return ("setpriv (util-linux) is missing: the sandbox needs /usr/bin/setpriv to drop root "
                "(apt-get install util-linux)")
    argv = [bwrap, *_PROBE] + ([] if root else ["--unshare-user"])
    if root:
        argv += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--", "/usr/bin/setpriv", "--reuid", "65534",
                 "--regid", "65534", "--clear-groups", "--inh-caps=-all", "/usr/bin/true"]
    else:
        argv += ["--", "/usr/bin/true"]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap could not start a sandbox ({exc}): {INSTALL_HINT}"
    if done.returncode != 0:
        said = " ".join(done.stderr.split())[:200] or f"exit code {done.returncode}"
        return f"bwrap cannot create namespaces here ({said}): {INSTALL_HINT}"
    try:
        bot_filter()
    except SeccompUnavailable as exc:
        return str(exc)
    return None


#: Where the C++ build looks for the JSON library of the arena's ``main`` (Debian's nlohmann-json3-dev).
_JSON_HEADER = ("/usr/include/nlohmann/json.hpp", "/usr/local/include/nlohmann/json.hpp")


def cpp_status() -> str | None:
    """``None`` when C++ bots can be built here (g++ and the nlohmann JSON headers), else one line saying what to
    install; cheap (a look on the PATH and at two files), so asked at each C++ hand-in."""
    if shutil.which("g++") is None:
        return "no C++ compiler on this server: its organiser can install g++ (apt-get install g++)"
    if not any(os.path.isfile(path) for path in _JSON_HEADER):
        return ("no JSON library for C++ bots on this server: its organiser can install nlohmann-json3-dev "
                "(apt-get install nlohmann-json3-dev)")
    return None


def sandbox_notice(unsafe: bool) -> str | None:
    """What the server says at every start about handed-in bots: a loud warning when it runs them unsafe, why it
    refuses them when bubblewrap does not work; ``None`` when the sandbox works."""
    if unsafe:
        return UNSAFE_WARNING
    problem = sandbox_status()
    if problem is not None:
        return f"handed-in bots are refused (they would run without a sandbox): {problem}"
    return None

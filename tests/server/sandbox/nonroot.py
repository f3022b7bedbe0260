"""Commands run as a non-root user: the tests of a server that is not root (the Dockerfile's ``USER arena``).

As root (CI), a command runs as ``QUORIDOR_NONROOT_USER`` (default ``quoridor-nonroot``; ``.ci/run``
creates it, and so does ``NonRoot.find`` when it is missing), with no capability and no group of
root's, in a mount namespace of its own in which the folders of this interpreter and of the project
that the user could not reach (a runtime under ``/root``, mode 0700) are bound where it can: the
server's code and interpreter are then the same as the suite's. Not root, a command runs as the suite's own user.
"""

from __future__ import annotations

import os
import pwd
import shlex
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["NonRoot", "USER_VARIABLE", "DEFAULT_USER"]

#: The variable naming the user; ``.ci/run`` creates that user.
USER_VARIABLE = "QUORIDOR_NONROOT_USER"
#: The user's name when the variable is not set.
DEFAULT_USER = "quoridor-nonroot"
#: The project's folder: its packages and examples are run as the user too.
_PROJECT = Path(__file__).resolve().parents[3]


def _hidden_above(path: Path) -> Path | None:
    """The highest folder above ``path`` (or itself) that others may not enter, if any."""
    for folder in (*reversed(path.parents), path):
        if folder.is_dir() and not folder.stat().st_mode & 0o001:
            return folder
    return None


@dataclass(frozen=True)
class NonRoot:
    """A user other than root that runs commands (``run``, ``popen``); ``uid``/``gid`` for the files it must own."""

    uid: int
    gid: int
    #: The command that starts a program as that user (empty: the suite's user is not root already).
    prefix: tuple[str, ...]

    @classmethod
    def find(cls) -> NonRoot | str:
        """The non-root user of this machine (made when missing, as root), or why there is none."""
        if os.geteuid() != 0:
            return cls(os.getuid(), os.getgid(), ())
        name = os.environ.get(USER_VARIABLE, DEFAULT_USER)
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            made = subprocess.run(["useradd", "--system", "--user-group", "--no-create-home", "--shell",
                                   "/usr/sbin/nologin", name], capture_output=True, text=True, check=False)
            if made.returncode != 0:
                return f"no user {name!r}, and useradd could not make one: {made.stderr.strip()}"
            entry = pwd.getpwnam(name)
        if entry.pw_uid == 0:
            return f"the user {name!r} is root"
        for tool in ("unshare", "setpriv", "mount"):
            if shutil.which(tool) is None:
                return f"{tool} (util-linux) is missing: a command cannot be run as {name!r}"
        return cls(entry.pw_uid, entry.pw_gid, _prefix(entry.pw_uid, entry.pw_gid))

    def own(self, path: Path) -> Path:
        """Make ``path`` (a new folder of the test's) belong to the user; the path."""
        if self.prefix:
            os.chown(path, self.uid, self.gid)
        return path

    def argv(self, command: Sequence[str]) -> list[str]:
        """``command`` as the user runs it."""
        return [*self.prefix, *command]

    def run(self, command: Sequence[str], *, env: Mapping[str, str],
            timeout: float) -> subprocess.CompletedProcess[str]:
        """Run ``command`` as the user to its end (at most ``timeout`` seconds); its output as text."""
        return subprocess.run(self.argv(command), env=dict(env), capture_output=True, text=True, timeout=timeout,
                              check=False)

    def popen(self, command: Sequence[str], *, env: Mapping[str, str], output: Path) -> subprocess.Popen[bytes]:
        """Start ``command`` as the user, its stdout and stderr into the file ``output``, in a session of its own."""
        with output.open("wb") as sink:
            return subprocess.Popen(self.argv(command), env=dict(env), stdin=subprocess.DEVNULL, stdout=sink,
                                    stderr=subprocess.STDOUT, start_new_session=True)


def _prefix(uid: int, gid: int) -> tuple[str, ...]:
    """``unshare`` (a private mount namespace exposing the interpreter's hidden folders), then ``setpriv``."""
    paths = {Path(p).resolve() for p in (sys.base_prefix, sys.prefix, sys.executable, _PROJECT)}
    paths = {p for p in paths if not any(other != p and other in p.parents for other in paths)}
    hidden: dict[Path, list[Path]] = {}
    for path in sorted(paths):
        above = _hidden_above(path)
        if above is not None:
            hidden.setdefault(above, []).append(path)
    script = ["set -e"]
    if hidden:
        # Keep each folder in a private tmpfs, cover what hides it with an open one, and bind it back at its path.
        script.append("mount -t tmpfs -o mode=700 nonroot-keep /mnt")
        kept = 0
        for above, inside in hidden.items():
            for path in inside:
                script += [f"mkdir /mnt/{kept}", f"mount --bind {shlex.quote(str(path))} /mnt/{kept}"]
                kept += 1
            script.append(f"mount -t tmpfs -o mode=755 nonroot {shlex.quote(str(above))}")
        kept = 0
        for above, inside in hidden.items():
            for path in inside:
                script += [f"mkdir -p {shlex.quote(str(path))}", f"mount --bind /mnt/{kept} {shlex.quote(str(path))}"]
                kept += 1
    script.append(f'exec setpriv --reuid {uid} --regid {gid} --clear-groups --inh-caps=-all --bounding-set=-all '
                  '-- "$@"')
    return ("unshare", "--mount", "--propagation", "private", "--", "sh", "-c", "\n".join(script), "nonroot")

"""``Cage``: a hosted bot's whole process tree, frozen between its turns, its CPU counted and killed as one.

A bot computes only on its own clock (issue 31): between its step and its next turn every process and
thread of the bot is stopped, so a bot that starts spinning threads or forks spinners cannot take CPU from
its opponent. Two ways, the first the host has:

* ``CgroupCage``: a cgroup v2 of its own per bot (under the server's own cgroup, where the server may write):
  ``cgroup.freeze`` stops the whole tree, ``cpu.stat`` counts the CPU of every task that ever ran in it
  (threads, children, reaped or not), ``cgroup.kill`` ends it. The process joins it in the child, before
  ``exec``, so nothing the bot starts is ever outside. Where the ``cpu`` controller can be enabled, each bot's
  cgroup has an equal ``cpu.weight``: bots get separate CPU shares.
* ``SignalCage``: ``SIGSTOP``/``SIGCONT`` to every process of the tree, found in ``/proc`` (inside bubblewrap
  the bot is pid 2 of its own PID namespace: every process of the namespace descends from its init, which
  reaps the orphans); the CPU is the sum over the tree (``procfs.TreeCpu``, whole processes: every thread).

Either way each bot is also ``nice``d and, when cores allow, pinned to one core (``CORES``: the one fewest bots
hold): a bot's threads share one core, whatever their number. (Both bots of a pairing on one core, as only one of
them runs at a time, cost 2.5 ms a step more in ``bench/hog_run.py``'s round robin of instant bots: each has its
own.)
"""

from __future__ import annotations

import atexit
import functools
import itertools
import logging
import os
import signal
from pathlib import Path
from typing import Protocol

from server.sandbox.procfs import TreeCpu, tree

__all__ = ["Cage", "CgroupCage", "SignalCage", "make_cage", "cgroup_root", "Cores", "CORES", "BOT_NICE"]

log = logging.getLogger("quoridor.server")

#: The niceness of every bot process: the server's own event loop (which times the steps) goes first.
BOT_NICE = 5
_names = itertools.count(1)
#: Bots' cgroups not yet removed (a process of theirs was still being reaped): tried again later, and at exit.
_leftovers: set[Path] = set()


class Cage(Protocol):
    """One bot's process tree: joined in the child before ``exec``, then frozen, thawed, counted and killed."""

    #: ``cgroup`` or ``signals``: how the tree is stopped (for the logs and the self-test).
    kind: str

    def join(self) -> None:
        """In the child, before ``exec``: put this process (and so all it starts) in the cage."""

    def attach(self, outer_pid: int, top_pid: int, *, session: bool) -> bool:
        """The process started is ``outer_pid``; the bot's tree is ``top_pid`` and its descendants (``session``:
        and every process of ``top_pid``'s session, for a bot run without the sandbox's PID namespace). False when
        the cage does not hold them (the caller takes another)."""

    def freeze(self) -> None:
        """Stop every process of the tree (idempotent)."""

    def thaw(self) -> None:
        """Let the tree run again (idempotent)."""

    def cpu_seconds(self) -> float | None:
        """CPU seconds used by the whole tree so far, never less than before (``None`` when unreadable)."""

    def kill(self) -> bool:
        """Kill every process of the tree; False when the cage cannot (the caller kills what it started)."""

    def close(self) -> None:
        """The bot is gone: free what the cage holds."""


class Cores:
    """The cores bots are pinned to: each ``take`` gets the one fewest holders have (the lowest of equals), ``give``
    hands it back. ``None`` where the server may use a single core (nothing to share out)."""

    def __init__(self, cores: set[int] | None = None) -> None:
        self._cores = cores
        self.holders: dict[int, int] = {}

    def _available(self) -> list[int]:
        if self._cores is not None:
            return sorted(self._cores)
        try:
            return sorted(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            return []

    def take(self) -> int | None:
        """A core to pin a bot (or a pairing's bots) to, now held once more; ``None``: do not pin."""
        cores = self._available()
        if len(cores) < 2:
            return None
        core = min(cores, key=lambda c: (self.holders.get(c, 0), c))
        self.holders[core] = self.holders.get(core, 0) + 1
        return core

    def give(self, core: int | None) -> None:
        """``core`` (from ``take``) is no longer held by what took it."""
        if core is not None and self.holders.get(core, 0) > 0:
            self.holders[core] -= 1


#: This server's cores, shared out to its bots.
CORES = Cores()


@functools.cache
def cgroup_root() -> Path | None:
    """Where this server makes its bots' cgroups: ``quoridor-PID`` under its own cgroup v2, if it may write there."""
    mount = None
    try:
        with open("/proc/self/mountinfo", encoding="utf-8") as handle:
            for line in handle:
                left, _, right = line.partition(" - ")
                if right.split(" ", 1)[0] == "cgroup2":
                    mount = left.split()[4]
                    break
        own = next((line.strip()[3:] for line in open("/proc/self/cgroup", encoding="utf-8")
                    if line.startswith("0::")), None)
    except OSError:
        return None
    if mount is None or own is None:
        return None
    root = Path(mount) / own.lstrip("/") / f"quoridor-{os.getpid()}"
    try:
        root.mkdir(exist_ok=True)
    except OSError:
        return None
    _remove_stale(root.parent)
    if not (root / "cgroup.freeze").exists() and not (root / "cgroup.procs").exists():
        return None
    atexit.register(_remove, root)
    try:        # separate CPU shares where the controller is there (each bot's cgroup: the default weight)
        (root / "cgroup.subtree_control").write_text("+cpu")
    except OSError:
        pass
    return root


def _remove_stale(parent: Path) -> None:
    """Remove the cgroups of servers that are gone (killed before their exit could), ending what is left in them.

    A bot whose server is gone plays no game any more, but it may still hold a core or memory: a bubblewrap
    killed mid-setup leaves its namespace's init waiting forever for a signal from it. Such processes are
    killed (``cgroup.kill``, else SIGKILL each one), and their cgroups removed once they are gone (now, or at
    this server's next sweep).
    """
    for stale in parent.glob("quoridor-*"):
        pid = stale.name.partition("-")[2]
        if not pid.isdigit() or os.path.exists(f"/proc/{pid}"):
            continue
        for path in [*stale.glob("bot-*"), stale]:
            try:
                path.rmdir()
                continue
            except OSError:
                pass
            _kill_all(path)
            _leftovers.add(path)        # gone once its processes are: this server's sweeps take it


def _kill_all(path: Path) -> None:
    """End every process of the cgroup at ``path`` (best effort: nothing here may stop a server from starting)."""
    try:
        (path / "cgroup.kill").write_text("1")
        return
    except OSError:
        pass
    try:
        pids = (path / "cgroup.procs").read_text().split()
    except OSError:
        return
    for pid in pids:
        try:
            os.kill(int(pid), signal.SIGKILL)
        except (OSError, ValueError):
            pass


def _sweep() -> None:
    """Remove the cgroups left for later whose processes are gone (the deepest first: a folder holds its bots')."""
    for path in sorted(_leftovers, key=lambda left: len(left.parts), reverse=True):
        try:
            path.rmdir()
            _leftovers.discard(path)
        except FileNotFoundError:
            _leftovers.discard(path)
        except OSError:
            pass


def _remove(root: Path) -> None:
    _sweep()
    try:
        root.rmdir()
    except OSError:
        pass


class CgroupCage:
    """A bot in a cgroup v2 of its own: ``cgroup.freeze``, ``cpu.stat``, ``cgroup.kill``."""

    kind = "cgroup"

    def __init__(self, path: Path) -> None:
        self.path = path
        self._procs = str(path / "cgroup.procs").encode()
        self._frozen = False
        self._last: float | None = None

    @classmethod
    def make(cls, root: Path) -> CgroupCage | None:
        """A new cage under ``root``; ``None`` when it cannot be made or cannot freeze."""
        _sweep()
        path = root / f"bot-{next(_names)}"
        try:
            path.mkdir()
        except OSError:
            return None
        if not (path / "cgroup.freeze").exists():
            path.rmdir()
            return None
        return cls(path)

    def join(self) -> None:
        try:
            fd = os.open(self._procs, os.O_WRONLY)
        except OSError:
            return           # the parent sees it outside (``attach``) and takes signals instead
        try:
            os.write(fd, b"0")
        except OSError:
            pass
        finally:
            os.close(fd)

    def attach(self, outer_pid: int, top_pid: int, *, session: bool) -> bool:
        try:                 # every process joined in the child, before exec: the first is in, so are the rest
            return str(outer_pid) in (self.path / "cgroup.procs").read_text().split()
        except OSError:
            return False

    def _write(self, name: str, value: str) -> bool:
        try:
            (self.path / name).write_text(value)
            return True
        except OSError:
            return False

    def freeze(self) -> None:
        if not self._frozen:
            self._frozen = self._write("cgroup.freeze", "1")

    def thaw(self) -> None:
        if self._frozen:
            self._write("cgroup.freeze", "0")
            self._frozen = False

    def cpu_seconds(self) -> float | None:
        try:
            text = (self.path / "cpu.stat").read_text()
        except OSError:
            return self._last
        for line in text.splitlines():
            if line.startswith("usage_usec "):
                seconds = int(line.split()[1]) / 1e6
                self._last = seconds if self._last is None else max(self._last, seconds)
        return self._last

    def kill(self) -> bool:
        if self._write("cgroup.kill", "1"):
            return True
        try:
            pids = [int(p) for p in (self.path / "cgroup.procs").read_text().split()]
        except OSError:
            return False
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        return True

    def close(self) -> None:
        self.cpu_seconds()
        try:
            self.path.rmdir()
        except OSError:
            self.kill()      # a process still inside: killed; its folder goes once it is reaped (the next sweep)
            _leftovers.add(self.path)


class SignalCage:
    """A bot's tree found in ``/proc`` and stopped with ``SIGSTOP``, started with ``SIGCONT``."""

    kind = "signals"

    #: Rounds of stopping what is still running: a process forked meanwhile is caught by the next round.
    ROUNDS = 8

    def __init__(self) -> None:
        self.top: int | None = None
        self.session: int | None = None
        self.stopped: set[int] = set()
        self.cpu = TreeCpu()

    def join(self) -> None:
        pass

    def attach(self, outer_pid: int, top_pid: int, *, session: bool) -> bool:
        self.top = top_pid
        self.session = top_pid if session else None
        return True

    def _members(self) -> dict[int, list[bytes]]:
        if self.top is None:
            return {}
        return tree(self.top, session=self.session)

    def freeze(self) -> None:
        if self.top is None:
            return
        for _ in range(self.ROUNDS):
            members = self._members()
            self.cpu.add(members)
            fresh = [pid for pid in members if pid not in self.stopped and
                     (pid != self.top or self.session is not None)]     # the namespace's init only reaps
            if not fresh:
                return
            for pid in fresh:
                try:
                    os.kill(pid, signal.SIGSTOP)
                    self.stopped.add(pid)
                except OSError:
                    pass

    def thaw(self) -> None:
        for pid in self.stopped:
            try:
                os.kill(pid, signal.SIGCONT)
            except OSError:
                pass
        self.stopped.clear()

    def cpu_seconds(self) -> float | None:
        if self.top is None:
            return None
        if self.stopped:            # nothing of it ran since ``freeze`` read the tree: no scan of /proc
            return self.cpu.last
        return self.cpu.add(self._members())

    def kill(self) -> bool:
        return False

    def close(self) -> None:
        self.stopped.clear()


def make_cage(*, cgroups: bool = True) -> Cage:
    """The best cage this host has: a cgroup v2 of its own where the server may make one, else signals."""
    cage: Cage | None = None
    if cgroups:
        root = cgroup_root()
        if root is not None:
            cage = CgroupCage.make(root)
    if cage is None:
        cage = SignalCage()
    _announce(cage.kind)
    return cage


@functools.cache
def _announce(kind: str) -> None:
    """Say once per way how hosted bots are stopped between their turns."""
    how = "a cgroup v2 of its own each (cgroup.freeze)" if kind == "cgroup" else \
        "SIGSTOP/SIGCONT to their processes (no cgroup v2 this server may write in)"
    log.info("hosted bots are stopped between their turns with %s", how)

"""What ``/proc`` says of a bot's processes (their CPU time, their tree), and the bots' own user ids.

``CpuClock`` reads one process's main thread (``/proc/PID/schedstat``, nanoseconds), kept open and read
again with ``pread``: a few microseconds. ``TreeCpu`` counts a whole tree (every process of it, every
thread of each, the children they reaped: ``/proc/PID/stat``'s user, system and children's times in clock
ticks), for a bot whose processes are not in a cgroup of their own (``server.sandbox.cage``).
"""

from __future__ import annotations

import os

__all__ = ["CpuClock", "TreeCpu", "children", "tree", "stat_fields", "UidPool", "UIDS", "sandbox_uids"]

#: Where the bots' own users begin (as root, each sandbox runs as a user of its own: the process limit).
_UID_BASE = 1_500_000_000          # far above login users and the usual subordinate-id ranges of /etc/subuid
_UIDS_PER_SERVER = 256


class CpuClock:
    """The CPU seconds a process has used, read from its ``/proc`` files (the last value once it is gone)."""

    def __init__(self, fd: int, schedstat: bool) -> None:
        self.fd: int | None = fd
        self.schedstat = schedstat
        self.last: float | None = None

    @classmethod
    def of(cls, pid: int) -> CpuClock | None:
        """The clock of process ``pid``; ``None`` when its files cannot be opened."""
        for name, schedstat in ((f"/proc/{pid}/schedstat", True), (f"/proc/{pid}/stat", False)):
            try:
                return cls(os.open(name, os.O_RDONLY), schedstat)
            except OSError:
                continue
        return None

    def seconds(self) -> float | None:
        """CPU seconds used so far (the last value read once the process is gone; ``None`` before any)."""
        if self.fd is None:
            return self.last
        try:
            text = os.pread(self.fd, 512, 0)
        except OSError:
            return self.last
        if not text:
            return self.last
        if self.schedstat:
            self.last = int(text.split()[0]) / 1e9
        else:
            fields = text[text.rfind(b")") + 2:].split()
            self.last = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return self.last

    def close(self) -> None:
        """Close the file (``seconds`` then gives the last value)."""
        if self.fd is not None:
            self.seconds()
            os.close(self.fd)
            self.fd = None


def stat_fields(pid: int | str) -> list[bytes] | None:
    """The fields of ``/proc/PID/stat`` after the command name (the state, then the parent's pid, ...); None when gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return None
    return stat[stat.rfind(b")") + 2:].split()


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (read from /proc: this kernel may lack ``task/*/children``)."""
    found = []
    for name in os.listdir("/proc"):
        fields = stat_fields(name) if name.isdigit() else None
        if fields is not None and len(fields) > 1 and int(fields[1]) == pid:
            found.append(int(name))
    return found


def tree(top: int, *, session: int | None = None) -> dict[int, list[bytes]]:
    """``top`` and its descendants (and, given ``session``, every process of that session), each with its
    ``stat_fields``; one scan of /proc."""
    fields: dict[int, list[bytes]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            found = stat_fields(name)
            if found is not None and len(found) > 14:
                fields[int(name)] = found
    members = {pid: f for pid, f in fields.items()
               if pid == top or (session is not None and int(f[3]) == session)}
    grew = True
    while grew:                 # descendants: the children of members, until no more are found
        grew = False
        for pid, f in fields.items():
            if pid not in members and int(f[1]) in members:
                members[pid] = f
                grew = True
    return members


class TreeCpu:
    """The CPU seconds of a process tree: the sum over its processes of their own and their reaped children's
    user and system time (every thread counted), never less than a value it gave before."""

    def __init__(self) -> None:
        self.last: float | None = None

    def add(self, members: dict[int, list[bytes]]) -> float | None:
        """The tree's CPU seconds now, from ``tree``'s stat fields (the last value when it is gone)."""
        if members:
            ticks = sum(int(f[11]) + int(f[12]) + int(f[13]) + int(f[14]) for f in members.values())
            seconds = ticks / os.sysconf("SC_CLK_TCK")
            self.last = seconds if self.last is None else max(self.last, seconds)
        return self.last


class UidPool:
    """The bots' own user ids of this server process: one per live sandbox, reused once it is closed."""

    def __init__(self) -> None:
        self.base = _UID_BASE + (os.getpid() % 4096) * _UIDS_PER_SERVER
        self.free = list(range(_UIDS_PER_SERVER))
        self.used: set[int] = set()

    def take(self) -> int:
        """A user id no live sandbox of this server has (the oldest freed one first)."""
        slot = self.free.pop(0) if self.free else len(self.used) % _UIDS_PER_SERVER
        self.used.add(slot)
        return self.base + slot

    def give(self, uid: int) -> None:
        """``uid``'s sandbox is closed."""
        slot = uid - self.base
        if slot in self.used:
            self.used.discard(slot)
            self.free.append(slot)


#: This server process's pool.
UIDS = UidPool()


def sandbox_uids() -> range:
    """The user ids this server process gives its sandboxes (as root: one per live sandbox)."""
    return range(UIDS.base, UIDS.base + _UIDS_PER_SERVER)

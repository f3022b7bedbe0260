"""The bound of the server's C++ build cache (``DATA_DIR/cpp-builds``, a worker's ``CACHE/cpp-builds``): the most
recently used ``keep`` builds stay, older ones are removed after each new build (``evict``, called by
``sandboxed_cpp_build`` in its thread, off the event loop).

Each build is a folder ``KEY`` holding ``answer.json``. Its use is marked by that file's modification time, set on
every cache hit (``hold``). A bot that runs a build holds a shared ``flock`` on it from the lookup to the bot's end
(``hold``/``let_go``): eviction takes an exclusive one without waiting and skips a build it cannot lock, so a build
is never removed between its lookup and its bot's start, nor while its bot runs; flocks work across the server's
and the workers' processes on one machine. The current arena objects (``arena-KEY``) are never removed; those of
another compiler or arena version are. Work folders of builds under way (``.KEY.xxxx``) are left alone.

The client's cache (``client/cppcache.py``) has its own small implementation of the same rule: the server may not
import ``client`` nor the client ``server`` (import contracts), and ``shared`` does no I/O.
"""

from __future__ import annotations

import fcntl
import os
import secrets
import shutil
from pathlib import Path

__all__ = ["DEFAULT_KEEP", "bound", "evict", "hold", "keep_of", "let_go"]

DEFAULT_KEEP = 500
"""Builds a cache keeps by default: a build is about 240 KB, so about 120 MB; an evicted build that is needed again
is built again (1.4 s)."""

_ANSWER = "answer.json"
_KEEP: dict[Path, int] = {}


def bound(cache_dir: Path, keep: int) -> None:
    """Keep at most ``keep`` builds in ``cache_dir`` in this process (``quoridor-server --cpp-builds-keep``,
    ``quoridor-worker --cpp-builds-keep``)."""
    _KEEP[cache_dir.resolve()] = keep


def keep_of(cache_dir: Path) -> int:
    """How many builds ``cache_dir`` keeps (``bound``'s, else ``DEFAULT_KEEP``)."""
    return _KEEP.get(cache_dir.resolve(), DEFAULT_KEEP)


def hold(done: Path) -> int | None:
    """Mark the build in ``done`` used now and hold it (a shared lock) until ``let_go``; ``None`` when it is not
    there (evicted meanwhile: build it again)."""
    try:
        fd = os.open(done / _ANSWER, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    fcntl.flock(fd, fcntl.LOCK_SH)
    try:
        there = os.stat(done / _ANSWER).st_ino == os.fstat(fd).st_ino     # not evicted while we waited for the lock
    except OSError:
        there = False
    if not there:
        os.close(fd)
        return None
    try:
        os.utime(fd)
    except OSError:
        pass                         # a build of another user's: used all the same, only not marked
    return fd


def let_go(fd: int | None) -> None:
    """Let go of a build held by ``hold`` (``None``: nothing held)."""
    if fd is not None:
        os.close(fd)


def _used(folder: Path) -> float | None:
    try:
        return (folder / _ANSWER).stat().st_mtime
    except OSError:
        return None


def evict(cache_dir: Path, *, keep: int, arena: str) -> list[str]:
    """Remove the least recently used builds of ``cache_dir`` beyond the ``keep`` most recent, none held by a bot,
    and the arena objects of other keys than ``arena`` (the current ``arena-KEY``); the names removed."""
    try:
        names = [entry.name for entry in os.scandir(cache_dir) if entry.is_dir() and not entry.name.startswith(".")]
    except OSError:
        return []
    builds: list[tuple[float, str]] = []
    stale: list[str] = []
    for name in names:
        if name.startswith("arena-"):
            if name != arena:
                stale.append(name)
            continue
        used = _used(cache_dir / name)
        if used is not None:
            builds.append((used, name))
    builds.sort(reverse=True)
    removed = []
    for name in stale + [name for _used_at, name in builds[max(keep, 0):]]:
        if _remove(cache_dir / name):
            removed.append(name)
    return removed


def _remove(folder: Path) -> bool:
    """Remove ``folder`` unless a bot holds it: renamed away under an exclusive lock (a lookup then misses), then
    deleted."""
    try:
        fd = os.open(folder / _ANSWER, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False                                 # a bot runs it
        gone = folder.with_name(f".evicted-{folder.name}.{secrets.token_hex(4)}")
        try:
            folder.rename(gone)
        except OSError:
            return False
    finally:
        os.close(fd)
    shutil.rmtree(gone, ignore_errors=True)
    return True

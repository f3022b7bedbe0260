"""The local cache of C++ builds: ``quoridor-match`` and ``quoridor-client`` build a C++ bot once (``client.cppbuild``,
the user's own g++, no sandbox: the user's own code on the user's machine) and find it again by its key.

The key is the hash of the bot's C++ files, the entry, the arena's C++ files, the flags and ``g++ --version``; the
cache is ``$XDG_CACHE_HOME/quoridor-arena/cpp`` (``~/.cache/...``), one folder per key holding ``bot`` and
``build.json`` (its entry class and notes), moved into place whole: a run never sees half a build. The arena's own
objects (``client.cppbuild.build_arena_objects``) are kept there too, once per g++ and arena files (``arena-KEY``):
a bot edited and built again compiles only its own files and links them.

The cache is bounded: after each new build, the least recently used builds beyond the most recent ``keep`` are
removed (``evict``; ``DEFAULT_KEEP``, or ``$QUORIDOR_CPP_CACHE_KEEP``), never one this or another run still uses (a
run holds a shared ``flock`` on each build it found or built until it exits; eviction skips a build it cannot lock
exclusively), never the current arena objects. A hit marks a build used (its ``build.json``'s modification time).
The server's cache (``server/sandbox/buildcache.py``) follows the same rule in its own small implementation: the
client may not import ``server`` nor the server ``client`` (import contracts), and ``shared`` does no I/O.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import json
import os
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .cppbuild import (ARENA_CPP, ARENA_OBJECTS, CXXFLAGS, LOCAL_BOUND, CppBuildError, build, build_arena_objects,
                       cpp_files)

__all__ = ["DEFAULT_KEEP", "CachedBuild", "cache_keep", "cache_root", "cached_build", "compiler_version", "evict",
           "local_build_key"]

DEFAULT_KEEP = 50
"""Builds the local cache keeps by default (about 240 KB each: about 12 MB); ``$QUORIDOR_CPP_CACHE_KEEP`` sets
another bound."""

KEEP_VARIABLE = "QUORIDOR_CPP_CACHE_KEEP"


_CACHE_FORMAT = "1"                      # changes when the layout of a cached build changes


def cache_root() -> Path:
    """Where local builds are cached: ``$XDG_CACHE_HOME/quoridor-arena/cpp`` (``~/.cache/quoridor-arena/cpp``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "quoridor-arena" / "cpp"


def cache_keep() -> int:
    """How many builds the local cache keeps: ``$QUORIDOR_CPP_CACHE_KEEP`` (a whole number of at least 1), else
    ``DEFAULT_KEEP``; ``CppBuildError`` (one line) when the variable is not such a number."""
    value = os.environ.get(KEEP_VARIABLE, "").strip()
    if not value:
        return DEFAULT_KEEP
    if not value.isdigit() or int(value) < 1:
        raise CppBuildError(f"{KEEP_VARIABLE}={value!r}: give the number of C++ builds to keep (at least 1)")
    return int(value)


_HELD: dict[Path, int] = {}


def _hold(done: Path) -> bool:
    """Mark the build in ``done`` used now and hold it (a shared lock, until this run exits); False when it is not
    there (removed by another run meanwhile)."""
    fd = _HELD.get(done)
    if fd is None:
        try:
            fd = os.open(done / "build.json", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return False
        fcntl.flock(fd, fcntl.LOCK_SH)
        try:
            there = os.stat(done / "build.json").st_ino == os.fstat(fd).st_ino     # not evicted while we waited
        except OSError:
            there = False
        if not there:
            os.close(fd)
            return False
        _HELD[done] = fd
    try:
        os.utime(fd)
    except OSError:
        pass                                            # not ours to mark (a shared cache): used all the same
    return True


def evict(cache: Path, *, keep: int, arena: str) -> list[str]:
    """Remove the least recently used builds of ``cache`` beyond the ``keep`` most recent, none held by a run, and
    the arena objects of other keys than ``arena`` (the current ``arena-KEY``); the names removed."""
    try:
        names = [entry.name for entry in os.scandir(cache) if entry.is_dir() and not entry.name.startswith(".")]
    except OSError:
        return []
    builds: list[tuple[float, str]] = []
    removed = []
    for name in names:
        if name.startswith("arena-"):
            if name != arena and _remove(cache / name, None):
                removed.append(name)
            continue
        try:
            builds.append(((cache / name / "build.json").stat().st_mtime, name))
        except OSError:
            continue                                        # not a build (or half removed by hand)
    builds.sort(reverse=True)
    for _used, name in builds[max(keep, 0):]:
        if _remove(cache / name, "build.json"):
            removed.append(name)
    return removed


def _remove(folder: Path, lock: str | None) -> bool:
    """Remove ``folder`` unless a run holds its ``lock`` file: renamed away under an exclusive lock, then deleted."""
    fd = None
    try:
        if lock is not None:
            fd = os.open(folder / lock, os.O_RDONLY | os.O_CLOEXEC)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        gone = folder.with_name(f".evicted-{folder.name}.{secrets.token_hex(4)}")
        folder.rename(gone)
    except OSError:
        return False                                        # held by a run, or gone
    finally:
        if fd is not None:
            os.close(fd)
    shutil.rmtree(gone, ignore_errors=True)
    return True


def compiler_version() -> str:
    """``g++ --version``'s first line for the g++ on the ``PATH`` (``""`` when there is none); asked once per g++."""
    gpp = shutil.which("g++")
    return _version_of(gpp) if gpp is not None else ""


@functools.cache
def _version_of(gpp: str) -> str:
    try:
        done = subprocess.run([gpp, "--version"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.splitlines()[0] if done.stdout else ""


def _key(entry: str, *roots: Path) -> str:
    """The hash of ``entry``, ``g++ --version``, the flags and the C++ files under ``roots`` (as the build finds them:
    ``LOCAL_BOUND``, ``CppBuildError`` for a folder that holds too much)."""
    digest = hashlib.sha256(f"{_CACHE_FORMAT}\0{entry}\0{compiler_version()}\0{' '.join(CXXFLAGS)}\0".encode())
    named = entry.rpartition(":")[0] or entry or None
    for number, root in enumerate(roots):
        for path in cpp_files(root, LOCAL_BOUND, named=named):
            digest.update(f"{number}:".encode() + path.relative_to(root).as_posix().encode() + b"\0"
                          + path.read_bytes() + b"\0")
    return digest.hexdigest()[:24]


def local_build_key(folder: Path, entry: str | None) -> str:
    """The cache key of a build: the hash of the bot's C++ files in ``folder`` (hidden folders skipped, bounded by
    ``LOCAL_BOUND``: ``CppBuildError``), the entry, the arena's C++ files, the flags and ``g++ --version``."""
    return _key(entry or "", folder, ARENA_CPP)


def _move_in(ready: Path, done: Path, complete: Callable[[Path], bool]) -> None:
    """Move the folder ``ready`` to ``done`` at once (a reader sees all of it or nothing); another run's complete
    ``done`` is kept, an incomplete one (a cache cleaned by hand) replaced."""
    if done.exists() and not complete(done):
        shutil.rmtree(done, ignore_errors=True)
    try:
        os.replace(ready, done)
    except OSError:
        if not complete(done):
            raise


def _arena_name() -> str:
    """The folder of the arena's own objects for this g++ and arena files: ``arena-KEY``."""
    return f"arena-{_key('arena', ARENA_CPP)}"


def _arena_objects(cache: Path, work: Path) -> Path:
    """The arena's own objects (its ``main``, most of a build's time) for this g++, compiled once into ``cache``: a
    bot built again after an edit compiles only its own files."""
    done = cache / _arena_name()
    complete = lambda folder: all((folder / name).is_file() for name in ARENA_OBJECTS)  # noqa: E731
    if not complete(done):
        build_arena_objects(work / "arena")
        _move_in(work / "arena", done, complete)
    return done


@dataclass(frozen=True)
class CachedBuild:
    """A bot's executable in the local cache, its entry class and notes, and whether it was found there (no g++ ran)."""

    executable: Path
    entry_class: str
    notes: list[str]
    cached: bool


def cached_build(folder: Path, *, entry: str | None = None, cache: Path | None = None,
                 on_build: Callable[[], None] | None = None, keep: int | None = None) -> CachedBuild:
    """The executable of the bot in ``folder``, from the cache (``cache_root()`` unless told) or built now (``on_build``
    is told first, then the cache keeps its ``keep`` most recently used builds, ``cache_keep()`` unless told);
    ``CppBuildError`` (one line) when it cannot be built. Two runs building at once both succeed. The build is held
    from eviction until this run exits."""
    cache = cache or cache_root()
    keep = keep if keep is not None else cache_keep()
    done = cache / local_build_key(folder, entry)
    try:
        answer = json.loads((done / "build.json").read_text(encoding="utf-8"))
        if (done / "bot").is_file() and _hold(done):
            return CachedBuild(done / "bot", answer["entry_class"], list(answer["notes"]), cached=True)
    except (OSError, ValueError, KeyError, TypeError):
        pass
    if on_build is not None and compiler_version():     # without g++ the build says only what to install
        on_build()
    try:
        cache.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=".building-", dir=cache))
    except OSError as exc:
        raise CppBuildError(f"cannot write the build cache {cache}: {exc.strerror}") from None
    try:
        plan = build(folder, work / "stage", entry=entry, arena_objects=_arena_objects(cache, work), bound=LOCAL_BOUND)
        ready = work / "ready"
        ready.mkdir()
        os.replace(plan.output, ready / "bot")
        (ready / "build.json").write_text(json.dumps({"entry_class": plan.entry_class, "notes": plan.notes}),
                                          encoding="utf-8")
        _move_in(ready, done, lambda folder: (folder / "bot").is_file())
        _hold(done)                                     # the most recent, and held: never among those evicted
        evict(cache, keep=keep, arena=_arena_name())
        return CachedBuild(done / "bot", plan.entry_class, plan.notes, cached=False)
    finally:
        shutil.rmtree(work, ignore_errors=True)

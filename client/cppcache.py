"""The local cache of C++ builds: ``quoridor-match`` and ``quoridor-client`` build a C++ bot once (``client.cppbuild``,
the user's own g++, no sandbox: the user's own code on the user's machine) and find it again by its key.

The key is the hash of the bot's C++ files, the entry, the arena's C++ files, the flags and ``g++ --version``; the
cache is ``$XDG_CACHE_HOME/quoridor-arena/cpp`` (``~/.cache/...``), one folder per key holding ``bot`` and
``build.json`` (its entry class and notes), moved into place whole: a run never sees half a build. The arena's own
objects (``client.cppbuild.build_arena_objects``) are kept there too, once per g++ and arena files (``arena-KEY``):
a bot edited and built again compiles only its own files and links them.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .cppbuild import ARENA_CPP, ARENA_OBJECTS, CXXFLAGS, CppBuildError, build, build_arena_objects

__all__ = ["CachedBuild", "cache_root", "cached_build", "compiler_version", "local_build_key"]

_SOURCES = (".cpp", ".cc", ".cxx")
_HEADERS = (".h", ".hpp", ".hh", ".hxx")

_CACHE_FORMAT = "1"                      # changes when the layout of a cached build changes


def cache_root() -> Path:
    """Where local builds are cached: ``$XDG_CACHE_HOME/quoridor-arena/cpp`` (``~/.cache/quoridor-arena/cpp``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "quoridor-arena" / "cpp"


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
    """The hash of ``entry``, ``g++ --version``, the flags and the C++ files under ``roots``."""
    digest = hashlib.sha256(f"{_CACHE_FORMAT}\0{entry}\0{compiler_version()}\0{' '.join(CXXFLAGS)}\0".encode())
    for number, root in enumerate(roots):
        for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in _SOURCES + _HEADERS):
            digest.update(f"{number}:".encode() + path.relative_to(root).as_posix().encode() + b"\0"
                          + path.read_bytes() + b"\0")
    return digest.hexdigest()[:24]


def local_build_key(folder: Path, entry: str | None) -> str:
    """The cache key of a build: the hash of the bot's C++ files in ``folder``, the entry, the arena's C++ files, the
    flags and ``g++ --version``."""
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


def _arena_objects(cache: Path, work: Path) -> Path:
    """The arena's own objects (its ``main``, most of a build's time) for this g++, compiled once into ``cache``: a
    bot built again after an edit compiles only its own files."""
    done = cache / f"arena-{_key('arena', ARENA_CPP)}"
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
                 on_build: Callable[[], None] | None = None) -> CachedBuild:
    """The executable of the bot in ``folder``, from the cache (``cache_root()`` unless told) or built now (``on_build``
    is told first); ``CppBuildError`` (one line) when it cannot be built. Two runs building at once both succeed."""
    cache = cache or cache_root()
    done = cache / local_build_key(folder, entry)
    try:
        answer = json.loads((done / "build.json").read_text(encoding="utf-8"))
        if (done / "bot").is_file():
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
        plan = build(folder, work / "stage", entry=entry, arena_objects=_arena_objects(cache, work))
        ready = work / "ready"
        ready.mkdir()
        os.replace(plan.output, ready / "bot")
        (ready / "build.json").write_text(json.dumps({"entry_class": plan.entry_class, "notes": plan.notes}),
                                          encoding="utf-8")
        _move_in(ready, done, lambda folder: (folder / "bot").is_file())
        return CachedBuild(done / "bot", plan.entry_class, plan.notes, cached=False)
    finally:
        shutil.rmtree(work, ignore_errors=True)

"""The C++ build of a hand-in, inside the same bubblewrap sandbox as a bot, and its cache.

The build is a process, ``python -m client.cppbuild /bot /build/stage`` (the server never imports
``client``), run in the sandbox of ``bwrap.py``: no network, nothing of the server visible, the
hand-in read-only at ``/bot``, one writable folder of its own at ``/build`` (``BUILD_DIR``), and
the limits ``BUILD_LIMITS`` (CPU seconds, address space and file size per process, processes,
open files, a private /tmp of its own size), plus a wall-clock limit. Its answer is a ``CppBuilt``:
the executable's path, or one line saying why not (the first compile error, ``file:line: message``,
or the limit the compiler hit).

Builds are cached under ``cache_dir`` by the hash of the student's files, the entry and name, the
arena's C++ files and ``g++ --version``: a second build of the same files is a lookup. The cache keeps the
most recently used builds (``buildcache``: 500 by default), never one a bot runs nor the current arena objects.

The arena's own sources (its ``main`` with nlohmann-json, three quarters of a cold build) are compiled
once per arena files and compiler, in a sandboxed build of their own (``python -m client.cppbuild
--arena-objects-into``), into ``cache_dir/arena-KEY/objects`` (the files made read-only); each
student's build sees that folder through a read-only bind at ``OBJECTS_DIR`` and only links them.

On a server started with ``--unsafe-no-sandbox`` where bubblewrap does not work (``unsafe=True``), the same
command runs as a plain process, with the same rlimits, wall-clock limit, cache and arena objects: the organiser
opted into running hand-ins unsandboxed, and their bots run so too.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import resource
import secrets
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from server.sandbox import buildcache
from server.sandbox.bwrap import BOT_DIR, BUILD_DIR, HOST_FLAGS, OBJECTS_DIR, bwrap_launch, current_layout
from server.sandbox.limits import MB, SandboxLimits, rlimits
from server.sandbox.procfs import UIDS
from server.sandbox.seccomp import SeccompUnavailable, bot_filter
from server.sandbox.status import SandboxUnavailable, project_root, sandbox_status

__all__ = ["BUILD_LIMITS", "BUILD_WALL_S", "CppBuilt", "arena_key", "build_key", "compiler_version",
           "sandboxed_cpp_build"]

BUILD_LIMITS = SandboxLimits(address_space_mb=1024, cpu_seconds=60, processes=16, open_files=256, file_size_mb=64,
                             output_bytes=64 * 1024, tmp_mb=128)
"""What a C++ build may use: 1 GB of address space and 60 CPU seconds per compiler process, files (the objects
in its /tmp, the executable) of 64 MB at most, 128 MB of /tmp, 16 processes, 256 open files."""

BUILD_WALL_S = 120.0
"""Seconds a build may last, whatever it waits for."""

_MODULE = "client.cppbuild"
_STAGE = f"{BUILD_DIR}/stage"
_OBJECTS = f"{BUILD_DIR}/objects"
_FORMAT = "2"                                   # changes when the layout of a cached build changes


@dataclass(frozen=True)
class CppBuilt:
    """A build's answer: the executable (``None`` when it failed), or one line saying why; its notes."""

    executable: Path | None
    reason: str = ""
    entry_class: str = ""
    notes: list[str] = field(default_factory=list)
    #: True when the build was found in the cache (no compiler ran).
    cached: bool = False
    #: The lock that keeps the build from eviction (``held=True``) until ``buildcache.let_go``; else ``None``.
    hold: int | None = field(default=None, compare=False)


@functools.cache
def compiler_version() -> str | None:
    """``g++ --version``'s first line (``None`` when there is no g++); asked once per process."""
    gpp = shutil.which("g++")
    if gpp is None:
        return None
    try:
        done = subprocess.run([gpp, "--version"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.splitlines()[0] if done.returncode == 0 and done.stdout else None


def _tree_digest(digest: hashlib._Hash, folder: Path) -> None:
    """Add every file of ``folder`` (its path and its bytes, or a link's target) to ``digest``; a file, itself."""
    for path in sorted(folder.rglob("*")) if folder.is_dir() else [folder]:
        rel = path.relative_to(folder).as_posix().encode() if path != folder else path.name.encode()
        if path.is_symlink():
            digest.update(b"L" + rel + b"\0" + os.fsencode(os.readlink(path)) + b"\0")
        elif path.is_file():
            digest.update(b"F" + rel + b"\0" + hashlib.sha256(path.read_bytes()).digest())


def _arena_digest(digest: hashlib._Hash) -> None:
    """Add the arena's C++ files and the build's layout and command (``client/cppbuild.py``) to ``digest``."""
    digest.update(b"\0arena\0")
    _tree_digest(digest, project_root() / "client" / "cpp")
    _tree_digest(digest, project_root() / "client" / "cppbuild.py")


def build_key(folder: Path, *, entry: str | None, name: str | None, compiler: str) -> str:
    """The cache key of a build: the student's files, the entry and name, the arena's C++ files, the compiler."""
    digest = hashlib.sha256(f"{_FORMAT}\0{entry or ''}\0{name or ''}\0{compiler}\0".encode())
    _tree_digest(digest, folder)
    _arena_digest(digest)
    return digest.hexdigest()[:32]


def arena_key(compiler: str) -> str:
    """The cache key of the arena's prebuilt objects: the arena's C++ files, the build's command, the compiler."""
    digest = hashlib.sha256(f"{_FORMAT}\0objects\0{compiler}\0".encode())
    _arena_digest(digest)
    return digest.hexdigest()[:32]


_LIMIT_SIGNS = (
    ("CPU time limit exceeded", "the compiler used more than {cpu} s of CPU (the build's limit)"),
    ("File size limit exceeded", "the build wrote a file larger than {fsize} MB (the build's limit)"),
    ("File too large", "the build wrote a file larger than {fsize} MB (the build's limit)"),
    ("No space left on device", "the build's temporary files went over {tmp} MB (the build's limit)"),
    ("out of memory", "the compiler needed more than {memory} MB of memory (the build's limit)"),
    ("memory exhausted", "the compiler needed more than {memory} MB of memory (the build's limit)"),
    ("Cannot allocate memory", "the compiler needed more than {memory} MB of memory (the build's limit)"),
    ("std::bad_alloc", "the compiler needed more than {memory} MB of memory (the build's limit)"),
)


def _limit_reason(stderr: str, limits: SandboxLimits) -> str | None:
    """The limit the compiler hit, by what its driver printed (``None``: none)."""
    for sign, reason in _LIMIT_SIGNS:
        if sign in stderr:
            return reason.format(cpu=limits.cpu_seconds, fsize=limits.file_size_mb, tmp=limits.tmp_mb,
                                 memory=limits.address_space_mb)
    return None


def _answer(stdout: bytes, stderr: bytes, returncode: int, limits: SandboxLimits) -> dict[str, object]:
    """The build process's JSON answer, or one made from how it ended."""
    lines = stdout.decode(errors="replace").strip().splitlines()
    try:
        answer = json.loads(lines[-1]) if lines else None
    except ValueError:
        answer = None
    if isinstance(answer, dict) and "ok" in answer:
        return answer
    err = stderr.decode(errors="replace")
    last = next((line.strip() for line in reversed(err.splitlines()) if line.strip()), "")
    reason = _limit_reason(err, limits) or f"the build ended without an answer (exit code {returncode})" + (
        f": {last[:200]}" if last else "")
    return {"ok": False, "error": reason, "stderr_tail": ""}


def _own(path: Path, uid: int) -> None:
    """Give ``path`` and everything under it to ``uid`` (its group too)."""
    for here, folders, files in os.walk(path):
        for name in (here, *(os.path.join(here, f) for f in folders + files)):
            os.lchown(name, uid, uid)


def sandboxed_cpp_build(folder: Path, cache_dir: Path, *, entry: str | None = None, name: str | None = None,
                        limits: SandboxLimits = BUILD_LIMITS, wall_s: float = BUILD_WALL_S,
                        unsafe: bool = False, held: bool = False) -> CppBuilt:
    """Build the C++ bot in ``folder`` (entry ``FILE:CLASS``, or found) in the sandbox, or find it in ``cache_dir``.

    Raises ``SandboxUnavailable`` when there is no sandbox here, unless ``unsafe`` (a server started with
    ``--unsafe-no-sandbox``, whose hand-ins run unsandboxed too): then the build is a plain process with the same
    rlimits, wall-clock limit, cache and arena objects. Every other failure is a ``CppBuilt`` without an
    executable and with a one-line reason. ``wall_s`` bounds the whole build, the arena's objects included when
    they are built first. ``held``: the build is held from eviction until ``buildcache.let_go(built.hold)`` (a
    bot runs it). A new build is followed by the eviction of the cache's least recently used builds
    (``buildcache``)."""
    compiler = compiler_version()
    if compiler is None:
        return CppBuilt(None, "no C++ compiler on the server: install g++ (apt-get install g++) to build C++ bots")
    folder = folder.resolve()
    key = build_key(folder, entry=entry, name=name, compiler=compiler)
    done = cache_dir / key
    if (done / "answer.json").is_file():
        found = _found(done, held)
        if found is not None:
            return found
    seccomp = _build_filter(unsafe)
    cache_dir.mkdir(parents=True, exist_ok=True)
    build = _Build(limits, seccomp, time.monotonic() + wall_s, wall_s)
    arena = arena_key(compiler)
    objects = _arena_objects(cache_dir, arena, build)
    if isinstance(objects, str):
        return CppBuilt(None, objects)
    args = [BOT_DIR, _STAGE, f"--arena-objects={OBJECTS_DIR}"]
    args += [f"--entry={entry}"] if entry else []
    args += [f"--name={name}"] if name else []
    work = _work_dir(cache_dir, key)
    try:
        answer = build.run(args, work, folder=folder, objects=objects)
        if not answer.get("ok"):
            return CppBuilt(None, _failure(answer, limits))
        (work / "answer.json").write_text(json.dumps(answer), encoding="utf-8")
        try:
            work.rename(done)
        except OSError:                             # built meanwhile by another: theirs is as good
            shutil.rmtree(work, ignore_errors=True)
        hold = buildcache.hold(done)                # the new build is the most recent: never among those evicted
        buildcache.evict(cache_dir, keep=buildcache.keep_of(cache_dir), arena=f"arena-{arena}")
        if not held:
            buildcache.let_go(hold)
            hold = None
        return replace(_built(done, cached=False), hold=hold)
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)


def _build_filter(unsafe: bool) -> bytes | None:
    """The seccomp filter of a sandboxed build; ``None`` (a plain process) when there is no sandbox and ``unsafe``;
    ``SandboxUnavailable`` when there is none and not ``unsafe``."""
    problem = sandbox_status()
    if problem is None:
        try:
            return bot_filter()
        except SeccompUnavailable as exc:
            problem = str(exc)
    if unsafe:
        return None
    raise SandboxUnavailable(f"refusing to build handed-in code without the sandbox: {problem}")


def _work_dir(cache_dir: Path, key: str) -> Path:
    """A new folder in ``cache_dir`` for a build of ``key`` (renamed to its place in the cache once complete)."""
    work = cache_dir / f".{key}.{secrets.token_hex(4)}"
    work.mkdir(mode=0o755)
    return work


def _failure(answer: dict[str, object], limits: SandboxLimits) -> str:
    """The one-line reason of a failed build's ``answer``."""
    reason = _limit_reason(str(answer.get("stderr_tail", "")), limits) or str(answer.get("error", ""))
    return reason.splitlines()[0] if reason else "the build failed without saying why"


def _arena_objects(cache_dir: Path, key: str, build: _Build) -> Path | str:
    """The folder of the arena's prebuilt objects for ``key``, built now in a sandbox of their own if not yet (the
    objects then made read-only; each build sees the folder through a read-only bind); a one-line reason when they
    cannot be built."""
    done = cache_dir / f"arena-{key}"
    if (done / "answer.json").is_file():
        return done / "objects"
    work = _work_dir(cache_dir, f"arena-{key}")
    try:
        answer = build.run([f"--arena-objects-into={_OBJECTS}"], work)
        if not answer.get("ok"):
            reason = _failure(answer, build.limits)
            if reason.endswith("(the build's limit)"):
                return reason
            return f"the arena's own C++ files did not build: {reason}"
        (work / "answer.json").write_text(json.dumps(answer), encoding="utf-8")
        for path in (work / "objects").iterdir():
            path.chmod(0o444)
        try:
            work.rename(done)
        except OSError:                             # built meanwhile by another: theirs is as good
            shutil.rmtree(work, ignore_errors=True)
        return done / "objects"
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)


@dataclass(frozen=True)
class _Build:
    """What every step of one build shares: its limits, its filter (``None``: unsandboxed) and its deadline."""

    limits: SandboxLimits
    seccomp: bytes | None
    deadline: float
    wall_s: float

    def run(self, args: list[str], work: Path, *, folder: Path | None = None,
            objects: Path | None = None) -> dict[str, object]:
        """``python -m client.cppbuild ARGS`` in the sandbox (``folder`` read-only at ``BOT_DIR``, ``work``
        writable at ``BUILD_DIR``, ``objects`` read-only at ``OBJECTS_DIR``) until the deadline; its answer.
        Unsandboxed, the same process runs on the host, those paths in ``ARGS`` replaced by the real ones."""
        if time.monotonic() >= self.deadline:
            return {"ok": False, "error": f"the build took more than {self.wall_s:g} s (the build's limit)"}
        if self.seccomp is None:
            return self._run_unsandboxed(args, work, folder=folder, objects=objects)
        root = os.geteuid() == 0
        uid = UIDS.take() if root else 0
        try:
            if root:
                os.chown(work, uid, uid)
            # g++ finds its own programs (cc1plus, as, ld) by the PATH it was found on: the sandbox sets none.
            command = ["/usr/bin/env", "PATH=/usr/bin", sys.executable, *HOST_FLAGS, "-m", _MODULE, *args,
                       "--timeout", str(self.wall_s + 10)]           # ours stops it first
            layout = current_layout(str(project_root()), root=root)
            launch = bwrap_launch(layout, None if folder is None else str(folder), command, self.limits, uid,
                                  self.seccomp, writable=str(work), objects=None if objects is None else str(objects))
            try:
                answer = _run(launch.argv, launch.fds, self.limits, self.deadline - time.monotonic(), self.wall_s)
            finally:
                launch.close()
            if root:
                _own(work, os.geteuid())           # the builder's user may be another sandbox's next: it loses them
            return answer
        finally:
            if root:
                UIDS.give(uid)

    def _run_unsandboxed(self, args: list[str], work: Path, *, folder: Path | None,
                         objects: Path | None) -> dict[str, object]:
        """``run`` without bubblewrap (``--unsafe-no-sandbox`` where it does not work): the same rlimits and deadline,
        the build's temporary files in ``work``."""
        places = {BUILD_DIR: str(work), BOT_DIR: str(folder), OBJECTS_DIR: str(objects)}

        def real(arg: str) -> str:
            flag, eq, path = arg.rpartition("=")
            for inside, outside in places.items():
                if path == inside or path.startswith(inside + "/"):
                    return flag + eq + outside + path[len(inside):]
            return arg

        tmp = work / "tmp"
        tmp.mkdir(exist_ok=True)
        command = [sys.executable, *HOST_FLAGS, "-m", _MODULE, *map(real, args), "--timeout", str(self.wall_s + 10)]
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(project_root()),
               "PYTHONDONTWRITEBYTECODE": "1", "TMPDIR": str(tmp), "HOME": str(tmp), "LANG": "C.UTF-8"}
        try:
            return _run(command, (), self.limits, self.deadline - time.monotonic(), self.wall_s, env=env, cwd=work)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def _found(done: Path, held: bool) -> CppBuilt | None:
    """The build in ``done`` marked used now (and held, if ``held``); ``None`` when it was evicted meanwhile."""
    hold = buildcache.hold(done)
    if hold is None:
        return None
    try:
        built = _built(done, cached=True)
    except (OSError, ValueError):
        buildcache.let_go(hold)
        return None
    if not held:
        buildcache.let_go(hold)
        return built
    return replace(built, hold=hold)


def _built(done: Path, *, cached: bool) -> CppBuilt:
    """The cached build in ``done``."""
    answer = json.loads((done / "answer.json").read_text(encoding="utf-8"))
    return CppBuilt(done / "stage" / "bot", entry_class=str(answer.get("entry_class", "")),
                    notes=[str(note) for note in answer.get("notes", [])], cached=cached)


def _run(argv: list[str], fds: tuple[int, ...], limits: SandboxLimits, left_s: float, wall_s: float, *,
         env: dict[str, str] | None = None, cwd: Path | None = None) -> dict[str, object]:
    """Run the build's sandbox to its end (killed after ``left_s``, what is left of the build's ``wall_s``); its
    answer."""
    def limit_child() -> None:
        for which, soft, hard in rlimits(limits):
            resource.setrlimit(which, (soft, hard))

    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               preexec_fn=limit_child, pass_fds=fds, start_new_session=True, env=env or {},
                               cwd=cwd)
    try:
        stdout, stderr = process.communicate(timeout=max(left_s, 0.0))
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 9)
        process.communicate()
        return {"ok": False, "error": f"the build took more than {wall_s:g} s (the build's limit)"}
    return _answer(stdout[-limits.output_bytes:], stderr[-limits.output_bytes:], process.returncode, limits)

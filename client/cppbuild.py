"""Build a C++ bot written for the course framework (``MyPlayer.cpp``/``MyPlayer.h``) into a hosted bot.

The arena ships the framework's ``Player.h`` and ``QuoridorUtils/`` (``client/cpp/``, compatible with the handout's)
and a ``main`` (``client/cpp/arena_main.cpp``) that plays the Player over the hosted-bot channel
(``docs/hosted-bots.md``). ``plan_build`` lays a hand-in out for g++ and writes the factory that creates the entry
class; ``build`` runs g++ on it (here, unsandboxed: the server runs the same command in its sandbox).

The arena's own sources (``ARENA_SOURCES``: its ``main``, with nlohmann-json, takes most of a build's time) are
compiled with the bot's, or once ahead by ``build_arena_objects`` and then only linked (``arena_objects=``).

* The framework's own files, when handed in too (``Client.cpp``, ``NetworkClient.*``, ``Configuration.*``,
  ``Player.h``, ``QuoridorUtils.*``), are left out: the arena's are used instead, with a note each.
* The ``.cpp`` files compiled are those of the entry file's folder and its subfolders (a framework folder's
  ``QuoridorUI/``, with a ``main`` of its own, is not).
* The entry class is ``--entry FILE:CLASS``, or the one class deriving (directly or not) from ``Player`` that no
  other class derives from; of several such, the handout's ``MyPlayer``.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["ARENA_CPP", "ARENA_OBJECTS", "ARENA_SOURCES", "CXXFLAGS", "FRAMEWORK_FILES", "CppBuild", "CppBuildError",
           "build", "build_arena_objects", "compile_error", "find_player_classes", "main", "plan_build"]

ARENA_CPP = Path(__file__).resolve().parent / "cpp"
"""The arena's C++ files: ``QuoridorClient/Player.h``, ``QuoridorUtils/QuoridorUtils.{h,cpp}``, ``arena_main.cpp``."""

CXXFLAGS = ("-std=c++17", "-O2")
"""The compiler's flags for every bot."""

ARENA_SOURCES = ("QuoridorUtils/QuoridorUtils.cpp", "arena_main.cpp")
"""The arena's own sources (under ``ARENA_CPP``), part of every bot."""

ARENA_OBJECTS = ("QuoridorUtils.o", "arena_main.o")
"""The objects ``build_arena_objects`` compiles ``ARENA_SOURCES`` into (g++ names them by their sources)."""

FRAMEWORK_FILES = frozenset({"Client.cpp", "NetworkClient.cpp", "NetworkClient.h", "Configuration.cpp",
                             "Configuration.h", "Player.h", "QuoridorUtils.cpp", "QuoridorUtils.h",
                             "LogPlayer.cpp", "LogPlayer.h"})
"""The course framework's own files: replaced by the arena's when a hand-in holds them (its ``LogPlayer``, which
replays a log file with the framework's CSV library, has no use here: left out too)."""

_SOURCES = (".cpp", ".cc", ".cxx")
_HEADERS = (".h", ".hpp", ".hh", ".hxx")
_FACTORY = "arena_factory.cpp"


class CppBuildError(ValueError):
    """A C++ hand-in that cannot be built; the message is one line (for a compile error: ``file:line: message``)."""

    #: What the compiler printed, when it ran and failed (``""`` otherwise).
    stderr: str = ""


@dataclass(frozen=True)
class FolderBound:
    """How much a local bot's folder (its source file's parent, compiled whole) may hold: hidden folders skipped."""

    #: C++ files (sources and headers) at most.
    files: int = 200
    #: Their bytes at most.
    bytes: int = 16 * 1024 * 1024
    #: Files of any kind looked at, at most (a folder as big as a home folder is refused before it is all read).
    entries: int = 20_000


LOCAL_BOUND = FolderBound()
"""The bound of a local bot's folder (``quoridor-match MyPlayer.cpp``): the course framework's folder holds about ten
C++ files. Hand-ins on the server are bounded by its archive limits instead (``--max-submission-files``)."""


def _shown(folder: Path) -> str:
    """``folder`` as a user would read it: ``~`` or ``~/...`` under the home folder."""
    try:
        rel = folder.resolve().relative_to(Path.home().resolve())
    except ValueError:
        return str(folder)
    return "~" if rel == Path(".") else f"~/{rel.as_posix()}"


def cpp_files(folder: Path, bound: FolderBound | None = None, *, named: str | None = None) -> list[Path]:
    """The C++ files (sources and headers) under ``folder``, sorted. ``bound`` (a local bot's folder): hidden folders
    skipped, and ``CppBuildError`` (one line, naming the bot's file ``named``) when the folder holds more than it
    allows."""
    if bound is None:
        return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in _SOURCES + _HEADERS)
    found: list[Path] = []
    size = seen = 0
    for here, folders, names in os.walk(folder):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        seen += len(names) + len(folders)
        for name in names:
            path = Path(here, name)
            if path.suffix not in _SOURCES + _HEADERS or not path.is_file():
                continue
            found.append(path)
            size += path.stat().st_size
        problem = (f"more than {bound.files:,} C++ files" if len(found) > bound.files else
                   f"more than {bound.bytes // (1024 * 1024)} MB of C++ files" if size > bound.bytes else
                   f"more than {bound.entries:,} files" if seen > bound.entries else None)
        if problem is not None:
            source = named or "the bot's .cpp file"
            raise CppBuildError(f"{_shown(folder)} holds {problem}: put {source} "
                                "and its headers in a folder of their own (a bot's whole folder is compiled)")
    return sorted(found)


@dataclass(frozen=True)
class CppBuild:
    """A laid-out build: the g++ command, run in ``stage``, and what the student should be told about it."""

    stage: Path
    output: Path
    entry_class: str
    version: str
    command: list[str]
    notes: list[str] = field(default_factory=list)


_COMMENTS = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.DOTALL)
_CLASS = re.compile(r"\b(?:class|struct)\s+(\w+)\s*(?:final\s*)?:\s*([^{;]*)\{")
_TOKENS = re.compile(r"\bnamespace\s+([\w:]+)\s*\{|\{|\}")


def _code(text: str) -> str:
    """``text`` with its comments and string literals blanked (same length, so positions still match)."""
    return _COMMENTS.sub(lambda m: " " * len(m.group(0)) if m.group(0)[0] == "/" else '""'.ljust(len(m.group(0))),
                         text)


def _namespace_at(code: str, position: int) -> str:
    """The namespace (``A::B``, or ``""``) open at ``position`` of ``code``."""
    stack: list[str | None] = []
    for match in _TOKENS.finditer(code, 0, position):
        if match.group(1):
            stack.append(match.group(1))
        elif match.group(0) == "{":
            stack.append(None)
        elif stack:
            stack.pop()
    return "::".join(name for name in stack if name)


def find_player_classes(texts: dict[str, str], *, leaves_only: bool = True) -> dict[str, tuple[str, str]]:
    """The classes of ``texts`` (file name -> source) that derive from ``Player`` (and, ``leaves_only``, that no other
    class derives from): class name -> (file declaring it, its namespace)."""
    bases: dict[str, set[str]] = {}
    where: dict[str, tuple[str, str]] = {}
    for name, text in sorted(texts.items()):
        code = _code(text)
        for match in _CLASS.finditer(code):
            parents = {part.rsplit("::", 1)[-1] for part in re.findall(r"[\w:]+", match.group(2))}
            bases[match.group(1)] = parents
            where.setdefault(match.group(1), (name, _namespace_at(code, match.start())))

    def derives(cls: str, seen: frozenset[str] = frozenset()) -> bool:
        return "Player" in bases.get(cls, ()) or any(derives(p, seen | {cls}) for p in bases.get(cls, ())
                                                     if p not in seen)

    players = {cls for cls in bases if derives(cls)}
    if leaves_only:
        players = {cls for cls in players if not any(cls in bases[other] for other in players)}
    return {cls: where[cls] for cls in sorted(players)}


def _entry_class(texts: dict[str, str], entry: str | None) -> tuple[str, str, str]:
    """(class, declaring file, namespace) of the entry: ``FILE:CLASS``, ``CLASS``, or found."""
    wanted_file, wanted = (entry.rsplit(":", 1) if entry and ":" in entry else (None, entry))
    if wanted_file is not None and not any(n == wanted_file or n.endswith("/" + wanted_file) for n in texts):
        raise CppBuildError(f"--entry {entry}: there is no file {wanted_file} in the bot's folder")
    found = find_player_classes(texts)
    if wanted:
        every = find_player_classes(texts, leaves_only=False)
        if wanted not in every:
            raise CppBuildError(f"--entry {entry}: no class {wanted} deriving from Player"
                                + (f" (found: {', '.join(found)})" if found else ""))
        return (wanted, *every[wanted])
    if len(found) == 1:
        cls = next(iter(found))
        return (cls, *found[cls])
    if "MyPlayer" in found:
        return ("MyPlayer", *found["MyPlayer"])
    if not found:
        raise CppBuildError("no class deriving from Player (class MyPlayer : public Player) in the bot's files")
    raise CppBuildError(f"several classes derive from Player ({', '.join(found)}): name one with "
                        f"--entry FILE.cpp:CLASS")


def plan_build(folder: Path, stage: Path, *, entry: str | None = None, name: str | None = None,
               arena_objects: Path | None = None, bound: FolderBound | None = None) -> CppBuild:
    """Copy the bot in ``folder`` (its entry ``FILE.cpp:CLASS``, or found) to ``stage`` and write its factory; the
    g++ command that builds ``stage/bot`` (run in ``stage``), compiling ``ARENA_SOURCES`` with the bot's files or
    linking their objects from ``arena_objects`` (``build_arena_objects``). ``bound``: see ``cpp_files``."""
    files = cpp_files(folder, bound)
    notes: list[str] = []
    texts: dict[str, str] = {}
    for path in files:
        rel = path.relative_to(folder).as_posix()
        if path.name in FRAMEWORK_FILES:
            notes.append(f"{rel} is the framework's own file: the arena's is used instead")
            continue
        try:
            texts[rel] = path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise CppBuildError(f"cannot read {rel}: {exc.strerror}") from None
    cls, declared_in, namespace = _entry_class(texts, entry)
    entry_file = (entry.rsplit(":", 1)[0] if entry and ":" in entry else
                  declared_in if declared_in.endswith(_SOURCES) else None)
    if entry_file is None:                    # declared in a header: the .cpp files beside it are the bot's
        entry_dir = Path(declared_in).parent
    else:
        entry_dir = Path(next(n for n in texts if n == entry_file or n.endswith("/" + entry_file))).parent
    src = stage / "src"
    shutil.rmtree(stage, ignore_errors=True)
    src.mkdir(parents=True)
    for rel in texts:
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_bytes((folder / rel).read_bytes())
    digest = hashlib.sha256()
    for rel in sorted(texts):
        digest.update(rel.encode() + b"\0" + (folder / rel).read_bytes() + b"\0")
    version = digest.hexdigest()[:12]
    qualified = f"::{namespace}::{cls}" if namespace else f"::{cls}"
    label = name or cls
    factory = (f"extern const char* const quoridorArenaBotName = {_c_string(label)};\n"
               f"extern const char* const quoridorArenaBotVersion = {_c_string(version)};\n"
               f"QuoridorUtils::Player* quoridorArenaMakePlayer(const std::string& key) {{\n"
               f"    return new {qualified}(key);\n}}\n")
    factories = []
    if declared_in.endswith(_HEADERS):
        (stage / _FACTORY).write_text(f'#include "src/{declared_in}"\n{factory}', encoding="utf-8")
        factories.append(_FACTORY)
    else:                                     # declared in a .cpp: the factory goes at its end, where it is complete
        with (src / declared_in).open("a", encoding="utf-8") as out:
            out.write(f"\n// Quoridor Arena: the factory of the entry class\n{factory}")
    sources = [f"src/{rel}" for rel in sorted(texts) if rel.endswith(_SOURCES)
               and (entry_dir == Path(".") or Path(rel).is_relative_to(entry_dir))]
    arena = ([str(arena_objects / name) for name in ARENA_OBJECTS] if arena_objects is not None
             else [str(ARENA_CPP / source) for source in ARENA_SOURCES])
    command = [*_gpp(), "-o", "bot", *sources, *factories, *arena]
    return CppBuild(stage, stage / "bot", cls, version, command, notes)


def _gpp() -> list[str]:
    """g++ with the arena's flags and include folders (``#include "Player.h"`` and ``"../QuoridorUtils/..."``)."""
    return ["g++", *CXXFLAGS, "-iquote", str(ARENA_CPP / "QuoridorClient"), "-I", str(ARENA_CPP)]


def _c_string(text: str) -> str:
    """``text`` as a C string literal (characters other than letters, digits and `` _-.:`` become ``_``)."""
    return '"' + "".join(c if c.isascii() and (c.isalnum() or c in " _-.:") else "_" for c in text) + '"'


_ERROR = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?:\d+:)? (?:fatal )?error: (?P<message>.*)$", re.MULTILINE)


def compile_error(stderr: str, stage: Path) -> str:
    """The first error of g++'s ``stderr`` in one line, ``file:line: message``, the file relative to the bot's
    folder (the arena's own files by their name)."""
    match = _ERROR.search(stderr)
    if match is None:
        lines = [line for line in stderr.splitlines() if line.strip()]
        return lines[-1].strip() if lines else "the compiler failed without saying why"
    path = match.group("file")
    for prefix in (str(stage / "src") + "/", "src/", str(ARENA_CPP) + "/"):
        if path.startswith(prefix):
            path = path[len(prefix):]
            break
    return f"{path}:{match.group('line')}: {match.group('message').strip()}"


def _toolchain() -> None:
    """``CppBuildError`` (one line, what to install) when g++ or the arena main's JSON library is missing."""
    if shutil.which("g++") is None:
        raise CppBuildError("no C++ compiler: install g++ (apt-get install g++) to build C++ bots")
    if not any((Path(d) / "nlohmann" / "json.hpp").is_file() for d in ("/usr/include", "/usr/local/include")):
        raise CppBuildError("no JSON library for the arena's main: install nlohmann-json3-dev "
                            "(apt-get install nlohmann-json3-dev) to build C++ bots")


def _compile(command: list[str], cwd: Path, timeout_s: float) -> None:
    """Run g++'s ``command`` in ``cwd``; ``CppBuildError`` with its first error (``file:line: message``) if it fails."""
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout_s,
                              check=False, env={**os.environ, "LC_ALL": "C"})   # plain quotes in its messages
    except subprocess.TimeoutExpired:
        raise CppBuildError(f"the build took more than {timeout_s:g} s") from None
    if done.returncode != 0:
        failed = CppBuildError(compile_error(done.stderr, cwd))
        failed.stderr = done.stderr
        raise failed


def build(folder: Path, stage: Path, *, entry: str | None = None, name: str | None = None,
          timeout_s: float = 120.0, arena_objects: Path | None = None, bound: FolderBound | None = None) -> CppBuild:
    """Build the bot in ``folder`` into ``stage/bot`` with the local g++ (linking the arena's objects from
    ``arena_objects`` when given, see ``build_arena_objects``; ``bound``: see ``cpp_files``); ``CppBuildError`` (one
    line) if it fails."""
    _toolchain()
    if arena_objects is not None and not all((arena_objects / name).is_file() for name in ARENA_OBJECTS):
        raise CppBuildError(f"the arena's objects are missing from {arena_objects} (build_arena_objects)")
    plan = plan_build(folder, stage, entry=entry, name=name, arena_objects=arena_objects, bound=bound)
    _compile(plan.command, stage, timeout_s)
    return plan


def build_arena_objects(output: Path, *, timeout_s: float = 120.0) -> list[Path]:
    """Compile the arena's own sources (``ARENA_SOURCES``) into ``ARENA_OBJECTS`` in ``output``, once for any number
    of bots (``build(..., arena_objects=output)``); ``CppBuildError`` (one line) if it fails."""
    _toolchain()
    output.mkdir(parents=True, exist_ok=True)
    _compile([*_gpp(), "-c", *(str(ARENA_CPP / source) for source in ARENA_SOURCES)], output, timeout_s)
    return [output / name for name in ARENA_OBJECTS]


def main(argv: list[str] | None = None) -> int:
    """``python -m client.cppbuild FOLDER STAGE [--entry FILE:CLASS] [--name NAME] [--arena-objects DIR]``: build, then
    print one JSON line (``{"ok": true, "entry_class", "version", "notes"}`` or ``{"ok": false, "error",
    "stderr_tail"}``); ``--arena-objects-into DIR`` alone: compile the arena's objects there (``{"ok": true,
    "objects"}``). The server runs both inside its sandbox."""
    import argparse
    import json

    parser = argparse.ArgumentParser(prog="python -m client.cppbuild", description=main.__doc__)
    parser.add_argument("folder", type=Path, nargs="?")
    parser.add_argument("stage", type=Path, nargs="?")
    parser.add_argument("--entry")
    parser.add_argument("--name")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--arena-objects", type=Path, metavar="DIR", help="link the arena's objects from DIR")
    parser.add_argument("--arena-objects-into", type=Path, metavar="DIR", help="compile the arena's objects into DIR")
    args = parser.parse_args(argv)
    if (args.arena_objects_into is None) == (args.folder is None or args.stage is None):
        parser.error("give FOLDER and STAGE (a bot to build), or --arena-objects-into DIR alone")
    try:
        if args.arena_objects_into is not None:
            objects = build_arena_objects(args.arena_objects_into, timeout_s=args.timeout)
            print(json.dumps({"ok": True, "objects": [path.name for path in objects]}), flush=True)
            return 0
        plan = build(args.folder, args.stage, entry=args.entry, name=args.name, timeout_s=args.timeout,
                     arena_objects=args.arena_objects)
    except CppBuildError as exc:
        print(json.dumps({"ok": False, "error": str(exc), "stderr_tail": exc.stderr[-4000:]}), flush=True)
        return 1
    print(json.dumps({"ok": True, "entry_class": plan.entry_class, "version": plan.version, "notes": plan.notes}),
          flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

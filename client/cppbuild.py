"""Build a C++ bot written for the course framework (``MyPlayer.cpp``/``MyPlayer.h``) into a hosted bot.

The arena ships the framework's ``Player.h`` and ``QuoridorUtils/`` (``client/cpp/``, compatible with the handout's)
and a ``main`` (``client/cpp/arena_main.cpp``) that plays the Player over the hosted-bot channel
(``docs/hosted-bots.md``). ``plan_build`` lays a hand-in out for g++ and writes the factory that creates the entry
class; ``build`` runs g++ on it (here, unsandboxed: the server runs the same command in its sandbox).

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

__all__ = ["ARENA_CPP", "CXXFLAGS", "FRAMEWORK_FILES", "CppBuild", "CppBuildError", "build", "compile_error",
           "find_player_classes", "main", "plan_build"]

ARENA_CPP = Path(__file__).resolve().parent / "cpp"
"""The arena's C++ files: ``QuoridorClient/Player.h``, ``QuoridorUtils/QuoridorUtils.{h,cpp}``, ``arena_main.cpp``."""

CXXFLAGS = ("-std=c++17", "-O2")
"""The compiler's flags for every bot."""

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


def plan_build(folder: Path, stage: Path, *, entry: str | None = None, name: str | None = None) -> CppBuild:
    """Copy the bot in ``folder`` (its entry ``FILE.cpp:CLASS``, or found) to ``stage`` and write its factory; the
    g++ command that builds ``stage/bot`` (run in ``stage``)."""
    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in _SOURCES + _HEADERS)
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
    command = ["g++", *CXXFLAGS, "-iquote", str(ARENA_CPP / "QuoridorClient"), "-I", str(ARENA_CPP),
               "-o", "bot", *sources, *factories, str(ARENA_CPP / "QuoridorUtils" / "QuoridorUtils.cpp"),
               str(ARENA_CPP / "arena_main.cpp")]
    return CppBuild(stage, stage / "bot", cls, version, command, notes)


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


def build(folder: Path, stage: Path, *, entry: str | None = None, name: str | None = None,
          timeout_s: float = 120.0) -> CppBuild:
    """Build the bot in ``folder`` into ``stage/bot`` with the local g++; ``CppBuildError`` (one line) if it fails."""
    if shutil.which("g++") is None:
        raise CppBuildError("no C++ compiler: install g++ (apt-get install g++) to build C++ bots")
    if not any((Path(d) / "nlohmann" / "json.hpp").is_file() for d in ("/usr/include", "/usr/local/include")):
        raise CppBuildError("no JSON library for the arena's main: install nlohmann-json3-dev "
                            "(apt-get install nlohmann-json3-dev) to build C++ bots")
    plan = plan_build(folder, stage, entry=entry, name=name)
    try:
        done = subprocess.run(plan.command, cwd=stage, capture_output=True, text=True, timeout=timeout_s,
                              check=False, env={**os.environ, "LC_ALL": "C"})   # plain quotes in its messages
    except subprocess.TimeoutExpired:
        raise CppBuildError(f"the build took more than {timeout_s:g} s") from None
    if done.returncode != 0:
        failed = CppBuildError(compile_error(done.stderr, stage))
        failed.stderr = done.stderr
        raise failed
    return plan


def main(argv: list[str] | None = None) -> int:
    """``python -m client.cppbuild FOLDER STAGE [--entry FILE:CLASS] [--name NAME]``: build, then print one JSON line
    (``{"ok": true, "entry_class", "version", "notes"}`` or ``{"ok": false, "error", "stderr_tail"}``); the server
    runs it inside its sandbox."""
    import argparse
    import json

    parser = argparse.ArgumentParser(prog="python -m client.cppbuild", description=main.__doc__)
    parser.add_argument("folder", type=Path)
    parser.add_argument("stage", type=Path)
    parser.add_argument("--entry")
    parser.add_argument("--name")
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args(argv)
    try:
        plan = build(args.folder, args.stage, entry=args.entry, name=args.name, timeout_s=args.timeout)
    except CppBuildError as exc:
        print(json.dumps({"ok": False, "error": str(exc), "stderr_tail": exc.stderr[-4000:]}), flush=True)
        return 1
    print(json.dumps({"ok": True, "entry_class": plan.entry_class, "version": plan.version, "notes": plan.notes}),
          flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

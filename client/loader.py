"""Load a bot from a spec: a built-in name (``strong``), a file (``mybot.py:MyPlayer``, or ``mybot.py`` when
it defines one bot class) or a module (``mypackage.bots:MyPlayer``); a C++ file (``MyPlayer.cpp``,
``MyPlayer.cpp:MyPlayer``) or an executable (``./mybot``) is a ``client.process_bot.ProcessBot`` (which spec is
which: ``shared.hosting.bot_language``, the one rule). Errors say what was wrong and how
to write the spec; when the bot's own code raises (importing its file, creating it), the error is one
line that starts with the bot's own ``file:line``.

Loading costs only what the spec needs: the built-in bots are imported when a built-in name is asked
for (a sandboxed bot host loading a handed-in file never imports them: it starts sooner), and the
standard library's paths are looked up only to place an error in the bot's own code."""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import sys
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType, TracebackType
from typing import TYPE_CHECKING, Any

from shared.hosting import BUILTIN_BOTS, bot_language

if TYPE_CHECKING:
    from .process_bot import ProcessBot

__all__ = ["BotLoadError", "BotCrashed", "load_bot", "bot_label", "resolve_spec", "bot_classes", "add_bot_folder",
           "ARENA_PACKAGES", "how_to_name", "load_process_bot"]


def _built_in() -> Mapping[str, type]:
    """The built-in bots by name (``client.bots``), imported on first use."""
    from .bots import BOTS

    return BOTS


def how_to_name() -> str:
    """How to write a bot spec, for the end of an error."""
    return ("give a built-in name (" + ", ".join(_built_in()) + "), FILE.py, FILE.py:CLASS, MODULE:CLASS, "
            "FILE.cpp, FILE.cpp:CLASS or the path of an executable")


class BotLoadError(ValueError):
    """A bot spec that cannot be turned into a bot."""


class BotCrashed(BotLoadError):
    """The bot's own code raised while its file was imported or its class was created, or (C++, an executable) did not
    compile or its process ended before its ``hello`` (the message says where)."""


def bot_label(spec: str) -> str:
    """A short display name for a spec: ``strong``, ``MyPlayer`` (a file spec's stem when it names no class)."""
    if bot_language(spec) == "executable":
        return Path(spec).name
    if ":" in spec:
        return spec.rsplit(":", 1)[-1]
    return Path(spec).stem if _is_file(spec) or bot_language(spec) == "cpp" else spec


def _is_file(where: str) -> bool:
    return where.endswith(".py") or "/" in where or "\\" in where


@functools.cache
def _not_own() -> tuple[str, ...]:
    """Where code that is not the bot's own lives: the standard library, installed packages, this package."""
    import sysconfig

    return tuple(os.path.join(str(Path(p).resolve()), "") for p in {
        *(sysconfig.get_paths()[name] for name in ("stdlib", "platstdlib", "purelib", "platlib")),
        Path(__file__).resolve().parent})


def _shown(filename: str) -> str:
    path = Path(filename)
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return filename


def _own_line(exc: BaseException) -> str | None:
    """``file:line`` of the innermost frame of ``exc``'s traceback in the bot's own code (``None`` when none is)."""
    if isinstance(exc, SyntaxError) and exc.filename and exc.lineno:
        return f"{_shown(exc.filename)}:{exc.lineno}"
    found: str | None = None
    tb: TracebackType | None = exc.__traceback__
    for frame, line in traceback.walk_tb(tb):
        name = frame.f_code.co_filename
        if name.startswith("<"):
            continue
        try:
            resolved = str(Path(name).resolve())
        except (OSError, RuntimeError):
            continue
        if not resolved.startswith(_not_own()):
            found = f"{_shown(name)}:{line}"
    return found


def _crash(what: str, exc: BaseException) -> BotCrashed:
    """One line: where the bot's code raised, what it was doing, and the exception."""
    text = exc.msg if isinstance(exc, SyntaxError) else str(exc)
    where = _own_line(exc)
    return BotCrashed(f"{where + ': ' if where else ''}{what} raised {type(exc).__name__}"
                      f"{': ' + text if text else ''}")


def _import_file(path: Path) -> ModuleType:
    if not path.is_file():
        raise BotLoadError(f"bot file {str(path)!r} does not exist")
    name = f"quoridor_bot_{abs(hash(path.resolve()))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise BotLoadError(f"cannot load {str(path)!r} as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    add_bot_folder(path.resolve().parent)              # let the bot import its neighbour modules
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise _crash(f"importing {path}", exc) from exc
    return module


#: The arena's own top-level packages: a bot's folder never shadows them.
ARENA_PACKAGES = ("client", "shared", "server")


def add_bot_folder(folder: Path) -> None:
    """Put a bot's ``folder`` on the import path after the arena's own packages (``ARENA_PACKAGES``): the bot imports
    its neighbour modules, but ``client``, ``shared`` and ``server`` stay the arena's whatever its folder holds.

    The folder goes just after the path entry the arena was imported from; when that is no entry (an
    editable install's import hook), ``client`` and ``shared`` are already imported (this process never
    imports ``server``), so a name of theirs still finds the arena's.
    """
    import shared  # noqa: F401 - imported before the bot's folder is on the path (client is: this module is in it)

    wanted = os.path.realpath(folder)
    on_path = [os.path.realpath(entry or os.curdir) for entry in sys.path]
    if wanted in on_path:
        return
    arena = os.path.realpath(Path(__file__).resolve().parents[1])
    sys.path.insert(on_path.index(arena) + 1 if arena in on_path else 0, wanted)


def _is_bot_class(value: object) -> bool:
    return isinstance(value, type) and (hasattr(value, "next_step") or hasattr(value, "nextStep"))


def _is_sdk_base(value: type) -> bool:
    """True for the SDK's own base class (``client.player.Player``): what a bot subclasses, never a bot to name."""
    return value.__module__ == f"{__package__}.player"


def bot_classes(module: ModuleType) -> list[type]:
    """The bot classes ``module`` defines itself (imported ones, such as ``Player``, left out), in file order."""
    return [v for v in vars(module).values() if _is_bot_class(v) and v.__module__ == module.__name__]


def _only_class(where: str, module: ModuleType) -> type:
    """The one bot class a file defines; ``BotLoadError`` naming them when there are none or several."""
    found = bot_classes(module)
    if len(found) == 1:
        return found[0]
    if not found:
        # Only a file gets here: what it lacks is a class, not another spec (and a handed-in file has no other).
        raise BotLoadError(f"{where} defines no bot class: define one subclass of Player in it (from client.player "
                           "import Player) with a next_step(self, change) method that returns a Step")
    names = ", ".join(cls.__name__ for cls in found)
    raise BotLoadError(f"{where} has {len(found)} bots: {names}; name one as {where}:{found[0].__name__}")


def resolve_spec(spec: str) -> str:
    """``spec`` naming its class: ``FILE.py`` becomes ``FILE.py:CLASS`` when the file defines one bot class.

    Other specs come back as they are (stripped); ``BotLoadError`` when the file cannot be read
    or does not define exactly one bot class.
    """
    spec = spec.strip()
    if ":" in spec or not _is_file(spec) or bot_language(spec) != "python":   # built in, a module, named, C++...
        return spec
    return f"{spec}:{_only_class(spec, _import_file(Path(spec))).__name__}"


def load_bot(spec: str, key: str = "", **kwargs: Any) -> Any:
    """A new bot instance for ``spec``; the class is called with ``key`` (and ``kwargs``). A C++ or executable spec is
    a ``ProcessBot`` (built, or found in the cache, and started now), named ``bot_label(spec)``."""
    spec = spec.strip()
    if bot_language(spec) in ("cpp", "executable"):
        return load_process_bot(spec, bot_label(spec))
    if ":" not in spec:
        if _is_file(spec):
            return _create(_only_class(spec, _import_file(Path(spec))), key, kwargs)
        built_in = _built_in()
        if spec in built_in:
            return built_in[spec](key, **kwargs)
        raise BotLoadError(f"unknown bot {spec!r}: {how_to_name()}")
    where, class_name = spec.rsplit(":", 1)
    if _is_file(where):
        module = _import_file(Path(where))
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as exc:
            raise BotLoadError(f"cannot import module {where!r}: {exc}; {how_to_name()}") from None
        except Exception as exc:
            raise _crash(f"importing {where}", exc) from exc
    cls = getattr(module, class_name, None)
    if cls is None:
        found = sorted(n for n, v in vars(module).items() if _is_bot_class(v) and not _is_sdk_base(v))
        hint = f" (bot classes there: {', '.join(found)})" if found else ""
        raise BotLoadError(f"{where!r} has no class {class_name!r}{hint}")
    if not _is_bot_class(cls):
        raise BotLoadError(f"{class_name!r} in {where!r} is not a bot class: it needs next_step(change) or nextStep")
    return _create(cls, key, kwargs)


def _create(cls: type, key: str, kwargs: dict[str, Any]) -> Any:
    """``cls(key, **kwargs)``; a crash in the bot's ``__init__`` becomes a one-line ``BotCrashed``."""
    try:
        return cls(key, **kwargs)
    except TypeError as exc:
        if exc.__traceback__ is not None and exc.__traceback__.tb_next is None:   # the call itself: the signature
            raise BotLoadError(f"cannot create {cls.__name__}({key!r}): {exc}; a bot class takes the player key") \
                from None
        raise _crash(f"creating the bot {cls.__name__}", exc) from exc
    except Exception as exc:
        raise _crash(f"creating the bot {cls.__name__}", exc) from exc


# -- C++ and executable bots ----------------------------------------------------------------------------
def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _entry(path: Path, cls: str | None) -> str | None:
    """The build's entry for ``path`` (``FILE.cpp:CLASS``): the class named, else the one class deriving from
    ``Player`` declared in that file or its header, else ``None`` (the build finds it in the folder);
    ``CppBuildError`` when the folder holds more than a bot's folder may (``client.cppbuild.LOCAL_BOUND``)."""
    if cls:
        return f"{path.name}:{cls}"
    from .cppbuild import FRAMEWORK_FILES, LOCAL_BOUND, cpp_files, find_player_classes

    texts = {}
    for found in cpp_files(path.parent, LOCAL_BOUND, named=path.name):      # CppBuildError: a folder too big
        if found.stem == path.stem and found.name not in FRAMEWORK_FILES:
            try:
                texts[found.relative_to(path.parent).as_posix()] = found.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
    classes = find_player_classes(texts, leaves_only=False)
    return f"{path.name}:{next(iter(classes))}" if len(classes) == 1 else None


def _as_typed(error: str, path: Path, spec: str) -> str:
    """A build's one line as the user typed the bot's spec: ``dir/MyPlayer.cpp:12: error: ...``, ``dir/MyPlayer.cpp:Nope:
    no class Nope deriving from Player``."""
    where, _, rest = error.partition(": ")
    file, _, line = where.rpartition(":")
    if line.isdigit() and (path.parent / file).is_file():
        shown = os.path.normpath(os.path.join(os.path.dirname(spec), file))
        return f"{shown}:{line}: error: {rest}"
    if where.startswith("--entry "):                  # the entry the build was given is the spec typed
        return f"{spec}: {rest}"
    return error.replace("with --entry FILE.cpp:CLASS", f"as {spec.rpartition(':')[0] or spec}:CLASS")


def load_process_bot(spec: str, label: str, *, say: Callable[[str], None] = _say, cache: Path | None = None
                     ) -> ProcessBot:
    """The ``ProcessBot`` of a ``cpp`` or ``executable`` spec (``shared.hosting.bot_language``), its C++ built first
    into the user's cache (``say`` tells of a build); ``BotLoadError`` or ``BotCrashed`` in one line when it cannot
    be (a compile error: ``dir/MyPlayer.cpp:12: error: ...``, the path as typed)."""
    from .cppbuild import CXXFLAGS, CppBuildError
    from .cppcache import cached_build
    from .driver import BotFailure
    from .process_bot import ProcessBot  # noqa: F811 - the class itself, imported when a process bot is loaded

    spec = spec.strip()
    language = bot_language(spec)
    where, _, cls = spec.rpartition(":") if language == "cpp" and ":" in spec else (spec, "", "")
    path = Path(where)
    if not path.is_file():
        if language == "executable" and "/" not in where and "\\" not in where:
            raise BotLoadError(f"unknown bot {spec!r}: {how_to_name()}")
        raise BotLoadError(f"bot file {where!r} does not exist")
    if language == "cpp":
        try:
            built = cached_build(path.parent, entry=_entry(path, cls or None), cache=cache,
                                 on_build=lambda: say(f"building {path.name} (g++ {' '.join(CXXFLAGS[1:])})..."))
        except CppBuildError as exc:
            raise BotCrashed(_as_typed(str(exc), path, spec)) from None
        if not built.cached:
            for note in built.notes:
                say(f"  {note}")
        command = [str(built.executable)]
    else:
        if not os.access(path, os.X_OK):
            raise BotLoadError(f"{where} is not executable: make it so (chmod +x {where}) or give a built-in name "
                               f"({', '.join(BUILTIN_BOTS)}), FILE.py or FILE.cpp")
        command = [str(path.resolve())]
    try:
        return ProcessBot(command, label, cwd=path.parent.resolve())
    except BotFailure as exc:
        raise BotCrashed(f"{label}: {exc}") from None

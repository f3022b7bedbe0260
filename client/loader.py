"""Load a bot from a spec: a built-in name (``strong``), a file (``mybot.py:MyPlayer``) or a module
(``mypackage.bots:MyPlayer``). Errors say what was wrong and how to write the spec."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Any

from .bots import BOTS, make_bot

__all__ = ["BotLoadError", "load_bot", "bot_label"]

_HOW = "give a built-in name (" + ", ".join(BOTS) + "), FILE.py:CLASS or MODULE:CLASS"


class BotLoadError(ValueError):
    """A bot spec that cannot be turned into a bot."""


def bot_label(spec: str) -> str:
    """A short display name for a spec: ``strong``, ``MyPlayer``."""
    return spec.rsplit(":", 1)[-1] if ":" in spec else spec


def _import_file(path: Path) -> Any:
    if not path.is_file():
        raise BotLoadError(f"bot file {str(path)!r} does not exist")
    name = f"quoridor_bot_{abs(hash(path.resolve()))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise BotLoadError(f"cannot load {str(path)!r} as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(path.resolve().parent))     # let the bot import its neighbour modules
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise BotLoadError(f"importing {str(path)!r} failed: {type(exc).__name__}: {exc}") from exc
    return module


def load_bot(spec: str, key: str = "", **kwargs: Any) -> Any:
    """A new bot instance for ``spec``; the class is called with ``key`` (and ``kwargs``)."""
    spec = spec.strip()
    if spec in BOTS:
        return make_bot(spec, key) if not kwargs else BOTS[spec](key, **kwargs)
    if ":" not in spec:
        raise BotLoadError(f"unknown bot {spec!r}: {_HOW}")
    where, class_name = spec.rsplit(":", 1)
    if where.endswith(".py") or "/" in where or "\\" in where:
        module = _import_file(Path(where))
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as exc:
            raise BotLoadError(f"cannot import module {where!r}: {exc}; {_HOW}") from None
    cls = getattr(module, class_name, None)
    if cls is None:
        found = sorted(n for n, v in vars(module).items()
                       if isinstance(v, type) and (hasattr(v, "next_step") or hasattr(v, "nextStep")))
        hint = f" (bot classes there: {', '.join(found)})" if found else ""
        raise BotLoadError(f"{where!r} has no class {class_name!r}{hint}")
    if not isinstance(cls, type) or not (hasattr(cls, "next_step") or hasattr(cls, "nextStep")):
        raise BotLoadError(f"{class_name!r} in {where!r} is not a bot class: it needs next_step(change) or nextStep")
    try:
        return cls(key, **kwargs)
    except TypeError as exc:
        raise BotLoadError(f"cannot create {class_name}({key!r}): {exc}; a bot class takes the player key") from None

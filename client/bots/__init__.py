"""The built-in bots, by name: ``random``, ``runner``, ``blocker``, ``defender`` and ``strong`` (weakest first).

Each bot's module is imported the first time it is asked for (``BOTS[name]``, ``make_bot(name)``, or
its class from this package): a process that hosts one bot (``python -m client.hosted random``, in
the server's sandbox) loads only that one, and starts sooner.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..player import Player
    from .blocker import BlockerPlayer
    from .defender import DefenderPlayer
    from .random_bot import RandomPlayer
    from .runner import RunnerPlayer
    from .strong import StrongPlayer

__all__ = ["BOTS", "make_bot", "BlockerPlayer", "DefenderPlayer", "RandomPlayer", "RunnerPlayer", "StrongPlayer"]

#: Each bot's module and class, by name, weakest first.
_WHERE = {
    "random": ("random_bot", "RandomPlayer"),
    "runner": ("runner", "RunnerPlayer"),
    "blocker": ("blocker", "BlockerPlayer"),
    "defender": ("defender", "DefenderPlayer"),
    "strong": ("strong", "StrongPlayer"),
}
_MODULE_OF = {cls: module for module, cls in _WHERE.values()}


def _load(module: str, cls: str) -> type[Player]:
    return getattr(importlib.import_module(f".{module}", __name__), cls)  # type: ignore[no-any-return]


class _Registry(Mapping[str, "type[Player]"]):
    """The bot classes by name; a bot's module is imported when its class is first looked up."""

    def __getitem__(self, name: str) -> type[Player]:
        module, cls = _WHERE[name]
        return _load(module, cls)

    def __iter__(self) -> Iterator[str]:
        return iter(_WHERE)

    def __len__(self) -> int:
        return len(_WHERE)

    def __repr__(self) -> str:
        return f"BOTS({', '.join(_WHERE)})"


#: Bot classes by the name used on command lines and in the lobby.
BOTS: Mapping[str, type[Player]] = _Registry()


def make_bot(name: str, key: str = "") -> Player:
    """A new bot of the named kind with its default settings; ``ValueError`` (listing the names) if unknown."""
    if name not in _WHERE:
        raise ValueError(f"unknown bot {name!r}; choose one of: {', '.join(BOTS)}")
    return BOTS[name](key)


def __getattr__(name: str) -> Any:
    """The bot classes (``from client.bots import StrongPlayer``), each imported on first use."""
    if name in _MODULE_OF:
        return _load(_MODULE_OF[name], name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

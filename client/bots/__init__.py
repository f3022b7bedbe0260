"""The built-in bots, by name: ``random``, ``runner``, ``blocker``, ``defender`` and ``strong`` (weakest first)."""

from __future__ import annotations

from ..player import Player
from .blocker import BlockerPlayer
from .defender import DefenderPlayer
from .random_bot import RandomPlayer
from .runner import RunnerPlayer
from .strong import StrongPlayer

__all__ = ["BOTS", "make_bot", "BlockerPlayer", "DefenderPlayer", "RandomPlayer", "RunnerPlayer", "StrongPlayer"]

#: Bot classes by the name used on command lines and in the lobby.
BOTS: dict[str, type[Player]] = {
    "random": RandomPlayer,
    "runner": RunnerPlayer,
    "blocker": BlockerPlayer,
    "defender": DefenderPlayer,
    "strong": StrongPlayer,
}


def make_bot(name: str, key: str = "") -> Player:
    """A new bot of the named kind with its default settings; ``ValueError`` (listing the names) if unknown."""
    cls = BOTS.get(name)
    if cls is None:
        raise ValueError(f"unknown bot {name!r}; choose one of: {', '.join(BOTS)}")
    return cls(key)

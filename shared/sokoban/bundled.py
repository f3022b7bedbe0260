"""The level collections shipped with the arena (``levels/*.xsb``, package data), by name.

Handles, not texts: nothing here reads a level. The server's Sokoban room and ``quoridor-puzzle sokoban``
read the ones they use (``read_text``), as the pages' files in ``shared.web``.
"""

from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable

__all__ = ["LEVELS", "bundled_collections"]

LEVELS: Traversable = files(__package__) / "levels"
"""The folder of the bundled collections (a ``Traversable``)."""


@cache
def bundled_collections() -> dict[str, Traversable]:
    """Name (the file name without ``.xsb``) -> packaged file of every bundled collection, sorted by name."""
    return {entry.name[:-4]: entry for entry in sorted(LEVELS.iterdir(), key=lambda e: e.name)
            if entry.name.endswith(".xsb")}

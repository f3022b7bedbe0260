"""The named errors of the Sokoban core: each is a ``ValueError`` whose message quotes the bad input.

``LevelError`` covers everything that makes a level's text unusable (the kinds the spec lists);
``LurdError`` and ``SolutionError`` cover answers and the from-solution builder.
"""

from __future__ import annotations

__all__ = [
    "SokobanError", "LevelError", "InvalidCharacterError", "MoreThanOnePlayerError", "NoPlayerError",
    "BoxGoalMismatchError", "NoBoxError", "UnterminatedCommentError", "DuplicateMetadataError", "NoMapError",
    "RunLengthError", "MapInterruptedError", "OpenLevelError", "LevelIndexError", "LurdError", "SolutionError",
]


class SokobanError(ValueError):
    """Base class of every Sokoban error."""


class LevelError(SokobanError):
    """A level's text cannot be turned into a playable level."""


class InvalidCharacterError(LevelError):
    """A map row holds a character that is not an XSB symbol; ``char`` is the first such character."""

    def __init__(self, char: str, line: str) -> None:
        super().__init__(f"invalid character {char!r} in map line {line!r} "
                         "(expected XSB symbols: # @ + $ * . space - _ and run-length digits)")
        self.char = char
        self.line = line


class MoreThanOnePlayerError(LevelError):
    """The map has more than one ``@`` or ``+``."""


class NoPlayerError(LevelError):
    """The map has no ``@`` or ``+``."""


class BoxGoalMismatchError(LevelError):
    """The map has a different number of boxes and goals."""

    def __init__(self, boxes: int, goals: int) -> None:
        super().__init__(f"the map has {boxes} box{'es' if boxes != 1 else ''} and {goals} "
                         f"goal{'s' if goals != 1 else ''}; expected as many boxes as goals")
        self.boxes = boxes
        self.goals = goals


class NoBoxError(LevelError):
    """The map has no box (and so no goal)."""


class UnterminatedCommentError(LevelError):
    """A ``comment:`` block has no ``comment-end`` line."""


class DuplicateMetadataError(LevelError):
    """A metadata key appears twice in one level (keys are compared case-insensitively)."""

    def __init__(self, key: str) -> None:
        super().__init__(f"metadata key {key!r} appears twice in one level; expected each key once")
        self.key = key


class NoMapError(LevelError):
    """The text holds no map rows at all."""


class RunLengthError(LevelError):
    """A run-length encoded row does not decode exactly (a count with no symbol after it, or a zero count)."""


class MapInterruptedError(LevelError):
    """Map rows are split by a line that is not a map row (a level's rows must be consecutive)."""


class OpenLevelError(LevelError):
    """The player can walk off the map: the walls do not enclose the floor."""


class LevelIndexError(SokobanError, IndexError):
    """A level number outside a collection."""


class LurdError(SokobanError):
    """An answer that is not LURD text (``l u r d`` moves, ``L U R D`` pushes)."""


class SolutionError(SokobanError):
    """A LURD solution that cannot be played back, so no level can be built from it."""

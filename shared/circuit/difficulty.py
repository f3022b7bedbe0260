"""The four difficulty levels of the circuit generator (the design note's table)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Difficulty", "DIFFICULTIES", "find_difficulty", "UnknownDifficultyError"]


class UnknownDifficultyError(ValueError):
    """A difficulty name other than easy, normal, hard or hell."""


@dataclass(frozen=True)
class Difficulty:
    """Ranges (inclusive) of movable tiles, corners and grid sides, and the share of tiles scrambled."""

    name: str
    movable: tuple[int, int]
    corners: tuple[int, int]
    scramble: float
    sizes: tuple[int, int]


#: Name -> difficulty: movable tiles / corners / scrambled share / grid sides.
DIFFICULTIES: dict[str, Difficulty] = {
    "easy": Difficulty("easy", (3, 8), (1, 6), 0.7, (4, 5)),
    "normal": Difficulty("normal", (4, 10), (2, 8), 0.8, (5, 6)),
    "hard": Difficulty("hard", (5, 12), (3, 10), 0.9, (6, 7)),
    "hell": Difficulty("hell", (6, 15), (4, 12), 1.0, (7, 8)),
}


def find_difficulty(name: str) -> Difficulty:
    """The difficulty called ``name`` (case-insensitive); ``UnknownDifficultyError`` otherwise."""
    try:
        return DIFFICULTIES[name.strip().lower()]
    except (KeyError, AttributeError):
        raise UnknownDifficultyError(f"unknown difficulty {name!r}; expected one of "
                                     f"{', '.join(DIFFICULTIES)}") from None

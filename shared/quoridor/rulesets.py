"""The two rulesets: ``course`` (the default, the course server's rules) and ``standard`` (the board game)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Ruleset", "COURSE", "STANDARD", "RULESETS", "find_ruleset"]


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The points on which the rulesets differ; both always check the path of both pawns."""

    name: str
    #: Diagonal side-steps when a wall or the edge is behind an adjacent pawn.
    diagonal_moves: bool
    #: Walls of different orientation may cross at their mid points.
    walls_may_cross: bool
    description: str

    def __str__(self) -> str:
        return self.name


COURSE = Ruleset("course", diagonal_moves=False, walls_may_cross=True,
                 description="course rules: no diagonal side-steps, crossing walls allowed")
STANDARD = Ruleset("standard", diagonal_moves=True, walls_may_cross=False,
                   description="published rules: diagonal side-steps when blocked behind, crossing walls forbidden")
RULESETS: dict[str, Ruleset] = {r.name: r for r in (COURSE, STANDARD)}


def find_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name``; ``ValueError`` lists the known names."""
    try:
        return RULESETS[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown ruleset {name!r}; choose one of: {', '.join(RULESETS)}") from None

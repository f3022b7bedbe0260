"""The engine: the static evaluation and the alpha-beta search the ``strong`` bot plays and the analysis uses. Pure.

The search's budget is a node count (deterministic: the same position gives the same step and score on any
machine) and/or seconds on a clock the caller injects; nothing here reads a clock.
"""

from .evaluation import (
    DECIDED_LEAD, KNOWN_WIN, LEAD, STEP, TEMPO, WALL_VALUES, WIN, WallOption, distance_from, evaluate, path_blockers,
    path_from, wall_options, won_race,
)
from .search import MATE_BOUND, REPETITION, Searcher, SearchResult

__all__ = [
    "DECIDED_LEAD", "KNOWN_WIN", "LEAD", "MATE_BOUND", "REPETITION", "STEP", "TEMPO", "WALL_VALUES", "WIN", "Searcher",
    "SearchResult", "WallOption", "distance_from", "evaluate", "path_blockers", "path_from", "wall_options", "won_race",
]

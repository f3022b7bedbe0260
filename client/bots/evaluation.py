"""Board measures the bots share: the engine's (``shared.engine.evaluation``), under their old name.

Path lengths, walls that cut a path, the static evaluation and ``won_race`` live in the pure engine,
which the strong bot and the analysis of games (``shared.analysis``) both use.
"""

from __future__ import annotations

from shared.engine.evaluation import (
    DECIDED_LEAD, KNOWN_WIN, LEAD, STEP, TEMPO, WALL_VALUES, WIN, WallOption, distance_from, evaluate, path_blockers,
    path_from, wall_options, won_race,
)

__all__ = [
    "WIN", "KNOWN_WIN", "STEP", "TEMPO", "WALL_VALUES", "LEAD", "DECIDED_LEAD", "WallOption",
    "distance_from", "path_from", "path_blockers", "evaluate", "wall_options", "won_race",
]

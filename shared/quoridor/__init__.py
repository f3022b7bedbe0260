"""The Quoridor rules core (``quoridor-rules.md``): value types, notation, rulesets and positions. Pure."""

from .judgement import Cause, Judgement, StepVerdict
from .notation import NotationError, parse_square, parse_step, parse_wall, square, step_name, wall_name
from .position import IllegalStepError, Position
from .rulesets import COURSE, RULESETS, STANDARD, Ruleset, find_ruleset
from .text import diagram, parse_diagram, parse_position, position_text
from .types import (
    BLOCK_LEN, BLOCK_SUM, NO_LOCATION, NO_WALL, PLAYER0_LOC, PLAYER1_LOC, SIZE, STEP_CAP, VIOLATIONS_TO_LOSE,
    BlockBar, ChessboardChange, GameStatus, Location, Step,
)

__all__ = [
    "BLOCK_LEN", "BLOCK_SUM", "COURSE", "NO_LOCATION", "NO_WALL", "PLAYER0_LOC", "PLAYER1_LOC",
    "RULESETS", "SIZE", "STANDARD", "STEP_CAP", "VIOLATIONS_TO_LOSE", "BlockBar", "Cause", "ChessboardChange",
    "GameStatus", "IllegalStepError",
    "Judgement", "Location", "NotationError", "Position", "Ruleset", "Step", "StepVerdict", "diagram", "find_ruleset",
    "parse_diagram", "parse_position", "parse_square", "parse_step", "parse_wall", "position_text",
    "square", "step_name", "wall_name",
]

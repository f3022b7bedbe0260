"""Circuit repair: tiles and rotations, the always-succeeding level generator, the connection check, a solver.

Screen order throughout: ``Pos(row, col)``, row 0 on top; the design note's x is ``row`` and
its y is ``col``; north/east/south/west are ``UP``/``RIGHT``/``DOWN``/``LEFT``.
"""

from .board import Circuit, CircuitFormatError, CircuitMoveError, parse_circuit
from .difficulty import DIFFICULTIES, Difficulty, UnknownDifficultyError, find_difficulty
from .generate import MAX_SIZE, MIN_SIZE, CircuitGeneratorError, CircuitLevel, feasible_pairs, generate_level
from .solver import solve, solved
from .tiles import EMPTY, ROTATIONS, Tile, TileError, TileKind, clicks, corner_rotation, straight_rotation, stub_rotation

__all__ = [
    "DIFFICULTIES", "EMPTY", "MAX_SIZE", "MIN_SIZE", "ROTATIONS",
    "Circuit", "CircuitFormatError", "CircuitGeneratorError", "CircuitLevel", "CircuitMoveError", "Difficulty",
    "Tile", "TileError", "TileKind", "UnknownDifficultyError",
    "clicks", "corner_rotation", "feasible_pairs", "find_difficulty", "generate_level", "parse_circuit",
    "solve", "solved", "straight_rotation", "stub_rotation",
]

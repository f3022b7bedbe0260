"""The ice maze (the Codewars kata 58f4cc4e43251b1be6000082): parse, slide, solve optimally, generate, check.

Screen order throughout: ``Pos(row, col)``, row 0 on top; directions are ``u d l r``.
"""

from .check import IceVerdict, check_answer, replay
from .generate import (DIFFICULTIES, KATA_SIDES, MAX_ATTEMPTS, MAX_SIDE, MIN_SIDE, IceDifficulty, IceGeneratorError,
                       generate_maze)
from .maze import CELLS, END, ICE, OBSTACLE, START, STICKY, IceMaze, IceMazeError, parse_maze
from .solver import Route, best_route, entry_moves, explore, solve

__all__ = [
    "CELLS", "DIFFICULTIES", "END", "ICE", "KATA_SIDES", "MAX_ATTEMPTS", "MAX_SIDE", "MIN_SIDE", "OBSTACLE",
    "START", "STICKY", "IceDifficulty", "IceGeneratorError", "IceMaze", "IceMazeError", "IceVerdict", "Route",
    "best_route", "check_answer", "entry_moves", "explore", "generate_maze", "parse_maze", "replay", "solve",
]

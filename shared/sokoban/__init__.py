"""Sokoban on the shared grid library: XSB levels, lazy collections, play, verdicts and a solver.

Pure: texts in, values out. Reading files and drawing in colour live in ``client/`` and ``server/``.
"""

from .builder import from_solution
from .collection import Collection, iter_levels, split_lines, split_text
from .errors import (BoxGoalMismatchError, DuplicateMetadataError, InvalidCharacterError, LevelError,
                     LevelIndexError, LurdError, MapInterruptedError, MoreThanOnePlayerError, NoBoxError,
                     NoMapError, NoPlayerError, OpenLevelError, RunLengthError, SokobanError, SolutionError,
                     UnterminatedCommentError)
from .game import LURD_LETTERS, Game, Step, parse_lurd
from .level import Level, level_from_rows
from .solver import SolveResult, solve
from .verdict import Verdict, judge
from .xsb import decode_rle, encode_rle, is_map_line, parse_level

__all__ = [
    "BoxGoalMismatchError", "Collection", "DuplicateMetadataError", "Game", "InvalidCharacterError", "LURD_LETTERS",
    "Level", "LevelError", "LevelIndexError", "LurdError", "MapInterruptedError", "MoreThanOnePlayerError",
    "NoBoxError", "NoMapError", "NoPlayerError", "OpenLevelError", "RunLengthError", "SokobanError",
    "SolutionError", "SolveResult", "Step", "UnterminatedCommentError", "Verdict", "decode_rle", "encode_rle",
    "from_solution", "is_map_line", "iter_levels", "judge", "level_from_rows", "parse_level", "parse_lurd",
    "solve", "split_lines", "split_text",
]

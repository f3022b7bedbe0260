"""The shared grid library: directions, cells, grids, breadth-first search and bit-parallel regions.

Conventions are explicit in the types: ``Pos(row, col)`` is screen order (row 0 on top);
``BitLayout`` takes an ``Orientation``; the Quoridor board keeps its own y-up ``Location``.
"""

from .bits import BitLayout, OpenMasks, Orientation, iter_bits
from .direction import DIRECTIONS, Direction
from .grid import Grid, GridShapeError
from .pos import Pos
from .search import bfs_distances, flood_fill, shortest_path

__all__ = [
    "BitLayout", "DIRECTIONS", "Direction", "Grid", "GridShapeError", "OpenMasks", "Orientation",
    "Pos", "bfs_distances", "flood_fill", "iter_bits", "shortest_path",
]

"""Random ice mazes like the kata's random tests (about 75% ice, 20% ``#``, 5% ``x``), solvable or not as asked.

Sides are the kata's by default (a seeded draw from 10 to 34); any of 2 to 200 may be asked for.
Cells are drawn independently with the given densities, then ``S`` and ``E`` go on two random
cells. When the result's solvability is not the one asked for, ``E`` is moved, once, to a cell
that is known to give the wanted answer, so generation never loops:

* solvable: any cell a slide from a reachable stop point enters (a slide passing over ``E``
  stops on it). If ``S`` cannot move at all, ``E`` goes on one of its neighbours.
* unsolvable: any cell no slide enters that was not an obstacle. Slides only look at the cells
  they enter and at the obstacles that stop them, and neither changes, so ``E`` stays out of
  reach. If every such cell is taken, ``E`` goes on a cell not next to ``S`` and its
  neighbours become obstacles: a cell can only be entered from a neighbour.
"""

from __future__ import annotations

import random

from shared.grid import Grid, Pos

from .maze import END, ICE, OBSTACLE, START, STICKY, IceMaze, parse_maze
from .solver import explore

__all__ = ["IceGeneratorError", "generate_maze", "MIN_SIDE", "MAX_SIDE", "KATA_SIDES"]

MIN_SIDE = 2      #: the smallest side: S and E need two cells, and a cell not next to S
MAX_SIDE = 200    #: the largest side accepted (for big custom mazes)
KATA_SIDES = (10, 34)   #: the sides of the kata's random tests: the default draw (inclusive)


class IceGeneratorError(ValueError):
    """Generator parameters it cannot use (a side out of range, negative or all-zero densities)."""


def generate_maze(width: int | None = None, height: int | None = None, *, ice: float = 0.75,
                  obstacle: float = 0.20, sticky: float = 0.05, seed: int | None = None,
                  solvable: bool | None = True) -> IceMaze:
    """A random ``width`` x ``height`` maze (square when ``height`` is omitted).

    Without ``width`` the side is drawn from ``KATA_SIDES`` (10 to 34, as in the kata's random
    tests) by the seeded generator, so a seed still gives one maze. Densities are relative
    weights of the three kinds of cell. ``seed`` makes the maze reproducible. ``solvable=True``
    guarantees ``E`` can be reached, ``False`` that it cannot, ``None`` keeps whatever the draw gives.
    """
    rng = random.Random(seed)
    if width is None:
        width = rng.randint(*KATA_SIDES)
    height = width if height is None else height
    for name, side in (("width", width), ("height", height)):
        if not isinstance(side, int) or not MIN_SIDE <= side <= MAX_SIDE:
            raise IceGeneratorError(f"{name} {side!r} is out of range; expected {MIN_SIDE} to {MAX_SIDE}")
    weights = (ice, obstacle, sticky)
    if any(w < 0 for w in weights) or sum(weights) <= 0:
        raise IceGeneratorError(f"densities ice={ice}, obstacle={obstacle}, sticky={sticky} must be "
                                "non-negative and not all zero")
    drawn = rng.choices((ICE, OBSTACLE, STICKY), weights=weights, k=width * height)
    grid = Grid.from_rows([drawn[r * width:(r + 1) * width] for r in range(height)])
    start, end = (Pos(*divmod(i, width)) for i in rng.sample(range(width * height), 2))
    grid[start] = START

    if solvable is not None:
        # Asked before E goes down, so E's cell still holds its drawn kind.
        _, touched = explore(_rows(grid), start)
        if solvable:
            candidates = touched - {start}
            if end not in candidates:
                if candidates:
                    end = rng.choice(sorted(candidates))
                else:   # S is boxed in: its neighbour becomes the end
                    end = rng.choice([p for _, p in grid.neighbours(start)])
        else:
            free = [p for p, cell in grid.items() if p not in touched and cell != OBSTACLE]
            if end not in free:
                if free:
                    end = rng.choice(free)
                else:   # every cell is entered: wall a cell away from S in
                    near = {p for _, p in grid.neighbours(start)} | {start}
                    end = rng.choice([p for p in grid.positions() if p not in near])
                    for _, p in grid.neighbours(end):
                        grid[p] = OBSTACLE
    grid[end] = END
    return parse_maze(_rows(grid))


def _rows(grid: Grid[str]) -> list[str]:
    return ["".join(row) for row in grid.rows()]

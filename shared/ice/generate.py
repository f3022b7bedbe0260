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

A solvable maze can be asked to need at least ``min_moves`` optimal moves (a difficulty sets
it): ``E`` then goes on a cell that the fewest moves enter only after that many (``entry_moves``),
the drawn cell when it is one. When no cell is that far, the cells are drawn again, at most
``MAX_ATTEMPTS`` times in all, from the same seeded generator (so a seed still gives one maze);
after that ``IceGeneratorError`` says the minimum is out of reach for the side.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from shared.grid import Grid, Pos

from .maze import END, ICE, OBSTACLE, START, STICKY, IceMaze, parse_maze
from .solver import entry_moves, explore

__all__ = ["IceDifficulty", "IceGeneratorError", "generate_maze", "DIFFICULTIES", "MIN_SIDE", "MAX_SIDE",
           "KATA_SIDES", "MAX_ATTEMPTS"]

MIN_SIDE = 2      #: the smallest side: S and E need two cells, and a cell not next to S
MAX_SIDE = 200    #: the largest side accepted (for big custom mazes)
KATA_SIDES = (10, 34)   #: the sides of the kata's random tests: the default draw (inclusive)
MAX_ATTEMPTS = 100      #: draws of the cells tried for a maze needing ``min_moves`` before giving up


@dataclass(frozen=True)
class IceDifficulty:
    """A difficulty: the sides a maze of it is drawn with (inclusive) and the fewest moves its optimal route takes."""

    name: str
    sides: tuple[int, int]
    min_moves: int


#: Difficulties by name. The sides are the ice room's; each minimum is about the median of the
#: deepest cell's moves at the smallest side (over 300 draws), so a draw rarely needs a second try.
#: ``kata`` is the kata's random tests' sides with normal's minimum.
DIFFICULTIES: dict[str, IceDifficulty] = {d.name: d for d in (
    IceDifficulty("easy", (6, 10), 4), IceDifficulty("normal", (10, 16), 8), IceDifficulty("hard", (16, 24), 12),
    IceDifficulty("hell", (24, 34), 16), IceDifficulty("kata", KATA_SIDES, 8))}


class IceGeneratorError(ValueError):
    """Generator parameters it cannot use (a side out of range, negative or all-zero densities)."""


def generate_maze(width: int | None = None, height: int | None = None, *, ice: float = 0.75,
                  obstacle: float = 0.20, sticky: float = 0.05, seed: int | None = None,
                  solvable: bool | None = True, difficulty: str | IceDifficulty | None = None,
                  min_moves: int | None = None) -> IceMaze:
    """A random ``width`` x ``height`` maze (square when ``height`` is omitted).

    Without ``width`` the side is drawn from the difficulty's sides (``KATA_SIDES``, 10 to 34 as
    in the kata's random tests, without one) by the seeded generator, so a seed still gives one
    maze. Densities are relative weights of the three kinds of cell. ``seed`` makes the maze
    reproducible. ``solvable=True`` guarantees ``E`` can be reached, and its optimal route takes
    at least ``min_moves`` (default: the difficulty's, else no minimum); ``False`` guarantees it
    cannot, ``None`` keeps whatever the draw gives (no minimum then).
    """
    rng = random.Random(seed)
    level = _difficulty(difficulty)
    if width is None:
        width = rng.randint(*(level.sides if level else KATA_SIDES))
    height = width if height is None else height
    for name, side in (("width", width), ("height", height)):
        if not isinstance(side, int) or not MIN_SIDE <= side <= MAX_SIDE:
            raise IceGeneratorError(f"{name} {side!r} is out of range; expected {MIN_SIDE} to {MAX_SIDE}")
    weights = (ice, obstacle, sticky)
    if any(w < 0 for w in weights) or sum(weights) <= 0:
        raise IceGeneratorError(f"densities ice={ice}, obstacle={obstacle}, sticky={sticky} must be "
                                "non-negative and not all zero")
    if min_moves is None:
        min_moves = level.min_moves if level else 0
    for _ in range(MAX_ATTEMPTS if solvable and min_moves > 1 else 1):
        maze = _draw(rng, width, height, weights, solvable, min_moves)
        if maze is not None:
            return maze
    raise IceGeneratorError(f"no solvable {width}x{height} maze needing {min_moves} moves or more came in "
                            f"{MAX_ATTEMPTS} draws; ask for a larger side, an easier difficulty or fewer moves")


def _difficulty(difficulty: str | IceDifficulty | None) -> IceDifficulty | None:
    """The difficulty named (any case) or given; ``IceGeneratorError`` for an unknown name."""
    if difficulty is None or isinstance(difficulty, IceDifficulty):
        return difficulty
    found = DIFFICULTIES.get(difficulty.lower())
    if found is None:
        raise IceGeneratorError(f"unknown difficulty {difficulty!r}; expected {', '.join(DIFFICULTIES)}")
    return found


def _draw(rng: random.Random, width: int, height: int, weights: tuple[float, float, float],
          solvable: bool | None, min_moves: int) -> IceMaze | None:
    """One draw of the cells, ``S`` and ``E``; ``None`` when no cell is ``min_moves`` away (solvable only)."""
    drawn = rng.choices((ICE, OBSTACLE, STICKY), weights=weights, k=width * height)
    grid = Grid.from_rows([drawn[r * width:(r + 1) * width] for r in range(height)])
    start, end = (Pos(*divmod(i, width)) for i in rng.sample(range(width * height), 2))
    grid[start] = START

    # Asked before E goes down, so E's cell still holds its drawn kind.
    if solvable:
        candidates = {p for p, moves in entry_moves(_rows(grid), start).items() if moves >= min_moves}
        if end not in candidates:
            if candidates:
                end = rng.choice(sorted(candidates))
            elif min_moves > 1:
                return None
            else:   # S is boxed in: its neighbour becomes the end
                end = rng.choice([p for _, p in grid.neighbours(start)])
    elif solvable is not None:
        _, touched = explore(_rows(grid), start)
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

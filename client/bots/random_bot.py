"""``random``: the course's sample player (``MyPlayer.cpp``), a random walk that places no walls.

The handout's sample picks one of the four directions not blocked by the board's edge or a
known wall, uniformly at random, and places no wall; stepping onto the other pawn it sends an
empty step (it does not implement the jump). This one walks the same way but picks among the
legal pawn moves, jumps included, so it commits no violations of its own. ``wall_rate`` > 0
makes it drop a random legal wall now and then (the sample never does).
"""

from __future__ import annotations

import random

from shared.quoridor import ChessboardChange, Step

from ..player import Player

__all__ = ["RandomPlayer"]


class RandomPlayer(Player):
    """Plays a uniformly random legal pawn move (with probability ``wall_rate``, default 0, a random wall). Seedable."""

    def __init__(self, key: str = "", seed: int | None = None, wall_rate: float = 0.0) -> None:
        super().__init__(key)
        if not 0.0 <= wall_rate <= 1.0:
            raise ValueError(f"wall_rate is a probability between 0 and 1, got {wall_rate}")
        self.rng = random.Random(seed)
        self.wall_rate = wall_rate

    def next_step(self, change: ChessboardChange) -> Step:
        """A random legal move; a random legal wall when boxed in (or at ``wall_rate``); ``Step()`` when nothing is legal."""
        pos = self.position
        moves = pos.legal_moves()
        if pos.walls_left[pos.turn] and (not moves or (self.wall_rate and self.rng.random() < self.wall_rate)):
            walls = pos.legal_walls()
            if walls:
                return Step(new_wall=self.rng.choice(walls))
        return Step(self.rng.choice(moves)) if moves else Step()

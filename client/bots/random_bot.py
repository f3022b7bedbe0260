"""``random``: the course's sample player, a random walk that now and then drops a random wall."""

from __future__ import annotations

import random

from shared.quoridor import ChessboardChange, Step

from ..player import Player

__all__ = ["RandomPlayer"]


class RandomPlayer(Player):
    """Plays a random legal pawn move, or with probability ``wall_rate`` a random legal wall. Seedable."""

    def __init__(self, key: str = "", seed: int | None = None, wall_rate: float = 0.1) -> None:
        super().__init__(key)
        self.rng = random.Random(seed)
        self.wall_rate = wall_rate

    def next_step(self, change: ChessboardChange) -> Step:
        """A uniformly random legal move (or wall); ``Step()`` when nothing is legal."""
        pos = self.position
        moves = pos.legal_moves()
        if pos.walls_left[pos.turn] and (not moves or self.rng.random() < self.wall_rate):
            walls = pos.legal_walls()
            if walls:
                return Step(new_wall=self.rng.choice(walls))
        return Step(self.rng.choice(moves)) if moves else Step()

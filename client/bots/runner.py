"""``runner``: walks a shortest path to its goal row and never places a wall."""

from __future__ import annotations

from shared.quoridor import ChessboardChange, Position, Step
from shared.quoridor.geometry import GOAL_ROWS, cell_index

from ..player import Player
from .evaluation import distance_from

__all__ = ["RunnerPlayer", "race_step"]


def race_step(pos: Position) -> Step | None:
    """The pawn move of the side to move that leaves its path shortest (ties: first in move order), or ``None``.

    The other pawn is ignored by path lengths, so when it stands on the next cell of the path the
    jump over it (or a detour of the same length) is chosen.
    """
    me = pos.turn
    best: Step | None = None
    best_d = 1 << 30
    for loc in pos.legal_moves():
        d = distance_from(1 << cell_index(*loc), GOAL_ROWS[me], pos.open)
        if d is not None and d < best_d:
            best, best_d = Step(loc), d
    return best


class RunnerPlayer(Player):
    """Moves along a shortest path every turn; answers ``Step()`` when no pawn move is legal."""

    def next_step(self, change: ChessboardChange) -> Step:
        """The move that shortens this pawn's path most (a jump when the other pawn is in the way)."""
        # Boxed in by walls and the other pawn: a runner still places no wall, so it passes (a violation).
        return race_step(self.position) or Step()

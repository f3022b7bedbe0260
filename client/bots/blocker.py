"""``blocker``: spends its walls early, each on the shortest path of the pawn that leads the race.

A sparring partner for ``strong``: the opponent that throws every wall in front of the leader as
soon as it can, and then has nothing left but to run. While it holds walls and the other pawn's
shortest path is no longer than its own (the other pawn leads, or the race is level), it places
the wall that lengthens that path most (ties: the one that lengthens its own path least, then the
first in slot order); such a wall cuts every shortest path of the leader. Otherwise, or when no
wall lengthens that path, it moves like ``runner``. It never looks ahead, so it spends walls that a
search would keep; what it tests is whether its opponent converts the race it is left with, often
with this pawn pacing in its way (a runner whose path is blocked by the other pawn steps aside and
back).
"""

from __future__ import annotations

from shared.quoridor import ChessboardChange, Position, Step

from ..player import Player
from .evaluation import wall_options
from .runner import race_step

__all__ = ["BlockerPlayer", "block_step"]


def block_step(pos: Position) -> Step | None:
    """The wall on the leader's shortest path that the side to move places, or ``None`` when it places none.

    ``None`` when the side to move has no walls, leads the race itself (its path strictly
    shorter), or has no legal wall that lengthens the other pawn's path. Otherwise the wall that
    lengthens the other pawn's path most (ties: the one that lengthens the mover's own path least,
    then the first in slot order).
    """
    me, op = pos.turn, 1 - pos.turn
    if not pos.walls_left[me]:
        return None
    d = (pos.distance(0), pos.distance(1))
    if d[0] is None or d[1] is None or d[me] < d[op]:
        return None
    best: Step | None = None
    best_key = (0, 0)
    for option in wall_options(pos, d[0], d[1]):
        after = (option.d0, option.d1)
        key = (after[op] - d[op], d[me] - after[me])   # the leader's loss first, then the mover's own cost
        if best is None or key > best_key:
            best, best_key = option.step, key
    return best


class BlockerPlayer(Player):
    """Places ``block_step``'s wall while it has walls and does not lead; otherwise moves like ``runner``."""

    def next_step(self, change: ChessboardChange) -> Step:
        """A wall on the leader's shortest path, else a shortest-path move (else any legal step, else ``Step()``)."""
        pos = self.position
        step = block_step(pos) or race_step(pos)
        if step is not None:
            return step
        steps = pos.legal_steps()   # boxed in by walls and the other pawn: a wall rather than a violation
        return steps[0] if steps else Step()

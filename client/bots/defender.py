"""``defender``: blocks with the wall that hurts the opponent most when the race needs it, else runs."""

from __future__ import annotations

from shared.quoridor import ChessboardChange, Position, Step

from ..player import Player
from .evaluation import wall_options
from .runner import race_step

__all__ = ["DefenderPlayer", "defend_step"]


def defend_step(pos: Position, min_gain: int = 2, alarm: int = 2) -> Step | None:
    """The wall that lengthens the opponent's path most net of its cost to the mover, or ``None`` when it does not pay.

    It pays when the opponent is ahead or level in the race (its path no longer than the
    mover's) and the net gain is at least ``min_gain`` steps, or at least 1 when the opponent is
    within ``alarm`` steps of its goal.
    """
    me, op = pos.turn, 1 - pos.turn
    d = (pos.distance(0), pos.distance(1))
    if d[0] is None or d[1] is None or d[op] > d[me]:
        return None
    best: Step | None = None
    best_gain = 0
    for option in wall_options(pos, *d):
        after = (option.d0, option.d1)
        gain = (after[op] - d[op]) - (after[me] - d[me])
        if gain > best_gain:
            best, best_gain = option.step, gain
    if best_gain >= min_gain or (best_gain >= 1 and d[op] <= alarm):
        return best
    return None


class DefenderPlayer(Player):
    """Places ``defend_step``'s wall when it pays; otherwise moves like ``runner``."""

    def next_step(self, change: ChessboardChange) -> Step:
        """A blocking wall when the opponent leads or is close, else a shortest-path move (``Step()`` if none)."""
        pos = self.position
        step = defend_step(pos) or race_step(pos)
        if step is not None:
            return step
        steps = pos.legal_steps()   # boxed in: any legal wall rather than a violation
        return steps[0] if steps else Step()

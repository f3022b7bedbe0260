"""The plain sentence beside a labelled step: what the board shows went wrong, in path lengths and walls.

Every sentence states facts of the positions before and after the step (shortest paths, walls, a
winning move within reach), or of the engine's best step played instead; none guesses at intent.
"""

from __future__ import annotations

from shared.engine.evaluation import won_race
from shared.quoridor import Position, Step, step_name

__all__ = ["step_reason"]


def _steps(n: int) -> str:
    return f"{n} step" if n == 1 else f"{n} steps"


def _paths(pos: Position) -> tuple[int | None, int | None]:
    return pos.distance(0), pos.distance(1)


def step_reason(before: Position, step: Step, after: Position, best: Step | None,
                chances: tuple[float, float]) -> str:
    """Why ``step`` (by the side to move of ``before``) lost winning chance, in one sentence a student can check.

    ``best`` is the engine's step; ``chances`` the mover's winning chance with it and after ``step``.
    """
    me = before.turn
    op = 1 - me
    mine_before, theirs_before = before.distance(me), before.distance(op)
    mine_after, theirs_after = after.distance(me), after.distance(op)
    best_name = step_name(best) if best is not None else None
    if mine_before == 1 and best is not None and best.is_move() and after.winner() != me:
        return f"{best_name} reached the goal row at once; this step did not"
    if None in (mine_before, theirs_before, mine_after, theirs_after):
        return _by_engine(best_name, chances)
    assert mine_before is not None and theirs_before is not None and mine_after is not None and theirs_after is not None
    if theirs_after == 1 and after.turn == op and after.winner() is None:
        return "after this step the opponent reaches its goal row with its next step"
    # A pure race (the opponent has no walls left): the mover wins ties, being a step ahead.
    pure_race_won = not before.walls_left[op] and mine_before <= theirs_before
    if (pure_race_won and theirs_after <= mine_after) or (won_race(before, me) and not won_race(after, me)):
        return f"the race was won in {mine_before}; this step walked away"
    if step.is_move():
        if mine_after > mine_before:
            return f"this move lengthened its own path from {mine_before} to {mine_after} steps"
        if mine_after == mine_before:
            return f"this move did not shorten its own path ({_steps(mine_after)} to go)"
    else:
        grew, own = theirs_after - theirs_before, mine_after - mine_before
        if grew <= 0 and own <= 0:
            return "this wall lengthened neither path"
        if grew <= 0:
            return f"this wall lengthened only its own path, by {_steps(own)}"
        if own == grew:
            return f"this wall lengthened both paths by {_steps(own)}"
        if own > grew:
            return f"this wall lengthened its own path by {_steps(own)} and the opponent's only by {_steps(grew)}"
    if best is not None and not best.is_move():
        with_best = before.apply(best)
        gain = (with_best.distance(op) or theirs_before) - theirs_before
        if gain > 0:
            if step.is_move():
                return f"the wall {best_name} would have lengthened the opponent's path by {_steps(gain)}"
            grew = theirs_after - theirs_before
            return (f"after this wall the opponent's path grew by {_steps(grew)}; "
                    f"the wall {best_name} would have lengthened it by {_steps(gain)}")
    if not step.is_move():
        grew = theirs_after - theirs_before
        left = after.walls_left[me]
        return (f"after this wall the opponent's path grew by {_steps(grew)}, at the cost of a wall "
                f"({left} left against the opponent's {after.walls_left[op]})")
    return _by_engine(best_name, chances)


def _by_engine(best_name: str | None, chances: tuple[float, float]) -> str:
    """The fallback: the engine's step and both chances, as numbers."""
    before, after = chances
    instead = f"the engine's step {best_name} kept" if best_name else "the best step kept"
    return f"{instead} a winning chance of {before:+.2f}; after this step it is {after:+.2f}"

"""Drawing a row the way the old viewer does: as the log gives it, not checked by the rules. Pure.

Past its first disagreement with the rules, a log is still shown the old viewer's way
(``replay-csv.md``): a row whose status the old viewer draws (``DRAWN``: Ok, Win, Lost,
EnemyClosed, None) is put on the board as given, whoever's turn it is and whatever the rules
would say of it, wherever it can stand at all: any cell of the board, any straight wall of
length 2 inside it (already placed: nothing changes; overlapping others: drawn anyway). A row
with another status (a violation) is listed without changing the board; so is an empty step.
A row that cannot be drawn even so (a cell off the board, a malformed wall, the other pawn's
cell) raises ``Undrawable``. Walls left are counted down as the rows place them, below 0 if
a log places more walls than a player has.
"""

from __future__ import annotations

from ..quoridor import GameStatus, Position, Ruleset, Step, square

__all__ = ["DRAWN", "Undrawable", "draw_as_given"]

DRAWN = frozenset({GameStatus.OK, GameStatus.WIN, GameStatus.LOST, GameStatus.ENEMY_CLOSED, GameStatus.NONE})
"""The statuses whose step the old viewer draws on the board; it lists the others without drawing them."""


class Undrawable(ValueError):
    """A row that cannot be put on the board even unchecked; the message says why."""


def _wall_problem(step: Step, ruleset: Ruleset) -> str:
    """Why the wall of ``step`` cannot stand on any board (shape, bounds), or ``''``."""
    # On the empty board a wall is refused only for its shape or place: one wall closes no path.
    judgement = Position.initial(ruleset).judge(Step(new_wall=step.new_wall))
    return "" if judgement.ok else judgement.reason


def draw_as_given(position: Position, seat: int, step: Step, status: GameStatus) -> Position:
    """The board after ``seat``'s row (``step``, ``status``) drawn as given, the other seat to move.

    Raises ``Undrawable`` for a row the board cannot show (see the module doc).
    """
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 or 1, got {seat!r}")
    before = position if position.turn == seat else position.pass_turn()
    if status not in DRAWN or step.is_nan():
        return before.pass_turn()
    if step.is_move():                    # a cell and a wall together count as the move (rule 5)
        other = before.pawn(1 - seat)
        if step.new_loc == other:
            raise Undrawable(f"it puts the pawn on {square(other)}, where the other pawn stands")
        return before.apply(Step(step.new_loc))
    if step.new_wall.is_none():
        raise Undrawable(f"move target {step.new_loc} is off the board")
    problem = _wall_problem(step, position.ruleset)
    if problem:
        raise Undrawable(problem)
    if before.has_wall(step.new_wall):
        return before.pass_turn()
    return before.apply(Step(new_wall=step.new_wall))

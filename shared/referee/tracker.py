"""``BoardTracker``: a player's own copy of the board, rebuilt from the changes it is told.

A player only hears ``ChessboardChange``s: both pawns, the opponent's new wall, and the status
of its own previous step. The tracker remembers the step the player sent and adds its wall
once the next change confirms it (status Ok), so a bot always sees the position exactly as the
referee does.
"""

from __future__ import annotations

from ..quoridor import BLOCK_SUM, COURSE, PLAYER0_LOC, GameStatus, Position, Ruleset
from ..quoridor.types import BlockBar, ChessboardChange, Step

__all__ = ["BoardTracker"]


class BoardTracker:
    """Follows one game from one seat's point of view."""

    def __init__(self, ruleset: Ruleset = COURSE) -> None:
        self.ruleset = ruleset
        self.reset()

    def reset(self, seat: int | None = None) -> None:
        """Forget the game (a new one starts); ``seat`` if already known."""
        self.seat = seat
        self.my_walls: list[BlockBar] = []
        self.enemy_walls: list[BlockBar] = []
        self.pending: Step | None = None
        self.position: Position | None = None

    def update(self, change: ChessboardChange, walls_left: tuple[int, int] | None = None) -> Position:
        """Take in the change for a new turn and return the position (the tracker's seat to move).

        ``walls_left`` (mine, the opponent's) comes with the websocket protocol; without it
        (the legacy protocol) it is derived from the walls placed.
        """
        if self.pending is not None and change.status is GameStatus.OK and not self.pending.is_move() \
                and not self.pending.new_wall.is_none():
            self.my_walls.append(self.pending.new_wall.normalized())
        self.pending = None
        if not change.new_enemy_wall.is_none():
            self.enemy_walls.append(change.new_enemy_wall.normalized())
        if self.seat is None:
            # On its first turn a pawn has not moved yet: seat 0 stands on e1, seat 1 on e9.
            self.seat = 0 if change.my_loc == PLAYER0_LOC else 1
        if walls_left is None:
            walls_left = (BLOCK_SUM - len(self.my_walls), BLOCK_SUM - len(self.enemy_walls))
        me, other = change.my_loc, change.enemy_loc
        pawns = (me, other) if self.seat == 0 else (other, me)
        left = walls_left if self.seat == 0 else (walls_left[1], walls_left[0])
        self.position = Position.setup(pawns, self.my_walls + self.enemy_walls, walls_left=left,
                                       turn=self.seat, ruleset=self.ruleset)
        return self.position

    def sent(self, step: Step) -> None:
        """The player answered with ``step`` (its effect is confirmed by the next change)."""
        self.pending = step

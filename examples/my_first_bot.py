"""My first Quoridor bot: run to the goal, and wall the opponent off when it gets close.

Try it without a server:   quoridor-match runner examples/my_first_bot.py:MyPlayer -g 10
Play it on a server:       quoridor-client --bot examples/my_first_bot.py:MyPlayer -k YOUR_KEY
"""

from client.player import Player
from shared.quoridor import ChessboardChange, Step


class MyPlayer(Player):
    """Walks a shortest path; spends a wall when the opponent is about to win."""

    def next_step(self, change: ChessboardChange) -> Step:
        # self.position is the board as the referee sees it, with us to move.
        pos = self.position
        me, them = self.seat, 1 - self.seat
        # The opponent is two steps from its goal and we still have walls: block it.
        if pos.walls_left[me] and (pos.distance(them) or 0) <= 2:
            best = max(pos.legal_walls(), key=lambda wall: pos.apply(Step(new_wall=wall)).distance(them) or 0,
                       default=None)
            if best is not None and (pos.apply(Step(new_wall=best)).distance(them) or 0) > pos.distance(them):
                return Step(new_wall=best)
        # Otherwise move to the neighbouring cell that brings us closest to our goal row.
        moves = pos.legal_moves()
        if not moves:
            return Step()      # no legal step at all (possible in the course rules): pass
        return Step(min(moves, key=lambda cell: pos.apply(Step(cell)).distance(me)))

    def restart(self) -> None:
        # Called between games of a pairing; this bot keeps no state of its own.
        pass

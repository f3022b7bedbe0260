"""``Player``: the base class bot authors subclass, as in the course's C++ framework.

Implement ``next_step(change) -> Step`` (or ``nextStep``, for code ported from C++), plain or
``async``; optionally ``restart()``. Before each call the framework updates ``self.position``
(the board as the referee sees it, with this player's seat to move), so a bot can ask for
``self.legal_steps()``, ``self.position.distance(...)`` and so on without re-implementing rules,
``self.time_limit_ms`` (the server's thinking time per step, ``None`` when unlimited) and
``self.last_judgement``: why the previous step was a violation, when it was one (``change.status``
says only *that* it was).

The framework (``client.driver.BotDriver``) calls the hooks in this order: ``begin_game`` when a
game starts; each turn ``observe``, then ``next_step``, then ``step_sent`` with the step that went
out; ``restart`` when the game is over. Override a framework hook only to learn more, and call
``super()`` from it: the board depends on them.
"""

from __future__ import annotations

from shared.quoridor import COURSE, Location, Position, Ruleset, Step, StepVerdict
from shared.quoridor.types import ChessboardChange
from shared.referee.tracker import BoardTracker

__all__ = ["Player"]


class Player:
    """A bot. Subclass it and implement ``next_step`` (or ``nextStep``)."""

    #: Thinking time per step in milliseconds (network included), ``None`` for no limit; set by the
    #: client from the server's rules (and by ``quoridor-match -t``) before ``next_step`` is called.
    time_limit_ms: int | None = None
    #: Why your previous step was a violation, set by the framework before ``next_step``: a ``StepVerdict``
    #: with ``status`` (as ``change.status``), ``cause`` (a stable ``Cause`` code: ``not_reachable``,
    #: ``wall_overlaps``, ``late``, ...), ``reason`` (``a5 is not reachable in one step from e1``, or how late
    #: it was) and ``thinking_ms``; ``None`` when the previous step stood, or at a game's first turn.
    last_judgement: StepVerdict | None = None

    def __init__(self, key: str = "") -> None:
        self.key = key
        self.tracker = BoardTracker()

    # -- what bot authors implement -----------------------------------------------------
    def next_step(self, change: ChessboardChange) -> Step:
        """Answer a turn with a step. ``change.status`` is the result of your previous step (why it was a
        violation, if it was: ``self.last_judgement``)."""
        method = getattr(type(self), "nextStep", None)
        if method is None:
            raise NotImplementedError(f"{type(self).__name__} must implement next_step(change) (or nextStep)")
        return method(self, change)

    def restart(self) -> None:
        """Called when a game ends, before the next game of the same pairing. Default: nothing."""

    # -- what the framework provides -------------------------------------------------------
    @property
    def position(self) -> Position:
        """The current position, this player's seat to move."""
        if self.tracker.position is None:
            raise RuntimeError("no game in progress: the position is known once a turn has been received")
        return self.tracker.position

    @property
    def seat(self) -> int:
        """0 (started on e1, moves first, aims for row 9) or 1 (started on e9, aims for row 1)."""
        if self.tracker.seat is None:
            raise RuntimeError("no game in progress")
        return self.tracker.seat

    @property
    def goal_row(self) -> int:
        """The row (y) this player's pawn must reach."""
        return 9 if self.seat == 0 else 1

    @property
    def my_location(self) -> Location:
        """Where this player's pawn stands."""
        return self.position.pawn(self.seat)

    @property
    def enemy_location(self) -> Location:
        """Where the opponent's pawn stands."""
        return self.position.pawn(1 - self.seat)

    def legal_steps(self) -> list[Step]:
        """Every legal step now (moves first, then walls); empty when none is legal."""
        return self.position.legal_steps()

    def shortest_path(self, mine: bool = True) -> list[Location] | None:
        """One shortest path to the goal row, for this player (or the opponent), pawn first."""
        return self.position.shortest_path(self.seat if mine else 1 - self.seat)

    # -- framework hooks --------------------------------------------------------------------
    def begin_game(self, seat: int | None, ruleset: Ruleset = COURSE) -> None:
        """Framework: a new game starts (``seat`` when known)."""
        self.last_judgement = None
        self.tracker.ruleset = ruleset
        self.tracker.reset(seat)

    def observe(self, change: ChessboardChange, walls_left: tuple[int, int] | None = None) -> None:
        """Framework: take in a change before ``next_step`` is called."""
        self.tracker.update(change, walls_left)

    def step_sent(self, step: Step) -> None:
        """Framework: ``step`` went out for this turn (the empty step when ``next_step`` failed).

        Its wall joins ``position`` once the next change confirms it was accepted.
        """
        self.tracker.sent(step)


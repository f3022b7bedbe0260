"""``Budget``: the solver's time allowance, counted on a clock it is given, checked from the first instruction.

``solve`` makes one budget and hands it to every phase: the set-up (push distances, the player's
sides of a box, tunnels, the first matching, the backward search's roots) and the searches call
``check()`` between units of work that the rooms' level caps keep small, so no phase runs on past
the allowance. When it is spent ``check`` raises ``OutOfTime``, which ``solve`` turns into a
``time_limit`` result. The module reads no clock of its own: the caller passes one in (tests pass
a fake one).
"""

from __future__ import annotations

import math
from collections.abc import Callable

__all__ = ["Budget", "OutOfTime"]


class OutOfTime(Exception):
    """The budget is spent: raised by ``Budget.check`` inside a phase, caught by ``solve``."""


def _never() -> float:
    return 0.0


class Budget:
    """``seconds`` on ``clock`` (a function returning seconds), counted from when the budget is made."""

    __slots__ = ("clock", "seconds", "started")

    def __init__(self, seconds: float, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.seconds = seconds
        #: The clock's reading when the budget was made.
        self.started = clock()

    @classmethod
    def unlimited(cls) -> Budget:
        """A budget that never runs out and reads no clock (the default of the set-up classes)."""
        return cls(math.inf, _never)

    def spent(self) -> float:
        """Seconds used so far."""
        return self.clock() - self.started

    def over(self) -> bool:
        """True once more than ``seconds`` have been used."""
        return self.clock() - self.started > self.seconds

    def check(self) -> None:
        """Raise ``OutOfTime`` once more than ``seconds`` have been used."""
        if self.clock() - self.started > self.seconds:
            raise OutOfTime(f"the budget of {self.seconds:g} s is spent")

"""``SolveProgress``: what a running solve reports, and ``Reporter``, which decides when it reports.

The solver stays pure: it does no I/O and reads time only through its ``Budget``'s clock. A
caller that wants to show progress passes ``solve`` a callback; between batches of expansions
(at most ``_BATCH`` times a search's share of them, a fraction of a second even on slow levels)
the solver hands the ``Reporter`` the states expanded so far, and the reporter calls back once
``PROGRESS_SECONDS`` have passed on the clock since its last call. Half a second keeps a display
fed at least once a second although a batch may take up to a fifth of a second.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .budget import Budget

__all__ = ["PROGRESS_SECONDS", "ProgressCallback", "Reporter", "SolveProgress"]

#: Seconds on the solver's clock between two progress reports (at least).
PROGRESS_SECONDS = 0.5


@dataclass(frozen=True)
class SolveProgress:
    """A running solve: ``nodes`` states expanded so far and ``seconds`` spent, out of ``time_limit``."""

    nodes: int
    seconds: float
    time_limit: float

    @property
    def left(self) -> float:
        """Seconds left before the time limit (0 once it is spent)."""
        return max(0.0, self.time_limit - self.seconds)


#: What ``solve`` calls with each report.
ProgressCallback = Callable[[SolveProgress], None]


class Reporter:
    """Calls ``callback`` with a ``SolveProgress`` when ``every`` seconds have passed on ``budget``'s clock."""

    __slots__ = ("callback", "budget", "every", "due")

    def __init__(self, callback: ProgressCallback, budget: Budget, every: float = PROGRESS_SECONDS) -> None:
        self.callback = callback
        self.budget = budget
        self.every = every
        #: The budget's spent seconds from which the next report is due.
        self.due = every

    def tick(self, nodes: int) -> None:
        """Report ``nodes`` if a report is due (one clock reading otherwise)."""
        spent = self.budget.spent()
        if spent >= self.due:
            self.due = spent + self.every
            self.callback(SolveProgress(nodes, spent, self.budget.seconds))

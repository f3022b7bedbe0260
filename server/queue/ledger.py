"""``ResultLedger``: each game's result is taken once, by game id, and only for games the server asked for (pure).

The server notes the games of each job it enqueues (``expect``). An answer's games then pass
``take`` one by one: a game of that job not taken before is ``TAKEN``; a game taken already (the
same job delivered twice: a worker that was thought dead finished after all, a server that resumed)
is a ``DUPLICATE``; a game the job does not hold is ``UNKNOWN``. Only a taken game reaches the
caller, so a duplicate or a stranger never changes a standing; ``refusal`` says why in one line.
"""

from __future__ import annotations

import enum
from collections import OrderedDict
from collections.abc import Iterable

__all__ = ["Verdict", "ResultLedger", "TAKEN_KEPT"]

#: Game ids remembered as taken (the oldest are forgotten first; a ladder runs for weeks).
TAKEN_KEPT = 100_000


class Verdict(enum.Enum):
    """What the ledger made of one game of an answer."""

    TAKEN = "taken"
    DUPLICATE = "duplicate"
    UNKNOWN = "unknown"


class ResultLedger:
    """The games the server expects from each job, and those whose result it has taken."""

    def __init__(self, kept: int = TAKEN_KEPT) -> None:
        self._expected: dict[str, frozenset[str]] = {}
        self._taken: OrderedDict[str, str] = OrderedDict()      # game id -> the job it was taken from
        self._kept = kept

    def expect(self, job: str, games: Iterable[str]) -> None:
        """The server enqueued ``job`` for ``games``."""
        self._expected[job] = frozenset(games)

    def expects(self, job: str) -> bool:
        """True while ``job`` is expected (enqueued and not closed)."""
        return job in self._expected

    def taken(self, game: str) -> bool:
        """True when a result of ``game`` was taken already."""
        return game in self._taken

    def take(self, job: str, game: str) -> Verdict:
        """Take the result of ``game`` delivered by ``job`` (or refuse it: see ``Verdict``)."""
        if game in self._taken:
            return Verdict.DUPLICATE
        if game not in self._expected.get(job, ()):
            return Verdict.UNKNOWN
        self._taken[game] = job
        while len(self._taken) > self._kept:
            self._taken.popitem(last=False)
        return Verdict.TAKEN

    def close(self, job: str) -> None:
        """The server expects nothing more of ``job``."""
        self._expected.pop(job, None)

    @staticmethod
    def refusal(verdict: Verdict, job: str, game: str, worker: str) -> str:
        """One line for the log: why a result of ``game`` from ``worker`` (for ``job``) was refused."""
        if verdict is Verdict.DUPLICATE:
            return (f"refused a duplicate result of game {game} (job {job}, worker {worker}): its result was "
                    "recorded already; the standings keep the first")
        return (f"refused a result of game {game} (job {job}, worker {worker}): this server did not ask for that "
                "game; the standings are unchanged")

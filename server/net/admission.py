"""``WrongKeys``: wrong keys slow down per address, so that keys cannot be guessed at the server's speed.

A key that is not on the roster (``unknown_key``: a player's or a puzzle room's ``hello``, a
submitter's, a legacy key frame) counts against its address. The first ``free`` of a burst (wrong
keys less than ``quiet_s`` apart) are answered at once, as a student's typo should be; each further
one is answered only after a delay that doubles from ``first_delay_s`` up to ``max_delay_s``, and
the burst is logged once, when the slow-down begins. While its answer waits the connection is held:
nothing more it sends is read (no second guess on it), and it still counts as one of the address's
*pending* connections (``server.net.connections``), the first to make way for a newer one.

A right key is never delayed, whatever its address has guessed: a classroom behind one NAT
address shares its failures, and one student's typos (or a guesser among them) must not lock the
others out. A right key does not forgive the failures either (a guesser holding one key of its own
would reset its count with it). What this bounds is a guesser that waits for its answers (one
after another: 5, then about 1 every 8 s, instead of about 1,000 a second). One that opens
connection after connection and takes a missing ``welcome`` for a wrong key is not slowed by it:
a right key is welcomed at once, which is what keeps the classroom playing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from server.net.connection import CLOSE_POLICY, Connection

__all__ = ["WrongKeys"]

log = logging.getLogger("quoridor.server")

#: Addresses remembered at most; beyond them the quiet ones are forgotten.
ADDRESSES_KEPT = 4096


@dataclass(slots=True)
class _Burst:
    failures: int
    last: float


class WrongKeys:
    """Per address, the wrong keys of its current burst and the delay before the next one is answered."""

    def __init__(self, *, free: int = 5, first_delay_s: float = 0.5, max_delay_s: float = 8.0, quiet_s: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.free = free
        self.first_delay_s = first_delay_s
        self.max_delay_s = max_delay_s
        self.quiet_s = quiet_s
        self.clock = clock
        #: The connections whose wrong key is waiting for its answer: nothing more they send is read.
        self.held: set[Connection] = set()
        self._bursts: dict[str, _Burst] = {}

    def failed(self, address: str) -> float:
        """Count a wrong key from ``address``; the seconds its answer waits (0 for the first ``free`` of a burst)."""
        now = self.clock()
        burst = self._bursts.get(address)
        if burst is None or now - burst.last >= self.quiet_s:
            if len(self._bursts) >= ADDRESSES_KEPT:
                self._forget_quiet(now)
            burst = self._bursts[address] = _Burst(0, now)
        burst.failures += 1
        burst.last = now
        over = burst.failures - self.free
        if over <= 0:
            return 0.0
        if over == 1:                   # one line per burst, when the slow-down begins
            log.warning("%d wrong keys from %s in a row; its further wrong keys are answered after a growing delay "
                        "(up to %.0f s) until it stops for %.0f s", burst.failures, address, self.max_delay_s,
                        self.quiet_s)
        return min(self.max_delay_s, self.first_delay_s * 2.0 ** min(over - 1, 64))

    def refuse(self, conn: Connection, message: str, frame_type: str | None = "hello") -> None:
        """Answer a wrong key: ``unknown_key`` and a close (1008), at once or, held meanwhile, after its delay."""
        delay = self.failed(conn.address)
        if delay <= 0:
            _refuse(conn, message, frame_type)
            return
        self.held.add(conn)
        asyncio.get_running_loop().call_later(delay, self._answer, conn, message, frame_type)

    def _answer(self, conn: Connection, message: str, frame_type: str | None) -> None:
        self.held.discard(conn)
        if not conn.closed:
            _refuse(conn, message, frame_type)

    def _forget_quiet(self, now: float) -> None:
        for address in [a for a, burst in self._bursts.items() if now - burst.last >= self.quiet_s]:
            del self._bursts[address]
        if len(self._bursts) >= ADDRESSES_KEPT:     # all busy: the oldest half goes
            for address in sorted(self._bursts, key=lambda a: self._bursts[a].last)[:ADDRESSES_KEPT // 2]:
                del self._bursts[address]


def _refuse(conn: Connection, message: str, frame_type: str | None) -> None:
    conn.tell("unknown_key", message, frame_type)
    conn.close(CLOSE_POLICY, "unknown_key")

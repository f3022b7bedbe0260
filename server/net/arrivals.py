"""``ArrivalClock``: when bytes read from a socket had arrived, at the latest, without charging the server's queue.

A step's thinking time ends when its bytes arrive. The server stamps them in the callback that
reads them, but when many sockets are ready at once (500 games of bots that all think 900 ms
answer within a few milliseconds of each other) the event loop calls those callbacks one after
another, and the last one runs tens of milliseconds after its bytes came in: stamped there, that
bot would pay for the steps of every other game.

Every socket read in one pass of the loop was ready when the loop's poll returned, before the
pass's first callback ran. So ``now()`` takes the clock once, at the first read of a pass, and
hands the same stamp to every read of that pass: never earlier than any of those bytes arrived,
and never later than the first callback could see them. The stamp is dropped by a callback
scheduled with ``call_soon``, which the loop (asyncio's and uvloop's alike) runs only after the
I/O callbacks of the current pass.

A server has one arrival clock for every transport (websocket and legacy TCP alike: the links'
``LinkSettings.arrivals``, the legacy port's ``arrivals``), so reads of one pass share one stamp
whatever port they came in on. ``ARRIVALS``, on ``time.monotonic``, is the default.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

__all__ = ["ArrivalClock", "ARRIVALS"]


class ArrivalClock:
    """One monotonic stamp per pass of the event loop's socket reads (``now()``; see the module docstring)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        #: The clock stamps are read from (a match's deadlines and a turn's send time must be on the same one).
        self.clock = clock
        self._stamp: float | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def now(self) -> float:
        """The time this pass of the loop began reading; the first call of a pass takes it from the clock.

        Call it only from a callback of the running loop (a protocol's ``data_received``).
        """
        stamp = self._stamp
        loop = asyncio.get_running_loop()
        if stamp is None or loop is not self._loop:     # a new pass (or a new loop: a stamp never outlives its loop)
            stamp = self._stamp = self.clock()
            self._loop = loop
            loop.call_soon(self._forget)
        return stamp

    def _forget(self) -> None:
        self._stamp = None


#: The default arrival clock, on ``time.monotonic`` (see the module docstring).
ARRIVALS = ArrivalClock()

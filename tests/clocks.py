"""Fake clocks for tests that time things: readings advance per call, so nothing depends on the machine's speed.

``timers_due_within`` is for a test that checks that a timer did *not* act: it waits for the event
loop's timers in their order, not for a guessed margin.
"""

from __future__ import annotations

import asyncio

__all__ = ["TickingClock", "timers_due_within"]


class TickingClock:
    """A fake clock: each reading is ``step`` seconds after the one before (the first is ``start``)."""

    def __init__(self, step: float, start: float = 0.0) -> None:
        self.step = step
        self.start = start
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        return self.start + (self.readings - 1) * self.step


async def timers_due_within(delay: float) -> None:
    """Return once every event-loop timer due within ``delay`` seconds from now has run.

    The loop runs its timers in the order they fall due, so one of ours set now for ``delay`` comes
    after every timer set earlier for the same moment or sooner.
    """
    loop = asyncio.get_running_loop()
    after: asyncio.Future[None] = loop.create_future()
    loop.call_later(delay, after.set_result, None)
    await after

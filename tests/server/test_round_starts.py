"""A round starts its games a few per pass of the event loop, so that starting hundreds of games
never holds up the steps (and the clocks) of those already started."""

from __future__ import annotations

import asyncio
from collections import Counter

from server.tournament import runner as tournament
from server.tournament.runner import TournamentRunner
from shared.tournament import ScheduledGame


async def test_a_round_starts_its_games_a_few_per_pass_of_the_loop(monkeypatch):
    monkeypatch.setattr(tournament, "STARTS_PER_PASS", 3)
    loop = asyncio.get_running_loop()
    passes = 0

    def tick() -> None:                       # counts the passes of the loop while the round starts
        nonlocal passes
        passes += 1
        if passes < 1000:
            loop.call_soon(tick)

    started: list[int] = []

    async def pairing(games) -> None:
        started.append(passes)

    runner = TournamentRunner.__new__(TournamentRunner)
    runner._pairing = pairing                  # type: ignore[method-assign]
    games = [ScheduledGame(0, n, 0, f"w{n}", f"b{n}") for n in range(10)]
    loop.call_soon(tick)
    await asyncio.wait_for(runner._round(games), 5)
    assert len(started) == 10
    assert max(Counter(started).values()) <= 3 and len(set(started)) >= 4

"""The clock is fair: a step is timed from its ``turn`` to its arrival, never by when the server got round to it.

``MatchRunner`` is driven here with seats that record what they are sent, so the test decides when a
step "arrived" (its stamp) and when the server routes it; the delays below provoke the races, the
assertions are on what was charged, never on how long anything took.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from server.games.match import MatchRunner
from server.seats.players import PlayerSession
from shared.quoridor import GameStatus, Step
from shared.referee import RefereeSettings, TurnRequest
from tests.server.conftest import bounded

LIMIT_MS = 50


class RecordingSeat(PlayerSession):
    """A seat without a socket: turns go to a queue."""

    def __init__(self, name: str) -> None:
        super().__init__(name, name)
        self.turns: asyncio.Queue[tuple[TurnRequest, float]] = asyncio.Queue()
        self.over: list = []

    async def send_game_start(self, game: str, opponent: str, seat: int) -> bool:
        return True

    def send_turn(self, game: str, request: TurnRequest) -> float | None:
        sent = time.monotonic()
        self.turns.put_nowait((request, sent))
        return sent

    async def send_game_over(self, message) -> bool:
        self.over.append(message)
        return True


def start(tmp_path: Path, grace_s: float = 0.0):
    seats = (RecordingSeat("white"), RecordingSeat("black"))
    runner = MatchRunner("g1", seats, RefereeSettings(time_limit_ms=LIMIT_MS, step_cap=1), tmp_path / "g1.csv",
                         grace_s=grace_s)
    return seats, runner, asyncio.create_task(runner.run())


async def test_a_timeout_is_charged_the_limit_not_the_grace(tmp_path):
    (white, black), runner, game = start(tmp_path, grace_s=0.1)
    await bounded(white.turns.get(), 5)
    _, sent = await bounded(black.turns.get(), 5)       # white said nothing: timed out
    runner.submit_step(1, 1, Step.move(5, 8), sent + 0.003)
    await bounded(game, 5)
    timeout = runner.referee.records[0]
    assert (timeout.status, timeout.thinking_ms) == (GameStatus.TIMEOUT, LIMIT_MS)
    assert runner.referee.clocks_ms == (LIMIT_MS, 3)


async def test_a_step_routed_as_the_timer_fires_still_counts(tmp_path):
    (white, black), runner, game = start(tmp_path)
    _, sent = await bounded(white.turns.get(), 5)
    # Stamped in time, routed just at the deadline: whichever the loop runs first, the stamp decides.
    loop = asyncio.get_running_loop()
    loop.call_at(loop.time() + max(sent + LIMIT_MS / 1000 - time.monotonic(), 0),
                 runner.submit_step, 0, 0, Step.move(5, 2), sent + 0.005)
    request, sent = await bounded(black.turns.get(), 5)
    assert runner.referee.records[0].status is GameStatus.OK
    runner.submit_step(1, 1, Step.move(5, 8), sent + 0.001)
    await bounded(game, 5)

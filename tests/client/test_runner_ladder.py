"""The client on the practice ladder: a paused bot's run ends with the reason instead of waiting for ever."""

from __future__ import annotations

import asyncio

from client.player import Player
from client.render import notice_printer
from client.runner import BotRunner
from shared.quoridor import ChessboardChange, Location, Step
from tests.client.support import quiet
from tests.server.conftest import ScriptedBot, bounded, url

LADDER = {"ladder": True, "ladder_opening_plies": 0, "ladder_refit_s": 3600.0, "ladder_bootstrap_samples": 10,
          "ladder_pause_after": 2}


class Corner(Player):
    """Always steps to a1: illegal (a violation) in every game."""

    def next_step(self, change: ChessboardChange) -> Step:
        return Step(Location(1, 1))


async def test_a_paused_ladder_client_ends_its_run_with_the_reason(make_server):
    server = await make_server(**LADDER)
    ladder = asyncio.create_task(server.run_ladder())
    partner = ScriptedBot(url(server), "partner")
    partnering = asyncio.create_task(partner.run())
    console = quiet()
    runner = BotRunner(Corner("bad"), url(server), "bad", say=notice_printer(console))
    try:
        summary = await bounded(runner.run(), 30)      # before: connected for ever after the paused error
    finally:
        ladder.cancel()
        partnering.cancel()
        await bounded(asyncio.gather(ladder, partnering, return_exceptions=True), 30)
    assert summary.games >= 2 and not summary.completed
    assert summary.problem is not None and summary.problem.startswith("the practice ladder paused this bot: 2 games in a row")
    assert "server error paused" in console.file.getvalue()

"""A tournament game with hosted players: refereed and logged as any other, plus each step's CPU time."""

from __future__ import annotations

import asyncio

from server.sandbox import HostedBot, HostedSeat, SandboxLimits
from shared.gamelog import parse_log
from tests.server.conftest import bounded


async def test_hosted_players_play_a_tournament_and_their_cpu_times_are_logged(make_server, tmp_path):
    server = await make_server(players=2)
    referee = server.settings.referee_settings()
    seats = [HostedSeat(name, HostedBot(name, None, SandboxLimits(), trusted=True), referee, key=f"k-{name}")
             for name in ("runner", "random")]
    assert await asyncio.gather(*(seat.start() for seat in seats)) == [None, None]
    server.lobby.sessions.extend(seats)            # seated as --players-from-submissions seats them
    server.lobby.full.set()
    try:
        standings = await bounded(server.run_tournament(), 60)
    finally:
        await asyncio.gather(*(seat.close() for seat in seats))
    assert {row.player for row in standings.rows()} == {"runner", "random"}
    logs = sorted(p for p in (tmp_path / "replays").rglob("*.csv") if "_vs_" in p.name)
    log = parse_log(logs[0].read_text(encoding="utf-8"))
    assert log.problems == [] and log.outcome is not None and log.outcome.cpu_ms is not None
    assert [len(t) for t in log.outcome.cpu_ms] == [len([r for r in log.steps if r.player == p])
                                                    for p in log.header.players]

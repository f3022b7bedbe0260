"""A pairing the game host refuses (``JobRefused``: a worker cannot fetch a bot, every attempt failed) is one log
line, changes no standing and stays unplayed; the rest of the tournament goes on, and ``--resume`` plays it."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import pytest

from tests.server.queue.conftest import require_engine_client

require_engine_client()         # JobRefused comes with the queue's client

from server.queue.host import JobRefused  # noqa: E402
from server.sandbox import LocalGameHost, Pairing, PairingResult, SandboxLimits  # noqa: E402
from server.tournament.runner import GamesNotPlayed  # noqa: E402
from tests.server.conftest import bounded  # noqa: E402
from tests.server.sandbox.conftest import hand_in, walker  # noqa: E402

FAST = {"time_limit_ms": 1000, "step_cap": 40, "rejoin_wait_s": 2.0}


@dataclass
class RefusingHost:
    """Plays pairings on this machine, except those of every bot named in ``refused``, which a worker refuses."""

    inner: LocalGameHost
    refused: frozenset[str] = frozenset()
    played: list[Pairing] = field(default_factory=list)

    async def play(self, pairing, *, on_step=None) -> PairingResult:
        if self.refused and self.refused <= {bot.name for bot in pairing.bots}:
            raise JobRefused(f"worker w1 refused job {pairing.games[0].game_id}: bot version 0123456789ab is not "
                             "in the engine (unfetchable)", "unfetchable")
        self.played.append(pairing)
        return await self.inner.play(pairing, on_step=on_step)

    async def close(self) -> None:
        await self.inner.close()


async def test_a_refused_pairing_is_left_unplayed_for_resume_and_the_rest_goes_on(make_server, sandbox, caplog):
    server = await make_server(players=3, players_from_submissions=True, **FAST)
    for key in ("alice", "bob", "carol"):
        hand_in(server, key, walker())
    server.game_host = RefusingHost(LocalGameHost(SandboxLimits(), rows=None), frozenset({"alice", "bob"}))
    with caplog.at_level(logging.ERROR, "quoridor.server"), pytest.raises(GamesNotPlayed, match="--resume") as info:
        await bounded(server.run_tournament(), 120)
    assert "\n" not in str(info.value)
    standings = server.runner.standings
    assert standings.games_done == 2                # the two other pairings were played and count
    rows = await server.results.games(server.tournament_id)
    refused = [row for row in rows if {row.white, row.black} == {"alice", "bob"}]
    assert len(refused) == 1 and refused[0].status == "pending" and list(info.value.games) == [
        f"t{server.tournament_id}-r{refused[0].round + 1}-p{refused[0].pairing + 1}-g1"]
    lines = [r.getMessage() for r in caplog.records if "not played" in r.getMessage()]
    assert len(lines) == 1 and info.value.games[0] in lines[0] and "unfetchable" in lines[0]
    assert "\n" not in lines[0]
    assert await server.results.latest_unfinished() is not None
    await server.close()

    resumed = await make_server(resume=True, **FAST)
    host = RefusingHost(LocalGameHost(SandboxLimits(), rows=None))
    resumed.game_host = host
    final = await bounded(resumed.run_tournament(), 120)
    assert final.games_done == 3
    assert [sorted(b.name for b in p.bots) for p in host.played] == [["alice", "bob"]]     # only what was missing
    assert all(row.status == "finished" for row in await resumed.results.games(resumed.tournament_id))


async def test_a_knockout_stops_after_the_round_of_a_refused_pairing_and_resumes_from_it(make_server, sandbox):
    server = await make_server(players=4, players_from_submissions=True, format="knockout", **FAST)
    for key in ("alice", "bob", "carol", "dave"):
        hand_in(server, key, walker())
    first_round = RefusingHost(LocalGameHost(SandboxLimits(), rows=None), frozenset({"alice"}))
    server.game_host = first_round
    with pytest.raises(GamesNotPlayed, match="1 game"):
        await bounded(server.run_tournament(), 120)
    rows = await server.results.games(server.tournament_id)
    assert len(first_round.played) == 1 and [row.round for row in rows] == [0, 0]      # no second round paired
    assert [row.status for row in rows if "alice" in (row.white, row.black)] == ["pending"]
    await server.close()
    resumed = await make_server(resume=True, **FAST)
    resumed.game_host = RefusingHost(LocalGameHost(SandboxLimits(), rows=None))
    final = await bounded(resumed.run_tournament(), 120)
    assert final.games_done == 3                    # the refused semi-final, then the final

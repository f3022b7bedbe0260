"""A tournament whose roster names a handed-in bot: that bot takes its seat (the named version), connected bots the
others; a version handed in meanwhile does not replace a named one, and keys the roster leaves to connect stay free."""

from __future__ import annotations

import asyncio

from server.submissions.seats import SubmittedSeat
from tests.server.conftest import ScriptedBot, url
from tests.server.sandbox.conftest import hand_in, walker
from tests.server.support import play

FAST = {"time_limit_ms": 1000, "step_cap": 40, "rejoin_wait_s": 2.0}


async def handed_in_before(make_server, data, *bots: tuple[str, str]) -> list[str]:
    """Hand ``bots`` (key, source) in to a server on ``data`` that then stops (as quoridor-submit would); versions."""
    server = await make_server(players=0, data_dir=data)
    versions = [hand_in(server, key, source) for key, source in bots]
    await server.close()
    return versions


async def test_a_roster_named_submission_plays_a_connected_bot(make_server, sandbox, tmp_path):
    # Ana handed a bot in too, but her roster entry has her connect: only Bo's entry names its submission.
    await handed_in_before(make_server, tmp_path / "cup", ("k-bo", walker()), ("k-ana", walker()))
    server = await make_server(players=2, data_dir=tmp_path / "cup", roster={"k-ana": "Ana", "k-bo": "Bo"},
                               roster_submissions={"k-bo": None}, **FAST)
    ana = ScriptedBot(url(server), "k-ana")
    standings = await play(server, [ana], seconds=120)
    assert standings.games_done == 1 and {row.player for row in standings.rows()} == {"Ana", "Bo"}
    assert [(seat.name, type(seat)) for seat in server.hosted] == [("Bo", SubmittedSeat)]
    assert len(ana.games_over) == 1 and ana.welcome is not None


async def test_the_named_version_plays_and_a_newer_one_does_not_replace_it(make_server, sandbox, tmp_path):
    data = tmp_path / "cup"
    [old] = await handed_in_before(make_server, data, ("k-bo", walker()))
    server = await make_server(players=2, data_dir=data, roster={"k-ana": "Ana", "k-bo": "Bo"},
                               roster_submissions={"k-bo": old}, **FAST)
    run = asyncio.ensure_future(server.run_tournament())
    while not server.hosted:
        await asyncio.sleep(0.02)
    hand_in(server, "k-bo", walker(init="self.newer = True"))
    newer = server.submissions.bot_entry((await server.submissions.store.versions("k-bo"))[0])
    assert newer.version != old
    server.submissions.on_accepted("k-bo", newer)          # accepted while the seats fill: the roster pins the old
    ana = ScriptedBot(url(server), "k-ana")
    await asyncio.wait_for(asyncio.gather(run, ana.run()), 120)
    assert run.result().games_done == 1
    assert [(seat.name, seat.entry.version) for seat in server.hosted] == [("Bo", old)]

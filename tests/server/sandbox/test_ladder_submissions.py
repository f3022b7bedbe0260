"""Accepted handed-in bots sit on the ladder as residents that never disconnect; a newer version takes over."""

from __future__ import annotations

import asyncio

from shared.ladder import pair_key
from tests.server.conftest import bounded
from tests.server.sandbox.conftest import hand_in, walker

LADDER = {"ladder": True, "ladder_opening_plies": 2, "ladder_refit_s": 3600.0,
          "ladder_pair_games_per_hour": 10_000,
          "time_limit_ms": 1000, "step_cap": 40}


async def _until(predicate, seconds: float = 60.0) -> None:
    async def wait() -> None:
        while not predicate():
            await asyncio.sleep(0.05)
    await bounded(wait(), seconds)


async def test_the_newest_accepted_version_of_each_key_plays_on_the_ladder(make_server, sandbox):
    server = await make_server(ladder_residents=["random"], **LADDER)
    hand_in(server, "alice", walker(init="self.first = True"))
    version = hand_in(server, "alice", walker(init="self.second = True"))       # the newer one plays
    hand_in(server, "bob", walker())
    ladder = asyncio.create_task(server.run_ladder())
    try:
        await _until(lambda: server.ladder is not None and server.ladder.games_played >= 4)
        alice = server.lobby.session("alice")
        assert alice is not None and alice.resident and alice.version == version
        assert set(server.residents.bots) == {"random", "alice", "bob"}
        assert all(name in {g.name for g in server.lobby.sessions} for name in ("alice", "bob"))
    finally:
        ladder.cancel()
        await bounded(asyncio.gather(ladder, return_exceptions=True), 30)


async def test_a_version_accepted_while_the_ladder_runs_replaces_the_old_one_on_a_track_of_its_own(
        make_server, sandbox):
    server = await make_server(ladder_residents=["random"], **LADDER)
    old = hand_in(server, "alice", walker(init="self.first = True"))
    ladder = asyncio.create_task(server.run_ladder())
    try:
        await _until(lambda: (s := server.lobby.session("alice")) is not None and s.track is not None
                     and s.track.version == old and server.ladder.games_played >= 1)
        first_bot = server.residents.bots["alice"]
        new = hand_in(server, "alice", walker(init="self.second = True"))
        store = server.submissions.store
        server.submissions.on_accepted("alice", server.submissions.bot_entry((await store.versions("alice"))[0]))
        await _until(lambda: (s := server.lobby.session("alice")) is not None and s.connected
                     and s.track is not None and s.track.version == new)
        session = server.lobby.session("alice")
        assert session.paused is None and server.residents.bots["alice"] is not first_bot
        assert first_bot.ended is not None and first_bot.ended.cause == "ok"           # the old version left
        assert [s.name for s in server.lobby.sessions].count("alice") == 1
        # and the new one plays (against a newcomer: random's rating fell far below a new track's meanwhile)
        hand_in(server, "bob", walker())
        server.submissions.on_accepted("bob", server.submissions.bot_entry((await store.versions("bob"))[0]))
        await _until(lambda: server.ladder.meetings[pair_key("alice", "bob")] >= 2)
        tracks = await server.ladder_store.tracks()
        assert {t.version for t in tracks if t.bot == "alice"} == {old, new}
    finally:
        ladder.cancel()
        await bounded(asyncio.gather(ladder, return_exceptions=True), 30)


async def test_a_bot_handed_in_while_its_key_plays_connected_takes_the_name_and_plays(make_server, sandbox):
    from tests.server.conftest import ScriptedBot, url
    server = await make_server(ladder_residents=["runner"], **LADDER)
    ladder = asyncio.create_task(server.run_ladder())
    fay = ScriptedBot(url(server), "fay")
    client = asyncio.create_task(fay.run())
    try:
        await _until(lambda: len(fay.games_over) >= 1)        # the key's own client plays as fay
        version = hand_in(server, "fay", walker())
        store = server.submissions.store
        server.submissions.on_accepted("fay", server.submissions.bot_entry((await store.versions("fay"))[0]))
        await _until(lambda: any(e["code"] == "paused" for e in fay.errors))     # the client is told why
        assert "handed-in bot" in next(e["message"] for e in fay.errors if e["code"] == "paused")
        client.cancel()                                        # Ctrl-C
        await bounded(asyncio.gather(client, return_exceptions=True), 30)
        # the handed-in version plays at once (before: every pairing went to the client's gone session)
        async def handed_in_games() -> int:
            found = await server.ladder_store.tracks()
            return next((t.games for t in found if t.bot == "fay" and t.version == version), 0)

        async def played() -> None:
            while await handed_in_games() < 2:
                await asyncio.sleep(0.1)
        await bounded(played(), 60)
        assert [s.name for s in server.lobby.sessions].count("fay") == 1 and server.lobby.session("fay").resident
    finally:
        client.cancel()
        ladder.cancel()
        await bounded(asyncio.gather(client, ladder, return_exceptions=True), 30)

"""The practice ladder end to end on 127.0.0.1 port 0: pairs of colour-swapped games, kept across a restart."""

from __future__ import annotations

import asyncio
import json

from websockets.asyncio.client import connect

from server.ladder.store import LadderStore

from .conftest import ScriptedBot, bounded, url
from .support import Client, hello


async def _until(predicate, seconds: float = 30.0) -> None:
    async def wait() -> None:
        while not predicate():
            await asyncio.sleep(0.05)
    await bounded(wait(), seconds)


async def _cancel(*tasks: asyncio.Task) -> None:
    """Cancel ``tasks`` and wait until each has ended."""
    for task in tasks:
        task.cancel()
    await bounded(asyncio.gather(*tasks, return_exceptions=True), 30)


LADDER = {"ladder": True, "ladder_opening_plies": 2, "ladder_refit_s": 3600.0, "ladder_bootstrap_samples": 10}


async def test_the_ladder_plays_colour_swapped_pairs_and_keeps_everything_across_a_restart(make_server, tmp_path):
    server = await make_server(**LADDER)
    ladder = asyncio.create_task(server.run_ladder())
    bots = [ScriptedBot(url(server), key) for key in ("alice", "bob", "carol")]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    await _until(lambda: server.ladder is not None and server.ladder.games_played >= 4)
    assert "practice ladder" in bots[0].welcome["server"]
    async with connect(url(server)) as watcher:
        await watcher.send(json.dumps({"type": "hello", "protocol": 1, "role": "spectator", "key": "eye"}))
        assert json.loads(await watcher.recv())["type"] == "welcome"
        table = await server.ladder.refit()
        while (frame := json.loads(await bounded(watcher.recv())))["type"] != "standings":
            pass
    assert frame["tournament"] == "ladder" and {r["player"] for r in frame["rows"]} == {"alice", "bob", "carol"}
    assert all(r["elo"] is not None and r["games"] == r["wins"] + r["losses"] + r["draws"] for r in frame["rows"])
    await _cancel(ladder)
    await _cancel(*tasks)
    await server.close()

    store = LadderStore(tmp_path / "replays" / "ladder.db")
    games = store.facts()
    tracks = {t.bot: t for t in store.tracks()}
    rows = store._conn.execute("SELECT game_id, pairing, white, black, opening FROM games ORDER BY id").fetchall()
    store.close()
    assert len(games) >= 4 and set(tracks) == {"alice", "bob", "carol"}
    by_pairing: dict[int, list] = {}
    for row in rows:
        by_pairing.setdefault(row["pairing"], []).append(row)
    pairs = [games for games in by_pairing.values() if len(games) == 2]
    assert pairs
    for first, second in pairs:        # the same opening, the colours swapped
        assert (first["white"], first["black"]) == (second["black"], second["white"])
        assert first["opening"] == second["opening"] and len(first["opening"].split()) == 2
    assert all(t.games > 0 and t.skill.sigma < 25 / 3 for t in tracks.values())
    assert {row.track for row in table} == {"alice", "bob", "carol"}
    assert all(row.rating is not None for row in table)

    # Restarted on the same data: ratings, games and pairing numbers go on from where they were.
    again = await make_server(**LADDER)
    ladder = asyncio.create_task(again.run_ladder())
    bots = [ScriptedBot(url(again), key) for key in ("alice", "bob")]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    await _until(lambda: again.ladder is not None and again.ladder.games_played >= 1)
    assert again.lobby.session("alice").track.id == tracks["alice"].id    # the same track, not a new one
    await _cancel(ladder)
    await _cancel(*tasks)
    await again.close()
    store = LadderStore(tmp_path / "replays" / "ladder.db")
    after = store.facts()
    numbers = [r["pairing"] for r in store._conn.execute("SELECT pairing FROM games ORDER BY id")]
    alice = next(t for t in store.tracks() if t.bot == "alice")
    store.close()
    assert after[:len(games)] == games and len(after) > len(games)
    assert min(numbers[len(games):]) > max(numbers[:len(games)])
    assert alice.games > tracks["alice"].games


async def test_a_new_version_opens_a_new_track_and_bad_hello_fields_get_stable_codes(make_server, tmp_path):
    server = await make_server(**LADDER)
    ladder = asyncio.create_task(server.run_ladder())
    async with connect(url(server)) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "player", "key": "x", "version": "a b"}))
        assert json.loads(await ws.recv())["code"] == "bad_version"
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "player", "key": "x", "concurrency": 0}))
        assert json.loads(await ws.recv())["code"] == "bad_concurrency"
    for version in ("v1", "v2"):
        async with connect(url(server)) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "player", "key": "x",
                                      "version": version}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            await _until(lambda: (s := server.lobby.session("x")) is not None and s.track is not None
                         and s.track.version == version)
    await _cancel(ladder)
    await server.close()
    store = LadderStore(tmp_path / "replays" / "ladder.db")
    assert [(t.bot, t.version, t.label) for t in store.tracks()] == [("x", "v1", "x@v1"), ("x", "v2", "x@v2")]
    store.close()


async def test_a_bot_that_drops_mid_game_loses_it_and_is_not_paired_until_back(make_server):
    server = await make_server(**LADDER)
    ladder = asyncio.create_task(server.run_ladder())
    stayer = ScriptedBot(url(server), "stayer")
    staying = asyncio.create_task(stayer.run())
    async with connect(url(server)) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "player", "key": "quitter"}))
        while json.loads(await ws.recv())["type"] != "turn":
            pass                                    # the game is on: leave without answering
    await _until(lambda: len(stayer.games_over) >= 1)
    assert stayer.games_over[0]["reason"] == "disconnect" and stayer.games_over[0]["result"] == "win"
    await asyncio.sleep(0.6)                        # a few matchmaking ticks: nobody to play
    assert len(stayer.games_over) == 1 and server.ladder.games_played == 1
    await _cancel(ladder, staying)


def _illegal(pos, seat):
    from shared.quoridor import Location, Step
    return Step(Location(1, 1) if pos.pawns[seat] != Location(1, 1) else Location(9, 9))


async def test_a_bot_that_keeps_violating_is_paused_and_told_why(make_server):
    server = await make_server(**LADDER | {"ladder_pause_after": 2})
    ladder = asyncio.create_task(server.run_ladder())
    bad, good = ScriptedBot(url(server), "bad", _illegal), ScriptedBot(url(server), "good")
    tasks = [asyncio.create_task(bot.run()) for bot in (bad, good)]
    await _until(lambda: any(e["code"] == "paused" for e in bad.errors))
    assert server.lobby.session("bad").paused is not None
    played = server.ladder.games_played
    await asyncio.sleep(0.6)
    assert server.ladder.games_played == played and not server.ladder.running
    await _cancel(ladder, *tasks)


async def test_a_bot_that_accepts_two_games_at_once_plays_them_side_by_side(make_server):
    from shared.quoridor import Location, Position

    from .conftest import runner_policy

    server = await make_server(**LADDER)
    ladder = asyncio.create_task(server.run_ladder())
    opponents = [ScriptedBot(url(server), key, delay=0.02) for key in ("b", "c")]
    tasks = [asyncio.create_task(bot.run()) for bot in opponents]
    most = 0
    async with connect(url(server)) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "player", "key": "multi",
                                  "concurrency": 2}))
        seats: dict[str, int] = {}
        finished = 0
        while finished < 4:
            frame = json.loads(await bounded(ws.recv()))
            if frame["type"] == "game_start":
                seats[frame["game"]] = frame["seat"]
                most = max(most, len(server.lobby.session("multi").games))
            elif frame["type"] == "turn":
                seat = seats[frame["game"]]
                mine, theirs = Location(*frame["my_loc"]), Location(*frame["enemy_loc"])
                pos = Position.setup((mine, theirs) if seat == 0 else (theirs, mine), [], turn=seat)
                step = runner_policy(pos, seat)
                await ws.send(json.dumps({"type": "step", "game": frame["game"], "turn": frame["turn"],
                                          "move": list(step.new_loc), "wall": None}))
            elif frame["type"] == "game_over":
                finished += 1
                assert frame["reason"] in ("goal", "step_cap")
    assert most == 2
    await _cancel(ladder, *tasks)


async def test_the_ladder_stops_when_cancelled_just_as_it_is_woken(make_server):
    # On Python 3.11, asyncio.wait_for swallowed a cancellation that came as the awaited event was set:
    # the ladder then ran on, and a server stopping with it hung.
    server = await make_server(**LADDER)
    ladder = asyncio.create_task(server.run_ladder())
    await _until(lambda: server.ladder is not None)
    for _ in range(5):
        await asyncio.sleep(0.02)           # the runner is waiting for its next wake-up
        server.ladder._wake.set()           # a bot joins or a game ends ...
        ladder.cancel()                     # ... in the same moment as the server stops
        done, _ = await asyncio.wait({ladder}, timeout=5)
        assert done, "the ladder did not stop when cancelled"
        if ladder.cancelled():
            break
        ladder = asyncio.create_task(server.run_ladder())
    assert ladder.cancelled()
    await server.close()


async def test_two_bots_play_on_past_the_pair_cap_and_a_lone_bot_is_told_why_nothing_plays(make_server):
    server = await make_server(**LADDER | {"ladder_pair_games_per_hour": 2})
    ladder = asyncio.create_task(server.run_ladder())
    bots = [ScriptedBot(url(server), key) for key in ("alice", "bob")]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    await _until(lambda: server.ladder is not None and server.ladder.games_played >= 6)   # the cap was 2
    tasks[1].cancel()
    await _until(lambda: server.ladder.idle is not None and server.ladder.idle.reason.startswith("only alice"))
    assert server.ladder.idle.resumes_in_s is None
    await _cancel(ladder, *tasks)


async def test_a_page_asks_for_a_versions_report_and_hears_unknown_game_for_a_version_not_on_the_ladder(make_server):
    server = await make_server(**LADDER)
    ladder = asyncio.create_task(server.run_ladder())
    bots = [ScriptedBot(url(server), key) for key in ("alice", "bob")]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    try:
        await _until(lambda: server.ladder is not None and server.ladder.games_played >= 2)
        page = await Client.open(url(server))
        await page.send(hello("eye", role="spectator"))
        await page.next("welcome")
        await page.send({"type": "ladder_request", "report": "alice"})

        async def answer() -> dict:
            while (frame := await page.next("ladder", "error"))["type"] == "ladder" and frame["report"] is None:
                pass                                                        # the pushed frames carry none
            return frame
        frame = await bounded(answer(), 10)
        assert frame["report"]["track"] == "alice" and frame["report"]["games"] >= 2     # read on the store's thread
        await page.send({"type": "ladder_request", "report": "nobody"})
        error = await page.next("error")
        assert error["code"] == "unknown_game" and "'nobody'" in error["message"]
        await page.close()
    finally:
        await _cancel(ladder, *tasks)

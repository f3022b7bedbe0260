"""The whole server over real websockets on 127.0.0.1 port 0."""

from __future__ import annotations

import asyncio
import json

from websockets.asyncio.client import connect

from shared.gamelog import parse_log
from shared.quoridor import Step
from tests.server.conftest import ScriptedBot, bounded, url
from tests.server.support import play


def seat_of(bot: ScriptedBot, game: int = 0) -> int:
    return [f["seat"] for f in bot.frames if f["type"] == "game_start"][game]


async def test_a_single_match_between_two_runners(make_server):
    server = await make_server(players=2)
    alice, bob = ScriptedBot(url(server), "alice"), ScriptedBot(url(server), "bob")
    standings = await play(server, [alice, bob])
    assert standings.games_done == 1
    # seat 0 moves first and walks 8 steps to its goal before seat 1 does
    first, second = (alice, bob) if seat_of(alice) == 0 else (bob, alice)
    assert first.games_over[0]["result"] == "win" and first.games_over[0]["reason"] == "goal"
    assert second.games_over[0]["result"] == "loss"
    assert second.games_over[0]["winner"] == first.welcome["player"]
    assert alice.welcome["rules"] == {"ruleset": "course", "time_limit_ms": 1000, "violations_allowed": 3,
                                      "step_cap": 100, "walls_per_player": 10}
    assert alice.frames[-1]["type"] == "tournament_over"
    log_path = alice.games_over[0]["log"]
    with open(log_path, encoding="utf-8") as handle:
        log = parse_log(handle.read())
    assert log.header.players == (first.key, second.key) and log.outcome.winner == 0
    assert len(log.steps) == 15 and all(s.status in (0, 1) for s in log.steps)
    results = json.loads((server.folder / "results.json").read_text())
    assert len(results["games"]) == 1


async def test_round_robin_of_four_with_two_games_per_pairing(make_server):
    server = await make_server(players=4, games_per_pairing=2)
    bots = [ScriptedBot(url(server), f"bot{i}") for i in range(4)]
    standings = await play(server, bots)
    assert standings.games_done == 12
    for bot in bots:
        assert len(bot.games_over) == 6
        seats = [f["seat"] for f in bot.frames if f["type"] == "game_start"]
        assert seats.count(0) == seats.count(1) == 3
    # runners always win as seat 0: every player has 3 wins
    assert sorted(r.wins for r in standings.rows()) == [3, 3, 3, 3]
    assert len(list(server.folder.glob("*.csv"))) == 12 + 3      # 12 logs, results.csv, the old server's two


async def test_violations_are_reported_back_and_the_third_loses(make_server):
    server = await make_server(players=2)
    silly = ScriptedBot(url(server), "silly", policy=lambda pos, seat: Step.move(1, 5))   # never legal
    runner = ScriptedBot(url(server), "runner")
    await play(server, [silly, runner])
    assert silly.statuses[:3] == [0, 7, 7]
    over = silly.games_over[0]
    assert over["result"] == "loss" and over["reason"] == "violations" and over["status"] == 5


async def test_a_slow_bot_times_out_and_its_late_answers_never_count(make_server):
    server = await make_server(players=2, time_limit_ms=100, timeout_grace_s=0.02)
    slow = ScriptedBot(url(server), "slow", delay=0.25)
    fast = ScriptedBot(url(server), "fast")
    await play(server, [slow, fast])
    assert slow.statuses[1] == 3                       # its first step was a timeout
    assert any(e["code"] == "stale_turn" for e in slow.errors)
    assert slow.games_over[0]["reason"] == "violations"


async def test_disconnect_mid_game_gives_enemy_closed_and_forfeits_later_games(make_server):
    server = await make_server(players=2, games_per_pairing=2, rejoin_wait_s=0.3)
    quitter = ScriptedBot(url(server), "quitter", delay=0.05)
    stayer = ScriptedBot(url(server), "stayer", delay=0.05)
    tasks = [asyncio.create_task(stayer.run()), asyncio.create_task(quitter.run())]

    async def drop_quitter():
        while len(quitter.statuses) < 2:
            await asyncio.sleep(0.01)
        tasks[1].cancel()
    await bounded(asyncio.gather(server.run_tournament(), drop_quitter()))
    await bounded(tasks[0])
    assert stayer.games_over[0]["status"] == 4 and stayer.games_over[0]["reason"] == "disconnect"
    results = json.loads((server.folder / "results.json").read_text())
    assert [g["reason"] for g in results["games"]] == ["disconnect", "forfeit"]


async def test_bad_frames_get_errors_and_never_disturb_a_game(make_server):
    server = await make_server(players=2)
    a, b = ScriptedBot(url(server), "a"), ScriptedBot(url(server), "b")
    tasks = [asyncio.create_task(a.run()), asyncio.create_task(b.run())]
    codes = []
    async with connect(url(server)) as probe:
        for frame in [b"\x00\x01", "not json", "[1,2]", '{"type":"nope"}', '{"type":"step","game":1}',
                      '{"type":"step","game":"x","turn":0,"move":[5,2]}']:
            await probe.send(frame)
            codes.append(json.loads(await bounded(probe.recv(), 5))["code"])
        await probe.send(json.dumps({"type": "hello", "protocol": 1, "role": "spectator", "key": "s"}))
        assert json.loads(await bounded(probe.recv(), 5))["type"] == "welcome"
        assert json.loads(await bounded(probe.recv(), 5))["type"] == "tournament_info"     # the lobby, for pages
        await probe.send(json.dumps({"type": "step", "game": "t1-r1-p1-g1", "turn": 0, "move": [5, 2]}))
        codes.append(json.loads(await bounded(probe.recv(), 5))["code"])
    assert codes == ["binary_frame", "bad_json", "not_an_object", "unknown_type", "invalid_fields",
                     "hello_first", "not_a_player"]
    await bounded(server.run_tournament())
    await bounded(asyncio.gather(*tasks))
    assert a.games_over[0]["reason"] == "goal"


async def test_a_spectator_watches_every_step(make_server):
    server = await make_server(players=2)
    updates = []

    async def watch():
        async with connect(url(server)) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "spectator", "key": "eye"}))
            await ws.recv()
            await ws.send(json.dumps({"type": "watch", "game": "*"}))
            async for raw in ws:
                frame = json.loads(raw)
                if frame["type"] == "game_update":
                    updates.append(frame)
                if frame["type"] == "tournament_over":
                    return
    spectator = asyncio.create_task(watch())
    await asyncio.sleep(0.1)
    await play(server, [ScriptedBot(url(server), "a"), ScriptedBot(url(server), "b")])
    await bounded(spectator)
    assert len(updates) == 15 and updates[-1]["over"] is True
    assert updates[0]["notation"] == "e2" and updates[0]["board"]["pawns"] == [[5, 2], [5, 9]]


async def test_roster_admits_only_listed_keys_and_one_seat_per_key(make_server):
    server = await make_server(players=2, roster={"k1": "Alice", "k2": "Bob"})
    async with connect(url(server)) as stranger:
        await stranger.send(json.dumps({"type": "hello", "protocol": 1, "role": "player", "key": "zz"}))
        assert json.loads(await bounded(stranger.recv(), 5))["code"] == "unknown_key"
    first = ScriptedBot(url(server), "k1")
    task = asyncio.create_task(first.run())
    while first.welcome is None:
        await asyncio.sleep(0.01)
    assert first.welcome["player"] == "Alice"
    async with connect(url(server)) as twin:
        await twin.send(json.dumps({"type": "hello", "protocol": 1, "role": "player", "key": "k1"}))
        assert json.loads(await bounded(twin.recv(), 5))["code"] == "key_in_use"
    second = ScriptedBot(url(server), "k2")
    await play(server, [second])
    await bounded(task)
    assert [f["opponent"] for f in first.frames if f["type"] == "game_start"] == ["Bob"]
    assert first.games_over[0]["winner"] == ("Alice" if seat_of(first) == 0 else "Bob")


async def test_resume_after_a_crash_keeps_finished_games(make_server, tmp_path):
    data = tmp_path / "resume"
    server = await make_server(players=2, games_per_pairing=3, data_dir=data, tournament_name="cup")
    # Bots that think 20 ms a step: the next game is far from over when the crash comes.
    a, b = ScriptedBot(url(server), "a", delay=0.02), ScriptedBot(url(server), "b", delay=0.02)
    tasks = [asyncio.create_task(a.run()), asyncio.create_task(b.run())]
    run = asyncio.create_task(server.run_tournament())
    while len(a.games_over) < 1:
        await asyncio.sleep(0.01)
    run.cancel()                                    # the server dies mid-tournament
    for t in tasks:
        t.cancel()
    await bounded(asyncio.gather(run, *tasks, return_exceptions=True), 30)
    await server.close()
    # Started again without repeating -r 3 or -t: the tournament keeps the settings it started with.
    again = await make_server(players=2, data_dir=data, resume=True, time_limit_ms=5)
    a2, b2 = ScriptedBot(url(again), "a"), ScriptedBot(url(again), "b")
    standings = await play(again, [a2, b2])
    assert standings.games_done == 3
    assert 1 <= len(a2.games_over) <= 2             # only the missing games were played again
    assert again.folder == data / "cup"
    assert (again.settings.games_per_pairing, again.settings.time_limit_ms) == (3, 1000)


async def test_two_tournaments_started_in_the_same_second_keep_their_folders_apart(make_server, tmp_path,
                                                                                  monkeypatch):
    from datetime import UTC, datetime

    from server.logs import logfile

    class SameSecond(datetime):
        @classmethod
        def now(cls, tz=None):
            return datetime(2026, 11, 27, 12, 15, 30, tzinfo=UTC)

    monkeypatch.setattr(logfile, "datetime", SameSecond)
    data = tmp_path / "same"
    folders = []
    for _ in range(2):
        arena = await make_server(players=2, games_per_pairing=1, data_dir=data)
        await play(arena, [ScriptedBot(url(arena), "a"), ScriptedBot(url(arena), "b")])
        folders.append(arena.folder)
        await arena.close()
    assert [f.name for f in folders] == ["tournament-20261127-121530", "tournament-20261127-121530-2"]
    assert all(len(list(f.glob("*_vs_*.csv"))) == 1 and (f / "results.json").is_file() for f in folders)

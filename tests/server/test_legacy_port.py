"""The legacy TCP port: the course's C++ clients (a byte-for-byte Python stand-in) in our tournaments."""

from __future__ import annotations

import asyncio
import csv
import json
from types import SimpleNamespace

import pytest

from client.replay.listing import NOT_LOGS
from server.seats.legacy import LegacySession, legacy_identity
from shared.quoridor import Step
from tests.server.conftest import ScriptedBot, bounded, url
from tests.server.legacy_client import STEP, LegacyBot, legacy_key


async def play(server, *bots, **runs):
    tasks = [asyncio.create_task(bot.run(**runs.get(getattr(bot, "player_key", ""), {}))) for bot in bots]
    standings = await bounded(server.run_tournament(), 60)
    await bounded(asyncio.gather(*tasks), 10)
    return standings


def results(server) -> dict:
    return json.loads((server.folder / "results.json").read_text())


async def test_the_port_is_off_unless_asked(make_server):
    server = await make_server()
    assert server.legacy_port is None


async def test_two_legacy_clients_play_a_match_to_the_close_frame(make_server):
    server = await make_server(legacy_port=0, games_per_pairing=2)
    a, b = (LegacyBot("127.0.0.1", server.legacy_port, key) for key in ("193304alpha", "193304beta"))
    standings = await play(server, a, b)
    assert standings.games_done == 2
    for bot in (a, b):
        assert bot.closed_by_server                              # 1001, -1 at the end of the contest
        assert sorted(bot.finals) in ([1, 2], [1, 1], [2, 2])   # one final board change per game
        assert bot.changes[-1].final and not bot.changes[0].final
    names = {row["player"] for row in results(server)["standings"]}
    assert names == {"193304ALPHA", "193304BETA"}               # the text before the first "_", as sent
    first = next(bot for bot in (a, b) if bot.changes[0].me == (5, 1))
    assert first.changes[0] == type(first.changes[0])(0, (5, 1), (5, 9), (-1, -1, -1, -1))
    logs = sorted(server.folder.rglob("*.csv"))
    games = [p for p in logs if p.name not in NOT_LOGS]
    assert len(games) == 2
    steps = [r for r in csv.DictReader(games[0].open()) if not r["meta"]]   # metadata rows carry no player
    assert {r["player"] for r in steps} == names


async def test_legacy_and_websocket_bots_share_a_tournament(make_server):
    server = await make_server(legacy_port=0, players=4, games_per_pairing=2)
    legacy = [LegacyBot("127.0.0.1", server.legacy_port, key) for key in ("old1", "old2")]
    modern = [ScriptedBot(url(server), key) for key in ("new1", "new2")]
    standings = await play(server, *legacy, *modern)
    assert standings.games_done == 12
    assert all(bot.closed_by_server and len(bot.finals) == 6 for bot in legacy)
    assert all(len(bot.games_over) == 6 and bot.errors == [] for bot in modern)
    rows = results(server)["standings"]
    assert sum(row["games"] for row in rows) == 24 and all(row["violations"] == 0 for row in rows)


async def test_the_same_key_twice_gets_the_old_servers_names(make_server):
    server = await make_server(legacy_port=0)
    a, b = (LegacyBot("127.0.0.1", server.legacy_port, "twin") for _ in range(2))
    await play(server, a, b)
    assert {row["player"] for row in results(server)["standings"]} == {"TWIN", "TWIN_1"}


async def test_a_roster_names_legacy_players_and_refuses_strangers(make_server):
    server = await make_server(legacy_port=0, roster={"alice": "Alice A.", "bob": "Bob B."})
    stranger = LegacyBot("127.0.0.1", server.legacy_port, "mallory")
    await bounded(stranger.run(), 10)                      # the server closes it without a word
    assert stranger.changes == [] and not stranger.closed_by_server
    a = LegacyBot("127.0.0.1", server.legacy_port, "alice")
    b = ScriptedBot(url(server), "bob")
    await play(server, a, b)
    assert {row["player"] for row in results(server)["standings"]} == {"Alice A.", "Bob B."}


async def test_garbage_disconnects_only_that_client_and_its_opponent_wins(make_server):
    server = await make_server(legacy_port=0)
    rogue = LegacyBot("127.0.0.1", server.legacy_port, "rogue")
    honest = ScriptedBot(url(server), "honest")
    garbage = (7).to_bytes(4, "big") + b"\x00" * 88          # an unknown frame id
    await play(server, rogue, honest, rogue={"stop_after_steps": 2, "garbage": garbage})
    assert rogue.dropped
    over = honest.games_over[0]
    assert over["status"] == 4 and over["winner"] == "honest"     # EnemyClosed


async def test_a_short_read_at_close_loses_by_disconnect(make_server):
    server = await make_server(legacy_port=0)
    rogue = LegacyBot("127.0.0.1", server.legacy_port, "rogue")
    honest = ScriptedBot(url(server), "honest")
    half = STEP.pack(2, legacy_key("rogue"), 5, 2, -1, -1, -1, -1)[:50]
    await play(server, rogue, honest, rogue={"stop_after_steps": 1, "garbage": half, "hang_up": True})
    assert honest.games_over[0]["status"] == 4


async def test_a_late_step_is_a_timeout_and_never_counts_for_a_later_turn(make_server):
    # The old client is synchronous: while it oversleeps one turn, the clock of the next board
    # change already runs, so one long sleep may cost more than one timeout. What must hold is that
    # each board change gets exactly one judgement and no late answer is ever judged for a later turn.
    server = await make_server(legacy_port=0, time_limit_ms=150, timeout_grace_s=0.01)
    slow = LegacyBot("127.0.0.1", server.legacy_port, "slow", delays={1: 0.4})
    fast = ScriptedBot(url(server), "fast")
    await play(server, slow, fast)
    told = [c.status for c in slow.changes if not c.final][1:]   # each change reports the step before
    assert told[1] == 3                                          # the slept-over turn was a timeout
    assert set(told) <= {0, 3}                                   # nothing late was judged as a bad step
    log = next(p for p in server.folder.rglob("*.csv") if p.name not in NOT_LOGS)
    rows = [r for r in csv.DictReader(log.open()) if r["player"] == "SLOW" and not r["meta"]]
    assert len(rows) == len([c for c in slow.changes if not c.final])   # one row per board change
    assert [r["status"] for r in rows][:len(told)] == [str(t) for t in told]


def test_a_step_for_a_game_that_is_over_is_dropped():
    submitted = []
    session = LegacySession("k", "K")
    session.enter(SimpleNamespace(game_id="g2", submit_step=lambda *args, **_: submitted.append(args)), 0)
    session.expected.append(("g1", 40))                        # the last, expired turn of game 1
    session.expected.append(("g2", 1))
    frame = SimpleNamespace(step=lambda: Step())
    session.take_step(frame, 1.0)                              # late: answers g1's turn 40
    assert submitted == []
    session.take_step(frame, 2.0)
    assert [args[1] for args in submitted] == [1]


def test_legacy_identity_follows_the_old_server_and_the_roster():
    key = legacy_key("193304baseline").decode()
    assert legacy_identity(key, None) == (key, "193304BASELINE")
    assert legacy_identity(key, {"193304Baseline": "Team 4"}) == ("193304Baseline", "Team 4")
    assert legacy_identity(key, {"other": "X"}) == ("193304BASELINE", "193304BASELINE")


async def test_a_legacy_port_in_use_is_named_in_the_error(make_server):
    first = await make_server(legacy_port=0)
    with pytest.raises(ValueError, match=rf"127.0.0.1:{first.legacy_port} for the legacy TCP port.*--legacy-port"):
        await make_server(legacy_port=first.legacy_port)

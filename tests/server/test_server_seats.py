"""Seats across connections: leaving while waiting, dropping mid-tournament, coming back, forfeits, kicks."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

from tests.server.conftest import ScriptedBot, bounded, url
from tests.server.support import Client, hello


async def until(condition, seconds: float = 10) -> None:
    """Wait (bounded) until ``condition()`` holds."""
    async def poll():
        while not condition():
            await asyncio.sleep(0.005)
    await bounded(poll(), seconds)


def results(server) -> list[dict]:
    return json.loads((server.folder / "results.json").read_text())["games"]


async def test_a_player_that_leaves_while_waiting_frees_its_seat(make_server):
    server = await make_server(players=2)
    leaver = await Client.open(url(server))
    await leaver.send(hello("leaver"))
    assert (await leaver.reply())["type"] == "welcome"
    await leaver.close()
    await until(lambda: not server.lobby.sessions)
    a, b = ScriptedBot(url(server), "a"), ScriptedBot(url(server), "b")
    tasks = [asyncio.create_task(bot.run()) for bot in (a, b)]
    standings = await bounded(server.run_tournament())
    await bounded(asyncio.gather(*tasks))
    assert {r.player for r in standings.rows()} == {"a", "b"}


async def test_the_tournament_starts_only_with_every_seat_still_taken(make_server):
    server = await make_server(players=2)
    run = asyncio.create_task(server.run_tournament())
    await asyncio.sleep(0)
    ghosts = [SimpleNamespace(closed=False) for _ in range(2)]
    seated = [server.lobby.admit(key, None, peer) for key, peer in zip(("g1", "g2"), ghosts)]  # type: ignore[arg-type]
    assert server.lobby.full.is_set()
    for session, peer in zip(seated, ghosts):      # both leave before the tournament task wakes up
        peer.closed = True
        server.lobby.leave(session, peer)          # type: ignore[arg-type]
    a, b = ScriptedBot(url(server), "a"), ScriptedBot(url(server), "b")
    tasks = [asyncio.create_task(bot.run()) for bot in (a, b)]
    standings = await bounded(run)
    await bounded(asyncio.gather(*tasks))
    assert {r.player for r in standings.rows()} == {"a", "b"} and standings.games_done == 1


async def test_a_player_that_drops_loses_that_game_and_plays_the_next_ones_when_back(make_server):
    server = await make_server(players=2, games_per_pairing=3, rejoin_wait_s=10)
    stayer = ScriptedBot(url(server), "stayer")
    stay = asyncio.create_task(stayer.run())
    run = asyncio.create_task(server.run_tournament())
    quitter = await Client.open(url(server))
    await quitter.send(hello("quitter"))
    await quitter.next("turn")                             # mid-game, on its move...
    await quitter.close()                                  # ...it drops
    await until(lambda: len(stayer.games_over) == 1)
    assert (stayer.games_over[0]["status"], stayer.games_over[0]["reason"]) == (4, "disconnect")
    await until(lambda: not server.lobby.session("quitter").connected)
    back = ScriptedBot(url(server), "quitter")             # the same key: the same seat
    standings = await bounded(asyncio.gather(run, back.run(), stay))
    assert len(back.games_over) == 2 and back.welcome["player"] == "quitter"
    assert [g["reason"] for g in results(server)] == ["disconnect", "goal", "goal"]
    assert standings[0].games_done == 3


async def test_a_player_not_back_in_time_forfeits_its_later_games(make_server):
    server = await make_server(players=2, games_per_pairing=3, rejoin_wait_s=0.1)
    stayer = ScriptedBot(url(server), "stayer")
    stay = asyncio.create_task(stayer.run())
    run = asyncio.create_task(server.run_tournament())
    quitter = await Client.open(url(server))
    await quitter.send(hello("quitter"))
    await quitter.next("turn")
    await quitter.close()
    await bounded(asyncio.gather(run, stay))
    assert [g["reason"] for g in results(server)] == ["disconnect", "forfeit", "forfeit"]
    assert all(g["winner"] == "stayer" and g["log_path"] is None for g in results(server)[1:])
    # the player that is there hears how each forfeited game counted
    assert [(g["reason"], g["result"]) for g in stayer.games_over] == [
        ("disconnect", "win"), ("forfeit", "win"), ("forfeit", "win")]


async def test_kick_after_timeouts_removes_a_bot_and_forfeits_its_remaining_games(make_server):
    server = await make_server(players=2, games_per_pairing=3, time_limit_ms=100, timeout_grace_s=0.01,
                               kick_after_timeouts=2)
    slow, fast = ScriptedBot(url(server), "slow", delay=0.25), ScriptedBot(url(server), "fast")
    tasks = [asyncio.create_task(bot.run()) for bot in (slow, fast)]
    await bounded(server.run_tournament())
    await bounded(asyncio.gather(*tasks))
    games = results(server)
    assert [g["reason"] for g in games] == ["forfeit"] * 3 and {g["winner"] for g in games} == {"fast"}
    assert games[0]["steps"] > 0 and [g["steps"] for g in games[1:]] == [0, 0]   # removed in game 1
    assert [g["result"] for g in slow.games_over] == ["loss"] * 3
    assert [g["result"] for g in fast.games_over] == ["win"] * 3


async def test_a_timeout_that_is_the_third_violation_counts_towards_the_kick(make_server):
    server = await make_server(players=2, games_per_pairing=2, time_limit_ms=80, timeout_grace_s=0.01,
                               kick_after_timeouts=3)
    slow, fast = ScriptedBot(url(server), "slow", delay=0.2), ScriptedBot(url(server), "fast")
    tasks = [asyncio.create_task(bot.run()) for bot in (slow, fast)]
    await bounded(server.run_tournament())
    await bounded(asyncio.gather(*tasks))
    first, second = results(server)
    assert first["reason"] == "violations" and first["violations"] == ([3, 0] if first["white"] == "slow" else [0, 3])
    # three timeouts in game 1 (the last one recorded as RulesBreaker): removed before game 2 starts
    assert (second["reason"], second["steps"], second["winner"]) == ("forfeit", 0, "fast")
    assert sum(f["type"] == "game_start" for f in slow.frames) == 1


async def test_a_removed_bot_stays_removed_after_a_resume(make_server, tmp_path):
    data = tmp_path / "kick"
    server = await make_server(players=4, time_limit_ms=100, timeout_grace_s=0.01, kick_after_timeouts=2,
                               data_dir=data, tournament_name="cup")
    # Everybody thinks 0.1 s a step (the other game of round 1 outlasts the removal); "slow" times out.
    bots = [ScriptedBot(url(server), "slow", delay=0.25)] + [ScriptedBot(url(server), k, delay=0.05)
                                                             for k in ("b", "c", "d")]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    run = asyncio.create_task(server.run_tournament())
    while server.runner is None or not server.runner.sessions["slow"].kicked:
        await bounded(asyncio.sleep(0.01))
    await bounded(server.results.flush())           # the removal is in the database...
    assert len(server.runner.finished) < 2          # ...and the server dies while round 1 is still played
    run.cancel()
    for task in tasks:
        task.cancel()
    await bounded(asyncio.gather(run, *tasks, return_exceptions=True), 30)
    await server.close()
    again = await make_server(players=4, data_dir=data, resume=True)
    bots = [ScriptedBot(url(again), key) for key in ("slow", "b", "c", "d")]   # now "slow" is quick
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    await bounded(again.run_tournament())
    await bounded(asyncio.gather(*tasks))
    slow_games = [g for g in results(again) if "slow" in (g["white"], g["black"])]
    assert len(slow_games) == 3 and all(g["reason"] == "forfeit" and g["winner"] != "slow" for g in slow_games)
    assert not any(f["type"] == "game_start" for f in bots[0].frames)   # it never plays again


async def test_a_name_with_a_comma_plays_with_a_semicolon_and_is_told_so(make_server):
    server = await make_server()
    bots = [ScriptedBot(url(server), "k1", name="Smith, J"), ScriptedBot(url(server), "k2")]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    await bounded(server.run_tournament())
    await bounded(asyncio.gather(*tasks))
    assert bots[0].welcome["player"] == "Smith; J"
    log = next(server.folder.glob("*_vs_*.csv")).read_text(encoding="utf-8")
    rows = [line for line in log.splitlines() if line.startswith("Smith")]
    assert rows and all(line.count(",") == log.splitlines()[0].count(",") for line in rows)


async def test_a_player_gone_for_good_forfeits_its_later_games_without_waiting_again(make_server, monkeypatch):
    from server.seats.players import PlayerSession

    waits: list[str] = []
    real_wait = PlayerSession.wait_present

    async def counted(self, timeout):
        waits.append(self.name)
        return await real_wait(self, timeout)

    monkeypatch.setattr(PlayerSession, "wait_present", counted)
    server = await make_server(players=5, rejoin_wait_s=0.3)
    stayers = [ScriptedBot(url(server), f"s{n}") for n in range(4)]
    leaver = ScriptedBot(url(server), "gone")
    tasks = [asyncio.create_task(bot.run()) for bot in stayers]
    tasks.append(asyncio.create_task(leaver.run(stop_after_games=1)))   # plays one game, then leaves for good
    standings = await bounded(server.run_tournament(), 30)
    await bounded(asyncio.gather(*tasks))
    assert standings.games_done == 10
    forfeits = [g for bot in stayers for g in bot.games_over if g["reason"] == "forfeit"]
    assert len(forfeits) >= 2                          # its later games (one may race its leaving: a disconnect)
    assert [name for name in waits if name == "gone"] == ["gone"]   # waited for once, not once per game

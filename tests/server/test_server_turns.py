"""Who may act when: a player acts only in its own game, on its own turn; a debugging server has no clock."""

from __future__ import annotations

import asyncio

from shared.gamelog import parse_log
from tests.server.conftest import ScriptedBot, bounded, url
from tests.server.support import Client, hello


async def seat_clients(server):
    """Two hand-driven players and a spectator watching everything; returns (white, black, spectator, game)."""
    spectator = await Client.open(url(server))
    await spectator.send(hello("eye", "spectator"))
    await spectator.reply()
    await spectator.send({"type": "watch", "game": "*"})
    players = []
    for key in ("p", "q"):
        client = await Client.open(url(server))
        await client.send(hello(key))
        assert (await client.reply())["type"] == "welcome"
        players.append(client)
    starts = [await client.next("game_start") for client in players]
    white, black = players if starts[0]["seat"] == 0 else players[::-1]
    return white, black, spectator, starts[0]["game"]


async def test_steps_out_of_place_are_refused_and_change_nothing(make_server):
    server = await make_server(players=2, time_limit_ms=30_000)
    run = asyncio.create_task(server.run_tournament())
    white, black, spectator, game = await seat_clients(server)
    first = await white.next("turn")
    assert (first["turn"], first["my_loc"]) == (0, [5, 1])

    await black.send({"type": "step", "game": game, "turn": 0, "move": [5, 8]})        # not its turn
    assert (await black.reply())["code"] == "not_your_turn"
    await white.send({"type": "step", "game": "t9-r1-p1-g1", "turn": 0, "move": [5, 2]})  # not its game
    assert (await white.reply())["code"] == "wrong_game"
    await white.send({"type": "step", "game": game, "turn": 6, "move": [5, 2]})        # not this turn
    assert (await white.reply())["code"] == "stale_turn"
    await spectator.send({"type": "step", "game": game, "turn": 0, "move": [5, 2]})    # not a player
    assert (await spectator.reply())["code"] == "not_a_player"
    await black.send({"type": "watch", "game": "*"})
    assert (await black.reply())["code"] == "not_a_spectator"

    await white.send({"type": "step", "game": game, "turn": 0, "move": [5, 2]})
    turn = await black.next("turn")                       # the board shows the one real step only
    assert (turn["turn"], turn["status"], turn["my_loc"], turn["enemy_loc"]) == (1, 0, [5, 9], [5, 2])
    await white.send({"type": "step", "game": game, "turn": 0, "move": [5, 3]})        # its turn is over
    assert (await white.reply())["code"] == "stale_turn"
    await black.send({"type": "step", "game": game, "turn": 1, "move": [5, 8]})
    turn = await white.next("turn")
    assert (turn["turn"], turn["status"], turn["my_loc"], turn["enemy_loc"]) == (2, 0, [5, 2], [5, 8])

    await black.close()                                   # end the game: the other player wins
    over = await white.next("game_over")
    assert (over["status"], over["reason"]) == (4, "disconnect")
    await bounded(run)
    log = parse_log(open(over["log"], encoding="utf-8").read())
    assert [(s.status, s.step.new_loc.y) for s in log.steps] == [(0, 2), (0, 8)]
    await spectator.closed()
    updates = [f for f in spectator.frames if f["type"] == "game_update"]
    assert [(u["notation"], u["over"]) for u in updates] == [("e2", False), ("e8", False), ("e8", True)]
    assert updates[-1]["board"] == updates[-2]["board"]   # no step ended it: its last board again, marked over


async def test_a_late_step_is_a_timeout_charged_the_limit_and_never_applied(make_server):
    server = await make_server(players=2, time_limit_ms=60, timeout_grace_s=0.05)
    run = asyncio.create_task(server.run_tournament())
    white, black, spectator, game = await seat_clients(server)
    for turn in (0, 2, 4):                       # white never answers in time: three timeouts lose
        frame = await white.next("turn")
        assert frame["turn"] == turn and frame["status"] == (0 if turn == 0 else 3)
        assert frame["judgement"] == (None if turn == 0 else {
            "status": 3, "cause": "late", "reason": "no answer within the limit of 60 ms", "thinking_ms": 60})
        if turn:
            await white.send({"type": "step", "game": game, "turn": turn - 2, "move": [5, 2]})  # far too late
            assert (await white.reply())["code"] == "stale_turn"
        if turn == 4:
            break                                # the third timeout ends the game
        step = await black.next("turn")
        await black.send({"type": "step", "game": game, "turn": step["turn"], "move": None,
                          "wall": [[0, 4 + turn // 2], [2, 4 + turn // 2]]})
    over = await white.next("game_over")
    assert (over["result"], over["reason"], over["status"]) == ("loss", "violations", 5)
    assert over["judgement"]["cause"] == "late"          # the losing timeout, which no turn could tell
    # each timeout costs exactly the limit: not the grace, not the server's lag
    assert over["thinking_ms"][0] == 3 * 60
    await bounded(run)
    log = parse_log(open(over["log"], encoding="utf-8").read())
    assert [s.thinking_ms for s in log.steps if s.status in (3, 5)] == [60, 60, 60]
    assert {s.reason for s in log.steps if s.status in (3, 5)} == {"no answer within the limit of 60 ms"}
    await spectator.close()


async def test_a_bot_that_plays_a5_from_e1_is_told_why_and_the_log_keeps_the_reason(make_server):
    server = await make_server(players=2, time_limit_ms=30_000)
    run = asyncio.create_task(server.run_tournament())
    white, black, spectator, game = await seat_clients(server)
    assert (await white.next("turn"))["judgement"] is None                    # the first turn
    await white.send({"type": "step", "game": game, "turn": 0, "move": [1, 5]})            # a5 from e1
    turn = await black.next("turn")
    assert turn["judgement"] is None                                          # black's own step: none yet
    await black.send({"type": "step", "game": game, "turn": 1, "move": [5, 8]})
    turn = await white.next("turn")
    assert turn["status"] == 7
    judgement = turn["judgement"]
    assert (judgement["status"], judgement["cause"], judgement["reason"]) == (
        7, "not_reachable", "a5 is not reachable in one step from e1")
    assert isinstance(judgement["thinking_ms"], int) and judgement["thinking_ms"] >= 0
    await white.send({"type": "step", "game": game, "turn": 2, "move": None, "wall": None})  # empty: violation 2
    await black.send({"type": "step", "game": game, "turn": (await black.next("turn"))["turn"], "move": [5, 7]})
    turn = await white.next("turn")
    assert (turn["judgement"]["cause"], turn["judgement"]["reason"]) == (
        "empty_step", "empty step: neither a move nor a wall")
    await white.send({"type": "step", "game": game, "turn": 4, "move": None, "wall": [[3, 0], [5, 0]]})  # 3rd
    over = await white.next("game_over")
    assert (over["status"], over["reason"]) == (5, "violations")
    assert (over["judgement"]["status"], over["judgement"]["cause"]) == (7, "wall_on_border")
    assert (await black.next("game_over"))["judgement"] is None
    await bounded(run)
    text = open(over["log"], encoding="utf-8").read()
    assert ",,,a5 is not reachable in one step from e1\n" in text        # the reason column, after the others
    log = parse_log(text)
    assert [(s.status, s.reason) for s in log.steps] == [
        (7, "a5 is not reachable in one step from e1"), (0, ""), (7, "empty step: neither a move nor a wall"),
        (0, ""), (5, "wall ((3,0),(5,0)) lies on the board's border")]
    await spectator.close()


async def test_a_debugging_server_has_no_time_limit(make_server):
    server = await make_server(players=2, debug=True, time_limit_ms=20, timeout_grace_s=0.0)
    slow, quick = ScriptedBot(url(server), "slow", delay=0.06), ScriptedBot(url(server), "quick")
    tasks = [asyncio.create_task(bot.run()) for bot in (slow, quick)]
    await bounded(server.run_tournament())
    await bounded(asyncio.gather(*tasks))
    assert slow.welcome["rules"]["time_limit_ms"] is None
    assert {f["time_limit_ms"] for f in slow.frames if f["type"] == "turn"} == {None}
    assert set(slow.statuses) == {0} and slow.errors == []          # never charged a timeout
    assert slow.games_over[0]["reason"] == "goal"

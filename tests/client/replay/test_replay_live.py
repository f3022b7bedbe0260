"""Live mode against a real server on 127.0.0.1 port 0: the source, the screen and --live --print."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable

import pytest

from client.replay import LiveSource, LiveSourceError, load_game
from client.replay.app import ReplayApp
from client.replay.cli import main
from tests.server.conftest import ScriptedBot, bounded, url


async def until(condition: Callable[[], bool], what: str, *, tries: int = 600, pause=asyncio.sleep) -> None:
    """Wait, boundedly, for ``condition``."""
    for _ in range(tries):
        if condition():
            return
        await pause(0.02)
    raise AssertionError(f"gave up waiting for {what}")


async def tournament(server, players: int, *, delay: float = 0.0) -> list[ScriptedBot]:
    bots = [ScriptedBot(url(server), f"bot{i}", delay=delay) for i in range(players)]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    await bounded(server.run_tournament())
    await bounded(asyncio.gather(*tasks))
    return bots


async def test_the_live_source_follows_every_game_to_the_positions_of_its_log(make_server):
    server = await make_server(players=4)
    source = LiveSource(url(server))
    changes: list[str | None] = []
    watcher = asyncio.create_task(source.follow(changes.append))
    await until(lambda: source.watching, "the spectator to be watching")
    await tournament(server, 4)
    await bounded(watcher)
    assert source.over and source.tournament == server.folder.name and len(source.standings) == 4
    assert len(source.games) == 6 and all(game.over and game.live for game in source.games.values())
    by_players = {}
    for path in server.folder.glob("*_vs_*.csv"):
        game = load_game(path)
        by_players[game.players] = game
    for game in source.games.values():
        logged = by_players[game.players]
        assert [f.position for f in game.frames] == [f.position for f in logged.frames]
        assert [f.notation for f in game.frames[1:]] == [f.notation for f in logged.frames[1:]]
        assert (game.winner, game.reason) == (logged.winner, logged.reason)
        assert game.frames[-1].clocks_ms == logged.frames[-1].clocks_ms
    assert None in changes and set(changes) - {None} == set(source.games)


async def test_the_screen_watches_live_games_and_switches_between_them(make_server):
    server = await make_server(players=4)
    app = ReplayApp(LiveSource(url(server)))
    async with app.run_test(size=(110, 32)) as pilot:
        assert "waiting for games on ws://127.0.0.1:" in str(app.query_one("#title").content)
        await until(lambda: app.source.watching, "the spectator to be watching", pause=pilot.pause)
        bots = asyncio.create_task(tournament(server, 4, delay=0.01))
        await until(lambda: len(app.games) >= 2, "two games in progress", pause=pilot.pause)
        first = app.game.key
        assert "game 1/" in str(app.query_one("#title").content)
        await pilot.press("right_square_bracket")
        assert app.game.key != first
        await pilot.press("left_square_bracket")
        assert app.game.key == first
        await pilot.press("home")                  # stop following this game: it stays on step 0
        await bounded(bots)
        await until(lambda: "over" in app.source_state, "the end of the tournament", pause=pilot.pause)
        assert len(app.games) == 6 and app.controller.index == 0
        assert "the tournament is over" in str(app.query_one("#bar").content)
        await pilot.press("end")
        assert app.controller.at_end and app.game.frames[-1].over
        assert "won (goal)" in str(app.query_one("#info").content)
        await pilot.press("right_square_bracket")  # a game first seen while the screen was on another
        assert app.controller.at_end               # ... was followed to its end
        await pilot.press("q")


async def test_live_print_writes_a_line_per_step(make_server, capsys):
    server = await make_server(players=2)
    printer = asyncio.create_task(asyncio.to_thread(main, ["--live", url(server), "--print"]))
    await until(lambda: any("*" in games for games in server.connections.spectators.values()), "the spectator's watch")
    await tournament(server, 2)
    assert await bounded(printer) == 0
    out = capsys.readouterr().out.splitlines()
    steps = [line for line in out if " step " in line and line.startswith("t")]
    assert len(steps) == 15 and steps[0].split(": ", 1)[1].startswith("bot")
    assert steps[-1].endswith("won (goal)") and "tournament" in out[-3] and "over" in out[-3]
    assert out[-2].lstrip().startswith("1. bot")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_no_server_is_one_line_and_exit_1(capsys):
    port = free_port()
    with pytest.raises(LiveSourceError, match=f"cannot watch ws://127.0.0.1:{port}/"):
        await LiveSource(f"ws://127.0.0.1:{port}/").follow(lambda key: None)
    assert await asyncio.to_thread(main, ["--live", f"ws://127.0.0.1:{port}/", "--print"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"quoridor-replay: cannot watch ws://127.0.0.1:{port}/")


async def test_the_screen_says_when_the_server_cannot_be_watched():
    app = ReplayApp(LiveSource(f"ws://127.0.0.1:{free_port()}/"))
    async with app.run_test(size=(110, 32)) as pilot:
        await until(lambda: "cannot watch" in app.source_state, "the error", pause=pilot.pause)
        assert "cannot watch" in str(app.query_one("#bar").content)

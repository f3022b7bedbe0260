"""``ArenaServer``, the composition root: what it builds for a tournament, a ladder and ``-n 0``; start and close."""

from __future__ import annotations

import asyncio
import socket
import threading

import pytest

from server.app import ArenaServer, Stage
from server.ladder.runner import LadderLobby
from server.seats.lobby import Lobby
from server.router import Router
from server.settings import ServerSettings
from tests.server.conftest import ScriptedBot, bounded, url
from tests.server.support import Client, Recorder, hello, play


def _threads() -> set[str]:
    return {thread.name for thread in threading.enumerate() if thread.name.startswith("quoridor-")}


async def test_a_tournament_server_builds_a_lobby_a_router_and_the_pages_lobby(make_server):
    server = await make_server(players=3)
    assert isinstance(server.router, Router) and server.router.lobby() is server.lobby
    assert type(server.lobby) is Lobby and server.lobby.seats == 3
    assert server.results is not None and not server.results.closed
    assert server.port > 0 and server.legacy_port is None and server.legacy_server is None
    assert server.ladder is None and server.runner is None and server.stage is Stage.WAITING
    assert server.web.info is not None          # the pages show the lobby from the first second


async def test_the_start_says_where_to_connect_and_watch(tmp_path):
    reporter = Recorder()
    async with ArenaServer(ServerSettings(port=0, data_dir=tmp_path, players=2), reporter) as server:
        lines = reporter.messages()
        assert f"watch: http://127.0.0.1:{server.port}/" in lines
        assert any(line.startswith(f"listening on ws://127.0.0.1:{server.port}/ — waiting for 2 players")
                   for line in lines)
        assert reporter.of("players_waiting") == [([], 2, None)]


async def test_a_ladder_server_builds_the_ladders_lobby_and_no_tournament(make_server):
    server = await make_server(ladder=True)
    assert type(server.lobby) is LadderLobby and server.router.lobby() is server.lobby
    assert server.web.info is None and server.tournament_id is None


async def test_a_puzzle_server_refuses_players_and_admits_spectators_and_rooms(make_server):
    server = await make_server(players=0)
    assert server.settings.puzzles_only and server.web.info is None     # no finished tournament to show
    player = await Client.open(url(server))
    await player.send(hello("k1"))
    assert (await player.next("error"))["code"] == "room_unavailable"
    assert await player.closed() == 1008
    room = await Client.open(url(server))
    await room.send(hello("k2", room="sokoban"))
    assert (await room.next("welcome"))["player"] == "k2"
    await room.close()


async def test_a_legacy_port_is_opened_when_asked(make_server):
    server = await make_server(legacy_port=0)
    assert server.legacy_port is not None and server.legacy_port != server.port
    reader, writer = await bounded(asyncio.open_connection("127.0.0.1", server.legacy_port), 5)
    writer.close()


async def test_close_stops_listening_closes_clients_and_leaves_nothing_running(tmp_path):
    before = asyncio.all_tasks()
    server = ArenaServer(ServerSettings(port=0, data_dir=tmp_path, legacy_port=0))
    await server.start()
    port, legacy = server.port, server.legacy_port
    spectator = await Client.open(url(server))
    await spectator.send(hello("s", role="spectator"))
    await spectator.next("welcome")
    await bounded(server.close(), 10)
    assert await spectator.closed() == 1001
    await bounded(server.close(), 10)           # idempotent
    assert server.results is not None and server.results.closed
    assert asyncio.all_tasks() - before - {asyncio.current_task()} == set()
    assert not _threads()
    for number in (port, legacy):
        with pytest.raises(OSError), socket.create_connection(("127.0.0.1", number), timeout=2):
            pass


async def test_a_port_in_use_is_one_line_and_the_half_started_server_is_closed(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        number = taken.getsockname()[1]
        server = ArenaServer(ServerSettings(port=number, data_dir=tmp_path))
        with pytest.raises(ValueError, match=f"cannot listen on 127.0.0.1:{number} for websockets") as caught:
            await server.start()
    assert "\n" not in str(caught.value)
    assert server.results is not None and server.results.closed and not _threads()


async def test_a_resume_without_a_stored_tournament_says_so(tmp_path):
    server = ArenaServer(ServerSettings(port=0, data_dir=tmp_path, resume=True))
    with pytest.raises(ValueError, match="--resume: no unfinished tournament"):
        await server.start()
    assert server.server is None and not _threads()


async def test_a_match_played_through_the_server_ends_finished_with_its_runner(make_server):
    server = await make_server()
    bots = [ScriptedBot(url(server), "a"), ScriptedBot(url(server), "b")]
    standings = await play(server, bots)
    assert server.stage is Stage.FINISHED and server.done.is_set()
    assert server.runner is not None and server.runner.standings is standings
    assert all(len(bot.games_over) == 1 for bot in bots)

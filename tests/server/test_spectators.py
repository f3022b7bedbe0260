"""Spectators: watching one game sees only that game; everyone who said hello hears the standings."""

from __future__ import annotations

import asyncio

import pytest
from websockets.client import ClientProtocol
from websockets.frames import Frame
from websockets.uri import parse_uri

from server.net.connection import Encoded, Peer
from server.net.connections import GATHER_S, HOLD_S, QUIET_S, Connections
from server.settings import Limits
from server.games.updates import standing_rows
from server.net.wire import LinkSettings, WebSocketLink
from shared.protocol import BoardState, ErrorMessage, GameUpdate, GameUpdates, dump, parse_server
from shared.tournament import Standings
from tests.server.conftest import ScriptedBot, bounded, url
from tests.server.support import Client, GatedBot, hello


async def test_a_spectator_of_one_game_sees_only_it_and_every_standings(make_server):
    server = await make_server(players=3, concurrency=1, standings_interval_s=0)
    eye = await Client.open(url(server))
    await eye.send(hello("eye", "spectator"))
    assert (await eye.reply())["type"] == "welcome"
    await eye.send({"type": "watch", "game": "t1-r2-p2-g1"})      # a game of the second round

    async def watch() -> list[dict]:
        frames = []
        while not frames or frames[-1]["type"] != "tournament_over":
            frames.append(await eye.next(timeout=30))
        return frames

    watching = asyncio.create_task(watch())
    bots = [ScriptedBot(url(server), key) for key in ("a", "b", "c")]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    await bounded(server.run_tournament())
    await bounded(asyncio.gather(*tasks))
    frames = await bounded(watching)
    updates = [f for f in frames if f["type"] == "game_update"]
    assert updates and {u["game"] for u in updates} == {"t1-r2-p2-g1"} and updates[-1]["over"]
    standings = [f for f in frames if f["type"] == "standings"]
    assert [s["games_done"] for s in standings] == [1, 2, 3]
    assert frames[-1]["rows"][0]["games"] == 2
    await eye.close()


async def test_a_spectator_can_never_act(make_server):
    server = await make_server()
    eye = await Client.open(url(server))
    await eye.send(hello("eye", "spectator"))
    await eye.reply()
    bots = [ScriptedBot(url(server), key) for key in ("a", "b")]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    tournament = asyncio.create_task(server.run_tournament())
    await eye.send({"type": "step", "game": "t1-r1-p1-g1", "turn": 0, "move": [5, 2], "wall": None})
    assert (await eye.reply())["code"] == "not_a_player"
    await bounded(tournament)
    await bounded(asyncio.gather(*tasks))
    assert all(bot.errors == [] for bot in bots)
    assert all(status == 0 for bot in bots for status in bot.statuses)
    await eye.close()


async def test_players_hear_the_standings_only_between_their_games(make_server):
    # Two games at once in each round: the end of one must not send the table into the other.
    server = await make_server(players=4, games_per_pairing=2, standings_interval_s=0)
    bots = [ScriptedBot(url(server), key, delay=0.002 * n) for n, key in enumerate(("a", "b", "c", "d"))]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    await bounded(server.run_tournament())
    await bounded(asyncio.gather(*tasks))
    heard = 0
    for bot in bots:
        in_game = False
        for frame in bot.frames:
            if frame["type"] == "game_start":
                in_game = True
            elif frame["type"] == "game_over":
                in_game = False
            elif frame["type"] == "standings":
                assert not in_game, f"{bot.key} heard the standings during a game"
                heard += 1
    assert heard > 0                                  # and they do hear them, between games


async def test_the_table_is_built_only_when_someone_can_hear_it(make_server, monkeypatch):
    # Every connection is a player in a game, so the broadcast reaches nobody: building the table
    # (a row model per player, serialised) would only stall the clocks. A spectator's hello builds it.
    server = await make_server(players=2, standings_interval_s=0)
    built: list[Standings] = []

    def counted(standings: Standings) -> list:
        built.append(standings)
        return standing_rows(standings)

    monkeypatch.setattr("server.web.feed.standing_rows", counted)
    gate = asyncio.Event()
    bots = [GatedBot(url(server), key, gate, free_steps=2) for key in ("a", "b")]   # held mid-game
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    tournament = asyncio.create_task(server.run_tournament())

    async def both_playing() -> None:
        while server.runner is None or not server.runner.running or min(b.steps_sent for b in bots) < 2:
            await asyncio.sleep(0.01)

    await bounded(both_playing(), 10)
    table = Standings(["a", "b"])
    await server.feed.standings(table)
    assert built == []
    eye = await Client.open(url(server))
    await eye.send(hello("eye", "spectator"))
    assert (await eye.reply())["type"] == "welcome"
    assert [row["player"] for row in (await eye.next("standings"))["rows"]] == ["a", "b"]
    assert built == [table]
    gate.set()
    await bounded(tournament)
    await bounded(asyncio.gather(*tasks))
    await eye.close()


# -- one write per spectator and burst ------------------------------------------------------------
class _Transport:
    """What a WebSocketLink needs of an asyncio transport, keeping what is written (and never buffering it)."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []

    def get_extra_info(self, name: str, default=None):
        return ("127.0.0.1", 50000) if name == "peername" else default

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        pass

    def get_write_buffer_size(self) -> int:
        return 0

    def write(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def is_closing(self) -> bool:
        return False

    def close(self) -> None:
        pass

    def abort(self) -> None:
        pass


class _Handler:
    """The router's part for one link: a Peer, told when its client reads again."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits

    def opened(self, link: WebSocketLink) -> bool:
        link.peer = Peer(link, self.limits)
        return True

    def request(self, link: WebSocketLink, request):
        return None

    def ready(self, link: WebSocketLink) -> None:
        pass

    def received(self, link: WebSocketLink, payload: bytes, text: bool, arrived: float) -> None:
        pass

    def drained(self, link: WebSocketLink) -> None:
        link.peer.drained()

    def closed(self, link: WebSocketLink) -> None:
        pass


def _spectator_link(high_water: int = 64 * 1024) -> tuple[WebSocketLink, _Transport, ClientProtocol]:
    """A server link after a real websocket handshake, over a transport that keeps its writes, and its client."""
    limits = Limits()
    link = WebSocketLink(_Handler(limits), LinkSettings(high_water=high_water))
    transport = _Transport()
    link.connection_made(transport)
    client = ClientProtocol(parse_uri("ws://127.0.0.1/"))
    client.send_request(client.connect())
    link.data_received(b"".join(client.data_to_send()))
    client.receive_data(b"".join(transport.writes))
    client.events_received()
    transport.writes.clear()
    return link, transport, client


def _texts(client: ClientProtocol, data: bytes) -> list[str]:
    client.receive_data(data)
    return [event.data.decode() for event in client.events_received() if isinstance(event, Frame)]


def _update(game: str, n: int) -> ErrorMessage:
    return ErrorMessage(code="rate_limited", message=f"{game} step {n}")


def _watching(link: WebSocketLink, watching: str) -> Connections:
    """Connections where the link's peer watches every game (``"*"``: it reads the feed) or, by their ids
    (``"ids"``), the games g0 to g3."""
    conns = Connections(Limits())
    conns.add(link.peer)
    conns.spectate(link.peer)
    for game in ["*"] if watching == "*" else ["g0", "g1", "g2", "g3"]:
        conns.watch(link.peer, game)
    return conns


def _publish(conns: Connections, game: str, message) -> None:
    conns.publish(game, Encoded.of(message))


WATCHING = pytest.mark.parametrize("watching", ["ids", "*"])


async def _written() -> None:
    """Wait out the lull the updates wait for (``QUIET_S``, or ``GATHER_S`` after a drain) and a drain's passes."""
    await asyncio.sleep(2 * max(QUIET_S, GATHER_S))
    for _ in range(5):
        await asyncio.sleep(0)


@WATCHING
async def test_a_spectators_updates_of_one_burst_go_out_in_one_write_in_order(watching):
    link, transport, client = _spectator_link()
    conns = _watching(link, watching)
    for game in ("g1", "g2", "g3"):                         # judged together (the games of a round step together)
        _publish(conns, game, _update(game, 1))
    await _written()
    assert len(transport.writes) == 1
    assert _texts(client, transport.writes[0]) == [dump(_update(game, 1)) for game in ("g1", "g2", "g3")]
    link.connection_lost(None)


@WATCHING
async def test_a_spectator_that_is_behind_keeps_only_the_newest_update_of_each_game(watching):
    link, transport, client = _spectator_link()
    conns = _watching(link, watching)
    link.pause_writing()                                     # the client stopped reading
    for n in range(5):
        for game in ("g1", "g2"):
            _publish(conns, game, _update(game, n))
        await asyncio.sleep(GATHER_S * 2)
    assert transport.writes == [] and link.peer.behind == 2
    link.resume_writing()                                    # it reads again: the newest of each game
    assert _texts(client, b"".join(transport.writes)) == [dump(_update("g1", 4)), dump(_update("g2", 4))]
    link.connection_lost(None)


@WATCHING
async def test_a_burst_never_takes_a_spectator_past_its_high_water_mark_in_one_write(watching):
    link, transport, client = _spectator_link(high_water=1024)
    conns = _watching(link, watching)
    big = [ErrorMessage(code="rate_limited", message=f"{n}" + "x" * 600) for n in range(3)]
    for n, message in enumerate(big):
        _publish(conns, f"g{n}", message)
    await _written()
    assert all(len(data) <= 1024 for data in transport.writes) and len(transport.writes) == 3
    assert _texts(client, b"".join(transport.writes)) == [dump(message) for message in big]   # still in order
    link.connection_lost(None)


@WATCHING
async def test_a_spectator_that_keeps_up_gets_every_step_of_a_fast_game(watching):
    link, transport, client = _spectator_link()
    conns = _watching(link, watching)
    for n in range(10):                                      # a step per pass of the loop, well within QUIET_S
        _publish(conns, "g1", _update("g1", n))
        await asyncio.sleep(0)
    await _written()
    assert _texts(client, b"".join(transport.writes)) == [dump(_update("g1", n)) for n in range(10)]
    assert len(transport.writes) < 10                        # and they shared writes
    link.connection_lost(None)


@WATCHING
async def test_steps_that_keep_coming_are_written_in_parts_not_held_until_they_stop(watching):
    link, transport, client = _spectator_link()
    conns = _watching(link, watching)
    written_while_coming = 0
    for n in range(int(8 * HOLD_S / (QUIET_S / 4))):        # a step every quarter of QUIET_S: never a lull
        _publish(conns, "g1", _update("g1", n))
        await asyncio.sleep(QUIET_S / 4)
        written_while_coming = len(transport.writes)
    await _written()
    assert written_while_coming >= 2                         # each waited at most HOLD_S, not for the end
    assert _texts(client, b"".join(transport.writes)) == [dump(_update("g1", k)) for k in range(n + 1)]
    link.connection_lost(None)


def _game_update(game: str, turn: int) -> GameUpdate:
    return GameUpdate(game=game, players=("a", "b"), turn=turn, seat=turn % 2, move=(5, 2), wall=None,
                      notation="e2", status=0, clocks_ms=(turn, 0),
                      board=BoardState(pawns=((5, 2), (5, 9)), walls=[], walls_left=(10, 10)))


@WATCHING
async def test_a_spectator_that_watches_with_batch_gets_a_bursts_updates_as_one_game_updates_frame(watching):
    link, transport, client = _spectator_link()
    link.peer.batch_updates = True                           # it watched with "batch": true
    conns = _watching(link, watching)
    updates = [_game_update(game, 3) for game in ("g1", "g2", "g3")]
    for update in updates:
        _publish(conns, update.game, update)
    await _written()
    (frame,) = _texts(client, b"".join(transport.writes))
    batch = parse_server(frame)
    assert isinstance(batch, GameUpdates) and batch.updates == updates    # the same updates, in order
    link.connection_lost(None)


async def test_the_pages_watch_with_batch_and_a_server_answers_in_game_updates_frames(make_server):
    server = await make_server(players=2, concurrency=1, standings_interval_s=0)
    eye = await Client.open(url(server))
    await eye.send(hello("eye", "spectator"))
    assert (await eye.reply())["type"] == "welcome"
    await eye.send({"type": "watch", "game": "*", "batch": True})
    bots = [ScriptedBot(url(server), key) for key in ("a", "b")]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    frames = []

    async def watch() -> None:
        while not frames or frames[-1]["type"] != "tournament_over":
            frames.append(await eye.next(timeout=30))

    watching = asyncio.create_task(watch())
    await bounded(server.run_tournament())
    await bounded(asyncio.gather(*tasks))
    await bounded(watching)
    updates = [u for f in frames if f["type"] == "game_updates" for u in f["updates"]]
    updates += [f for f in frames if f["type"] == "game_update"]
    # Every step reaches it (a reader that keeps up), whether it came alone or in a batch.
    assert sorted(u["turn"] for u in updates) == list(range(len(updates))) and any(u["over"] for u in updates)
    assert all(u["type"] == "game_update" for u in updates)


async def test_a_game_a_bot_left_goes_out_to_the_spectators_as_over(make_server):
    # No step ends such a game: without a last update marked over, the pages kept its board among the games in
    # progress, and TV could follow the dead game for the rest of the tournament.
    server = await make_server(players=2, games_per_pairing=1)
    eye = await Client.open(url(server))
    await eye.send(hello("eye", "spectator"))
    assert (await eye.reply())["type"] == "welcome"
    await eye.send({"type": "watch", "game": "*"})
    leaver = GatedBot(url(server), "a", asyncio.Event(), free_steps=2)      # two steps, then it waits for ever
    playing = [asyncio.create_task(leaver.run()), asyncio.create_task(ScriptedBot(url(server), "b").run())]
    tournament = asyncio.create_task(server.run_tournament())
    updates: list[dict] = []
    while len(updates) < 4:                    # two steps each: a then waits at its gate, mid-game
        updates.append(await eye.next("game_update", skip=frozenset({"standings", "tournament_info"}), timeout=10))
    playing[0].cancel()                        # a leaves mid-game
    frames = []
    while not frames or frames[-1]["type"] != "tournament_over":
        frames.append(await eye.next(timeout=10))
    await bounded(tournament)
    await bounded(asyncio.gather(*playing, return_exceptions=True))
    seen = updates + [f for f in frames if f["type"] == "game_update"]
    assert seen[-1]["over"] and seen[-1]["game"] == updates[0]["game"] and not any(u["over"] for u in seen[:-1])
    assert seen[-1]["board"] == seen[-2]["board"]              # the board as the game was left: its last step
    assert frames[-1]["rows"][0]["player"] == "b"
    await eye.close()

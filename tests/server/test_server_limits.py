"""Abuse limits and the hello handshake: rates, frame sizes, connection counts, port probes, hello rules."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.exceptions import ConnectionClosed

from server.net.connection import CLOSE_POLICY, Peer
from server.net.connections import Connections
from server.router import Router
from server.seats.lobby import Lobby
from server.settings import Limits, ServerSettings
from shared.protocol import ErrorMessage
from tests.clocks import TickingClock, timers_due_within
from tests.server.conftest import ScriptedBot, bounded, url
from tests.server.support import Client, hello, play


async def spectator(server) -> Client:
    client = await Client.open(url(server))
    await client.send(hello("eye", "spectator"))
    assert (await client.reply())["type"] == "welcome"
    return client


# -- rates -----------------------------------------------------------------------------------------

async def test_a_flood_is_rate_limited_then_closed(make_server):
    server = await make_server(limits=Limits(messages_per_second=0.001, burst=3, strikes_to_close=4))
    client = await spectator(server)                           # the hello took one token
    for _ in range(12):
        await client.send({"type": "watch", "game": "*"})
    code = await client.closed()
    errors = [f for f in client.frames if f["type"] == "error"]
    assert errors and {e["code"] for e in errors} == {"rate_limited"}
    assert len(errors) == 4 and code is not None               # closed on the 4th strike in a row


async def test_a_flood_between_accepted_frames_is_closed_all_the_same():
    # One token every 50 ms: of each pair that arrives 60 ms after the one before, the first is taken and the
    # second refused. The arrival stamps are on the router's clock (stopped at 0: only the stamps move).
    settings = ServerSettings(data_dir="unused", limits=Limits(messages_per_second=20, burst=1, strikes_to_close=4))
    router = Router(settings, Connections(settings.limits), lambda: Lobby(2), None,  # type: ignore[arg-type]
                    lambda name: json.dumps({"type": "welcome", "player": name}),  # type: ignore[arg-type,return-value]
                    lambda line: None, clock=TickingClock(0.0))
    link = FakeLink()
    assert router.opened(link)  # type: ignore[arg-type]
    router.ready(link)  # type: ignore[arg-type]
    router.received(link, json.dumps(hello("eye", "spectator")).encode(), True, 0.0)  # type: ignore[arg-type]
    for pair in range(1, 11):
        for _ in range(2):
            router.received(link, b'{"type": "watch", "game": "*"}', True, pair * 0.06)  # type: ignore[arg-type]
    frames = [json.loads(payload) for payload in link.written]
    assert frames[0]["type"] == "welcome" and link.closes == [(CLOSE_POLICY, "flooding")]
    assert [f["code"] for f in frames if f["type"] == "error"] == ["rate_limited"] * 4
    router.closed(link)  # type: ignore[arg-type]


async def test_fast_bots_are_never_refused_for_the_rate(make_server):
    # A rate that would refuse the third frame: steps the game waits for are exempt from it.
    server = await make_server(games_per_pairing=2, limits=Limits(messages_per_second=0.001, burst=2))
    bots = [ScriptedBot(url(server), "a"), ScriptedBot(url(server), "b")]
    await play(server, bots)
    assert all(bot.errors == [] and len(bot.games_over) == 2 for bot in bots)
    assert all(status == 0 for bot in bots for status in bot.statuses)


async def test_a_client_within_its_rate_keeps_its_connection(make_server):
    server = await make_server(limits=Limits(messages_per_second=0.001, burst=6, strikes_to_close=2))
    client = await spectator(server)
    for _ in range(4):
        await client.send({"type": "watch", "game": "*"})
    await client.send({"type": "watch", "game": 5})            # a bad frame still gets its answer
    assert (await client.reply())["code"] == "invalid_fields"
    await client.close()


async def test_strikes_count_bad_frames_in_a_row(make_server):
    server = await make_server(limits=Limits(strikes_to_close=3))
    client = await spectator(server)
    for _ in range(5):                                         # bad, bad, good: never three in a row
        for _ in range(2):
            await client.send("nonsense")
            assert (await client.reply())["code"] == "bad_json"
        await client.send({"type": "watch", "game": "*"})
    for _ in range(3):
        await client.send("nonsense")
    assert await client.closed() is not None
    assert [f["code"] for f in client.frames if f["type"] == "error"][-3:] == ["bad_json"] * 3


# -- frame sizes -------------------------------------------------------------------------------------

@pytest.mark.parametrize("greeted", [False, True])
async def test_a_frame_over_the_limit_is_refused(make_server, greeted):
    server = await make_server(limits=Limits(max_frame_bytes=300))
    client = await spectator(server) if greeted else await Client.open(url(server))
    await client.send(json.dumps({"type": "watch", "game": "x" * 400}))
    assert (await client.reply())["code"] == "frame_too_large"
    await client.send(json.dumps({"type": "watch", "game": "é" * 150}, ensure_ascii=False))  # 178 chars, 328 bytes
    assert (await client.reply())["code"] == "frame_too_large"
    await client.send(json.dumps({"type": "watch", "game": "x" * 100}))
    if not greeted:
        assert (await client.reply())["code"] == "hello_first"
    await client.close()


async def test_a_frame_far_over_the_limit_closes_the_connection_only(make_server):
    server = await make_server(limits=Limits(max_frame_bytes=256, max_puzzle_frame_bytes=4096))
    a, b = ScriptedBot(url(server), "a"), ScriptedBot(url(server), "b")
    client = await spectator(server)
    await client.send("x" * 4097)                              # beyond what the websocket layer reads
    assert await client.closed() == 1009                       # "message too big"
    standings = await play(server, [a, b])
    assert standings.games_done == 1 and a.games_over[0]["reason"] == "goal"


# -- connection counts --------------------------------------------------------------------------------

async def refused(server) -> bool:
    """True when a new websocket to ``server`` is cut before its handshake (over a connection limit)."""
    try:
        client = await Client.open(url(server))
    except (OSError, ConnectionClosed, Exception):   # noqa: BLE001 - cut at accept: the handshake fails somehow
        return True
    await client.close()
    return False


async def test_unfinished_handshakes_and_hellos_are_capped_per_address(make_server):
    # At the quota a new connection takes the place of the oldest that has not said hello; none piles up.
    server = await make_server(limits=Limits(max_pending_per_address=2))
    first, second = await Client.open(url(server)), await Client.open(url(server))   # no hello yet: pending
    half_open = [await bounded(asyncio.open_connection("127.0.0.1", server.port), 5) for _ in range(2)]
    assert await first.closed() == 1013 and await second.closed() == 1013          # made way, oldest first
    assert server.connections.pending.get("127.0.0.1") == 2                          # the two half-open ones
    third = await Client.open(url(server))                # takes the oldest half-open one's place
    await third.send(hello("eye", "spectator"))
    assert (await third.reply())["type"] == "welcome"     # greeted: no longer pending
    await bounded(_until(lambda: server.connections.pending.get("127.0.0.1", 0) == 1), 5)
    assert await bounded(half_open[0][0].read(), 5) == b""                            # cut when it made way
    for _, writer in half_open:
        writer.close()
    await bounded(_until(lambda: server.connections.pending.get("127.0.0.1", 0) == 0), 5)
    await third.close()


async def test_a_handshake_that_never_finishes_times_out(make_server):
    server = await make_server(limits=Limits(handshake_timeout_s=0.2))
    reader, writer = await bounded(asyncio.open_connection("127.0.0.1", server.port), 5)
    writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")           # and never the rest
    assert await bounded(reader.read(), 5) == b""                 # the server cut it
    await bounded(_until(lambda: not server.connections.open), 5)
    writer.close()


async def test_too_many_connections_in_total(make_server):
    server = await make_server(limits=Limits(max_connections=2))
    clients = [await Client.open(url(server)) for _ in range(2)]
    assert await refused(server)
    for client in clients:
        await client.close()


async def test_spectators_are_capped_per_address_but_keyed_players_always_join(make_server):
    server = await make_server(players=4, limits=Limits(max_anonymous_per_address=2))
    eyes = [await spectator(server) for _ in range(2)]
    third = await Client.open(url(server))
    await third.send(hello("eye", "spectator"))
    assert (await third.reply())["code"] == "too_many_connections"
    assert await third.closed() == 1013
    players = [await Client.open(url(server)) for _ in range(4)]
    for number, player in enumerate(players):
        await player.send(hello(f"k{number}"))
        assert (await player.reply())["type"] == "welcome"
    for client in eyes + players:
        await client.close()


async def _until(condition) -> None:
    while not condition():
        await asyncio.sleep(0.01)


# -- hello ------------------------------------------------------------------------------------------------

async def test_a_port_probe_never_takes_a_seat(make_server):
    server = await make_server(limits=Limits(hello_timeout_s=0.2))
    _, writer = await bounded(asyncio.open_connection("127.0.0.1", server.port), 5)   # plain TCP, no handshake
    writer.close()
    silent = await Client.open(url(server))                                          # a websocket, no hello
    error = await silent.reply()
    assert error["code"] == "hello_first" and await silent.closed() is not None
    assert server.lobby.sessions == []
    a, b = ScriptedBot(url(server), "a"), ScriptedBot(url(server), "b")
    standings = await play(server, [a, b])
    assert {r.player for r in standings.rows()} == {"a", "b"}


async def test_anything_before_hello_is_refused_and_a_second_hello_too(make_server):
    server = await make_server()
    client = await Client.open(url(server))
    await client.send({"type": "watch", "game": "*"})
    assert (await client.reply())["code"] == "hello_first"
    await client.send({"type": "step", "game": "g", "turn": 0, "move": [5, 2]})
    assert (await client.reply())["code"] == "hello_first"
    await client.send(hello("k1"))
    assert (await client.reply())["type"] == "welcome"
    await client.send(hello("k1"))
    reply = await client.reply()
    assert (reply["code"], reply["frame_type"]) == ("already_hello", "hello")
    await client.send(hello("k9", "spectator"))
    assert (await client.reply())["code"] == "already_hello"
    assert [s.key for s in server.lobby.sessions] == ["k1"]
    await client.close()


@pytest.mark.parametrize("frame, code", [
    (hello("k1", "spectator", room="sokoban"), "room_unavailable"),
    (hello("k1", protocol=2), "protocol_version"),
])
async def test_a_hello_this_server_cannot_take_is_refused_and_closed(make_server, frame, code):
    server = await make_server()
    client = await Client.open(url(server))
    await client.send(frame)
    assert (await client.reply())["code"] == code
    assert await client.closed() is not None
    assert server.lobby.sessions == []


async def test_probes_get_no_broadcasts(make_server):
    server = await make_server()
    probe = await Client.open(url(server))
    a, b = ScriptedBot(url(server), "a"), ScriptedBot(url(server), "b")
    await play(server, [a, b])
    await probe.closed()
    assert probe.frames == []                      # neither standings nor tournament_over before a hello


async def test_a_spectator_watches_a_bounded_number_of_games(make_server):
    server = await make_server(limits=Limits(watched_games=2))
    client = await spectator(server)
    for game in ("g1", "g2", "g1"):
        await client.send({"type": "watch", "game": game})
    await client.send({"type": "watch", "game": "g3"})
    assert (await client.reply())["code"] == "invalid_fields"
    await client.close()


class FakeLink:
    """A link that records what is written, and whose client reads or does not (``paused``)."""

    def __init__(self, *, paused: bool = False, open: bool = True) -> None:
        self.address = "10.0.0.2"
        self.paused = paused
        self.buffered = 0
        self.high_water = 64 * 1024
        self.gone = not open
        self.written: list[bytes] = []
        self.closes: list[tuple[int, str]] = []
        #: Set at the first close.
        self.closing = asyncio.Event()

    def send_text(self, payload: bytes) -> bool:
        if self.gone:
            return False
        self.written.append(payload)
        if self.paused:
            self.buffered += len(payload)
        return True

    def send_texts(self, payloads: list[bytes]) -> bool:
        return all([self.send_text(payload) for payload in payloads])

    def close(self, code: int = 1000, reason: str = "") -> None:
        self.closes.append((code, reason))
        self.closing.set()

    def abort(self) -> None:
        self.gone = True


async def test_a_turn_written_to_a_client_that_stopped_reading_closes_it_later():
    link = FakeLink(paused=True)
    peer = Peer(link, Limits(send_timeout_s=0.05))  # type: ignore[arg-type]
    assert peer.send_now('{"type":"turn"}') is True          # buffered: the game never waits for a client
    assert link.written == [b'{"type":"turn"}'] and link.closes == []
    await bounded(link.closing.wait(), 5)
    assert link.closes and link.closes[0][0] == 1008 and "not reading" in link.closes[0][1] and peer.closed
    assert peer.send_now('{"type":"turn"}') is False


async def test_a_client_that_catches_up_is_kept():
    limits = Limits(send_timeout_s=0.05)
    link = FakeLink(paused=True)
    peer = Peer(link, limits)  # type: ignore[arg-type]
    assert peer.send_now('{"type":"turn"}') is True
    link.paused = False                                       # it read its buffer in time
    peer.drained()
    await bounded(timers_due_within(limits.send_timeout_s), 5)    # past the moment it would have been cut
    assert link.closes == [] and not peer.closed and peer.send_now('{"type":"turn"}') is True


async def test_unsent_bytes_are_bounded_even_for_frames_that_must_go():
    link = FakeLink(paused=True)
    peer = Peer(link, Limits(max_unsent_bytes=4096))  # type: ignore[arg-type]
    frame = ErrorMessage(code="bad_json", message="x" * 500)
    sent = [peer.send_now(frame) for _ in range(20)]
    assert sent[0] and not sent[-1] and peer.closed
    assert link.buffered <= 4096 + 600 and link.closes[0][0] == 1008


async def test_a_client_that_is_behind_gets_only_the_newest_state_of_each_kind():
    from server.net.connection import Encoded
    link = FakeLink(paused=True)
    peer = Peer(link, Limits(send_timeout_s=5))  # type: ignore[arg-type]
    updates = [Encoded.of(ErrorMessage(code="bad_json", message=f"g1 step {n}")) for n in range(100)]
    for update in updates:
        assert peer.send_latest(("game", "g1"), update)
    assert peer.send_latest(("game", "g2"), Encoded.of(ErrorMessage(code="bad_json", message="g2 step 0")))
    assert link.written == [] and peer.behind == 2               # kept, not written: two games, one each
    link.paused = False
    peer.drained()
    assert link.written == [updates[-1].payload, b'{"type":"error","code":"bad_json","message":"g2 step 0",'
                                                 b'"frame_type":null}']
    peer.close()


async def test_nothing_is_written_to_a_closing_connection():
    link = FakeLink(open=False)
    peer = Peer(link, Limits())  # type: ignore[arg-type]
    assert peer.send_now('{"type":"turn"}') is False and link.written == [] and peer.closed

"""``TimedConnection``'s fast lane takes a frame in the protocol callback only when that cannot
reorder anything: the reader waits in ``recv`` with nothing queued, and the frame is one final text
frame. Everything else is stamped and queued for ``recv`` as websockets would. Its own reading of a
chunk holding exactly one frame is tried only while websockets' parser is between frames."""

from __future__ import annotations

import asyncio
import json
import os
from collections import deque
from types import SimpleNamespace

import pytest
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.server import ServerProtocol
from websockets.uri import parse_uri

from server.connection import TimedConnection, between_frames, one_text_frame
from tests.server.conftest import url
from tests.server.support import Client, hello


def connection(accept: bool):
    """A TimedConnection with only what ``process_event`` touches, its queue and its lane recorded."""
    conn = TimedConnection.__new__(TimedConnection)
    queued: list[Frame] = []
    offered: list[bytes] = []

    def lane(data: bytes, arrived: float) -> bool:
        offered.append(data)
        return accept
    conn.request = SimpleNamespace()          # past the opening handshake
    conn.recv_messages = SimpleNamespace(put=queued.append)
    conn.arrivals = deque()
    conn.fast_lane, conn.reading = lane, True
    return conn, queued, offered


def test_a_frame_the_lane_takes_is_neither_queued_nor_stamped():
    conn, queued, offered = connection(accept=True)
    conn.process_event(Frame(Opcode.TEXT, b'{"type":"step"}'))
    assert offered == [b'{"type":"step"}'] and queued == [] and not conn.arrivals


def test_a_frame_the_lane_declines_goes_to_recv_with_its_stamp():
    conn, queued, offered = connection(accept=False)
    conn.process_event(Frame(Opcode.TEXT, b"junk"))
    assert offered == [b"junk"] and [f.data for f in queued] == [b"junk"] and len(conn.arrivals) == 1


def test_nothing_overtakes_a_queued_frame():
    conn, queued, offered = connection(accept=False)
    conn.process_event(Frame(Opcode.TEXT, b"first"))          # declined: queued for the reader
    conn.fast_lane = lambda data, arrived: offered.append(data) or True
    conn.process_event(Frame(Opcode.TEXT, b"second"))         # would be taken, but must wait its turn
    assert [f.data for f in queued] == [b"first", b"second"] and offered == [b"first"]


def test_nothing_is_taken_while_the_reader_is_busy_with_a_frame():
    conn, queued, offered = connection(accept=True)
    conn.reading = False
    conn.process_event(Frame(Opcode.TEXT, b"step"))
    assert offered == [] and [f.data for f in queued] == [b"step"]


def test_binary_and_fragmented_frames_are_never_offered():
    conn, queued, offered = connection(accept=True)
    conn.process_event(Frame(Opcode.BINARY, b"bin"))
    conn.arrivals.clear()
    conn.process_event(Frame(Opcode.TEXT, b"part", fin=False))
    assert offered == [] and [f.data for f in queued] == [b"bin", b"part"]


def open_server_protocol() -> ServerProtocol:
    """A sans-I/O websocket server past its opening handshake."""
    client = ClientProtocol(parse_uri("ws://arena/"))
    client.send_request(client.connect())
    server = ServerProtocol()
    for data in client.data_to_send():
        server.receive_data(data)
    (request,) = server.events_received()
    server.send_response(server.accept(request))
    return server


def masked(payload: bytes, opcode: Opcode = Opcode.TEXT, fin: bool = True) -> bytes:
    return Frame(opcode, payload, fin=fin).serialize(mask=True, extensions=[])


def test_the_parser_is_between_frames_only_before_a_frames_first_byte():
    protocol = open_server_protocol()
    assert between_frames(protocol)
    frame = masked(b'{"type":"step"}')
    for cut in (1, 2, 6, len(frame) - 1):                 # inside the header, after it, inside the payload
        protocol = open_server_protocol()
        protocol.receive_data(frame[:cut])
        assert not between_frames(protocol), cut          # even where websockets has consumed all it was fed
        protocol.receive_data(frame[cut:])
        assert between_frames(protocol) and protocol.events_received()[0].data == b'{"type":"step"}'


def test_before_the_handshake_the_parser_is_not_between_frames():
    assert not between_frames(ServerProtocol())


@pytest.mark.parametrize("size", [0, 1, 125, 126, 1000, 65535])
def test_one_text_frame_unmasks_what_a_client_sent(size):
    payload = os.urandom(size)
    assert one_text_frame(masked(payload), None) == payload


@pytest.mark.parametrize("data", [
    masked(b"x") + masked(b"y"),                          # two frames
    masked(b"hello")[:-1],                                # part of one
    masked(b"x", Opcode.BINARY),
    masked(b"x", fin=False),
    masked(b"", Opcode.PING),
    Frame(Opcode.TEXT, b"x").serialize(mask=False, extensions=[]),   # a client must mask
    masked(b"y" * 70000),                                 # 64-bit length: websockets' path
    b"",
])
def test_anything_but_one_whole_text_frame_is_left_to_websockets(data):
    assert one_text_frame(data, None) is None


def test_a_frame_over_the_size_limit_is_left_to_websockets():
    assert one_text_frame(masked(b"z" * 200), 100) is None


async def test_a_step_split_over_two_reads_is_taken_as_websockets_reads_it(make_server):
    server = await make_server(players=2, time_limit_ms=30_000)
    run = asyncio.create_task(server.run_tournament())
    players = []
    for key in ("p", "q"):
        client = await Client.open(url(server))
        await client.send(hello(key))
        await client.reply()
        players.append(client)
    starts = [await client.next("game_start") for client in players]
    white, black = players if starts[0]["seat"] == 0 else players[::-1]
    game = starts[0]["game"]
    # The installed websockets has the parser state the fast read needs (else every step takes the slow way).
    assert all(peer.ws._fast_read for peer in server.connections.open)
    await white.next("turn")
    frame = masked(json.dumps({"type": "step", "game": game, "turn": 0, "move": [5, 2]}).encode())
    for cut in (3, 9):                                      # the header, then the mask and part of the payload
        white.ws.transport.write(frame[:cut])
        frame = frame[cut:]
        await asyncio.sleep(0.05)                           # separate reads on the server
    white.ws.transport.write(frame)
    turn = await black.next("turn")
    assert (turn["turn"], turn["enemy_loc"]) == (1, [5, 2])
    await black.send({"type": "step", "game": game, "turn": 1, "move": [5, 8]})
    assert (await white.next("turn"))["enemy_loc"] == [5, 8]
    for client in players:
        await client.ws.close()
    await asyncio.wait_for(run, 10)

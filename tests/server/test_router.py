"""``Router`` built by hand: frames fed to it as a link would, and what each connection is told."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import pytest

from server.net.connection import CLOSE_POLICY, CLOSE_TRY_LATER
from server.net.connections import Connections
from server.seats.lobby import Lobby
from server.rooms import RoomError
from server.router import PUZZLE_BACKLOG, Router
from server.settings import Limits, ServerSettings
from tests.server.support import hello


class FakeLink:
    """A link that keeps what the router writes to it: frames (decoded) and the close code."""

    def __init__(self, address: str = "10.0.0.1") -> None:
        self.address = address
        self.paused = False
        self.peer: Any = None
        self.sent: list[dict[str, Any]] = []
        self.close_code: int | None = None
        self.high_water = 64 * 1024
        self.buffered = 0

    @property
    def gone(self) -> bool:
        return self.close_code is not None

    def send_text(self, payload: bytes) -> bool:
        self.sent.append(json.loads(payload))
        return True

    def send_texts(self, payloads: list[bytes]) -> bool:
        return all(self.send_text(payload) for payload in payloads)

    def close(self, code: int = 1000, reason: str = "") -> None:
        if self.close_code is None:
            self.close_code = code

    def abort(self) -> None:
        self.close(1006)

    def errors(self) -> list[str]:
        """The codes of the ``error`` frames sent so far."""
        return [frame["code"] for frame in self.sent if frame["type"] == "error"]


class FakeDesk:
    """A puzzle desk that serves the sokoban room only; it answers each frame once ``gate`` is open.

    A frame whose ``index`` is in ``refusals`` is refused with that ``RoomError`` code; in ``broken``, it fails.
    """

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.gate.set()
        self.refusals: dict[int, str] = {}
        self.broken: set[int] = set()
        self.answered = asyncio.Event()

    def serves(self, room: str) -> bool:
        return room == "sokoban"

    async def answer(self, room: str, ctx: Any, message: Any) -> str:
        await self.gate.wait()
        self.answered.set()
        if message.index in self.broken:
            raise RuntimeError("a bug in the room")
        if message.index in self.refusals:
            raise RoomError(self.refusals[message.index], f"refused {message.index}")
        return json.dumps({"type": "puzzle", "room": room, "index": message.index, "player": ctx.player})


class FakeSession:
    """A seat in game ``g1``, which awaits turn 1: it keeps every step submitted to it, and how often."""

    def __init__(self, key: str, name: str) -> None:
        self.key, self.name = key, name
        self.playing = True
        self.steps: list[tuple[str, int, float]] = []

    def submit(self, game: str, turn: int, step: Any, arrived: float) -> tuple[str, str] | None:
        self.steps.append((game, turn, arrived))
        return None if (game, turn) == ("g1", 1) else ("wrong_turn", "not your turn")


class FakeLobby:
    """Admits every key with a ``FakeSession``; keeps who left."""

    def __init__(self) -> None:
        self.sessions: list[FakeSession] = []
        self.left: list[FakeSession] = []

    def admit(self, key: str, name: str | None, peer: Any) -> FakeSession:
        session = FakeSession(key, name or key)
        self.sessions.append(session)
        return session

    def leave(self, session: FakeSession, peer: Any) -> None:
        self.left.append(session)


def make_router(lobby: Any = None, desk: FakeDesk | None = None, **overrides: Any) -> tuple[Router, list[str]]:
    """A router over real ``Connections``, ``lobby`` (a 2-seat ``Lobby`` if None) and ``desk``; the lines it says."""
    settings = ServerSettings(**{"data_dir": "unused", **overrides})
    said: list[str] = []
    lobby = lobby if lobby is not None else Lobby(settings.players, settings.roster)
    router = Router(settings, Connections(settings.limits), lambda: lobby, desk or FakeDesk(),  # type: ignore[arg-type]
                    lambda name: json.dumps({"type": "welcome", "player": name}),  # type: ignore[arg-type,return-value]
                    said.append)
    return router, said


def connect(router: Router, address: str = "10.0.0.1") -> FakeLink:
    link = FakeLink(address)
    assert router.opened(link)  # type: ignore[arg-type]
    router.ready(link)  # type: ignore[arg-type]
    return link


def feed(router: Router, link: FakeLink, frame: dict[str, Any] | bytes | str, at: float | None = None) -> None:
    payload = json.dumps(frame).encode() if isinstance(frame, dict) else frame.encode() if isinstance(frame, str) \
        else frame
    router.received(link, payload, not isinstance(frame, bytes), time.monotonic() if at is None else at)  # type: ignore[arg-type]


def step(game: str = "g1", turn: int = 1) -> dict[str, Any]:
    return {"type": "step", "game": game, "turn": turn, "move": [5, 2], "wall": None}


# -- hello, for each role ---------------------------------------------------------------
async def test_a_player_is_welcomed_by_its_roster_name_and_seated():
    lobby = Lobby(2, {"k1": "alice", "k2": "bob"})
    router, said = make_router(lobby, roster={"k1": "alice", "k2": "bob"})
    link = connect(router)
    feed(router, link, hello("k1"))
    assert link.sent == [{"type": "welcome", "player": "alice"}]
    assert [s.name for s in lobby.sessions] == ["alice"] and lobby.sessions[0].peer is link.peer
    assert said == ["alice joined from 10.0.0.1"]
    assert link.peer.role == "player" and link.close_code is None


async def test_a_name_with_a_comma_is_renamed_and_the_server_says_why():
    router, said = make_router()
    link = connect(router)
    feed(router, link, hello("k1", name="a,b"))
    assert link.sent == [{"type": "welcome", "player": "a;b"}]
    assert "names hold no commas" in said[0]


async def test_a_spectator_is_welcomed_and_counted_as_a_spectator():
    router, _ = make_router()
    link = connect(router)
    feed(router, link, hello("anyone", role="spectator"))
    assert link.sent[0] == {"type": "welcome", "player": "spectator"}
    assert link.peer in router.connections.spectators and link.peer.anonymous


async def test_a_puzzle_room_user_enters_the_room_by_its_name():
    router, said = make_router()
    link = connect(router)
    feed(router, link, hello("k9", room="sokoban", name="zoe"))
    assert link.sent == [{"type": "welcome", "player": "zoe"}]
    assert link.peer.role == "sokoban" and said == ["zoe entered the sokoban room from 10.0.0.1"]


async def test_a_submitter_is_refused_by_a_server_that_takes_no_files():
    router, _ = make_router()
    link = connect(router)
    feed(router, link, hello("k1", role="submitter"))
    assert link.errors() == ["room_unavailable"] and link.close_code == CLOSE_POLICY


# -- admission refusals -----------------------------------------------------------------
@pytest.mark.parametrize("frame, overrides, code", [
    (hello("stranger"), {"roster": {"k1": "a", "k2": "b"}}, "unknown_key"),
    (hello("k1", room="ice"), {}, "room_unavailable"),
    (hello("k1", role="spectator", room="sokoban"), {}, "room_unavailable"),
    (hello("stranger", room="sokoban"), {"roster": {"k1": "a", "k2": "b"}}, "unknown_key"),
    (hello("k1"), {"players": 0}, "room_unavailable"),
])
async def test_a_refused_hello_gets_one_error_and_a_policy_close(frame, overrides, code):
    router, _ = make_router(**overrides)
    link = connect(router)
    feed(router, link, frame)
    assert link.sent == [link.sent[0]] and link.sent[0]["code"] == code and link.sent[0]["frame_type"] == "hello"
    assert link.close_code == CLOSE_POLICY and link.peer.role is None


async def test_a_third_player_finds_the_seats_taken():
    router, _ = make_router()
    links = [connect(router, f"10.0.0.{n}") for n in range(3)]
    for n, link in enumerate(links):
        feed(router, link, hello(f"k{n}"))
    assert links[2].errors() == ["server_full"] and links[2].close_code == CLOSE_POLICY
    assert links[0].close_code is None and links[1].close_code is None


async def test_spectators_over_the_per_address_cap_are_told_to_try_later():
    router, _ = make_router(limits=Limits(max_anonymous_per_address=1))
    first, second = connect(router), connect(router)
    feed(router, first, hello("a", role="spectator"))
    feed(router, second, hello("b", role="spectator"))
    assert second.errors() == ["too_many_connections"] and second.close_code == CLOSE_TRY_LATER
    assert first.close_code is None


async def test_a_connection_over_the_limit_is_refused_at_once():
    router, _ = make_router(limits=Limits(max_connections=1))
    connect(router)
    assert not router.opened(FakeLink("10.0.0.2"))  # type: ignore[arg-type]


async def test_another_protocol_version_is_told_and_closed():
    router, _ = make_router()
    link = connect(router)
    feed(router, link, {**hello("k1"), "protocol": 2})
    assert link.errors() == ["protocol_version"] and link.close_code == CLOSE_POLICY


async def test_no_hello_in_time_closes_the_connection():
    router, _ = make_router(limits=Limits(hello_timeout_s=0.01))
    link = connect(router)
    closed = asyncio.Event()
    original = link.close

    def close(code: int = 1000, reason: str = "") -> None:
        original(code, reason)
        closed.set()
    link.close = close  # type: ignore[method-assign]
    await asyncio.wait_for(closed.wait(), 5)
    assert link.errors() == ["hello_first"] and link.close_code == CLOSE_POLICY


# -- steps ------------------------------------------------------------------------------
async def test_a_step_reaches_its_players_session_with_its_arrival_time():
    lobby = FakeLobby()
    router, _ = make_router(lobby)
    alice, bob = connect(router), connect(router, "10.0.0.2")
    feed(router, alice, hello("ka"))
    feed(router, bob, hello("kb"))
    feed(router, bob, step(), at=time.monotonic() + 0.25)
    assert lobby.sessions[0].steps == [] and [s[:2] for s in lobby.sessions[1].steps] == [("g1", 1)]
    assert bob.errors() == []


async def test_a_step_the_game_refuses_is_a_strike_with_the_games_reason():
    lobby = FakeLobby()
    router, _ = make_router(lobby)
    link = connect(router)
    feed(router, link, hello("ka"))
    feed(router, link, step(turn=7))
    assert link.errors() == ["wrong_turn"] and link.peer.strikes == 1


async def test_a_spectator_sending_a_step_is_told_it_is_no_player():
    router, _ = make_router()
    link = connect(router)
    feed(router, link, hello("s", role="spectator"))
    feed(router, link, step())
    assert link.errors() == ["not_a_player"]


async def test_closing_a_players_connection_leaves_its_seat():
    lobby = FakeLobby()
    router, _ = make_router(lobby)
    link = connect(router)
    feed(router, link, hello("ka"))
    router.closed(link)  # type: ignore[arg-type]
    assert lobby.left == lobby.sessions and router.links() == []
    feed(router, link, step())          # a frame after the close is dropped
    assert lobby.sessions[0].steps == []


# -- rate limits ------------------------------------------------------------------------
async def test_frames_over_the_burst_are_refused_and_a_flood_is_closed():
    router, _ = make_router(limits=Limits(burst=2, messages_per_second=1, strikes_to_close=3))
    link = connect(router)
    now = time.monotonic()
    feed(router, link, hello("s", role="spectator"), at=now)
    feed(router, link, {"type": "watch", "game": "*"}, at=now)
    feed(router, link, {"type": "watch", "game": "*"}, at=now)
    assert link.errors() == ["rate_limited"] and link.close_code is None
    feed(router, link, {"type": "watch", "game": "*"}, at=now)
    feed(router, link, {"type": "watch", "game": "*"}, at=now)
    assert link.errors() == ["rate_limited"] * 3 and link.close_code == CLOSE_POLICY


async def test_the_step_a_game_awaits_never_spends_the_rate():
    lobby = FakeLobby()
    router, _ = make_router(lobby, limits=Limits(burst=2, messages_per_second=1))
    link = connect(router)
    now = time.monotonic()
    feed(router, link, hello("ka"), at=now)
    for _ in range(20):
        feed(router, link, step(), at=now)
    assert len(lobby.sessions[0].steps) == 20 and link.errors() == []
    feed(router, link, step(turn=2), at=now)    # not awaited: spends the token the hello left
    feed(router, link, step(turn=2), at=now)    # and this one is over the rate
    assert link.errors() == ["wrong_turn", "rate_limited"]
    assert len(lobby.sessions[0].steps) == 22   # each step walked into its game once, the refused ones too


# -- malformed frames -------------------------------------------------------------------
@pytest.mark.parametrize("payload, code", [
    ("{not json", "bad_json"),
    (b"\xff\xfe", "bad_json"),
    ({"type": "teleport"}, "unknown_type"),
])
async def test_a_malformed_frame_is_a_strike_and_the_connection_stays(payload, code):
    router, _ = make_router()
    link = connect(router)
    if isinstance(payload, bytes):
        router.received(link, payload, True, time.monotonic())  # type: ignore[arg-type]
    else:
        feed(router, link, payload)
    assert link.errors() == [code] and link.close_code is None


async def test_a_frame_over_the_size_limit_is_refused_before_it_is_read():
    router, _ = make_router(limits=Limits(max_frame_bytes=256))
    link = connect(router)
    feed(router, link, {**hello("k1"), "name": "x" * 300})
    assert link.errors() == ["frame_too_large"] and link.peer.role is None


async def test_frames_before_hello_and_a_second_hello_are_strikes():
    router, _ = make_router()
    link = connect(router)
    feed(router, link, {"type": "watch", "game": "*"})
    feed(router, link, hello("s", role="spectator"))
    feed(router, link, hello("s", role="spectator"))
    assert link.errors() == ["hello_first", "already_hello"]


async def test_bad_frames_in_a_row_close_the_connection_and_a_good_one_forgives():
    router, _ = make_router(limits=Limits(strikes_to_close=3))
    link = connect(router)
    feed(router, link, hello("s", role="spectator"))
    feed(router, link, "{")
    feed(router, link, "{")
    feed(router, link, {"type": "watch", "game": "*"})     # accepted: the count starts again
    feed(router, link, "{")
    feed(router, link, "{")
    assert link.close_code is None
    feed(router, link, "{")
    assert link.close_code == CLOSE_POLICY


async def test_a_failure_inside_the_router_closes_that_connection_only(monkeypatch):
    lobby = FakeLobby()
    router, _ = make_router(lobby)
    broken, fine = connect(router), connect(router, "10.0.0.2")
    feed(router, broken, hello("ka"))
    feed(router, fine, hello("kb"))
    monkeypatch.setattr(lobby.sessions[0], "submit", lambda *args: 1 / 0)
    feed(router, broken, step())
    assert broken.close_code == 1011 and fine.close_code is None


# -- rooms, watching, pages -------------------------------------------------------------
def puzzle(index: int) -> dict[str, Any]:
    return {"type": "puzzle_request", "room": "sokoban", "collection": "c", "index": index}


async def until(done: Callable[[], bool]) -> None:
    """Wait (bounded) until ``done()``: the room's answers come from one task per connection."""
    async def wait() -> None:
        while not done():
            await asyncio.sleep(0)
    await asyncio.wait_for(wait(), 5)


async def until_answered(link: FakeLink, count: int) -> None:
    """Wait (bounded) until ``link`` got ``count`` frames besides its welcome."""
    await until(lambda: len(link.sent) >= count + 1)


async def test_puzzle_frames_are_answered_in_order_and_a_full_backlog_is_busy():
    desk = FakeDesk()
    desk.gate.clear()
    router, _ = make_router(desk=desk)
    link = connect(router)
    feed(router, link, hello("k1", room="sokoban", name="zoe"))
    for index in range(PUZZLE_BACKLOG + 1):
        feed(router, link, puzzle(index))
    assert link.errors() == ["busy"] and link.peer.strikes == 1
    desk.gate.set()
    await until_answered(link, PUZZLE_BACKLOG + 1)
    answers = [frame for frame in link.sent if frame["type"] == "puzzle"]
    assert [frame["index"] for frame in answers] == list(range(PUZZLE_BACKLOG))
    assert {frame["player"] for frame in answers} == {"zoe"}


async def test_a_busy_room_is_said_without_a_strike_and_a_refusal_is_a_strike():
    desk = FakeDesk()
    desk.refusals = {0: "busy", 1: "unknown_level"}
    router, _ = make_router(desk=desk)
    link = connect(router)
    feed(router, link, hello("k1", room="sokoban"))
    feed(router, link, puzzle(0))
    feed(router, link, puzzle(1))
    await until_answered(link, 2)
    assert link.errors() == ["busy", "unknown_level"] and link.peer.strikes == 1


async def test_a_puzzle_frame_on_a_quoridor_connection_belongs_to_another_room():
    router, _ = make_router()
    link = connect(router)
    feed(router, link, hello("k1"))
    feed(router, link, puzzle(0))
    assert link.errors() == ["wrong_room"]


async def test_a_spectator_watches_at_most_its_number_of_games():
    router, _ = make_router(limits=Limits(watched_games=1))
    link = connect(router)
    feed(router, link, hello("s", role="spectator"))
    feed(router, link, {"type": "watch", "game": "g1"})
    feed(router, link, {"type": "watch", "game": "g1"})     # the same game again is no new one
    feed(router, link, {"type": "watch", "game": "g2"})
    assert link.errors() == ["invalid_fields"]
    assert router.connections.spectators[link.peer] == {"g1"}


async def test_a_player_cannot_watch_and_a_server_without_pages_answers_no_page_request():
    router, _ = make_router()
    player, spectator = connect(router), connect(router, "10.0.0.2")
    feed(router, player, hello("k1"))
    feed(router, player, {"type": "watch", "game": "*"})
    feed(router, spectator, hello("s", role="spectator"))
    feed(router, spectator, {"type": "replays_request"})
    assert player.errors() == ["not_a_spectator"] and spectator.errors() == ["unknown_type"]


async def test_a_failure_while_answering_a_room_frame_closes_that_connection_only(caplog):
    desk = FakeDesk()
    desk.broken = {0}
    router, _ = make_router(desk=desk)
    broken, fine = connect(router), connect(router, "10.0.0.2")
    feed(router, broken, hello("k1", room="sokoban"))
    feed(router, fine, hello("k2", room="sokoban"))
    feed(router, broken, puzzle(0))
    feed(router, fine, puzzle(1))
    await until(lambda: broken.close_code is not None)
    await until_answered(fine, 1)
    assert broken.close_code == 1011 and fine.close_code is None and fine.sent[-1]["type"] == "puzzle"
    assert "closing that connection" in caplog.text

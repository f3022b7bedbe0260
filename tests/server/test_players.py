"""``PlayerSession``, a seat across reconnects: presence, the one way in for steps, what a match sends through it."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from server.seats.players import PlayerSession
from shared.protocol import GameOver, GameStart, parse_server
from shared.quoridor import ChessboardChange, Location, Step
from shared.referee import TurnRequest
from tests.server.conftest import bounded


class FakePeer:
    """A connection that keeps what it is sent; ``alive`` False makes every write fail."""

    def __init__(self, alive: bool = True) -> None:
        self.closed = False
        self.alive = alive
        self.sent: list[Any] = []

    def send_now(self, message: Any) -> bool:
        if self.alive:
            self.sent.append(message)
        return self.alive


class FakeMatch:
    """A game that takes seat 1's turn 3 only (the one it awaits) and keeps what its seats tell it."""

    def __init__(self, game_id: str = "g1") -> None:
        self.game_id = game_id
        self.steps: list[tuple[int, int, Step, float]] = []
        self.disconnects: list[int] = []

    def submit_step(self, seat: int, turn: int, step: Step, arrived_at: float, *,
                    cpu_s: float | None = None) -> tuple[str, str] | None:
        if (seat, turn) != (1, 3):
            return "stale_turn", f"step answers turn {turn}"
        self.steps.append((seat, turn, step, arrived_at))
        return None

    def submit_disconnect(self, seat: int) -> None:
        self.disconnects.append(seat)


def seated(session: PlayerSession, seat: int = 1, game_id: str = "g1") -> FakeMatch:
    match = FakeMatch(game_id)
    session.enter(match, seat)  # type: ignore[arg-type]
    return match


STEP = Step(Location(5, 2))


def test_a_session_is_connected_while_a_live_peer_is_bound():
    session = PlayerSession("k", "ann")
    assert not session.connected
    peer = FakePeer()
    session.bind(peer)
    assert session.connected and session.present.is_set()
    peer.closed = True
    assert not session.connected


def test_binding_again_brings_back_a_player_gone_for_good():
    session = PlayerSession("k", "ann")
    session.gone_for_good = True
    session.bind(FakePeer())
    assert not session.gone_for_good


def test_unbinding_an_old_peer_leaves_the_new_one_bound():
    session = PlayerSession("k", "ann")
    old, new = FakePeer(), FakePeer()
    session.bind(old)
    session.bind(new)
    session.unbind(old)
    assert session.peer is new and session.connected


def test_unbinding_mid_game_tells_the_game_the_seat_disconnected():
    session = PlayerSession("k", "ann")
    peer = FakePeer()
    session.bind(peer)
    match = seated(session, seat=0)
    session.unbind(peer)
    assert match.disconnects == [0] and not session.connected and not session.present.is_set()


async def test_wait_present_is_true_at_once_for_a_bound_player_and_false_after_the_wait():
    session = PlayerSession("k", "ann")
    assert await bounded(session.wait_present(0), 5) is False
    session.bind(FakePeer())
    assert await bounded(session.wait_present(0), 5) is True


async def test_wait_present_wakes_when_the_player_comes_back():
    session = PlayerSession("k", "ann")
    asyncio.get_running_loop().call_soon(session.bind, FakePeer())
    assert await bounded(session.wait_present(30), 5) is True


def test_a_step_reaches_the_game_with_the_seat_and_arrival():
    session = PlayerSession("k", "ann")
    match = seated(session)
    assert session.submit("g1", 3, STEP, 12.5) is None
    assert match.steps == [(1, 3, STEP, 12.5)]


def test_a_step_for_another_game_or_without_a_game_is_wrong_game():
    session = PlayerSession("k", "ann")
    code, message = session.submit("g1", 1, STEP, 0.0)
    assert code == "wrong_game" and "'g1'" in message
    match = seated(session)
    assert session.submit("g2", 3, STEP, 0.0)[0] == "wrong_game"
    assert match.steps == []


def test_the_games_verdict_comes_back_from_one_submit():
    session = PlayerSession("k", "ann")
    match = seated(session)
    assert session.submit("g1", 5, STEP, 1.0) == ("stale_turn", "step answers turn 5")
    assert match.steps == []


def test_a_player_in_several_games_has_each_step_routed_by_its_game_and_leaves_one_at_a_time():
    session = PlayerSession("k", "ann")
    assert not session.playing
    first, second = seated(session, 1, "g1"), seated(session, 1, "g2")
    assert session.playing
    assert session.submit("g2", 3, STEP, 2.0) is None and session.submit("g1", 3, STEP, 1.0) is None
    assert first.steps == [(1, 3, STEP, 1.0)] and second.steps == [(1, 3, STEP, 2.0)]
    session.leave(first)  # type: ignore[arg-type]
    assert session.submit("g1", 3, STEP, 3.0)[0] == "wrong_game" and session.playing
    session.leave(FakeMatch("g2"))  # type: ignore[arg-type]  # another game of the same id: not this one's
    assert session.playing
    session.leave(second)  # type: ignore[arg-type]
    assert not session.playing


def test_unbinding_tells_every_game_in_progress():
    session = PlayerSession("k", "ann")
    peer = FakePeer()
    session.bind(peer)
    games = [seated(session, 0, "g1"), seated(session, 1, "g2")]
    session.unbind(peer)
    assert [g.disconnects for g in games] == [[0], [1]]


def test_a_turn_goes_on_the_wire_as_its_frame_with_the_time_it_left():
    session = PlayerSession("k", "ann", clock=lambda: 41.5)
    peer = FakePeer()
    session.bind(peer)
    change = ChessboardChange(my_loc=Location(5, 1), enemy_loc=Location(5, 9))
    sent_at = session.send_turn("g1", TurnRequest(seat=0, turn=1, change=change, walls_left=(10, 10),
                                                  time_limit_ms=1000))
    assert sent_at == 41.5                  # read on the session's clock, the clock of the match's deadlines
    frame = json.loads(peer.sent[0])
    assert (frame["type"], frame["game"], frame["turn"], frame["my_loc"], frame["time_limit_ms"]) == \
        ("turn", "g1", 1, [5, 1], 1000)


def test_a_turn_to_a_player_without_a_live_connection_is_not_sent():
    request = TurnRequest(seat=0, turn=1, change=ChessboardChange(), walls_left=(10, 10), time_limit_ms=None)
    session = PlayerSession("k", "ann")
    assert session.send_turn("g1", request) is None
    session.bind(FakePeer(alive=False))
    assert session.send_turn("g1", request) is None


async def test_game_start_and_game_over_go_to_the_bound_peer_only():
    session = PlayerSession("k", "ann")
    over = GameOver(game="g1", status=1, result="win", reason="goal", winner="ann")
    assert await session.send_game_start("g1", "bob", 0) is False
    assert await session.send_game_over(over) is False
    peer = FakePeer()
    session.bind(peer)
    assert await session.send_game_start("g1", "bob", 0) is True
    assert await session.send_game_over(over) is True
    start, end = peer.sent                  # the start as its frame, written once (server.games.updates)
    assert parse_server(start.payload.decode()) == GameStart(game="g1", opponent="bob", seat=0) and end is over

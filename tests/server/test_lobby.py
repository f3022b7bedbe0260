"""The lobby: seats, names as the old server gave them, comebacks, resumes, and the two transports."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from server.seats.legacy import LegacySession
from server.seats.lobby import AdmissionError, Lobby


def peer() -> SimpleNamespace:
    return SimpleNamespace(closed=False)


def test_the_same_key_twice_gets_numbered_names():
    lobby = Lobby(3)
    names = [lobby.admit("bot", None, peer()).name for _ in range(3)]
    assert names == ["bot", "bot_1", "bot_2"]
    assert lobby.full.is_set()


def test_a_dropped_player_comes_back_to_its_own_seat():
    lobby = Lobby(2)
    first, conn = lobby.admit("a", "Ada", peer()), peer()
    lobby.admit("b", None, peer())
    lobby.start()
    conn_before = first.peer
    conn_before.closed = True
    assert lobby.admit("a", "Someone else", conn) is first and first.peer is conn


def test_a_resume_gives_numbered_copies_their_stored_seats():
    lobby = Lobby(2, expected=["bot", "bot_1"])
    assert [lobby.admit("bot", None, peer()).name for _ in range(2)] == ["bot", "bot_1"]
    with pytest.raises(AdmissionError) as refusal:
        Lobby(2, expected=["bot", "bot_1"]).admit("other", None, peer())
    assert refusal.value.code == "server_full" and "'other' is not one of its free seats" in refusal.value.message


def test_a_seat_taken_over_one_transport_is_not_taken_back_over_the_other():
    lobby = Lobby(2, roster={"k1": "Ada", "k2": "Bob"})
    legacy = lobby.admit("k1", None, peer(), LegacySession)
    assert isinstance(legacy, LegacySession) and legacy.name == "Ada"
    lobby.admit("k2", None, peer())
    lobby.start()
    legacy.peer.closed = True
    with pytest.raises(AdmissionError) as refusal:
        lobby.admit("k1", None, peer())                      # a websocket, for a legacy seat
    assert refusal.value.code == "key_in_use" and "other transport" in refusal.value.message
    assert lobby.admit("k1", None, peer(), LegacySession) is legacy


def test_a_roster_refuses_unknown_keys_and_a_second_live_connection():
    lobby = Lobby(2, roster={"k1": "Ada", "k2": "Bob"})
    with pytest.raises(AdmissionError, match="not on the server's roster"):
        lobby.admit("stranger", None, peer())
    lobby.admit("k1", None, peer())
    with pytest.raises(AdmissionError) as refusal:
        lobby.admit("k1", None, peer())
    assert refusal.value.code == "key_in_use"


def test_seats_held_for_handed_in_bots_are_taken_by_no_connection():
    """A roster key that plays its handed-in bot cannot connect a bot, and its seat counts until released."""
    roster = {"k-ana": "Ana", "k-bo": "Bo", "k-cy": "Cy"}
    lobby = Lobby(2, roster, held={"k-bo"})
    with pytest.raises(AdmissionError) as refusal:
        lobby.admit("k-bo", None, peer())
    assert refusal.value.code == "key_in_use" and "handed-in bot" in refusal.value.message
    lobby.admit("k-ana", None, peer())
    with pytest.raises(AdmissionError) as full:
        lobby.admit("k-cy", None, peer())              # one seat left, and it is Bo's
    assert full.value.code == "server_full" and "handed-in" in full.value.message
    lobby.release()                                     # Bo's bot did not start: its seat is free again
    assert lobby.admit("k-cy", None, peer()).name == "Cy" and lobby.full.is_set()

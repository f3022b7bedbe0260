"""The connection registry: limits for either transport, who hears broadcasts, who watches what."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from server.net.connection import Encoded, Gathered
from server.net.connections import BROADCAST_CHUNK, GATHER_S, PACED_PASS_BYTES, QUIET_S, Connections
from server.settings import Limits
from shared.protocol import ErrorMessage, dump


class Fake:
    def __init__(self, address: str) -> None:
        self.address = address
        self.closed = False
        self.sent: list[object] = []
        self.latest: list[tuple[object, object]] = []
        self.forgotten: list[object] = []
        self.writes = 0
        self.on_write: Callable[[], None] | None = None     # called at its first write of updates

    def send_now(self, message: object) -> bool:
        self.sent.append(message.payload.decode() if isinstance(message, Encoded) else message)
        return True

    def send_latest(self, kind: object, message: Encoded) -> bool:
        self.latest.append((kind, message.payload.decode()))
        return self.send_now(message)

    def send_latest_many(self, gathered: Gathered) -> None:
        self.writes += 1
        if self.on_write is not None:
            self.on_write, on_write = None, self.on_write
            on_write()
        for kind, message in gathered.items:
            self.send_latest(kind, message)

    def forget_latest(self, kind: object) -> None:
        self.forgotten.append(kind)

    def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = True
        self.close_code = code


def test_pending_connections_are_capped_per_address_and_in_all():
    conns = Connections(Limits(max_connections=4, max_pending_per_address=2))
    a1, a2, a3, a4, b1, b2 = Fake("a"), Fake("a"), Fake("a"), Fake("a"), Fake("b"), Fake("b")
    assert conns.add(a1) and conns.add(a2)
    assert conns.add(a3) and a1.closed and a1.close_code == 1013   # a third from the address: the oldest makes way
    assert conns.add(b1) and not conns.add(b2)            # four open in all (a1 until its socket is gone)
    assert not conns.add(a4) and not a2.closed            # over the total: refused, nobody evicted
    conns.remove(a4)                                      # never counted: nothing changes
    assert conns.pending == {"a": 2, "b": 1}
    conns.remove(a1)                                      # the evicted one's socket is gone: no longer open
    assert conns.pending == {"a": 2, "b": 1} and len(conns.open) == 3
    assert conns.add(a4) and a2.closed and conns.pending == {"a": 2, "b": 1}
    for conn in (a2, a3, a4, b1):
        conns.remove(conn)
    assert conns.pending == {} and conns.open == set()


def test_a_greeted_connection_no_longer_counts_as_pending():
    conns = Connections(Limits(max_pending_per_address=1))
    first, second, third = Fake("a"), Fake("a"), Fake("a")
    assert conns.add(first) and conns.add(second) and first.closed     # second took first's place
    assert conns.settle(second, anonymous=False)
    assert conns.add(third) and not second.closed         # the second said hello: no longer pending, never evicted


def test_idle_connections_reopened_at_the_quota_cannot_keep_a_player_out():
    # 32 connections that never say hello, each reopened the moment it is closed (issue 31): the player's
    # connection takes the place of the oldest, and only 32 newer ones could push it out before its hello.
    conns = Connections(Limits())
    crowd = [Fake("nat") for _ in range(32)]
    assert all(conns.add(conn) for conn in crowd)
    def reopen_the_evicted() -> int:
        evicted = [conn for conn in conns.open if conn.closed]
        for conn in evicted:
            conns.remove(conn)
            assert conns.add(Fake("nat"))
        return len(evicted)

    for _ in range(3):                                    # players join and leave, one after another
        player = Fake("nat")
        assert conns.add(player) and conns.pending["nat"] == 32
        assert reopen_the_evicted() == 1                  # even before the player's hello: another of the crowd goes
        assert not player.closed and conns.settle(player, anonymous=False)     # its hello: seated
        assert reopen_the_evicted() == 1                  # the address is under its quota now: nobody goes
        assert reopen_the_evicted() == 0 and conns.pending["nat"] == 32
        conns.remove(player)
    for _ in range(31):                                   # a crowd that opens faster than a hello comes ...
        assert conns.add(Fake("nat"))
    late = Fake("nat")
    assert conns.add(late) and all(conn.closed for conn in crowd)
    for _ in range(31):
        assert conns.add(Fake("nat"))
    assert not late.closed                                # ... needs 32 newer connections to push one out
    assert conns.add(Fake("nat")) and late.closed


def test_a_held_wrong_key_makes_way_before_older_connections():
    conns = Connections(Limits(max_pending_per_address=3))
    first, guess, third = Fake("nat"), Fake("nat"), Fake("nat")
    for conn in (first, guess, third):
        assert conns.add(conn)
    conns.wrong_keys.held.add(guess)                      # its wrong key waits for its answer
    assert conns.add(Fake("nat")) and guess.closed and not first.closed
    assert conns.add(Fake("nat")) and first.closed        # then the oldest, as always


def test_anonymous_connections_are_capped_per_address_but_players_never_are():
    conns = Connections(Limits(max_anonymous_per_address=2, max_pending_per_address=1000))
    eyes = [Fake("nat") for _ in range(3)]
    players = [Fake("nat") for _ in range(10)]
    for conn in eyes + players:
        assert conns.add(conn)
    assert [conns.settle(eye, anonymous=True) for eye in eyes] == [True, True, False]
    assert all(conns.settle(player, anonymous=False) for player in players)
    assert conns.anonymous == {"nat": 2}
    conns.remove(eyes[0])
    assert conns.anonymous == {"nat": 1}


def test_capacity_is_the_smaller_of_the_setting_and_what_the_open_files_allow():
    assert Connections(Limits(max_connections=2048), capacity=512).capacity == 512
    assert Connections(Limits(max_connections=100), capacity=512).capacity == 100


async def test_only_greeted_connections_hear_broadcasts_and_spectators_their_games():
    conns = Connections(Limits())
    probe, player, eye, fan = Fake("x"), Fake("x"), Fake("x"), Fake("x")
    for conn in (probe, player, eye, fan):
        conns.add(conn)
    conns.greeted |= {player, eye, fan}
    conns.spectate(eye)
    conns.watch(eye, "g1")
    conns.spectate(fan)
    conns.watch(fan, "*")
    assert conns.watched("g1") and conns.watched("g2")
    assert conns.watchers("g1") == [eye] and conns.watchers("g2") == []     # fan reads the feed of every game
    note = ErrorMessage(code="rate_limited", message="slow down")
    conns.send_later(list(conns.greeted), note)              # serialised once: every one gets the same text
    await asyncio.sleep(0.01)
    over = ErrorMessage(code="internal_error", message="over")
    await conns.send_all(over)
    assert probe.sent == [] and all(c.sent == [dump(note), dump(over)] for c in (player, eye, fan))
    conns.remove(eye)
    assert eye not in conns.spectators and eye not in conns.greeted


def test_the_watchers_of_a_game_follow_every_change_of_the_spectators():
    conns = Connections(Limits())
    eye, fan, late = Fake("x"), Fake("x"), Fake("x")
    for conn in (eye, fan, late):
        conns.add(conn)
        conns.spectate(conn)
    assert conns.watchers("g1") == [] and not conns.watched("g1")
    conns.watch(eye, "g1")                                   # asked before: found again, not kept stale
    assert conns.watchers("g1") == [eye] and conns.watched("g1") and not conns.watched("g2")
    conns.watch(late, "g2")
    assert conns.watchers("g2") == [late]
    conns.watch(late, "*")                                   # from now on it reads the feed of every game
    assert conns.watchers("g2") == [] and conns.watched("g2")
    conns.remove(late)
    assert conns.watchers("g1") == [eye] and not conns.watched("g2")


async def test_the_final_message_to_all_is_written_a_chunk_per_pass_and_to_everyone_before_it_returns():
    conns = Connections(Limits(max_connections=1000))
    many = [Fake("x") for _ in range(BROADCAST_CHUNK * 2 + 1)]
    for conn in many:
        conns.add(conn)
    conns.greeted |= set(many)
    seen: list[int] = []

    async def meanwhile() -> None:                           # another task: it runs between the chunks
        for _ in range(3):
            seen.append(sum(1 for conn in many if conn.sent))
            await asyncio.sleep(0)
    other = asyncio.create_task(meanwhile())
    await asyncio.sleep(0)                                   # it looks once before the broadcast
    await conns.send_all(ErrorMessage(code="internal_error", message="over"))
    assert all(len(conn.sent) == 1 for conn in many)         # everyone, once, when it returns
    await other
    assert any(0 < count < len(many) for count in seen)      # not all in one pass: others ran between


async def test_a_broadcast_is_written_a_chunk_per_pass_of_the_loop():
    conns = Connections(Limits(max_connections=1000))
    many = [Fake("x") for _ in range(BROADCAST_CHUNK * 2 + 1)]
    for conn in many:
        conns.add(conn)
    conns.send_later(many, ErrorMessage(code="rate_limited", message="slow down"))
    await asyncio.sleep(0)                                   # the first chunk is written
    done = sum(1 for conn in many if conn.sent)
    assert 0 < done < len(many)                              # not all in one pass: others may run between
    for _ in range(20):                                      # bounded
        await asyncio.sleep(0)
    assert all(len(conn.sent) == 1 for conn in many)


async def test_a_paced_broadcast_keeps_to_its_rate_and_the_newest_replaces_the_rest():
    conns = Connections(Limits(max_connections=100), paced_bytes_per_s=PACED_PASS_BYTES / 0.05)
    many = [Fake("x") for _ in range(20)]
    big = ErrorMessage(code="rate_limited", message="x" * (PACED_PASS_BYTES // 4))   # 4 frames per pass
    conns.send_later(many, big, paced=True)
    for _ in range(5):
        await asyncio.sleep(0)
    assert sum(1 for c in many if c.sent) == 4               # one pass, then it waits ~50 ms for its rate
    newer = ErrorMessage(code="rate_limited", message="newer")
    conns.send_later(many, newer, paced=True)                # the old table's rest is dropped
    for _ in range(100):                                     # bounded: ~5 s at most
        if all(c.sent and c.sent[-1] == dump(newer) for c in many):
            break
        await asyncio.sleep(0.05)
    assert all(c.sent[-1] == dump(newer) for c in many)
    assert sum(len(c.sent) for c in many) == 4 + 20          # nobody got the old table after the newer one


async def test_a_paced_broadcast_passes_over_connections_busy_when_their_turn_comes():
    conns = Connections(Limits(max_connections=100))
    idle, playing = Fake("x"), Fake("x")
    busy: set = set()
    conns.send_later([idle, playing], ErrorMessage(code="rate_limited", message="table"), paced=True,
                     busy=lambda: busy)
    busy.add(playing)                                        # its game started before the table went out
    for _ in range(5):
        await asyncio.sleep(0)
    assert len(idle.sent) == 1 and playing.sent == []


def _spectators(conns: Connections, count: int, game: str) -> list[Fake]:
    eyes = [Fake("x") for _ in range(count)]
    for eye in eyes:
        conns.add(eye)
        conns.spectate(eye)
        conns.watch(eye, game)
    return eyes


def _update(text: str) -> Encoded:
    return Encoded.of(ErrorMessage(code="rate_limited", message=text))


async def _written() -> None:
    """Wait out the lull the updates wait for (``QUIET_S``, or ``GATHER_S`` after a drain) and a drain's passes."""
    await asyncio.sleep(2 * max(QUIET_S, GATHER_S))
    for _ in range(5):
        await asyncio.sleep(0)


@pytest.mark.parametrize("watching", ["g1", "*"])
async def test_a_spectators_updates_go_as_latest_state_of_their_game(watching):
    conns = Connections(Limits())
    (eye,) = _spectators(conns, 1, watching)
    conns.publish("g1", _update("update"))
    await _written()
    assert [kind for kind, _ in eye.latest] == [("game", "g1")]


@pytest.mark.parametrize("watching", ["g1", "*"])
async def test_the_backlog_of_latest_state_messages_is_one_per_connection_and_kind(watching):
    conns = Connections(Limits())
    eyes = _spectators(conns, 3, watching)
    for eye in eyes:
        conns.watch(eye, "g2")
    for step in range(1000):                                 # many steps before a single pass of the loop
        conns.publish("g1", _update(f"g1 step {step}"))
        conns.publish("g2", _update(f"g2 step {step}"))
    await _written()
    for eye in eyes:                                         # only the newest of each game was handed over
        assert [message for _, message in eye.latest] == [
            dump(ErrorMessage(code="rate_limited", message="g1 step 999")),
            dump(ErrorMessage(code="rate_limited", message="g2 step 999"))]


async def test_every_spectator_of_every_game_gets_every_update_once_in_order_across_drains():
    conns = Connections(Limits())
    eyes = _spectators(conns, BROADCAST_CHUNK * 2 + 7, "*")     # a drain takes three passes of the loop
    conns.watch(eyes[0], "g1")                               # by its id as well: still once
    texts = ["g1 0", "g2 1", "g3 2", "g2 mid"]
    eyes[30].on_write = lambda: conns.remove(eyes[-1])        # one leaves in the middle: the others do not notice
    eyes[60].on_write = lambda: conns.publish("g2", _update("g2 mid"))   # a step in the middle of a drain
    for text in texts[:3]:
        conns.publish(text.split()[0], _update(text))
    for _ in range(100):
        await _written()
        if all(len(eye.latest) == len(texts) for eye in eyes[:-1]):
            break
    for eye in eyes[:-1]:
        assert [message for _, message in eye.latest] == [dump(ErrorMessage(code="rate_limited", message=text))
                                                          for text in texts]
    assert eyes[0].writes == 2 and eyes[-2].writes == 1     # the later ones had the step in their first write


async def test_the_feed_keeps_only_what_a_spectator_has_not_been_written():
    conns = Connections(Limits())
    eyes = _spectators(conns, 3, "*")
    for n in range(10):
        conns.publish("g1", _update(f"g1 {n}"))
    assert conns.feed_held == 10
    await _written()
    assert conns.feed_held == 0 and all(len(eye.latest) == 10 for eye in eyes)
    conns.publish("g1", _update("g1 10"))
    for eye in eyes:
        conns.remove(eye)
    assert conns.feed_held == 0                              # nobody left to write it to


async def test_a_spectator_that_watches_every_game_gets_the_updates_from_then_on():
    conns = Connections(Limits())
    (early,) = _spectators(conns, 1, "*")
    conns.publish("g1", _update("before"))
    late = _spectators(conns, 1, "*")[0]                     # in the same pass: it joins after that update
    conns.publish("g1", _update("after"))
    await _written()
    assert [message for _, message in early.latest] == [
        dump(ErrorMessage(code="rate_limited", message=text)) for text in ("before", "after")]
    assert [message for _, message in late.latest] == [dump(ErrorMessage(code="rate_limited", message="after"))]


@pytest.mark.parametrize("watching", ["g1", "*"])
async def test_a_game_played_again_from_its_start_loses_its_unsent_updates(watching):
    conns = Connections(Limits())
    (eye,) = _spectators(conns, 1, watching)
    conns.watch(eye, "g2")
    for game in ("g1", "g2"):                                # queued in this pass, not shared out yet
        conns.publish(game, _update(f"{game} old"))
    conns.forget(("game", "g1"))
    await _written()
    assert [kind for kind, _ in eye.latest] == [("game", "g2")]
    assert eye.forgotten == [("game", "g1")]             # and what the connection itself kept for a slow read


@pytest.mark.parametrize("watching", ["g1", "*"])
async def test_flush_writes_the_updates_held_for_their_lull_and_drops_a_paced_table(watching):
    # The tournament's end: the last game's last update must reach the pages before they are closed, and a
    # standings table still being paced out must not follow the final table.
    conns = Connections(Limits(max_connections=1000))
    eyes = _spectators(conns, BROADCAST_CHUNK + 3, watching)     # more than one chunk of connections
    conns.send_later(eyes, ErrorMessage(code="rate_limited", message="x" * PACED_PASS_BYTES), paced=True)
    conns.publish("g1", _update("the last step"))
    await conns.flush()                                      # no sleep: flush itself waits for nothing but the passes
    last = dump(ErrorMessage(code="rate_limited", message="the last step"))
    assert all(eye.latest and eye.latest[-1][1] == last for eye in eyes)
    for _ in range(5):
        await asyncio.sleep(0)
    assert not any("xxx" in str(message) for eye in eyes for message in eye.sent)   # the table is dropped

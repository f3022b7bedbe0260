"""Wrong keys slow down per address (issue 31): a guesser waits longer and longer, a right key never does."""

from __future__ import annotations

import asyncio
import logging

import pytest

from server.net.admission import WrongKeys
from shared.legacy import encode_key
from tests.server.conftest import bounded, url
from tests.server.support import Client, hello


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_first_wrong_keys_are_free_then_each_waits_twice_as_long(caplog):
    clock = Clock()
    keys = WrongKeys(free=3, first_delay_s=0.5, max_delay_s=4.0, quiet_s=60.0, clock=clock)
    caplog.set_level(logging.WARNING, logger="quoridor.server")
    delays = []
    for _ in range(9):
        delays.append(keys.failed("10.0.0.9"))
        clock.now += 1.0                                    # one a second: still one burst
    assert delays == [0, 0, 0, 0.5, 1.0, 2.0, 4.0, 4.0, 4.0]
    assert keys.failed("10.0.0.8") == 0                     # another address: a burst of its own
    for _ in range(3000):                                   # a guesser that never stops: the cap, never more
        clock.now += 0.001
        assert keys.failed("10.0.0.9") == 4.0
    assert [r.getMessage() for r in caplog.records] == [   # one line for the burst, not one per key
        "4 wrong keys from 10.0.0.9 in a row; its further wrong keys are answered after a growing delay "
        "(up to 4 s) until it stops for 60 s"]


def test_a_quiet_minute_ends_the_burst():
    clock = Clock()
    keys = WrongKeys(free=1, first_delay_s=0.5, quiet_s=60.0, clock=clock)
    assert [keys.failed("a"), keys.failed("a")] == [0, 0.5]
    clock.now += 59.0
    assert keys.failed("a") == 1.0                          # not quiet for long enough
    clock.now += 60.0
    assert keys.failed("a") == 0                            # a new burst: a typo is answered at once again


def _fast(server) -> WrongKeys:
    """The server's wrong keys, answered after 0.1 s once slowed (the test waits for the answer, bounded)."""
    keys = server.connections.wrong_keys
    keys.first_delay_s = 0.1
    return keys


@pytest.mark.parametrize("extra", [{}, {"role": "submitter"}, {"room": "sokoban"}],
                         ids=["player", "submitter", "puzzle-room"])
async def test_a_guesser_is_slowed_down_but_a_right_key_from_its_address_is_admitted(make_server, extra):
    server = await make_server(roster={"k1": "Ann", "k2": "Bob"})
    keys = _fast(server)
    for n in range(keys.free):                              # a few typos: answered as they come
        typo = await Client.open(url(server))
        await typo.send(hello(f"guess{n}", **extra))
        assert (await typo.reply())["code"] == "unknown_key" and await typo.closed() == 1008
    guess = await Client.open(url(server))
    await guess.send(hello("guess", **extra))
    await bounded(_until(lambda: len(keys.held) == 1), 5)   # the next one waits for its answer
    await guess.send(hello("k2", **extra))                  # and its connection is not read meanwhile
    right = await Client.open(url(server))
    await right.send(hello("k1", **extra))
    assert (await right.reply())["type"] == "welcome"       # a classmate's right key: admitted at once
    assert (await guess.reply())["code"] == "unknown_key" and await guess.closed() == 1008
    assert [frame["type"] for frame in guess.frames] == ["error"] and not keys.held
    await right.close()


async def test_the_legacy_port_shares_the_count_and_holds_a_guess(make_server):
    server = await make_server(legacy_port=0, roster={"alice": "Alice A.", "bob": "Bob B."})
    keys = _fast(server)
    for n in range(keys.free):                              # guessed over the websocket port
        typo = await Client.open(url(server))
        await typo.send(hello(f"guess{n}"))
        assert (await typo.reply())["code"] == "unknown_key"
    reader, writer = await bounded(asyncio.open_connection("127.0.0.1", server.legacy_port), 5)
    writer.write(encode_key("MALLORY_0A1B2C3D4E5F"))
    await bounded(_until(lambda: len(keys.held) == 1), 5)   # held, not dropped at once
    assert await bounded(reader.read(), 5) == b""           # closed after its delay, never seated
    assert server.lobby.sessions == [] and not keys.held
    writer.close()


async def _until(condition) -> None:
    while not condition():
        await asyncio.sleep(0.01)

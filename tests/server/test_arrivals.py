"""``ArrivalClock``: every read of one pass of the event loop gets the stamp of the pass's first read."""

import asyncio
import socket

from server.net.arrivals import ArrivalClock


class TickingClock:
    """A clock that moves one second at every read, so a stamp taken twice would differ."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return float(self.reads)


async def test_the_reads_of_one_pass_share_the_first_reads_stamp_and_the_next_pass_takes_a_new_one():
    clock = ArrivalClock(TickingClock())
    stamps: list[tuple[int, float]] = []
    both_read = asyncio.Event()

    class Reader(asyncio.Protocol):
        def __init__(self, batch: list[int]) -> None:
            self.batch = batch

        def data_received(self, data: bytes) -> None:
            stamps.append((self.batch[0], clock.now()))
            if len(stamps) % 3 == 0:
                both_read.set()

    loop = asyncio.get_running_loop()
    batch = [1]
    pairs = [socket.socketpair() for _ in range(3)]
    try:
        for ours, _ in pairs:
            await loop.connect_accepted_socket(lambda: Reader(batch), ours)
        for round_ in (1, 2):
            batch[0] = round_
            both_read.clear()
            for _, theirs in pairs:         # all three are ready before the loop polls again
                theirs.send(b"step")
            await asyncio.wait_for(both_read.wait(), 5)
    finally:
        for ours, theirs in pairs:
            ours.close()
            theirs.close()
    first = {stamp for round_, stamp in stamps if round_ == 1}
    second = {stamp for round_, stamp in stamps if round_ == 2}
    assert len(stamps) == 6 and len(first) == 1 and len(second) == 1
    assert second.pop() > first.pop()


async def test_a_stamp_is_never_carried_into_another_event_loop():
    clock = ArrivalClock(TickingClock())
    first = clock.now()
    # The call_soon that forgets the stamp has not run yet; another loop must still take its own.
    other = await asyncio.to_thread(lambda: asyncio.run(_stamp(clock)))
    assert other != first


async def _stamp(clock: ArrivalClock) -> float:
    return clock.now()

"""``StoreThread``: a store's calls run on its own thread in order, its errors come back as they were raised, a
batch is wrapped once, and ``close`` waits for what was queued, closes the store and leaves no thread."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from server.disk.store_thread import StoreClosedError, StoreThread
from tests.server.conftest import bounded

NAME = "quoridor-test-store"


class Shelf:
    """A store in memory that says which thread ran each call; ``gate`` holds the thread in ``wait``."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self.threads: set[str] = set()
        self.batches: list[int] = []
        self.closed_with: list[str] | None = None
        self.gate = threading.Event()
        self.waiting = threading.Event()

    def put(self, item: str) -> int:
        self.threads.add(threading.current_thread().name)
        if item == "bad":
            raise KeyError(item)
        self.items.append(item)
        return len(self.items)

    def wait(self) -> None:
        self.waiting.set()
        self.gate.wait(10)

    @contextmanager
    def batch(self) -> Iterator[None]:
        self.batches.append(len(self.items))
        yield

    def close(self) -> None:
        self.closed_with = list(self.items)


def _alive() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith(NAME)]


async def _open(shelf: Shelf, **kwargs) -> StoreThread[Shelf]:
    return await StoreThread.open(NAME, lambda: shelf, closed=lambda: StoreClosedError("shelf closed"), **kwargs)


async def test_calls_run_in_order_on_the_stores_own_thread_and_return_its_answers():
    shelf = Shelf()
    thread = await _open(shelf)
    answers = await asyncio.gather(*(thread.call(lambda s, i=i: s.put(f"item{i}")) for i in range(5)))
    assert answers == [1, 2, 3, 4, 5] and shelf.items == [f"item{i}" for i in range(5)]
    assert len(shelf.threads) == 1 and next(iter(shelf.threads)).startswith(NAME)
    await thread.close()


async def test_a_stores_error_comes_back_as_raised_and_fails_its_call_alone():
    shelf = Shelf()
    thread = await _open(shelf, batch=Shelf.batch)
    blocked = asyncio.ensure_future(thread.call(Shelf.wait))          # the calls below queue up behind it
    await bounded(asyncio.to_thread(shelf.waiting.wait, 10), 10)
    calls = [asyncio.ensure_future(thread.call(lambda s, x=x: s.put(x))) for x in ("a", "bad", "b")]
    await asyncio.sleep(0)                                              # each task queues its call
    shelf.gate.set()
    await blocked
    outcomes = await asyncio.gather(*calls, return_exceptions=True)
    assert outcomes[0] == 1 and outcomes[2] == 2
    assert type(outcomes[1]) is KeyError and outcomes[1].args == ("bad",)
    assert shelf.items == ["a", "b"] and shelf.batches == [0, 0]       # the three ran as one batch
    await thread.close()


async def test_close_waits_for_the_queued_calls_then_closes_the_store_and_ends_the_thread():
    shelf = Shelf()
    thread = await _open(shelf)
    blocked = asyncio.ensure_future(thread.call(Shelf.wait))
    await bounded(asyncio.to_thread(shelf.waiting.wait, 10), 10)
    writes = [asyncio.ensure_future(thread.call(lambda s, i=i: s.put(f"w{i}"))) for i in range(3)]
    await asyncio.sleep(0)                                              # each task queues its call
    thread.call_later(lambda s: s.put("later"), "a later write")
    closing = asyncio.ensure_future(thread.close())
    await asyncio.sleep(0)
    assert thread.closed and not closing.done()
    with pytest.raises(StoreClosedError, match="shelf closed"):
        await thread.call(lambda s: s.put("too late"))
    shelf.gate.set()
    await bounded(closing, 10)
    await blocked
    assert await asyncio.gather(*writes) == [1, 2, 3]
    assert shelf.closed_with == ["w0", "w1", "w2", "later"] and not _alive()
    await thread.close()                                                # idempotent
    with pytest.raises(StoreClosedError):
        thread.call_later(lambda s: s.put("x"), "x")


async def test_a_store_that_cannot_be_opened_raises_its_error_and_leaves_no_thread():
    def refuse() -> Shelf:
        raise ValueError("not a shelf")

    with pytest.raises(ValueError, match="not a shelf"):
        await StoreThread.open(NAME, refuse, closed=lambda: StoreClosedError("closed"))

    async def gone() -> None:
        while _alive():
            await asyncio.sleep(0.01)
    await bounded(gone(), 5)

"""``SubmissionRecords``: the handed-in bots from the event loop: each call returns the store's answer, its errors come
back as the store raises them, and ``close`` waits for the versions queued before it (issue 30)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from server.disk.store_thread import StoreClosedError
from server.submissions.files import SubmissionError
from server.submissions.records import THREAD_NAME, SubmissionRecords
from server.submissions.store import StoredVersion, SubmissionStore
from tests.server.test_submissions import BOT, LIMITS, zipped


def _accepted(key: str, digest: str, stamp: str = "2026-11-27T10:00:00Z") -> StoredVersion:
    return StoredVersion(key, digest, "bot.py", stamp, True, "ok", "accepted", 0.5, 1, 10)


async def test_each_call_returns_what_the_store_answers(tmp_path):
    records = await SubmissionRecords.open(tmp_path)
    received = await records.receive("k1", zipped(("bot.py", BOT)), None, LIMITS)
    assert received.entry == "bot.py" and received.files == 1 and received.bytes == len(BOT)
    assert received.folder == records.folder(received.digest) and received.folder.is_dir()
    assert received.before is None
    version = _accepted("k1", received.digest)
    assert await records.record(version) == version
    again = await records.receive("k1", zipped(("bot.py", BOT)), None, LIMITS)
    assert again.digest == received.digest and again.before == version       # the same files: the same version
    assert await records.versions("k1") == [version] and await records.versions("k2") == []
    assert await records.latest_accepted() == {"k1": version}
    await records.close()
    store = SubmissionStore(tmp_path)                            # the same answers, read on this thread
    try:
        assert store.versions("k1") == [version] and store.latest_accepted() == {"k1": version}
    finally:
        store.close()


async def test_a_stores_error_comes_back_as_its_own_and_a_closed_store_refuses_calls(tmp_path):
    records = await SubmissionRecords.open(tmp_path)
    with pytest.raises(SubmissionError) as info:
        await records.receive("k1", "this is not base64 !", None, LIMITS)
    assert info.value.code and "\n" not in info.value.message
    with pytest.raises(ValueError, match="not a content digest"):
        records.folder("../../etc")
    await records.close()
    with pytest.raises(StoreClosedError, match="is closed"):
        await records.versions("k1")
    await records.close()                                         # idempotent
    assert not [t for t in threading.enumerate() if t.name.startswith(THREAD_NAME)]


async def test_close_waits_for_the_versions_queued_before_it(tmp_path):
    records = await SubmissionRecords.open(tmp_path)
    versions = [_accepted(f"k{n}", f"{n:064x}") for n in range(5)]
    writes = [asyncio.ensure_future(records.record(v)) for v in versions]
    await asyncio.sleep(0)                                        # each task queues its version
    await records.close()
    assert all(w.done() and w.exception() is None for w in writes)
    store = SubmissionStore(tmp_path)
    try:
        assert store.latest_accepted() == {v.key: v for v in versions}
    finally:
        store.close()

"""``SubmissionRecords``: the handed-in bots as the server uses them, typed ``async`` calls on the store's own thread.

``SubmissionStore`` (``server.submissions.store``) is synchronous: SQLite and the bots' files. ``SubmissionRecords``
owns the one worker thread it runs on (a ``server.disk.store_thread.StoreThread``, as every store's
facade). Calls run in the order they are made, so a version recorded before its submitter hears of
it is in every later listing; cancelling a wait does not cancel the call.
"""

from __future__ import annotations

from pathlib import Path

from server.disk.store_thread import StoreClosedError, StoreFacade, StoreThread
from server.submissions.files import ArchiveLimits
from server.submissions.store import Received, StoredVersion, SubmissionStore

__all__ = ["SubmissionRecords", "THREAD_NAME"]

#: The name (prefix) of the submissions store's worker thread.
THREAD_NAME = "quoridor-submissions"


class SubmissionRecords(StoreFacade[SubmissionStore]):
    """The submissions of a data directory: ``await SubmissionRecords.open(data_dir)``, then one ``async`` method per call.

    Every method raises what ``SubmissionStore`` raises for it (``SubmissionError``, ``ValueError``,
    ``OSError``, ``sqlite3.Error``); after ``close()`` every call raises ``StoreClosedError``.
    """

    @classmethod
    async def open(cls, data_dir: Path) -> SubmissionRecords:
        """Open ``data_dir/submissions.db`` (made with the folder if missing) on a new thread.

        ``ValueError`` in one line for another kind of file or a newer schema; no thread is left behind.
        """
        data_dir = Path(data_dir)
        return cls(await StoreThread.open(THREAD_NAME, lambda: SubmissionStore(data_dir), closed=lambda: StoreClosedError(
            f"the submissions store in {data_dir} is closed; open it again with SubmissionRecords.open")))

    def folder(self, digest: str) -> Path:
        """Where the files of ``digest`` are (or go): a name, no disk (``ValueError`` for a malformed digest)."""
        return self._thread.store.folder(digest)

    async def receive(self, key: str, text: str, entry: str | None, limits: ArchiveLimits) -> Received:
        """Read and check the base64 zip ``text`` (``SubmissionError`` when refused), store its files, find ``key``'s
        earlier version of them."""
        return await self._thread.call(lambda store: store.receive(key, text, entry, limits))

    async def record(self, version: StoredVersion) -> StoredVersion:
        """Store a validated version (a new one, or the same files of the same key validated again)."""
        return await self._thread.call(lambda store: store.record(version))

    async def every_version(self) -> dict[str, list[StoredVersion]]:
        """Every key's versions (newest first), by key."""
        return await self._thread.call(SubmissionStore.every_version)

    async def versions(self, key: str) -> list[StoredVersion]:
        """The versions of ``key``, newest first."""
        return await self._thread.call(lambda store: store.versions(key))

    async def latest_accepted(self, cutoff: str | None = None) -> dict[str, StoredVersion]:
        """Each key's newest accepted version (keys without one left out), by key; with a ``cutoff``, of those handed
        in at or before it (``SubmissionStore.latest_accepted``)."""
        return await self._thread.call(lambda store: store.latest_accepted(cutoff))

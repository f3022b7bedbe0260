"""Handed-in bots' files through the engine, by content digest: the server shelves them, a worker fetches them.

``BotShelf`` (server) reads a bot's folder once, computes its digest (the submission store's own:
``content_digest(files, entry)``, so a handed-in bot's digest is its folder's name) and keeps the
files in the engine as a zip archive under that digest. ``BotCache`` (worker) fetches an archive it
has not got yet, unpacks it as the server checks a handed-in archive (``read_archive``: no absolute
paths, no ``..``, no links, size caps), checks that the files hash to the digest the job names, and
keeps them read-only in its own folder. A version it cannot fetch or that does not match is refused
(``BotUnavailable``), never run.
"""

from __future__ import annotations

import asyncio
import base64
import io
import os
import shutil
import stat
import uuid
import zipfile
from collections.abc import Mapping
from pathlib import Path

from redis.asyncio import Redis

from server.sandbox.host import BotEntry
from server.submissions.files import (
    ArchiveLimits, SubmissionError, content_digest, executable_entry, read_archive, write_tree,
)
from server.queue.engine import Keys

__all__ = ["BotUnavailable", "BotShelf", "BotCache", "read_folder", "zip_text", "SHELF_TTL_S", "CACHE_LIMITS"]

#: Seconds a shelved bot stays in the engine after it was last asked for (a tournament may run for days).
SHELF_TTL_S = 30 * 24 * 3600
#: What a worker unpacks at most: a handed-in bot is at most 4 MB zipped (``--max-submission-bytes``).
CACHE_LIMITS = ArchiveLimits(max_archive_bytes=4 * 1024 * 1024, max_files=10_000, max_unpacked_bytes=64 * 1024 * 1024)
_ZIP_DATE = (2000, 1, 1, 0, 0, 0)


class BotUnavailable(RuntimeError):
    """A worker cannot run a bot version: ``code`` is ``unfetchable``, ``bad_digest`` or ``bad_files``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def read_folder(folder: Path) -> dict[str, bytes]:
    """The files under ``folder`` (relative POSIX path -> bytes); links and other odd entries are refused."""
    files: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        mode = path.lstat().st_mode
        if stat.S_ISDIR(mode):
            continue
        if not stat.S_ISREG(mode):
            raise ValueError(f"{path} is not a regular file; a bot's folder holds files and folders only")
        files[path.relative_to(folder).as_posix()] = path.read_bytes()
    return files


def zip_text(files: Mapping[str, bytes]) -> str:
    """The base64 of a zip archive of ``files`` (the same files, the same text)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=_ZIP_DATE)
            info.external_attr = (stat.S_IFREG | 0o444) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name])
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _pack(bot: BotEntry) -> tuple[str, str]:
    assert bot.folder is not None
    files = read_folder(bot.folder)
    return content_digest(files, bot.spec), zip_text(files)


class BotShelf:
    """The server's side: each handed-in bot of a job goes into the engine under its digest."""

    def __init__(self, redis: Redis, keys: Keys, ttl_s: int = SHELF_TTL_S) -> None:
        self.redis = redis
        self.keys = keys
        self.ttl_s = ttl_s
        self._packed: dict[tuple[Path, str], tuple[str, str]] = {}

    async def put(self, bot: BotEntry, *, force: bool = False) -> str:
        """Shelve ``bot``'s files (once: later calls keep them longer, unless ``force``); their digest."""
        assert bot.folder is not None, "a built-in bot is named, not shelved"
        where = (bot.folder, bot.spec)
        packed = self._packed.get(where)
        if packed is None:      # a handed-in bot's folder never changes: read it once
            packed = self._packed[where] = await asyncio.to_thread(_pack, bot)
        digest, text = packed
        key = self.keys.bot(digest)
        if force or not await self.redis.expire(key, self.ttl_s):
            await self.redis.set(key, text, ex=self.ttl_s)
        return digest


class BotCache:
    """A worker's side: the bots it fetched, unpacked and checked, under ``folder/DIGEST``."""

    def __init__(self, redis: Redis, keys: Keys, folder: Path) -> None:
        self.redis = redis
        self.keys = keys
        self.folder = folder

    async def fetch(self, digest: str, spec: str) -> Path:
        """The folder of the bot whose files hash (with ``spec``) to ``digest``; else ``BotUnavailable``."""
        here = self.folder / digest
        if here.is_dir():
            return here
        text = await self.redis.get(self.keys.bot(digest))
        if text is None:
            raise BotUnavailable("unfetchable", f"bot version {digest[:12]} is not in the engine (never shelved, or "
                                                "expired): this worker cannot fetch it")
        return await asyncio.to_thread(self._install, digest, spec, text.decode("ascii"))

    def _install(self, digest: str, spec: str, text: str) -> Path:
        try:
            files = read_archive(text, CACHE_LIMITS)
        except SubmissionError as exc:
            raise BotUnavailable("bad_files", f"bot version {digest[:12]}: {exc.message}") from None
        found = content_digest(files, spec)
        if found != digest:
            raise BotUnavailable("bad_digest", f"bot version {digest[:12]}: its files hash to {found[:12]}, not to "
                                               "the version the job names; refused")
        self.folder.mkdir(parents=True, exist_ok=True)
        here = self.folder / digest
        fresh = self.folder / f".{digest}.{uuid.uuid4().hex}"
        write_tree(fresh, files, executable=executable_entry(spec))
        try:
            os.rename(fresh, here)
        except OSError:                 # another job of this worker unpacked it meanwhile
            _remove_tree(fresh)
        return here


def _remove_tree(folder: Path) -> None:
    """Remove a read-only tree this worker wrote."""
    for path in [folder, *folder.rglob("*")]:
        if path.is_dir():
            path.chmod(0o755)
    shutil.rmtree(folder, ignore_errors=True)

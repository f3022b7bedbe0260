"""The client's game log files: a free name for each game and an atomic write.

``quoridor-client --save-log`` and ``quoridor-match`` write finished logs only, each in one go:
a log appears under its name through ``os.replace`` of a complete, fsynced temporary file in
the same folder, and the folder is synced after, so a crash leaves the old state or the whole
new file, never half a log. (The server writes its own logs, live ``.part`` files and all, in
``server/logs/logfile.py``; the client does not import the server.)
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Collection
from datetime import UTC, datetime
from pathlib import Path

from shared.gamelog import GameLog, format_log

__all__ = ["DEFAULT_LOG_DIR", "log_path", "new_run_folder", "write_log_atomic", "write_text_atomic"]

#: Where the client writes its logs unless told otherwise.
DEFAULT_LOG_DIR = Path("replays") / "client"

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def log_path(folder: Path, log: GameLog, taken: Collection[Path] = ()) -> Path:
    """A free name for ``log`` under ``folder`` (created): ``<date>-<time>_<game>_<seat 0>_vs_<seat 1>.csv``.

    A name in ``taken`` (a log being written) counts as used, as does an existing file.
    """
    folder.mkdir(parents=True, exist_ok=True)
    started = log.header.started or datetime.now(UTC).isoformat()
    stamp = datetime.fromisoformat(started).astimezone().strftime("%Y%m%d-%H%M%S")
    parts = (stamp, log.header.game or "game", *log.header.players)
    safe = [_UNSAFE.sub("-", part).strip("-.") or "x" for part in parts]
    name = f"{safe[0]}_{safe[1]}_{safe[2]}_vs_{safe[3]}"
    path = folder / f"{name}.csv"
    number = 1
    while path.exists() or path in taken:
        number += 1
        path = folder / f"{name}-{number}.csv"
    return path


def new_run_folder(parent: Path, prefix: str, now: datetime | None = None) -> Path:
    """A new, empty folder of one run's own under ``parent``: ``<prefix><date>-<time>``, or ``…-2``, ``…-3`` when
    another run started in the same second took the name (each name is tried with one ``mkdir`` that fails if it
    exists, so two runs never share a folder, however close together they start)."""
    parent.mkdir(parents=True, exist_ok=True)
    stamp = prefix + (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    folder, number = parent / stamp, 1
    while True:
        try:
            folder.mkdir()
            return folder
        except FileExistsError:      # taken (by a run, or a file of that name): the next number
            number += 1
            folder = parent / f"{stamp}-{number}"


def write_log_atomic(path: Path, log: GameLog) -> None:
    """Write ``log`` to ``path`` so that readers see the old file or the whole new one (never a half file)."""
    write_text_atomic(path, format_log(log))


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` so that readers see the old file or the whole new one (never a half file)."""
    path = Path(path)
    folder = path.parent
    # A hidden name ending in .tmp: a crash may leave it behind, but never under a log's name.
    for _ in range(100):
        tmp = folder / f".{path.name}.{secrets.token_hex(6)}.tmp"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            break
        except FileExistsError:
            continue
    else:  # pragma: no cover - 100 collisions of 48 random bits
        raise FileExistsError(f"no free temporary name for {path} in {folder}")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(folder)


def _fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (POSIX; Windows cannot and need not sync a folder)."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    except OSError:   # some file systems (network, FUSE) cannot sync a folder; the rename is done
        pass
    finally:
        os.close(fd)

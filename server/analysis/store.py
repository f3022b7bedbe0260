"""Analyses kept beside their logs: ``<log path>.analysis.json``, keyed by the log's bytes and the engine's version.

A stored analysis is ``GameAnalysis.to_json()`` plus ``"key"`` (``shared.analysis.analysis_key`` of the log's
bytes: their sha256 and the engine's version). It is current while its key is the log's key now: another engine
version (or a log changed in place) makes it stale, and it is analysed again. Files are written atomically
(``server.logs.logfile.write_text_atomic``), so a reader sees the old analysis or the whole new one. The key
function is given, not imported: the server passes ``shared.analysis.analysis_key`` (``server.analysis.kit``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from shared.analysis.stored import MAX_STORED_BYTES, analysis_name, parse_stored, stored_text
from shared.gamelog import MAX_LOG_BYTES, is_log_name

from server.logs.logfile import PART_SUFFIX, write_text_atomic

__all__ = ["Key", "analysis_path", "read_log_bytes", "stored", "store",
           "finished_logs", "stale_logs"]

Key = Callable[[bytes], str]
"""The store's key of a log's bytes (``shared.analysis.analysis_key``)."""


def analysis_path(log: Path) -> Path:
    """Where the analysis of the log at ``log`` is kept: beside it, ``<log path>.analysis.json``."""
    return log.with_name(analysis_name(log.name))


def read_log_bytes(log: Path) -> bytes:
    """The bytes of the log at ``log`` (at most ``MAX_LOG_BYTES`` + 1: a longer one is no log); ``OSError``."""
    with log.open("rb") as handle:
        return handle.read(MAX_LOG_BYTES + 1)


def stored(log: Path, key: str, nodes: int | None = None) -> dict[str, Any] | None:
    """The analysis stored for ``log`` when it is current (its ``"key"`` is ``key`` and, given ``nodes``, it searched
    that many nodes a position); None when there is none, it is stale, or it cannot be read."""
    try:
        with analysis_path(log).open("rb") as handle:
            data = handle.read(MAX_STORED_BYTES + 1)
    except OSError:
        return None
    return parse_stored(data, key, nodes)


def store(log: Path, analysis: dict[str, Any], key: str) -> Path:
    """Keep ``analysis`` (a ``GameAnalysis.to_json()``) for ``log`` under ``key``, atomically; returns its path."""
    target = analysis_path(log)
    write_text_atomic(target, stored_text(analysis, key))
    return target


def finished_logs(root: Path) -> Iterator[Path]:
    """The finished game logs of ``root`` and of its folders (as the replays list them), in no particular order;
    ``.part`` files (games in progress, or cut short) are not finished."""
    try:
        entries = list(root.iterdir())
    except OSError:
        return
    folders = [root] + [p for p in entries if not p.name.startswith(".") and p.is_dir()]
    for folder in folders:
        try:
            names = [p for p in folder.iterdir()]
        except OSError:
            continue
        for path in names:
            if is_log_name(path.name) and not path.name.endswith(PART_SUFFIX) and path.is_file():
                yield path


def stale_logs(root: Path, key: Key, limit: int, nodes: int | None = None) -> list[Path]:
    """Those of the newest ``limit`` finished logs of ``root`` with no current analysis, oldest first (the order they
    are analysed in); older logs are analysed when a page asks. Each is read to know its key (one that cannot be
    read is left out)."""
    dated = []
    for path in finished_logs(root):
        try:
            dated.append((path.stat().st_mtime, path))
        except OSError:
            continue
    dated.sort(reverse=True)
    stale: list[Path] = []
    for _, path in dated[:limit]:
        try:
            data = read_log_bytes(path)
        except OSError:
            continue
        if stored(path, key(data), nodes) is None:
            stale.append(path)
    stale.reverse()
    return stale

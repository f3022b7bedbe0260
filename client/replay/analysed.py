"""A log file's analysis: made by the engine (``shared.analysis.analyse_game``), or read where it is kept beside it.

An analysis is kept beside its log as ``<log>.analysis.json``: the one JSON form (``GameAnalysis.to_json``) plus
``"key"``, the ``analysis_key`` of the log's bytes and the engine's version; the server keeps its games' analyses
so too. A kept analysis is used only while its key is the log's (the log and the engine unchanged) and it was made
with the budget asked for; otherwise the game is analysed again. Files are written atomically (never half a file).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from shared.analysis import DEFAULT_NODES, GameAnalysis, analyse_game, analysis_key
from shared.analysis.stored import MAX_STORED_BYTES, analysis_name, parse_stored, stored_text
from shared.gamelog import GameLog, read_log_data

from ..logfiles import write_text_atomic
from .sources import read_log_bytes

__all__ = ["AnalysedLog", "analysis_path", "read_stored", "write_stored", "analyse_log_file"]

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class AnalysedLog:
    """A log file, its game and its analysis; ``reused`` when the analysis was read from beside the log."""

    path: Path
    log: GameLog
    analysis: GameAnalysis
    key: str
    reused: bool = False


def analysis_path(log_path: Path) -> Path:
    """Where the analysis of the log at ``log_path`` is kept: beside it, its name + ``.analysis.json``."""
    log_path = Path(log_path)
    return log_path.with_name(analysis_name(log_path.name))


def read_stored(log_path: Path, key: str, nodes: int | None = None) -> GameAnalysis | None:
    """The analysis kept beside ``log_path`` if it is up to date: its key is ``key`` (and its budget ``nodes``, when
    given); None when there is none, it is stale, or it cannot be read (it is then made again)."""
    try:
        with analysis_path(log_path).open("rb") as handle:
            data = parse_stored(handle.read(MAX_STORED_BYTES + 1), key, nodes)
    except OSError:
        return None
    if data is None:
        return None
    try:
        return GameAnalysis.from_json(data)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def write_stored(log_path: Path, analysis: GameAnalysis, key: str) -> Path:
    """Keep ``analysis`` beside ``log_path`` (atomically), under ``key``; returns the file's path."""
    path = analysis_path(log_path)
    write_text_atomic(path, stored_text(analysis.to_json(), key))
    return path


def analyse_log_file(path: Path, *, nodes: int = DEFAULT_NODES, progress: Progress | None = None,
                     reuse: bool = True, store: bool = False) -> AnalysedLog:
    """The analysis of the log at ``path``: the one kept beside it when ``reuse`` and up to date, else made now
    (``progress(done, total)`` after each step) and, with ``store``, kept beside it. ``LogFormatError`` (one line)
    for a file that is no game log; ``OSError`` when the analysis cannot be written."""
    path = Path(path)
    data = read_log_bytes(path)
    log = read_log_data(data, str(path))
    key = analysis_key(data)
    if reuse:
        stored = read_stored(path, key, nodes)
        if stored is not None:
            return AnalysedLog(path, log, stored, key, reused=True)
    analysis = analyse_game(log, nodes=nodes, progress=progress)
    if store:
        write_stored(path, analysis, key)
    return AnalysedLog(path, log, analysis, key)

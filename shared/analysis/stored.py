"""The stored form of an analysis, kept beside its log: ``<log name>.analysis.json``. Pure: the callers read and write.

It is ``GameAnalysis.to_json()`` plus ``"key"`` (``analysis_key`` of the log's bytes: their hash and the engine's
version). A stored analysis is current while its key is the log's key now and, when a budget is asked for, it was
made with that many nodes a position; otherwise it is stale and the game is analysed again. The server
(``server.analysis.store``) and the client (``client.replay.analysed``) both keep analyses in this form.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["ANALYSIS_SUFFIX", "MAX_STORED_BYTES", "analysis_name", "stored_text", "parse_stored"]

ANALYSIS_SUFFIX = ".analysis.json"
"""What a log's name gains to name its analysis: ``game.csv`` -> ``game.csv.analysis.json``."""

MAX_STORED_BYTES = 4 * 1024 * 1024
"""The largest stored analysis read back (a 200-ply game's is about 100 KB): a bigger file is not one of ours."""


def analysis_name(log_name: str) -> str:
    """The file name of the analysis of the log called ``log_name``."""
    return log_name + ANALYSIS_SUFFIX


def stored_text(analysis: dict[str, Any], key: str) -> str:
    """The file's text for ``analysis`` (a ``GameAnalysis.to_json()``) kept under ``key``."""
    return json.dumps({**analysis, "key": key}, separators=(",", ":")) + "\n"


def parse_stored(data: bytes | str, key: str, nodes: int | None = None) -> dict[str, Any] | None:
    """The analysis's JSON form in ``data`` (a stored file's contents) when it is current: its key is ``key`` and,
    given ``nodes``, it searched that many nodes a position; ``None`` when it is stale, too big or not one."""
    if len(data) > MAX_STORED_BYTES:
        return None
    try:
        document = json.loads(data)
    except ValueError:
        return None
    if not isinstance(document, dict) or document.get("key") != key:
        return None
    if nodes is not None and document.get("nodes") != nodes:
        return None
    return document

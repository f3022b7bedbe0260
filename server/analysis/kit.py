"""The analysis the server runs: ``shared.analysis`` behind the two functions an analysis process calls.

A kit is a module with ``analysis_key(log_bytes) -> str`` and ``analyse(log_bytes, name, nodes, progress) ->
dict`` (the ``GameAnalysis.to_json()`` of the log). This is the real one; tests name a fake one of their own
(``AnalysisProcess(kit=...)``) so that the queue's behaviour is tested without the engine's seconds per game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shared.analysis import DEFAULT_NODES, ENGINE_VERSION, analyse_game, analysis_key
from shared.gamelog import read_log_data

__all__ = ["ENGINE_VERSION", "DEFAULT_NODES", "analysis_key", "analyse"]


def analyse(data: bytes, name: str, nodes: int | None = None,
            progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """The analysis of the log whose bytes are ``data`` (``name`` in errors), at ``nodes`` per position (None: the
    engine's default), as JSON; ``LogFormatError`` for bytes that are no game log."""
    log = read_log_data(data, name)
    return analyse_game(log, nodes=DEFAULT_NODES if nodes is None else nodes, progress=progress).to_json()

"""``Analyses``: a server's analyses: its finished games queued (``BackgroundAnalyser``), and the pages' answers.

``answer(game)`` is ``GET /analysis/<GAME>.json`` (``server.web.http``): ``GAME`` is a game id this server
played (remembered from ``game_finished``, the newest ``IDS_KEPT``) or a log's path in the data directory, as
the game page names games (``server.web.records.log_path`` keeps it inside). 200 with the stored analysis
(``{"status": "ready", ...GameAnalysis JSON, "key": ...}``) when it is current; 202 ``{"status": "pending",
"position": N}`` while it waits (a game not yet queued, or in the backlog, is queued ahead of the backlog;
``position`` is the number of games analysed before it, 0 while it is analysed); 404 for no such finished game
(or one not analysed on a server whose analysis is off); 500 ``{"status": "failed", "message": ...}`` when its
analysis failed. It reads the log (to
know its key) and the stored analysis, both bounded; it is called on the event loop, like the static files.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from http import HTTPStatus
from pathlib import Path
from typing import Any

from server.analysis.analyser import BackgroundAnalyser
from server.analysis.store import Key, read_log_bytes, stored
from server.logs.logfile import PART_SUFFIX
from server.web.records import log_path

__all__ = ["Analyses", "IDS_KEPT", "MAX_GAME_CHARS"]

#: Game ids remembered with their logs (older games are found by their log's path, as the replays list them).
IDS_KEPT = 10_000
#: The longest game name asked for (a folder and a log's name: ``server.web.records.log_path`` allows 200 each).
MAX_GAME_CHARS = 420


class Analyses:
    """The analyses of the games of ``data_dir``: queued by ``analyser`` (None: the analysis is off), keyed by ``key``
    (``shared.analysis.analysis_key``), at ``nodes`` a position (None: any stored number is current)."""

    def __init__(self, data_dir: Path, key: Key, analyser: BackgroundAnalyser | None = None, *,
                 nodes: int | None = None) -> None:
        self.data_dir = data_dir
        self.key = key
        self.analyser = analyser
        self.nodes = nodes
        self._logs: OrderedDict[str, Path] = OrderedDict()

    def start(self) -> None:
        """Start analysing in the background (nothing when the analysis is off)."""
        if self.analyser is not None:
            self.analyser.start()

    def close(self) -> None:
        """Stop analysing and end the analysis process (blocks a few seconds at most: call it off the event loop)."""
        if self.analyser is not None:
            self.analyser.close()

    def game_finished(self, game: str, log: Path) -> None:
        """The game ``game``'s log ``log`` is finished (none for a forfeit): its analysis is queued."""
        self._logs[game] = log
        self._logs.move_to_end(game)
        while len(self._logs) > IDS_KEPT:
            self._logs.popitem(last=False)
        if self.analyser is not None:
            self.analyser.finished(log)

    def log_of(self, game: str) -> Path | None:
        """The finished log ``game`` names (a game id of this server's, or a log's path in the data directory)."""
        if not 0 < len(game) <= MAX_GAME_CHARS:
            return None
        known = self._logs.get(game)
        if known is not None:
            return known
        path = log_path(self.data_dir, game)
        return None if path is None or path.name.endswith(PART_SUFFIX) else path

    def answer(self, game: str) -> tuple[HTTPStatus, dict[str, Any]]:
        """The status and JSON body of ``GET /analysis/<game>.json`` (see the module doc)."""
        path = self.log_of(game)
        if path is None:
            return _missing(game)
        try:
            data = read_log_bytes(path)
        except OSError:
            return _missing(game)
        analysis = stored(path, self.key(data), self.nodes)
        if analysis is not None:
            return HTTPStatus.OK, {"status": "ready", **analysis}
        if self.analyser is None:
            return HTTPStatus.NOT_FOUND, {"status": "off", "message": f"{game} is not analysed: this server analyses "
                                          "no games (--analysis off)"}
        failure = self.analyser.failure(path)
        if failure is not None:
            return HTTPStatus.INTERNAL_SERVER_ERROR, {"status": "failed", "message": failure}
        return HTTPStatus.ACCEPTED, {"status": "pending", "position": self.analyser.ask(path)}

    def answer_bytes(self, game: str) -> tuple[HTTPStatus, bytes]:
        """``answer`` as the HTTP response's status and body."""
        status, body = self.answer(game)
        return status, json.dumps(body, separators=(",", ":")).encode("utf-8")


def _missing(game: str) -> tuple[HTTPStatus, dict[str, Any]]:
    return HTTPStatus.NOT_FOUND, {"status": "missing", "message": f"no finished game {game[:100]!r} on this server"}

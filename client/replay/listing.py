"""The games of a folder (a tournament's, or any folder of logs): players, results, where each log is.

A tournament folder written by the server has ``results.json``; its games are listed from it,
in play order. Logs the file does not mention (a game still being played: ``.csv.part``) and
folders without ``results.json`` are listed by reading each log. A folder of tournament
folders (``replays/``) lists the games of each.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared.gamelog import PART_SUFFIX, TABLES, LogFormatError, is_log_name

from .sources import load_game

__all__ = ["GameEntry", "FolderError", "list_folder", "SCORES", "NOT_LOGS"]

SCORES = {0: "1-0", 1: "0-1", None: "½-½"}
"""The score of a finished game by winner seat (None: a draw)."""
NOT_LOGS = TABLES
"""The ``.csv`` files of a tournament folder that are no game logs (``shared.gamelog.TABLES``)."""
_PART = PART_SUFFIX


class FolderError(ValueError):
    """A folder that holds no games to list."""


@dataclass(frozen=True)
class GameEntry:
    """One game of a folder; ``path`` is None when it has no log to open (``note`` says why)."""

    game: str
    white: str
    black: str
    #: ``1-0``, ``0-1``, ``½-½``; ``*`` while unfinished; ``?`` when the log cannot be read.
    score: str
    #: How it ended (``goal``, ``step cap``, ``goal, unverified``...), or ``unfinished``, ``no result``,
    #: ``not a game log``.
    result: str
    path: Path | None
    steps: int | None = None
    note: str = ""

    @property
    def openable(self) -> bool:
        """True when there is a log file to replay."""
        return self.path is not None


def list_folder(folder: Path) -> list[GameEntry]:
    """The games in ``folder`` (see the module doc); ``FolderError`` when there are none."""
    folder = Path(folder)
    if not folder.is_dir():
        raise FolderError(f"{folder}: not a folder")
    entries = _list_one(folder)
    if not entries:   # replays/: a folder of tournament folders
        for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
            entries += [_prefixed(sub.name, e) for e in _list_one(sub)]
    if not entries:
        raise FolderError(f"{folder}: no game logs here (expected .csv logs or a tournament's results.json)")
    return entries


def _prefixed(prefix: str, entry: GameEntry) -> GameEntry:
    return GameEntry(f"{prefix}/{entry.game}", entry.white, entry.black, entry.score, entry.result,
                     entry.path, entry.steps, entry.note)


def _logs(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if is_log_name(p.name) and p.is_file())


def _list_one(folder: Path) -> list[GameEntry]:
    results = folder / "results.json"
    entries: list[GameEntry] = []
    listed: set[Path] = set()
    if results.is_file():
        try:
            entries = _from_results(folder, json.loads(results.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            entries = []     # unreadable or of another shape: fall back to reading the logs themselves
        listed = {e.path.resolve() for e in entries if e.path is not None}
    for path in _logs(folder):
        if path.resolve() not in listed:
            entries.append(_from_log(path))
    return entries


def _from_results(folder: Path, document: dict[str, Any]) -> list[GameEntry]:
    entries = []
    for game in document["games"]:
        white, black = str(game["white"]), str(game["black"])
        path = _log_path(folder, game.get("log_path"))
        finished = game.get("status") == "finished"
        score = str(game.get("result") or "*").replace("1/2-1/2", "½-½")
        reason = game.get("reason")
        result = str(reason or "?").replace("_", " ") if finished else str(game.get("status") or "unfinished")
        note = "" if path is not None else ("no log" if reason != "forfeit" else "forfeit: no log")
        steps = game.get("steps")
        entries.append(GameEntry(str(game.get("game_id") or "?"), white, black, score if finished else "*", result,
                                 path, steps if isinstance(steps, int) else None, note))
    return entries


def _log_path(folder: Path, text: Any) -> Path | None:
    """The log of a ``results.json`` row: by its name in ``folder`` (the folder may have moved), else as written."""
    if not isinstance(text, str) or not text:
        return None
    here = folder / Path(text).name
    if here.is_file():
        return here
    part = folder / (Path(text).name + ".part")
    if part.is_file():
        return part
    return Path(text) if Path(text).is_file() else None


def _from_log(path: Path) -> GameEntry:
    name = path.name.removesuffix(".part").removesuffix(".csv")
    try:
        game = load_game(path)
    except LogFormatError as exc:
        return GameEntry(name, "?", "?", "?", "not a game log", None, None, str(exc))
    white, black = game.players
    if game.over:
        score, result = SCORES[game.winner], str(game.reason).replace("_", " ")
        if game.end_unverified:     # what the log's last row says, past a disagreement
            result += ", unverified"
    else:
        score, result = "*", "unfinished" if path.name.endswith(_PART) else game.result()
    note = f"disagrees with the rules at {game.problems[0].split(':')[0]}" if game.problems else ""
    return GameEntry(name, white, black, score, result, path, game.rows, note)

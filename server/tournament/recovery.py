"""Finished games' logs as evidence: the results a database lost, found again in the tournament's folder.

A result is stored after its game's log is in place, and both are on disk when the players hear of
it. So a finished log (``t1-r2-p3-g1_alice_vs_bob.csv``) whose game the database calls pending says
that the database lost it: its ``-wal`` file was deleted (copying ``arena.db`` alone), cut short or
garbled (SQLite drops every commit from the first bad frame on). ``logged_games`` lists a folder's
finished logs by game id; ``recover`` reads the ones of the games asked about (with the one log
reader, ``shared.gamelog.read_log_data``) and returns each game's result as its log tells it, or why
a log cannot be taken. Synchronous file reads: the runner calls it off the event loop.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from shared.gamelog import LogFormatError
from shared.gamelog.folder import LOG_SUFFIX, is_log_name
from shared.tournament import GameResult, ScheduledGame

from server.logs.logfile import read_log

__all__ = ["LoggedGame", "Unreadable", "logged_games", "recover", "replay_number"]

#: A game id as the runner makes them (``t3-r1-p2-g1``, a voided game's replay ``t3-r1-p2-g1-replay1``).
_GAME_ID = re.compile(r"(t\d+-r\d+-p\d+-g\d+)(?:-replay(\d+))?")


@dataclass(frozen=True)
class LoggedGame:
    """A scheduled game's result as its finished log tells it, and what the results database keeps of it."""

    game: ScheduledGame
    result: GameResult
    game_id: str
    log_path: Path
    started_at: str | None
    ended_at: str
    steps: int


@dataclass(frozen=True)
class Unreadable:
    """A finished log of a scheduled game that cannot be taken as its result: kept as it is, and why."""

    log_path: Path
    why: str


def logged_games(folder: Path) -> dict[str, list[Path]]:
    """The finished game logs in ``folder`` by the game id they were played under (a replay's under its first
    id, the latest replay first); an empty mapping when the folder does not exist."""
    found: dict[str, list[tuple[int, Path]]] = {}
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return {}
    for name in names:
        if not is_log_name(name) or not name.lower().endswith(LOG_SUFFIX):
            continue
        match = _GAME_ID.fullmatch(name.split("_", 1)[0])
        if match is not None:
            found.setdefault(match[1], []).append((replay_number(folder / name), folder / name))
    return {game_id: [path for _, path in sorted(paths, reverse=True)] for game_id, paths in found.items()}


def replay_number(path: Path) -> int:
    """Which attempt at its game the log at ``path`` is by its name: 0 for the first, N for ``…-replayN``."""
    match = _GAME_ID.fullmatch(path.name.split("_", 1)[0])
    return int(match[2] or 0) if match is not None else 0


def recover(games: Iterable[tuple[ScheduledGame, str]], logs: Mapping[str, list[Path]],
            since: str | None = None) -> list[LoggedGame | Unreadable]:
    """For each ``(game, game_id)`` with a finished log in ``logs`` (``logged_games``): its result as the log
    tells it (the latest replay that reads as this game), else why none of its logs can be taken. ``since``: when
    the tournament was created (ISO 8601); a log of a game started before it is another tournament's."""
    found: list[LoggedGame | Unreadable] = []
    for game, game_id in games:
        paths = logs.get(game_id, [])
        problems: list[Unreadable] = []
        for path in paths:
            taken = _read(game, path, since)
            if isinstance(taken, LoggedGame):
                found.append(taken)
                break
            problems.append(taken)
        else:
            found.extend(problems)
    return found


def _read(game: ScheduledGame, path: Path, since: str | None) -> LoggedGame | Unreadable:
    try:
        played = read_log(path)
        ended = datetime.fromtimestamp(path.stat().st_mtime, UTC).isoformat(timespec="milliseconds")
    except (LogFormatError, OSError) as exc:
        return Unreadable(path, str(exc))
    if played.outcome is None:
        return Unreadable(path, "it has no result row")
    if played.header.players != (game.white, game.black):
        return Unreadable(path, f"it is a game of {played.header.players[0]} vs {played.header.players[1]}, "
                                f"not of {game.white} vs {game.black}")
    started = played.header.started
    if since is not None and (started is None or _instant(started) < _instant(since)):
        return Unreadable(path, f"it was played {'at an unknown time' if started is None else 'at ' + started}, "
                                f"before this tournament was created ({since}): another tournament's")
    outcome = played.outcome
    result = GameResult(game.white, game.black, outcome.winner, outcome.reason, outcome.thinking_ms,
                        outcome.violations)
    game_id = played.header.game or path.name.split("_", 1)[0]
    return LoggedGame(game, result, game_id, path, played.header.started, ended, len(played.steps))


def _instant(stamp: str) -> datetime:
    """An ISO 8601 time (``Z`` or an offset; none: UTC) as an aware datetime."""
    moment = datetime.fromisoformat(stamp)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)

"""What comes out of the results store (its rows: ``rows``): ``results.json``/``results.csv`` written atomically,
with the course's old server's ``result.csv`` and ``player_list.csv`` beside them (``legacy_results``).

Also the JSON encoding the store uses for settings and standings, so both speak the same JSON.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from shared.tournament import swiss_byes, swiss_tie_breaks

from server.tournament.legacy_results import PLAYER_LIST_CSV, RESULT_CSV, player_list_csv, result_csv
from server.logs.logfile import write_text_atomic
from server.tournament.rows import GameRow, TournamentRow

__all__ = ["EXPORT_VERSION", "CSV_COLUMNS", "to_json", "result_text",
           "export_documents", "write_export", "legacy_paths"]

EXPORT_VERSION = 1
"""The ``export_version`` of ``results.json``; raised when a field changes meaning or disappears."""

CSV_COLUMNS = (
    "round", "pairing", "game_in_pairing", "game_id", "white", "black", "status", "result", "winner",
    "reason", "white_thinking_ms", "black_thinking_ms", "white_violations", "black_violations", "steps",
    "started_at", "ended_at", "log_path",
)
"""The header of ``results.csv``, in column order."""


def _plain(value: Any) -> Any:
    """``value`` as JSON-ready data; JSON has no infinity, so non-finite floats become None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if value is None or isinstance(value, (str, int)):
        return value
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _plain(dataclasses.asdict(value))
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    raise TypeError(f"{type(value).__name__} value {value!r} cannot be written as JSON")


def to_json(value: Any, *, indent: int | None = None) -> str:
    """Strict JSON for ``value``: paths become strings, dataclasses objects, ±inf and nan null.

    Raises TypeError (or ValueError) for anything else JSON cannot hold.
    """
    return json.dumps(_plain(value), indent=indent, ensure_ascii=False, allow_nan=False)


def result_text(winner: int | None, finished: bool, reason: str | None = None) -> str | None:
    """The chess-style score of a game: "1-0", "0-1", "1/2-1/2", "0-0" (a double forfeit: no winner, reason
    ``forfeit``); None while it is not finished."""
    if not finished:
        return None
    if winner is None and reason == "forfeit":
        return "0-0"
    return {0: "1-0", 1: "0-1", None: "1/2-1/2"}[winner]


def _game_dict(game: GameRow) -> dict[str, Any]:
    finished = game.status == "finished"
    return {
        "round": game.round, "pairing": game.pairing, "game_in_pairing": game.game_in_pairing,
        "game_id": game.game_id, "white": game.white, "black": game.black, "status": game.status,
        "result": result_text(game.winner, finished, game.reason),
        "winner": None if game.winner is None else game.players[game.winner],
        "reason": game.reason, "thinking_ms": list(game.thinking_ms), "violations": list(game.violations),
        "steps": game.steps, "log_path": game.log_path, "started_at": game.started_at, "ended_at": game.ended_at,
    }


def _standings(tournament: TournamentRow, games: Sequence[GameRow]) -> list[dict[str, Any]] | None:
    """The stored final standings; a Swiss's rows also get their ``buchholz`` and ``sonneborn_berger``,
    computed from the finished games and the byes (the players without a game in a round)."""
    if tournament.standings is None:
        return None
    rows = [dict(row) for row in tournament.standings]
    if tournament.format == "swiss":
        ties = swiss_tie_breaks(tournament.players, [g for g in games if g.status == "finished"],
                                swiss_byes(tournament.players, games), tournament.games_per_pairing)
        for row in rows:
            if row.get("player") in ties:
                tie = ties[row["player"]]
                row.update(buchholz=tie.buchholz, sonneborn_berger=tie.sonneborn_berger)
    return rows


def export_documents(tournament: TournamentRow, games: Sequence[GameRow]) -> tuple[str, str]:
    """The text of ``results.json`` and of ``results.csv`` for ``tournament`` and its ``games``."""
    rows = [_game_dict(game) for game in games]
    document = {
        "export_version": EXPORT_VERSION,
        "tournament": {
            "id": tournament.id, "name": tournament.name, "format": tournament.format,
            "games_per_pairing": tournament.games_per_pairing, "seed": tournament.seed,
            "created_at": tournament.created_at, "finished": tournament.finished,
            "finished_at": tournament.finished_at, "settings": tournament.settings,
        },
        "players": list(tournament.players),
        "games": rows,
        "standings": _standings(tournament, games),
    }
    buffer = io.StringIO()
    writer = csv.writer(buffer)  # RFC 4180: CRLF line ends, quotes only where needed
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        flat = dict(row, white_thinking_ms=row["thinking_ms"][0], black_thinking_ms=row["thinking_ms"][1],
                    white_violations=row["violations"][0], black_violations=row["violations"][1])
        writer.writerow(["" if flat[column] is None else flat[column] for column in CSV_COLUMNS])
    return to_json(document, indent=2) + "\n", buffer.getvalue()


def legacy_paths(folder: Path) -> tuple[Path, Path]:
    """Where ``write_export`` puts the old server's ``result.csv`` and ``player_list.csv`` in ``folder``."""
    return Path(folder) / RESULT_CSV, Path(folder) / PLAYER_LIST_CSV


def write_export(folder: Path, tournament: TournamentRow, games: Sequence[GameRow]) -> tuple[Path, Path]:
    """Write ``folder/results.json`` and ``folder/results.csv`` (creating ``folder``); returns both paths.

    Then the old server's ``result.csv`` and ``player_list.csv`` (``legacy_paths``; times in the
    server's local time, as the old server wrote them). Each file is replaced atomically; the four
    are written one after the other, JSON first.
    """
    folder = Path(folder)
    json_text, csv_text = export_documents(tournament, games)
    old_texts = result_csv(tournament, games), player_list_csv(tournament)
    folder.mkdir(parents=True, exist_ok=True)
    json_path, csv_path = folder / "results.json", folder / "results.csv"
    write_text_atomic(json_path, json_text)
    write_text_atomic(csv_path, csv_text)
    for path, text in zip(legacy_paths(folder), old_texts):
        write_text_atomic(path, text)
    return json_path, csv_path

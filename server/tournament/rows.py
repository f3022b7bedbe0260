"""The rows of the results store as values: a tournament and a game, as the store reads them back.

Their own module, so that the exports (``export``, ``legacy_results``) and the store can all use them
without importing each other.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["TournamentRow", "GameRow", "Entrant"]


@dataclass(frozen=True)
class Entrant:
    """Who a tournament's player is: its key (None: not known, an older file), and the handed-in version it played
    (None: a connected bot)."""

    key: str | None = None
    version: str | None = None


@dataclass(frozen=True)
class TournamentRow:
    """One stored tournament; ``players`` in seat order, ``standings`` None until it is finished."""

    id: int
    name: str
    format: str
    games_per_pairing: int
    seed: int | None
    players: tuple[str, ...]
    settings: dict[str, Any] = field(hash=False)
    created_at: str
    finished_at: str | None
    standings: tuple[dict[str, Any], ...] | None = field(hash=False)
    #: Each player's key and handed-in version, by name (``create_tournament``'s ``entrants``; none in older files).
    entrants: dict[str, Entrant] = field(default_factory=dict, hash=False)

    @property
    def finished(self) -> bool:
        """True once ``finish_tournament`` was called."""
        return self.finished_at is not None

    @classmethod
    def from_columns(cls, row: Any, players: Sequence[str],
                     entrants: dict[str, Entrant] | None = None) -> TournamentRow:
        """The row for a ``tournaments`` record (an sqlite3.Row or a dict; JSON text decoded), its players and
        who they are."""
        standings = None if row["standings"] is None else tuple(json.loads(row["standings"]))
        return cls(row["id"], row["name"], row["format"], row["games_per_pairing"], row["seed"], tuple(players),
                   json.loads(row["settings"]), row["created_at"], row["finished_at"], standings, entrants or {})


@dataclass(frozen=True)
class GameRow:
    """One stored game; the result fields are meaningful when ``status`` is "finished".

    It has the attributes (and ``players``, ``points``) of a ``GameResult``, so standings can take it.
    """

    round: int
    pairing: int
    game_in_pairing: int
    white: str
    black: str
    status: str
    game_id: str | None
    winner: int | None
    reason: str | None
    thinking_ms: tuple[int, int]
    violations: tuple[int, int]
    log_path: str | None
    started_at: str | None
    ended_at: str | None
    steps: int

    @classmethod
    def from_columns(cls, row: Any) -> GameRow:
        """The row for a ``games`` record (an sqlite3.Row or a dict; one column per seat for the pairs)."""
        return cls(row["round"], row["pairing"], row["game_in_pairing"], row["white"], row["black"],
                   row["status"], row["game_id"], row["winner"], row["reason"],
                   (row["white_thinking_ms"], row["black_thinking_ms"]),
                   (row["white_violations"], row["black_violations"]),
                   row["log_path"], row["started_at"], row["ended_at"], row["steps"])

    @property
    def key(self) -> tuple[int, int, int]:
        """``(round, pairing, game_in_pairing)``: the game's identity inside its tournament."""
        return self.round, self.pairing, self.game_in_pairing

    @property
    def players(self) -> tuple[str, str]:
        """``(white, black)``: the players by seat."""
        return self.white, self.black

    def points(self, seat: int) -> float:
        """The points seat ``seat`` scored in a finished game: 1 win, 0.5 draw, 0 loss or double forfeit (no winner,
        reason ``forfeit``: neither player came)."""
        if self.winner is None:
            return 0.0 if self.reason == "forfeit" else 0.5
        return 1.0 if self.winner == seat else 0.0

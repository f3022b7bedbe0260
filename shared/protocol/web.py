"""The frames the browser pages ask with: a game's steps, the replay listing, an uploaded log. Pure models.

A spectator sends them beside ``watch``; the answers are ``game_record`` (in ``messages``: every
step of one game, each a ``game_update``, so one renderer shows live and finished games) and
``replays`` (the tournaments and games of the server's data directory).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Message, ProtocolModel

__all__ = [
    "MAX_UPLOAD_BYTES",
    "GameRequest",
    "LogUpload",
    "ReplayFolder",
    "ReplayGameEntry",
    "Replays",
    "ReplaysRequest",
]

MAX_UPLOAD_BYTES = 96 * 1024
"""The largest log text a ``log_upload`` may carry (a game of 200 steps is about 10 KB)."""


class GameRequest(Message):
    """Spectator -> server: every step so far of one game (live or finished), answered by ``game_record``."""

    type: Literal["game_request"] = "game_request"
    game: str = Field(min_length=1, max_length=300,
                      description="A game id (live or finished in this tournament), or a log's path from `replays`.")


class ReplaysRequest(Message):
    """Spectator -> server: the tournaments and games of the data directory, answered by ``replays``."""

    type: Literal["replays_request"] = "replays_request"


class LogUpload(Message):
    """Spectator -> server: a game log's text to read with the server's log reader; never stored."""

    type: Literal["log_upload"] = "log_upload"
    name: str = Field("upload.csv", min_length=1, max_length=200, description="The file's name, for messages.")
    csv: str = Field(max_length=MAX_UPLOAD_BYTES, description="The log's text (CSV), at most 96 KiB.")


class ReplayGameEntry(ProtocolModel):
    """One game of a replay folder."""

    game: str = Field(description="The game id.")
    white: str = Field(description="Seat 0's name.")
    black: str = Field(description="Seat 1's name.")
    score: str = Field(description="`1-0`, `0-1`, `½-½`, `*` (unfinished) or `?`.")
    result: str = Field(description="How it ended (`goal`, `step cap`, ...), or `unfinished`.")
    path: str | None = Field(description="The log's path to send in `game_request`, or null (no log).")


class ReplayFolder(ProtocolModel):
    """One tournament (folder) of the data directory."""

    name: str = Field(description="The folder's name.")
    games: list[ReplayGameEntry] = Field(description="Its games in play order.")


class Replays(Message):
    """Server -> spectator: the answer to ``replays_request``."""

    type: Literal["replays"] = "replays"
    folders: list[ReplayFolder] = Field(description="The tournaments, newest first.")

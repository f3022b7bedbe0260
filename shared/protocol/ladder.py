"""The practice ladder's frames for the pages: what the ladder is doing, its published table, a version's report.

A page on a ladder server (its ``welcome``'s ``server`` ends in ``(practice ladder)``) sends
``ladder_request`` and gets ``ladder``; the server sends ``ladder`` again to every spectator when
something changes (a game ended, the table was refitted, the ladder fell idle or plays again).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from .base import Message, ProtocolModel
from .web import ReplayGameEntry

__all__ = ["Ladder", "LadderRequest", "LadderRow"]


class LadderRequest(Message):
    """Spectator -> server (practice ladder): the ladder now, with one version's report; answered by ``ladder``."""

    type: Literal["ladder_request"] = "ladder_request"
    report: str | None = Field(None, min_length=1, max_length=120,
                               description="A version (`bot@version`, as in the table's `track`) whose report to "
                                           "include, or null.")


class LadderRow(ProtocolModel):
    """One version in the ladder's published table (a Bradley-Terry fit over the games of current versions)."""

    rank: int = Field(description="1 for the best rating.")
    track: str = Field(description="`bot@version`: the bot and the first 8 characters of its version.")
    bot: str = Field(description="The bot's name.")
    version: str = Field(description="The version the bot plays under (a hash of its source, or its own).")
    rating: float | None = Field(description="The published rating (`random` = 0 when it is a resident); null while "
                                             "no game links the version to the others.")
    low: float | None = Field(description="The rating's 95% interval, its low end (null with the rating).")
    high: float | None = Field(description="The rating's 95% interval, its high end (null with the rating).")
    games: int = Field(description="Games played by this version.")
    score: float = Field(description="1 per win, 0.5 per draw.")
    wins: int = Field(description="Games won.")
    losses: int = Field(description="Games lost.")
    draws: int = Field(description="Games drawn.")
    state: Literal["playing", "waiting", "paused", "away"] = Field(
        description="playing a game now, connected and waiting for one, connected but paused, or not connected.")


class Ladder(Message):
    """Server -> spectator (practice ladder): the published table, what plays now, why nothing does, recent games."""

    type: Literal["ladder"] = "ladder"
    games_played: int = Field(description="Games played since the server started.")
    bots: int = Field(description="Bots connected now (residents included).")
    playing: int = Field(description="Games in progress.")
    games: list[str] = Field([], description="The ids of the games in progress (a page drops the boards of others: a "
                                             "game a bot left ends without a last `game_update`).")
    idle: str | None = Field(description="Why no game is played now, for people; null while games are played.")
    resumes_in_s: float | None = Field(None, description="When idle: seconds until play resumes, if known (null: "
                                                         "once a bot connects).")
    rows: list[LadderRow] = Field(description="The published table, best first (refitted every minute or so).")
    recent: list[ReplayGameEntry] = Field(description="The latest finished games, newest first; `path` is the "
                                                      "game id to send in `game_request`.")
    report: dict[str, Any] | None = Field(None, description="With `ladder_request`'s `report`: that version's report, "
                                                            "as `quoridor-server --ladder --report BOT --json` writes "
                                                            "it; else null.")

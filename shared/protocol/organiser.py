"""The organiser's page's frames: every key's versions, games, violations, pauses and idleness, on a key's request.

A page (a spectator) sends ``organiser_request`` with a key typed by the person at it, never in a URL:
the organiser's key (``--organiser-key``, or a roster line ``KEY NAME organiser``) gets every key's row, a
player's own key gets its own row only. The answer is ``organiser``; a wrong key is refused as a wrong
``hello`` key is (``unknown_key``, then the connection closes; slowed down per address).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Message, ProtocolModel

__all__ = ["MAX_VERSIONS_SHOWN", "Organiser", "OrganiserRequest", "OrganiserRow", "OrganiserTournament",
           "OrganiserVersion", "WorstGame"]

#: The versions a row lists at most (the newest); the others are counted (``older_versions``).
MAX_VERSIONS_SHOWN = 8


class OrganiserRequest(Message):
    """Spectator -> server: the organiser's page for ``key``; answered by ``organiser`` (or refused: ``unknown_key``)."""

    type: Literal["organiser_request"] = "organiser_request"
    key: str = Field(min_length=1, max_length=64, pattern=r"^[!-~]+$",
                     description="The organiser's key (every key's row), or a player's key (its own row only): 1 to 64 "
                                 "printable ASCII characters, as a roster's keys.")


class OrganiserVersion(ProtocolModel):
    """One version a key handed in, as the submissions' store keeps it."""

    version: str = Field(description="The version id (12 hex digits of the files' hash).")
    entry: str = Field(description="The bot's entry (`FILE[:CLASS]`, or a C++ bot's or a program's name).")
    submitted_at: str = Field(description="When it was handed in (ISO 8601, UTC).")
    validated_at: str | None = Field(description="When its validation ended (ISO 8601, UTC); null when not known.")
    accepted: bool = Field(description="True when it passed validation (it plays); false when refused.")
    cause: str = Field(description="The validation's cause code (`ok`, or why it was refused).")
    reason: str = Field(description="The validation's reason, for people.")


class WorstGame(ProtocolModel):
    """A game worth a look: a loss by its own violations or absence first, then games with its violations, then
    other losses (newest first within each)."""

    game: str = Field(description="The game id (what `game_request` takes: the game page is `/game?game=GAME`).")
    opponent: str = Field(description="The opponent's track (`bot@version`); `an opponent` in a player's own page, "
                                      "which names no other key's bot.")
    result: Literal["win", "loss", "draw"] = Field(description="The game's result for this bot.")
    why: str = Field(description="Why it is listed, for people (`lost by its violations`, `2 violations: late`, ...).")


class OrganiserTournament(ProtocolModel):
    """A key's line in the tournament this server plays (or played), as the standings show it."""

    rank: int = Field(description="Its rank in the standings (shared by equal players).")
    points: float = Field(description="1 per win, 0.5 per draw.")
    games: int = Field(description="Games played.")
    wins: int = Field(description="Games won.")
    losses: int = Field(description="Games lost.")
    draws: int = Field(description="Games drawn.")
    violations: int = Field(description="Violations over its games.")


class OrganiserRow(ProtocolModel):
    """One key's bot: its versions, and what its current version did on the ladder since it began to play."""

    player: str = Field(description="The name the key plays under (the roster's name).")
    versions: list[OrganiserVersion] = Field(description="Its handed-in versions, newest first, at most "
                                                         "`MAX_VERSIONS_SHOWN` (empty for a bot that only connects).")
    older_versions: int = Field(0, description="Its versions handed in before those listed (not shown).")
    track: str | None = Field(description="The ladder track its games are counted on (`bot@version`: its newest "
                                          "version that played), whose report `/?report=TRACK` shows; null when it "
                                          "never played on the ladder.")
    since: str | None = Field(description="When that track began: the version first joined the ladder (ISO 8601, "
                                          "UTC); null without a track.")
    games: int = Field(description="Ladder games of that track.")
    wins: int = Field(description="Of them, won.")
    losses: int = Field(description="Of them, lost.")
    draws: int = Field(description="Of them, drawn.")
    violations: dict[str, int] = Field(description="Its violations in those games by cause (`late` is a timeout).")
    near_timeouts: int = Field(description="Its steps in those games that took more than `slow_share` of the time "
                                           "limit (timeouts included: a late step is slow too).")
    last_game_at: str | None = Field(description="When its last ladder game (any version) ended (ISO 8601, UTC); "
                                                 "null when it never played.")
    idle: bool = Field(description="True when it has not played for `idle_hours` (nor was handed in or first seen "
                                   "since), or never played.")
    state: Literal["playing", "waiting", "paused", "away"] = Field(
        description="On the ladder now: playing a game, connected and waiting, paused, or not connected.")
    paused: str | None = Field(description="Why the ladder paused it (its message), or null.")
    attention: list[str] = Field(description="What needs the organiser's eye, for people (empty when nothing does): "
                                             "idle, paused, violations since its version, a refused newest version.")
    worst: list[WorstGame] = Field(description="At most 3 games worth a look, worst first (see `WorstGame`).")
    tournament: OrganiserTournament | None = Field(None, description="Its line in the tournament this server plays "
                                                   "(or played), from the standings; null on a ladder, or before it "
                                                   "has one.")


class Organiser(Message):
    """Server -> spectator: the answer to ``organiser_request``: every key's row, or the asking player's own."""

    type: Literal["organiser"] = "organiser"
    scope: Literal["all", "own"] = Field(description="`all` for the organiser's key, `own` for a player's key (one "
                                                     "row).")
    now: str = Field(description="The server's time the rows were measured at (ISO 8601, UTC).")
    ladder: bool = Field(description="True when this server runs the practice ladder (games are counted); false: "
                                     "only the versions are known.")
    time_limit_ms: int | None = Field(description="The step time limit near-timeouts are measured against (null on "
                                                  "a debugging server).")
    slow_share: float = Field(description="A step over this share of the time limit is a near-timeout.")
    idle_hours: float = Field(description="Hours without a game after which a bot is idle.")
    rows: list[OrganiserRow] = Field(description="The rows, those needing attention first, then by name.")

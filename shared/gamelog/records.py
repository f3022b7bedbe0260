"""The game log as values: one ``StepRecord`` per turn, the ``GameHeader``, the ``GameOutcome``.

These are what the referee produces and the CSV layer (``csvformat``) writes and reads; they
hold no file or format knowledge. A ``GameLog`` read from a file also carries the file lines
of its rows, so that ``replay`` can name the line of a disagreement.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from ..quoridor import RULESETS, GameStatus, Step

__all__ = [
    "StepRecord", "GameHeader", "GameOutcome", "GameLog", "LogProblem", "REASONS", "check_player_name",
    "log_safe_name", "NAME_COMMA_STANDIN",
]

REASONS = ("goal", "violations", "disconnect", "step_cap", "forfeit")
"""Why a game ended: a pawn reached its goal row, a 3rd violation, a seat left, both hit the step
cap (smaller thinking time wins), a seat never came to play."""

# Control characters (line breaks above all) would split a CSV row across lines; surrounding
# blanks are trimmed by the old viewer's CSV reader, so a name with them would not round-trip.
_BAD_TEXT = re.compile(r"[\x00-\x1f\x7f]")


def check_player_name(name: str) -> str:
    """``name`` if it can name a player in a log: non-empty, no control characters, no surrounding blanks."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"player name {name!r} is empty; a log needs a name for each seat")
    if name != name.strip():
        raise ValueError(f"player name {name!r} has leading or trailing blanks, which CSV readers trim")
    if _BAD_TEXT.search(name):
        raise ValueError(f"player name {name!r} contains a control character (line break, tab, ...)")
    return name


NAME_COMMA_STANDIN = ";"
"""What stands for each comma of a player's name in a log (see ``log_safe_name``)."""


def log_safe_name(name: str) -> str:
    """``name`` as a log writes it: each comma becomes ``;``; any other name is returned unchanged.

    The course's viewer (``LogLoader``) splits every row on commas without CSV quoting, so one comma
    in a name makes the whole file unreadable to it ("log file have too many columns").
    """
    return name.replace(",", NAME_COMMA_STANDIN)


def _check_text(what: str, value: str | None) -> None:
    if value is not None and (not isinstance(value, str) or _BAD_TEXT.search(value)):
        raise ValueError(f"{what} {value!r} must be a single line of text without control characters")


@dataclass(frozen=True)
class StepRecord:
    """One turn of one player, violations and timeouts included: what it sent and how it was judged."""

    player: str
    #: What the player sent (an empty ``Step`` for a timeout or a no-op).
    step: Step
    #: As judged: Ok, Timeout, InsufficientBlock, InvalidStep, or Win/Lost/RulesBreaker on the step
    #: that ends the game.
    status: GameStatus
    #: The step's thinking time in milliseconds (``None`` in legacy logs).
    thinking_ms: int | None = None
    #: The referee's turn number (``None`` in legacy logs).
    turn: int | None = None
    #: Why a violation was one, for people (``a5 is not reachable in one step from e1``, ``answered
    #: after 1,203 ms; the limit is 1,000 ms``); ``""`` for a step that stood, and in older logs.
    reason: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.status, GameStatus):
            object.__setattr__(self, "status", GameStatus(self.status))
        for what, value in (("thinking time", self.thinking_ms), ("turn number", self.turn)):
            if value is not None and (not isinstance(value, int) or value < 0):
                raise ValueError(f"{what} must be a non-negative integer or None, got {value!r}")
        if not isinstance(self.reason, str) or _BAD_TEXT.search(self.reason):
            raise ValueError(f"reason {self.reason!r} must be a single line of text without control characters")


@dataclass(frozen=True)
class GameHeader:
    """Who played which seat under which rules: seat 0 starts at (5,1) and moves first."""

    players: tuple[str, str]
    ruleset: str = "course"
    #: The game's id.
    game: str | None = None
    tournament: str | None = None
    #: When the game started, ISO 8601 UTC (e.g. ``2024-05-01T12:00:00Z``).
    started: str | None = None
    #: ``cpu`` when the referee judged hosted bots by their CPU time (``--hosted-clock cpu``); ``None``: the wall clock.
    clock: str | None = None

    def __post_init__(self) -> None:
        players = tuple(self.players)
        if len(players) != 2:
            raise ValueError(f"a game has two players, got {players!r}")
        for name in players:
            check_player_name(name)
        # The CSV rows name the player, not the seat: equal names could not be told apart.
        if players[0] == players[1]:
            raise ValueError(f"both seats are named {players[0]!r}; the players of a game need distinct names")
        written = log_safe_name(players[0])
        if written == log_safe_name(players[1]):
            raise ValueError(f"players {players[0]!r} and {players[1]!r} would both be written {written!r} in the "
                             f"log (a comma in a name is written {NAME_COMMA_STANDIN!r}); the players of a game "
                             "need distinct names")
        object.__setattr__(self, "players", players)
        if self.ruleset not in RULESETS:
            raise ValueError(f"unknown ruleset {self.ruleset!r}; expected one of: {', '.join(RULESETS)}")
        _check_text("game id", self.game)
        _check_text("tournament", self.tournament)
        _check_text("start time", self.started)
        if self.clock not in (None, "cpu"):
            raise ValueError(f"unknown clock {self.clock!r}; a log names only the 'cpu' clock (none: the wall clock)")
        if self.started is not None:
            try:
                datetime.fromisoformat(self.started)
            except ValueError:
                raise ValueError(f"start time {self.started!r} is not an ISO 8601 time like "
                                 "'2024-05-01T12:00:00Z'") from None

    def seat(self, player: str) -> int:
        """The seat (0 or 1) of ``player``; ``ValueError`` if it does not play in this game."""
        try:
            return self.players.index(player)
        except ValueError:
            raise ValueError(f"{player!r} does not play in this game (players: {self.players[0]!r} "
                             f"and {self.players[1]!r})") from None


def _pair(what: str, value: tuple[int, int]) -> tuple[int, int]:
    pair = tuple(value)
    if len(pair) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in pair):
        raise ValueError(f"{what} must be two non-negative integers (seat 0, seat 1), got {value!r}")
    return pair  # type: ignore[return-value]


@dataclass(frozen=True)
class GameOutcome:
    """How a finished game ended: the winning seat (``None`` = draw), why, and each seat's totals."""

    winner: int | None
    #: One of ``REASONS``.
    reason: str
    #: Total thinking time of each seat in milliseconds (decides the step cap).
    thinking_ms: tuple[int, int]
    #: Violations of each seat.
    violations: tuple[int, int]
    #: CPU milliseconds of each seat's steps, in the order of its step rows (``None``: a step not measured);
    #: ``None`` when no bot's process was measured (only bots the server hosts are: ``server/sandbox``).
    cpu_ms: tuple[tuple[int | None, ...], tuple[int | None, ...]] | None = None
    #: What ended the game beyond ``reason``, for people: a hosted bot's process that died
    #: (``seat 1 memory_limit: ran out of its address space``); ``""`` when nothing more is to be said.
    note: str = ""
    #: Wall milliseconds of each seat's steps, as ``cpu_ms``: written when the game was judged on the ``cpu`` clock
    #: (``GameHeader.clock``), whose step rows' ``thinking_ms`` are then a hosted bot's CPU times; else ``None``.
    wall_ms: tuple[tuple[int | None, ...], tuple[int | None, ...]] | None = None

    def __post_init__(self) -> None:
        if self.winner not in (None, 0, 1) or isinstance(self.winner, bool):
            raise ValueError(f"winner must be seat 0, seat 1 or None (a draw), got {self.winner!r}")
        if self.reason not in REASONS:
            raise ValueError(f"unknown reason {self.reason!r}; expected one of: {', '.join(REASONS)}")
        object.__setattr__(self, "thinking_ms", _pair("thinking times", self.thinking_ms))
        object.__setattr__(self, "violations", _pair("violation counts", self.violations))
        if self.cpu_ms is not None:
            if len(self.cpu_ms) != 2 or not all(v is None or (isinstance(v, int) and not isinstance(v, bool) and v >= 0)
                                                for seat in self.cpu_ms for v in seat):
                raise ValueError(f"CPU times must be two lists of non-negative integers or None, got {self.cpu_ms!r}")
            object.__setattr__(self, "cpu_ms", (tuple(self.cpu_ms[0]), tuple(self.cpu_ms[1])))
        if self.wall_ms is not None:
            if len(self.wall_ms) != 2 or not all(v is None or (isinstance(v, int) and not isinstance(v, bool)
                                                               and v >= 0) for seat in self.wall_ms for v in seat):
                raise ValueError(f"wall times must be two lists of non-negative integers or None, got {self.wall_ms!r}")
            object.__setattr__(self, "wall_ms", (tuple(self.wall_ms[0]), tuple(self.wall_ms[1])))
        if not isinstance(self.note, str) or _BAD_TEXT.search(self.note):
            raise ValueError(f"note {self.note!r} must be a single line of text without control characters")


class LogProblem(NamedTuple):
    """A line of a log that disagrees with the rules (or with the log's own outcome)."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass(frozen=True)
class GameLog:
    """A whole game: header, every turn in play order, and the outcome (``None`` = not finished).

    ``problems`` lists what a reader found to disagree with the rules (see ``replay``). A log
    read from a file keeps the file line of each step row (``step_lines``) and of its result
    row (``outcome_line``); they take no part in equality.
    """

    header: GameHeader
    steps: list[StepRecord]
    outcome: GameOutcome | None = None
    problems: list[LogProblem] = field(default_factory=list)
    step_lines: tuple[int, ...] = field(default=(), compare=False, repr=False)
    outcome_line: int | None = field(default=None, compare=False, repr=False)

    @property
    def finished(self) -> bool:
        """True when the log records how the game ended."""
        return self.outcome is not None

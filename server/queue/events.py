"""Step events of a worker's game as stream entries, and the server's view of that game (pure).

A worker appends one entry per judged step to its job's stream (``step_entry``), an ``attempt``
entry when it starts the job (``attempt_entry``) and a ``done`` entry after saq stored its answer
(``done_entry``). Every entry carries the job's attempt number: a job played again after its worker
died starts at attempt 2, so the server restarts the game's live view and ignores what is left of
attempt 1.

The server turns a step entry back into the referee's own ``StepJudged`` (``parse_entry``) and hands
it, with a ``RemoteMatch`` (the few attributes of a ``MatchRunner`` that spectators read: the game's
id, log path, players, whether it is over and how it ended), to the same step hooks local games use.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shared.gamelog import GameOutcome, StepRecord
from shared.quoridor import BlockBar, Cause, GameStatus, Location, Step, parse_position, position_text
from shared.referee import RefereeSettings, StepJudged

__all__ = ["FIELD", "StepEntry", "AttemptEntry", "DoneEntry", "Entry", "step_entry", "attempt_entry", "done_entry",
           "parse_entry", "RemoteReferee", "RemoteMatch"]

FIELD = "e"
"""The one field of a stream entry: its JSON."""


@dataclass(frozen=True)
class StepEntry:
    """A judged step of ``game`` in ``attempt``; ``outcome`` when it ended the game."""

    attempt: int
    game: str
    judged: StepJudged
    outcome: GameOutcome | None
    #: When the worker queued the entry (its wall clock, seconds since the epoch), to tell the relay's lag.
    sent_at: float | None = None


@dataclass(frozen=True)
class AttemptEntry:
    """``worker`` started ``attempt`` of the job (its games start from the beginning)."""

    attempt: int
    worker: str


@dataclass(frozen=True)
class DoneEntry:
    """``attempt`` of the job ended and its answer is stored (or the job was handed back)."""

    attempt: int


Entry = StepEntry | AttemptEntry | DoneEntry
"""Any entry of a job's stream."""


def _dump(value: dict[str, Any]) -> dict[str, str]:
    return {FIELD: json.dumps(value, separators=(",", ":"))}


def attempt_entry(attempt: int, worker: str) -> dict[str, str]:
    """The stream entry saying ``worker`` started ``attempt``."""
    return _dump({"t": "attempt", "a": attempt, "w": worker})


def done_entry(attempt: int) -> dict[str, str]:
    """The stream entry saying ``attempt`` ended."""
    return _dump({"t": "done", "a": attempt})


def step_entry(attempt: int, game: str, judged: StepJudged, outcome: GameOutcome | None,
               sent_at: float | None = None) -> dict[str, str]:
    """The stream entry of one judged step (``outcome``: the game's, when this step ended it; ``sent_at``: now)."""
    record = judged.record
    step = record.step
    wall = step.new_wall
    return _dump({
        "t": "step", "a": attempt, "g": game, "s": judged.seat, "pl": record.player,
        "st": [step.new_loc.x, step.new_loc.y, wall.start.x, wall.start.y, wall.stop.x, wall.stop.y],
        "ss": int(record.status), "ms": record.thinking_ms, "tu": record.turn, "rr": record.reason,
        "p": position_text(judged.position), "c": list(judged.clocks_ms),
        "k": None if judged.cause is None else judged.cause.value, "why": judged.reason,
        "o": None if outcome is None else [outcome.winner, outcome.reason, list(outcome.thinking_ms),
                                           list(outcome.violations), outcome.note], "ts": sent_at})


def parse_entry(fields: dict[Any, Any]) -> Entry:
    """The entry of a stream's ``fields`` (bytes or text); ``ValueError`` when it is none of ours."""
    raw = fields.get(FIELD, fields.get(FIELD.encode()))
    if raw is None:
        raise ValueError(f"a stream entry without its {FIELD!r} field: {sorted(map(str, fields))[:5]}")
    try:
        value = json.loads(raw)
        kind, attempt = value["t"], int(value["a"])
        if kind == "attempt":
            return AttemptEntry(attempt, str(value["w"]))
        if kind == "done":
            return DoneEntry(attempt)
        if kind != "step":
            raise ValueError(f"unknown entry type {kind!r}")
        x, y, x1, y1, x2, y2 = value["st"]
        step = Step(Location(x, y), BlockBar(Location(x1, y1), Location(x2, y2)))
        record = StepRecord(value["pl"], step, GameStatus(value["ss"]), value["ms"], value["tu"], value["rr"])
        cause = None if value["k"] is None else Cause(value["k"])
        judged = StepJudged(int(value["s"]), record, parse_position(value["p"]),
                            (int(value["c"][0]), int(value["c"][1])), cause, value["why"])
        o = value["o"]
        outcome = None if o is None else GameOutcome(o[0], o[1], tuple(o[2]), tuple(o[3]), note=o[4])  # type: ignore[arg-type]
        return StepEntry(attempt, str(value["g"]), judged, outcome, value.get("ts"))
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"a malformed stream entry ({type(exc).__name__}: {exc})") from None


@dataclass
class RemoteReferee:
    """What a step hook reads of a worker's game's referee: the players, the rules, the end."""

    players: tuple[str, str]
    settings: RefereeSettings
    outcome: GameOutcome | None = None

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.outcome is not None


@dataclass
class RemoteMatch:
    """A worker's game as step hooks see a ``MatchRunner``: ``game_id``, ``log_path``, ``referee`` (its players)."""

    game_id: str
    log_path: Path
    referee: RemoteReferee
    tournament: str | None = None
    #: The attempt whose steps this view shows (a job played again restarts it).
    attempt: int = 0
    #: Steps seen in this attempt.
    steps: int = field(default=0)
    #: The worker playing this attempt, once it said so.
    worker: str | None = None
    #: Seats whose removal a hook asked for (a worker's game is not stopped from here: see ``submit_forfeit``).
    forfeits: set[int] = field(default_factory=set)

    def submit_forfeit(self, seat: int) -> None:
        """Note that ``seat`` was removed: the game on the worker plays on, the pairing's result stands as played."""
        self.forfeits.add(seat)

    def restart(self, attempt: int, worker: str | None = None) -> None:
        """The game starts again from the beginning in ``attempt`` (on ``worker``)."""
        self.attempt, self.steps, self.worker, self.referee.outcome = attempt, 0, worker, None

    def apply(self, entry: StepEntry) -> None:
        """Note a step of this game (its end, when it ended it)."""
        self.steps += 1
        if entry.outcome is not None:
            self.referee.outcome = entry.outcome

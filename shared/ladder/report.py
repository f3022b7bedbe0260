"""Per-bot reports: what one bot version did on the ladder, built from its stored games.

Pure: the server reads the games from its store and hands them in as ``GameFact``s; the command
line renders the ``BotReport`` with rich or writes it as JSON (``to_json``).

For a bot the server hosts (a handed-in bot, a built-in resident) the games' logs also give each
step's CPU time (``cpu_ms`` rows): shown beside the wall thinking time (``cpu_summary``), it tells a
busy host (wall time well above CPU time: the bot was waiting for a core) from a slow bot (CPU time
close to the wall time: the bot was computing).

The counts agree with each other: a timeout is a violation (cause ``late``), so ``timeouts`` equals
the ``late`` count among the violations by cause, and a game lost by violations is counted as the
bot's own (``violations (its own)``), its violations among those by cause, apart from the games its
opponent lost by violations (``violations (the opponent's)``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["GameFact", "BotReport", "HeadToHead", "Timing", "CpuTiming", "build_report", "cpu_summary",
           "SLOW_SHARE", "FAULT_ENDINGS"]

#: A step that took more than this share of the time limit counts as a close call.
SLOW_SHARE = 0.8


@dataclass(frozen=True, slots=True)
class GameFact:
    """One finished ladder game: tracks by seat, the winner (None: draw), and each seat's step times and causes."""

    game_id: str
    white: str
    black: str
    winner: int | None
    reason: str
    step_ms: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    causes: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    ratings_after: tuple[float, float] | None = None     # each seat's ordinal after the game
    #: Each seat's CPU milliseconds per step, for seats the server hosts (from the log; empty when not measured).
    cpu_ms: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Results against one opponent."""

    opponent: str
    wins: int
    losses: int
    draws: int

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws


@dataclass(frozen=True, slots=True)
class CpuTiming:
    """CPU time of the bot's process over the steps it was measured for (hosted bots only)."""

    steps: int
    median_ms: float | None
    p95_ms: float | None
    max_ms: int | None

    def to_json(self) -> dict[str, Any]:
        """A plain dict for ``--json``."""
        return {"steps": self.steps, "median_ms": self.median_ms, "p95_ms": self.p95_ms, "max_ms": self.max_ms}


@dataclass(frozen=True, slots=True)
class Timing:
    """Thinking time over every step the bot made (opening plies played for it excluded)."""

    steps: int
    median_ms: float | None
    p95_ms: float | None
    max_ms: int | None
    slow_steps: int          # above SLOW_SHARE of the time limit
    #: Steps answered late or not at all: the ``late`` violations, also counted in ``violations``.
    timeouts: int
    #: The bot's violations by cause (``late`` included: a timeout is a violation).
    violations: dict[str, int]
    #: CPU time per step, when the logs have it (a bot the server hosts); ``None`` otherwise.
    cpu: CpuTiming | None = None


@dataclass(frozen=True)
class BotReport:
    """Everything the ladder knows of one bot version (a track)."""

    track: str
    games: int
    by_colour: tuple[tuple[int, int, int], tuple[int, int, int]]   # (wins, losses, draws) as seat 0, seat 1
    history: list[float]
    head_to_head: list[HeadToHead]
    timing: Timing
    #: How its games ended; an ending that is one seat's fault says whose (``violations (its own)``, ...).
    reasons: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """A plain dict for ``--json``."""
        return {
            "track": self.track, "games": self.games,
            "seat0": dict(zip(("wins", "losses", "draws"), self.by_colour[0])),
            "seat1": dict(zip(("wins", "losses", "draws"), self.by_colour[1])),
            "rating_history": self.history,
            "head_to_head": [{"opponent": h.opponent, "wins": h.wins, "losses": h.losses, "draws": h.draws}
                             for h in self.head_to_head],
            "timing": {"steps": self.timing.steps, "median_ms": self.timing.median_ms, "p95_ms": self.timing.p95_ms,
                       "max_ms": self.timing.max_ms, "slow_steps": self.timing.slow_steps,
                       "timeouts": self.timing.timeouts, "violations": self.timing.violations,
                       "cpu": None if self.timing.cpu is None else self.timing.cpu.to_json()},
            "endings": self.reasons,
        }


def _percentile(ordered: Sequence[int], q: float) -> float | None:
    """The ``q`` percentile (0..1) by linear interpolation between closest ranks; None for no data."""
    if not ordered:
        return None
    at = (len(ordered) - 1) * q
    low, high = math.floor(at), math.ceil(at)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


#: Endings that are one seat's doing: the loser's violations, disconnection or absence.
FAULT_ENDINGS = ("violations", "disconnect", "forfeit")


def _ending(reason: str, outcome: int) -> str:
    """``reason`` as the report counts it: a fault ending says whose it was (``outcome`` 1: the bot lost)."""
    if reason not in FAULT_ENDINGS or outcome == 2:
        return reason
    return f"{reason} (its own)" if outcome == 1 else f"{reason} (the opponent's)"


def build_report(track: str, games: Iterable[GameFact], time_limit_ms: int | None) -> BotReport:
    """The report of ``track`` from ``games`` (in play order; games of other tracks are skipped)."""
    colour = ([0, 0, 0], [0, 0, 0])
    h2h: dict[str, list[int]] = {}
    history: list[float] = []
    times: list[int] = []
    cpu: list[int] = []
    causes: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    count = 0
    for game in games:
        if track not in (game.white, game.black) or game.white == game.black:
            continue
        seat = 0 if game.white == track else 1
        opponent = game.black if seat == 0 else game.white
        outcome = 2 if game.winner is None else (0 if game.winner == seat else 1)
        colour[seat][outcome] += 1
        h2h.setdefault(opponent, [0, 0, 0])[outcome] += 1
        if game.ratings_after is not None:
            history.append(game.ratings_after[seat])
        times.extend(game.step_ms[seat])
        cpu.extend(game.cpu_ms[seat])
        causes.update(game.causes[seat])
        reasons[_ending(game.reason, outcome)] += 1
        count += 1
    times.sort()
    slow = 0 if time_limit_ms is None else sum(1 for t in times if t > SLOW_SHARE * time_limit_ms)
    timeouts = causes["late"]
    cpu.sort()
    cpu_timing = CpuTiming(len(cpu), _percentile(cpu, 0.5), _percentile(cpu, 0.95), cpu[-1]) if cpu else None
    timing = Timing(steps=len(times), median_ms=_percentile(times, 0.5), p95_ms=_percentile(times, 0.95),
                    max_ms=times[-1] if times else None, slow_steps=slow, timeouts=timeouts,
                    violations=dict(sorted(causes.items())), cpu=cpu_timing)
    rows = [HeadToHead(name, *counts) for name, counts in sorted(h2h.items())]
    return BotReport(track=track, games=count, by_colour=(tuple(colour[0]), tuple(colour[1])),  # type: ignore[arg-type]
                     history=history, head_to_head=rows, timing=timing, reasons=dict(sorted(reasons.items())))


#: Below this share of the wall time (median CPU / median wall) a bot's steps were mostly spent waiting.
WAITING_SHARE = 0.5


def cpu_summary(timing: Timing) -> str | None:
    """One line: CPU time per step beside the wall thinking time, and what the two together suggest; ``None``
    when the bot's CPU times were not measured (a bot that connects itself)."""
    cpu = timing.cpu
    if cpu is None:
        return None

    def ms(value: float | None) -> str:
        return "-" if value is None else f"{value:,.0f}"

    line = (f"CPU time per step ({cpu.steps} steps measured): median {ms(cpu.median_ms)} ms, p95 {ms(cpu.p95_ms)} ms, "
            f"max {ms(cpu.max_ms)} ms; wall: median {ms(timing.median_ms)} ms, p95 {ms(timing.p95_ms)} ms, "
            f"max {ms(timing.max_ms)} ms")
    if timing.p95_ms and cpu.p95_ms is not None and timing.p95_ms >= 10:
        share = cpu.p95_ms / timing.p95_ms
        line += (" (its slow steps were spent waiting, not computing: a busy host)" if share < WAITING_SHARE
                 else " (its slow steps were spent computing)")
    return line

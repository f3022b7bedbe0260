"""``GameHost``: where games of hosted bots are played; ``LocalGameHost`` plays them on this machine.

A ``Pairing`` names two bots (built-in, or handed in: a folder and an entry), the games they
play (colours as given) and the opening plies each game starts from (the ladder's: played by each
game's referee, never sent to the bots, as in the ladder's own games). A game host starts one process
per bot for the whole pairing, before the first turn, plays the games one after the other with the
server's own ``MatchRunner`` (the referee code every game uses) and returns a ``PairingResult``: each
game's ``MatchResult`` and how each bot's process ended, with its start time and its steps' wall and
CPU times.

``LocalGameHost`` plays at most ``concurrency`` pairings at once (default: one fewer than the
cores, at least one): a handed-in bot may think a whole second a step on the server's own CPU.
Issue 19 implements the same ``GameHost`` with workers on other machines (``server.queue``). A host
that cannot play a pairing at all raises ``PairingRefused``: nothing of it is to be recorded.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from shared.quoridor import Step
from shared.referee import RefereeSettings, StepJudged

from server.games.match import MatchResult, MatchRunner
from server.sandbox.causes import BotEnd
from server.sandbox.limits import SandboxLimits
from server.sandbox.process import HostedBot
from server.sandbox.rows import HostedRows
from server.sandbox.seat import HostedSeat, StepTiming

__all__ = ["BotEntry", "GameSpec", "Pairing", "BotReport", "PairingResult", "GameHost", "LocalGameHost",
           "PairingRefused", "default_concurrency", "play_pairing"]

StepHook = Callable[[MatchRunner, StepJudged], None]


class PairingRefused(RuntimeError):
    """A pairing the game host could not play at all (a worker refused it, every attempt failed): record nothing.

    Its games are left unplayed: a tournament resumed later asks for them again.
    """


@dataclass(frozen=True)
class BotEntry:
    """A bot a game host can run: a built-in bot by name (``folder`` None), or handed-in files and their entry."""

    #: The player's name in games and logs.
    name: str
    #: A built-in name (``random``), or the entry relative to ``folder`` (``mybot.py``, ``pkg/mod.py:Cls``).
    spec: str
    #: The handed-in files (read-only to the bot); ``None`` for a built-in bot.
    folder: Path | None = None
    #: The submission's version (its content hash), for hosts that fetch bots by it (issue 19).
    version: str | None = None
    #: Where a C++ bot's builds are cached on this machine (the server's ``DATA_DIR/cpp-builds``, a worker's
    #: ``CACHE/cpp-builds``); ``None``: ``default_build_cache()`` (``~/.cache/quoridor-arena/hosted-cpp``).
    builds: Path | None = None

    @property
    def trusted(self) -> bool:
        """True for a built-in bot (it may run without the sandbox where there is none)."""
        return self.folder is None

    def hosted_bot(self, limits: SandboxLimits) -> HostedBot:
        """A process for this bot under ``limits`` (not started; a C++ bot is built, or found built, at its start)."""
        return HostedBot(self.spec, self.folder, limits, trusted=self.trusted, builds=self.builds)


@dataclass(frozen=True)
class GameSpec:
    """One game of a pairing: its id, its log, and which bot of the pairing plays seat 0."""

    game_id: str
    log_path: Path
    white: int = 0


@dataclass(frozen=True)
class Pairing:
    """Two bots and the games they play, by these rules."""

    bots: tuple[BotEntry, BotEntry]
    games: tuple[GameSpec, ...]
    referee: RefereeSettings = field(default_factory=RefereeSettings)
    tournament: str | None = None
    #: Plies every game starts from, played by the referee at 0 ms (the ladder's seeded opening); ``()``: none.
    opening: tuple[Step, ...] = ()


@dataclass(frozen=True)
class BotReport:
    """One bot of a pairing: how its process ended, how long it took to start, its steps' times."""

    name: str
    end: BotEnd | None
    start_s: float | None
    timings: tuple[StepTiming, ...]
    #: The last lines the bot printed (stderr), for its author.
    output_tail: str = ""

    @property
    def cpu_ms(self) -> float:
        """CPU milliseconds of all its steps."""
        return sum(t.cpu_ms or 0.0 for t in self.timings)

    @property
    def wall_ms(self) -> float:
        """Wall milliseconds of all its steps."""
        return sum(t.wall_ms for t in self.timings)

    def summary(self) -> dict[str, float | int | str | None]:
        """For the per-bot report: steps, wall and CPU ms per step (median, p95, max), and how the process ended.

        A step's wall time far above its CPU time was spent waiting (a busy host, or a bot that sleeps);
        one whose CPU time is near its wall time was the bot computing.
        """
        def stats(values: list[float], what: str) -> dict[str, float | None]:
            ordered = sorted(values)
            pick = (lambda share: round(ordered[min(len(ordered) - 1, int(share * len(ordered)))], 2)) \
                if ordered else (lambda share: None)
            return {f"{what}_p50_ms": pick(0.5), f"{what}_p95_ms": pick(0.95), f"{what}_max_ms": pick(1.0)}

        cpu = [t.cpu_ms for t in self.timings if t.cpu_ms is not None]
        return {"bot": self.name, "steps": len(self.timings), "end": None if self.end is None else str(self.end),
                "start_ms": None if self.start_s is None else round(self.start_s * 1000, 1),
                **stats([t.wall_ms for t in self.timings], "wall"), **stats(cpu, "cpu"),
                "cpu_share": round(sum(cpu) / self.wall_ms, 3) if cpu and self.wall_ms > 0 else None}


@dataclass(frozen=True)
class PairingResult:
    """What a pairing came to: each game's result (in order), and a report per bot."""

    games: tuple[MatchResult, ...]
    reports: tuple[BotReport, BotReport]


class GameHost(Protocol):
    """Plays pairings of hosted bots (here, or on workers elsewhere: issue 19)."""

    async def play(self, pairing: Pairing, *, on_step: StepHook | None = None) -> PairingResult:
        """Play every game of ``pairing``; ``on_step`` hears each judged step as it happens.

        ``PairingRefused`` when the pairing cannot be played at all (none of its games is to be recorded).
        """
        ...

    async def close(self) -> None:
        """Stop every game in progress and free what the host holds."""
        ...


def default_concurrency() -> int:
    """Pairings at once by default: one fewer than the cores, at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


async def play_pairing(pairing: Pairing, limits: SandboxLimits, *, on_step: StepHook | None = None,
                       rows: HostedRows | None = None) -> PairingResult:
    """Start both bots (before any turn), play the games in order, stop the bots; never raises for a bot's fault.

    A bot that cannot start (or dies) loses its games as a disconnect; its report says why. The pairing's
    ``opening`` plies are played by each game's referee (``MatchRunner``'s ``opening``), never by the bots.
    """
    seats = tuple(HostedSeat(bot.name, bot.hosted_bot(limits), pairing.referee) for bot in pairing.bots)
    hosted_rows = rows if rows is not None else HostedRows()
    try:
        await asyncio.gather(*(seat.start() for seat in seats))
        results = []
        for game in pairing.games:
            white, black = seats[game.white], seats[1 - game.white]
            runner = MatchRunner(game.game_id, (white, black), pairing.referee, game.log_path,
                                 tournament=pairing.tournament, on_step=on_step, rows=hosted_rows,
                                 opening=pairing.opening)
            hosted_rows.watch(runner, (white, black))
            results.append(await runner.run())
    finally:
        # Each bot is stopped here, before any wait: a pairing cancelled again while it closes them (a host's close,
        # a bounded wait) would otherwise cancel their ``close`` before it began, and leave them frozen for ever.
        for seat in seats:
            seat.bot.stop(BotEnd("ok", ""))
        await asyncio.gather(*(seat.close() for seat in seats))
    reports = tuple(BotReport(seat.name, seat.end, seat.bot.start_s, tuple(seat.timings), seat.bot.output_tail)
                    for seat in seats)
    return PairingResult(tuple(results), reports)  # type: ignore[arg-type]


class LocalGameHost:
    """Plays pairings on this machine, at most ``concurrency`` at once, each bot in its sandbox."""

    def __init__(self, limits: SandboxLimits, *, concurrency: int | None = None,
                 rows: HostedRows | None = None) -> None:
        self.limits = limits
        self.concurrency = concurrency or default_concurrency()
        self.rows = rows
        #: The pairings at once; a tournament also takes one for a pairing of a handed-in bot and a connected one.
        self.slots = asyncio.Semaphore(self.concurrency)
        self._running: set[asyncio.Task[PairingResult]] = set()

    async def play(self, pairing: Pairing, *, on_step: StepHook | None = None) -> PairingResult:
        """Play ``pairing`` once a slot is free."""
        async with self.slots:
            task = asyncio.get_running_loop().create_task(play_pairing(pairing, self.limits, on_step=on_step,
                                                                       rows=self.rows))
            self._running.add(task)
            try:
                return await task
            finally:
                self._running.discard(task)

    async def close(self) -> None:
        """Cancel the pairings in progress (their bots' processes are killed)."""
        for task in list(self._running):
            task.cancel()
        if self._running:
            await asyncio.wait(self._running)

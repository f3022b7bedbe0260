"""``HostedRows``: the game logs' writer for games with hosted bots, adding what only the host knows.

A game is logged as any other (``RowBatcher``); at its end, when a seat was a hosted bot, the
outcome written to its log gains each seat's CPU time per step (``cpu_ms`` rows, ``shared/gamelog``;
``-`` for a seat that is not hosted), in a game judged on the ``cpu`` clock its wall time per step
too (``wall_ms`` rows: its step rows hold the CPU times it was judged by), and, when a bot's process died, why (the result row's
``reason`` column: ``seat 1 memory_limit: ...``). A game's hosted seats are told by ``watch`` (the
game host's games), or found by player name when the game's log is opened (``find``: the tournament's
and the ladder's games, whose players may be hosted or connected).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path
from typing import Protocol

from shared.gamelog import GameHeader, GameLog, GameOutcome, StepRecord

from server.logs.batcher import RowBatcher
from server.logs.logfile import LiveLogWriter
from server.games.match import MatchRunner
from server.sandbox.causes import BotEnd
from server.sandbox.seat import StepTiming

__all__ = ["HostedRows", "Timed", "enriched"]


class Timed(Protocol):
    """What a log needs of a hosted seat (``HostedSeat``, ``HostedPeer``): its steps' timings, how its process ended."""

    @property
    def end(self) -> BotEnd | None: ...

    def timing(self, game: str, turn: int) -> StepTiming | None: ...


Seats = tuple["Timed | None", "Timed | None"]


class HostedRows(RowBatcher):
    """A ``RowBatcher`` that knows its games' hosted seats (``watch``, or ``find`` by name) and logs their CPU times."""

    def __init__(self, executor: Executor | None = None, *, find: Callable[[str], Timed | None] | None = None,
                 **options: float) -> None:
        super().__init__(executor, **options)
        self.find = find
        self._seats: dict[str, Seats] = {}
        self._turns: dict[LiveLogWriter, list[tuple[int, int | None]]] = {}

    def watch(self, runner: MatchRunner, seats: Seats) -> None:
        """``runner``'s game is played by ``seats`` (seat 0 first; ``None``: a seat that is not hosted)."""
        self._seats[runner.game_id] = seats

    def open(self, path: Path, header: GameHeader) -> LiveLogWriter:
        writer = super().open(path, header)
        game = header.game
        if game is not None and game not in self._seats and self.find is not None:
            found = (self.find(header.players[0]), self.find(header.players[1]))
            if found != (None, None):
                self._seats[game] = found
        if game in self._seats:
            self._turns[writer] = []
        return writer

    def add(self, writer: LiveLogWriter, record: StepRecord) -> None:
        turns = self._turns.get(writer)
        if turns is not None:
            turns.append((writer.header.seat(record.player), record.turn))
        super().add(writer, record)

    async def finish(self, writer: LiveLogWriter, outcome: GameOutcome) -> GameLog:
        turns = self._turns.pop(writer, None)
        game = writer.header.game
        seats = self._seats.pop(game, None) if game is not None else None
        if turns is not None and seats is not None and game is not None:
            outcome = enriched(outcome, game, seats, turns, wall=writer.header.clock == "cpu")
        return await super().finish(writer, outcome)


def enriched(outcome: GameOutcome, game: str, seats: Seats, turns: list[tuple[int, int | None]], *,
             wall: bool = False) -> GameOutcome:
    """``outcome`` with each seat's CPU milliseconds per step (and its wall milliseconds when ``wall``: a game
    judged on the ``cpu`` clock) and a note on a bot's process that died."""
    cpu: tuple[list[int | None], list[int | None]] = ([], [])
    walls: tuple[list[int | None], list[int | None]] = ([], [])
    for seat, turn in turns:
        hosted = seats[seat]
        timing = hosted.timing(game, turn) if hosted is not None and turn is not None else None
        cpu[seat].append(None if timing is None or timing.cpu_ms is None else max(0, round(timing.cpu_ms)))
        walls[seat].append(None if timing is None else max(0, round(timing.wall_ms)))
    notes = [f"seat {i} {seat.end}" for i, seat in enumerate(seats)
             if seat is not None and seat.end is not None and seat.end.cause != "ok"]
    return dataclasses.replace(outcome, cpu_ms=(tuple(cpu[0]), tuple(cpu[1])), note="; ".join(notes),
                               wall_ms=(tuple(walls[0]), tuple(walls[1])) if wall else None)

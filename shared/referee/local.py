"""Play a game in one process with the same referee as the server: no network, a clock passed in.

``play_local_game`` is the engine of ``quoridor-match`` and of the bot benchmarks. Bots are
asked through a callable, so the caller decides how (a method call, a thread, an async bot)
and what a crashing bot answers; the clock is injected, so this module reads no clock itself.

What a bot hears of its violations is in the ``TurnRequest`` it is asked with (``judgement``:
status, cause, reason, thinking time; pass it on, as ``BotDriver.ask_now(..., judgement=...)``
does); what its author hears is in the events (``StepJudged.cause``/``reason``) and, for a game
played elsewhere (another process), in the ``LocalGame``: each record's ``reason`` and ``causes``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..gamelog.records import GameOutcome, StepRecord
from ..quoridor import Cause
from ..quoridor.types import Step
from .game import GameFinished, GameReferee, RefereeEvent, RefereeSettings, StepJudged, TurnRequest

__all__ = ["play_local_game", "LocalGame"]

Ask = Callable[[int, TurnRequest], Step]


@dataclass(frozen=True)
class LocalGame:
    """A finished local game: the outcome, every step, and what each seat was told at the end.

    ``causes`` lines up with ``records``: the ``Cause`` of each step that was a violation (its
    record's ``reason`` says it for people), ``None`` for a step that stood.
    """

    players: tuple[str, str]
    outcome: GameOutcome
    records: list[StepRecord]
    final: GameFinished
    causes: list[Cause | None] = field(default_factory=list)


def play_local_game(players: tuple[str, str], ask: Ask, clock: Callable[[], float],
                    settings: RefereeSettings | None = None,
                    on_event: Callable[[RefereeEvent], None] | None = None,
                    opening: Sequence[Step] = ()) -> LocalGame:
    """Referee one game from ``opening``'s plies: ``ask(seat, turn)`` returns each step; thinking time is measured
    with ``clock``.

    ``on_event`` hears every event as it happens (each ``StepJudged`` with its ``cause`` and ``reason``; an opening
    ply's with the turn it answered, ``opening_turn``: ``ask`` is never called for it). ``RefereeError``
    (``bad_opening``) for an opening with an illegal ply.
    """
    referee = GameReferee(players, settings or RefereeSettings(), tuple(opening))
    events = referee.start()
    causes: list[Cause | None] = []
    while True:
        request: TurnRequest | None = None
        for event in events:
            if on_event is not None:
                on_event(event)
            if isinstance(event, StepJudged):
                causes.append(event.cause)
            elif isinstance(event, GameFinished):
                return LocalGame(players, event.outcome, list(referee.records), event, causes)
            elif isinstance(event, TurnRequest):
                request = event
        if request is None:   # pragma: no cover - the referee always asks for a turn or ends the game
            raise RuntimeError("the referee neither asked for a turn nor ended the game")
        started = clock()
        referee.clock_started(request.turn, started)
        step = ask(request.seat, request)
        events = referee.receive_step(request.seat, request.turn, step, clock())

"""The referee: a pure state machine per game, driven by the server, the legacy port or a local match."""

from .game import (
    DRAW_STATUS, STEP_CAP, VIOLATIONS_TO_LOSE, Cause, GameFinished, GameReferee, RefereeError, RefereeEvent,
    RefereeSettings, SeatResult, StepJudged, StepVerdict, Termination, TurnRequest,
)

__all__ = [
    "DRAW_STATUS", "STEP_CAP", "VIOLATIONS_TO_LOSE", "Cause", "GameFinished", "GameReferee", "RefereeError",
    "RefereeEvent", "RefereeSettings", "SeatResult", "StepJudged", "StepVerdict", "Termination", "TurnRequest",
]

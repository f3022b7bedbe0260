"""The referee: a pure state machine per game, driven by the server, the legacy port or a local match."""

from .game import (
    DRAW_STATUS, GameFinished, GameReferee, RefereeError, RefereeEvent, RefereeSettings, StepJudged, TurnRequest,
)

__all__ = [
    "DRAW_STATUS", "GameFinished", "GameReferee", "RefereeError", "RefereeEvent", "RefereeSettings",
    "StepJudged", "TurnRequest",
]

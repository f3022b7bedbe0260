"""The practice ladder's pure core: matchmaking, live ratings, openings and per-bot reports."""

from .matchmaking import Candidate, Idle, MatchmakingRules, Pairing, idle_reason, pair_key, pick_pairings
from .openings import pawn_opening
from .published import PublishedRow, ladder_ratings, pair_encounters, published_table
from .ratings import LiveRatings, Skill
from .report import BotReport, GameFact, build_report

__all__ = [
    "BotReport",
    "Candidate",
    "GameFact",
    "Idle",
    "LiveRatings",
    "MatchmakingRules",
    "Pairing",
    "PublishedRow",
    "Skill",
    "build_report",
    "idle_reason",
    "ladder_ratings",
    "pair_encounters",
    "pair_key",
    "pawn_opening",
    "pick_pairings",
    "published_table",
]

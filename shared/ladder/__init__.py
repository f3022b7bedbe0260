"""The practice ladder's pure core: matchmaking, live ratings, openings and per-bot reports."""

from .matchmaking import Candidate, MatchmakingRules, Pairing, pair_key, pick_pairings
from .openings import pawn_opening
from .published import PublishedRow, ladder_ratings, pair_encounters, published_table
from .ratings import LiveRatings, Skill
from .report import BotReport, GameFact, build_report

__all__ = [
    "BotReport",
    "Candidate",
    "GameFact",
    "LiveRatings",
    "MatchmakingRules",
    "Pairing",
    "PublishedRow",
    "Skill",
    "build_report",
    "ladder_ratings",
    "pair_encounters",
    "pair_key",
    "pawn_opening",
    "pick_pairings",
    "published_table",
]

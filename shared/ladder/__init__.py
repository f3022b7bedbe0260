"""The practice ladder's pure core: matchmaking, live ratings, openings and per-bot reports."""

from .matchmaking import Candidate, MatchmakingRules, Pairing, pair_key, pick_pairings
from .openings import pawn_opening
from .published import PublishedRow, published_table
from .ratings import LiveRatings, Skill
from .report import BotReport, GameFact, build_report

__all__ = [
    "Candidate", "MatchmakingRules", "Pairing", "pair_key", "pick_pairings", "pawn_opening", "PublishedRow", "published_table", "LiveRatings", "Skill",
    "BotReport", "GameFact", "build_report",
]

"""Tournament mathematics, pure: schedules (round robin, knockout, Swiss, the final), standings, tie-breaks, crosstable, Elo."""

from .bradley_terry import interval_text
from .final import Final, FinalStandings, default_final_games
from .elo import Z_95, elo_difference, expected_score, ratings
from .pairing import (
    Knockout, ScheduledGame, bracket_order, check_seeds, decide_pairing, pairing_games, round_robin, seeding_order,
)
from .standings import REASONS, GameResult, Row, Standings, TournamentError, check_players, score_text
from .swiss import (
    Played, Swiss, SwissStandings, TieBreaks, default_swiss_rounds, max_swiss_rounds, swiss_byes, swiss_tie_breaks,
)

__all__ = [
    "REASONS", "Z_95", "GameResult", "Knockout", "Row", "ScheduledGame", "Standings", "TournamentError",
    "check_players", "decide_pairing", "elo_difference", "expected_score", "interval_text", "pairing_games", "ratings",
    "round_robin", "score_text", "bracket_order", "check_seeds", "seeding_order",
    "Played", "Swiss", "SwissStandings", "TieBreaks", "default_swiss_rounds", "max_swiss_rounds", "swiss_byes",
    "swiss_tie_breaks", "Final", "FinalStandings", "default_final_games",
]

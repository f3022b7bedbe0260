"""Game logs: the records of a game, their CSV form (``replay-csv.md``) and their replay. Pure."""

from .asgiven import DRAWN, Undrawable, draw_as_given
from .causes import violation_causes
from .csvformat import (
    COLUMNS, FORMAT, HEADER_LINE, LEGACY_COLUMNS, LogFormatError, canonical_step, format_header, format_log,
    format_outcome, format_row, parse_log,
)
from .folder import LOG_SUFFIX, PART_SUFFIX, TABLES, is_log_name
from .layout import row_lines
from .reader import MAX_LOG_BYTES, read_log_data
from .records import (
    NAME_COMMA_STANDIN, REASONS, GameHeader, GameLog, GameOutcome, LogProblem, StepRecord, check_player_name,
    log_safe_name,
)
from .replay import STEP_CAP, VIOLATIONS_TO_LOSE, Replay, ReplayStep, final_position, replay, validate
from .rowformat import RowFormatter

__all__ = [
    "COLUMNS", "DRAWN", "FORMAT", "GameHeader", "GameLog", "GameOutcome", "HEADER_LINE", "LEGACY_COLUMNS", "LOG_SUFFIX",
    "MAX_LOG_BYTES", "PART_SUFFIX", "TABLES",
    "LogFormatError", "LogProblem", "NAME_COMMA_STANDIN", "REASONS", "Replay", "ReplayStep", "RowFormatter", "STEP_CAP",
    "StepRecord",
    "Undrawable", "VIOLATIONS_TO_LOSE", "canonical_step", "check_player_name", "draw_as_given", "final_position",
    "format_header",
    "format_log", "format_outcome", "format_row", "is_log_name", "log_safe_name", "parse_log", "read_log_data", "replay",
    "row_lines",
    "validate", "violation_causes",
]

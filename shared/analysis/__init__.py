"""The analysis of a game, step by step: winning chances, the engine's best step, labels, reasons, accuracy. Pure.

``analyse_game(log)`` searches every position of a game log on a fixed node budget (deterministic: the
same log gives the same analysis on any machine) and returns a ``GameAnalysis``, whose ``to_json`` is the
one JSON form the server, the pages, the replay and the reports share.
"""

from .calibration import CHANCE_SCALE, win_chance
from .game import DEFAULT_NODES, ENGINE_VERSION, analyse_game, analysis_key, step_accuracy
from .model import LABELS, THRESHOLDS, VIOLATION, GameAnalysis, PlayerSummary, PlyAnalysis
from .stored import ANALYSIS_SUFFIX, MAX_STORED_BYTES, analysis_name, parse_stored, stored_text

__all__ = [
    "ANALYSIS_SUFFIX", "MAX_STORED_BYTES", "analysis_name", "parse_stored", "stored_text",
    "CHANCE_SCALE", "DEFAULT_NODES", "ENGINE_VERSION", "LABELS", "THRESHOLDS", "VIOLATION", "GameAnalysis",
    "PlayerSummary", "PlyAnalysis", "analyse_game", "analysis_key", "step_accuracy", "win_chance",
]

"""``quoridor-replay``: replay game logs and watch live games in the terminal, export them to SVG/HTML.

Two seams, as in the course viewer: a source of steps (``sources.StepSource``, alias
``DataLoader``: a log file, games in memory, a live server) and a view (``views.GameView``:
text; ``export``: SVG/HTML; ``app``: the interactive screen), joined by a ``ReplayController``
that keeps a ``Controller`` (frame, playing) per game. The frame model (``frames``) and the
controllers are pure.
"""

from .controller import SPEEDS, Controller, ReplayController, StepOutOfRange
from .frames import Frame, ReplayGame, apply_update, frames_from_log
from .listing import FolderError, GameEntry, list_folder
from .sources import (
    DataLoader, GameSource, LiveSource, LiveSourceError, LogFileSource, StepSource, load_game, read_log_file,
)
from .views import GameView

__all__ = [
    "SPEEDS", "Controller", "DataLoader", "FolderError", "Frame", "GameEntry", "GameSource", "GameView", "LiveSource",
    "LiveSourceError", "LogFileSource", "ReplayController", "ReplayGame", "StepOutOfRange",
    "StepSource", "apply_update", "frames_from_log", "list_folder", "load_game", "read_log_file",
]

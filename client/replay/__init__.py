"""``quoridor-replay``: replay game logs and watch live games in the terminal, export them to SVG/HTML.

Two seams, as in the course viewer: a source of steps (``sources``: a log file, a live server)
and a view (``views``: text; ``export``: SVG/HTML; ``app``: the interactive screen), joined by
a ``Controller``. The frame model (``frames``) and the controller are pure.
"""

from .controller import SPEEDS, Controller, StepOutOfRange
from .frames import Frame, ReplayGame, apply_update, frames_from_log
from .listing import FolderError, GameEntry, list_folder
from .sources import LiveSource, LiveSourceError, LogFileSource, ReplayFileError, StepSource, load_game, read_log_file

__all__ = [
    "SPEEDS", "Controller", "FolderError", "Frame", "GameEntry", "LiveSource", "LiveSourceError", "LogFileSource",
    "ReplayFileError", "ReplayGame", "StepOutOfRange", "StepSource", "apply_update", "frames_from_log",
    "list_folder", "load_game", "read_log_file",
]

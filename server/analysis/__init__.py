"""Every finished game analysed in the background, kept beside its log, served to the pages (issue 33).

* ``store``: ``<log path>.analysis.json``, keyed by the log's bytes and the engine's version, written atomically.
* ``child``: the analysis process (lowest CPU priority, one game at a time); ``process``: the server's side of it.
* ``analyser``: ``BackgroundAnalyser``, the bounded queue and the thread that feeds the process.
* ``pages``: ``Analyses``, what the server holds: games queued as they finish, ``GET /analysis/<GAME>.json``.
* ``kit``: the real analysis (``shared.analysis``), imported by the analysis process and for the store's key.
"""

from server.analysis.analyser import QUEUE_BOUND, BackgroundAnalyser
from server.analysis.pages import Analyses
from server.analysis.process import DEFAULT_KIT, AnalysisProcess, AnalysisProcessError

__all__ = ["QUEUE_BOUND", "BackgroundAnalyser", "Analyses", "DEFAULT_KIT", "AnalysisProcess", "AnalysisProcessError"]

"""Games of handed-in bots on worker machines, through a job-queue engine (saq on Redis): ``docs/queue.md``.

Pure (importable without the engine's client):

* ``PairingJob``, ``JobResult``, ``JobRefusal`` (``jobs``): a job and its answer as JSON, with ``PROTOCOL``.
* step entries and ``RemoteMatch`` (``events``): a worker's steps on their way to the server's spectators.
* ``ResultLedger`` (``ledger``): each game's result taken once, by game id, only for games asked for.
* ``server_game_host`` (``hosting``): the game host a server plays on (workers with ``--queue``, else this
  machine), with the web pages told of a game that restarts; it imports the engine's client only for ``--queue``.

With the ``queue`` extra (``pip install 'quoridor-arena[queue]'``; imported only by ``--queue``):

* ``QueueGameHost`` (``host``): the ``GameHost`` whose pairings workers play.
* ``GameWorker`` (``worker``) and ``quoridor-worker`` (``worker_cli``): a worker process.
* ``QueueAnalysis`` (``analysis``): the games' analyses made by the workers (``--analysis queue``).
* ``engine`` (URLs, patient clients, key names), ``bots`` (bots' files by digest), ``relay`` and
  ``publisher`` (step streams).
"""

from __future__ import annotations

from typing import Any

from server.queue.events import RemoteMatch, RemoteReferee
from server.queue.jobs import JOB_FUNCTION, PROTOCOL, JobRefusal, JobResult, PairingJob
from server.queue.ledger import ResultLedger, Verdict

__all__ = ["PROTOCOL", "JOB_FUNCTION", "PairingJob", "JobResult", "JobRefusal", "ResultLedger", "Verdict",
           "RemoteMatch", "RemoteReferee", "QueueGameHost", "QueueSettings", "JobRefused"]

_WITH_ENGINE = {"QueueGameHost", "QueueSettings", "JobRefused"}


def __getattr__(name: str) -> Any:
    """``QueueGameHost``, ``QueueSettings``, ``JobRefused``: imported on first use (they need the engine's client)."""
    if name in _WITH_ENGINE:
        from server.queue import host
        return getattr(host, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""The game host a server plays its pairings of hosted bots on, with the server's hooks attached.

``server_game_host`` is ``server.submission_seats.game_host_for`` (workers through the engine with
``--queue``, else this machine's ``LocalGameHost``) for pairings of a given number of games, whose
``restarted`` hook hears each game that starts again from the beginning on another worker (the web
pages forget its first attempt: ``server.web.WebDesk.restart``). The engine's client is imported only
with ``--queue``.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor

from ..sandbox.host import GameHost
from ..settings import ServerSettings
from ..submission_seats import game_host_for

__all__ = ["server_game_host"]


def server_game_host(settings: ServerSettings, executor: Executor, say: Callable[[str], None], *,
                     restarted: Callable[[str], None] | None = None,
                     games_per_pairing: int | None = None) -> GameHost:
    """Where pairings of hosted bots are played (``--queue``: on workers); ``say`` tells the organiser of a restart.

    ``games_per_pairing`` (default: the tournament's) sizes each bot's CPU budget for a pairing (the ladder
    plays two games a pairing); ``restarted`` hears the id of each game a worker starts again.
    """
    if games_per_pairing is not None:
        settings = settings.model_copy(update={"games_per_pairing": games_per_pairing})
    host = game_host_for(settings, executor, say)
    if restarted is not None and settings.queue:
        from .host import QueueGameHost             # only with --queue: it needs the engine's client
        assert isinstance(host, QueueGameHost)
        host.restart_hooks.append(lambda game, _attempt: restarted(game))
    return host

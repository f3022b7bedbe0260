"""The game host a server plays its pairings of hosted bots on, with the server's hooks attached.

``server_game_host`` plays them on workers through the engine with ``--queue`` (docs/queue.md), else on
this machine (``LocalGameHost``, logs written on the server's log thread), for pairings of a given number
of games, whose
``restarted`` hook hears each game that starts again from the beginning on another worker (the web
pages forget its first attempt: ``server.web.WebDesk.restart``). The engine's client is imported only
with ``--queue``.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor

from server.sandbox import HostedRows, LocalGameHost
from server.sandbox.host import GameHost
from server.settings import ServerSettings
from server.submissions.seats import pairing_limits

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
    if not settings.queue:
        return LocalGameHost(pairing_limits(settings), rows=HostedRows(executor))
    from server.queue.host import QueueGameHost                 # only with --queue: it needs the engine's client
    host = QueueGameHost(settings.queue, pairing_limits(settings), on_restart=lambda game, attempt: say(
        f"{game}: its worker died; it starts again (attempt {attempt})"))
    if restarted is not None:
        host.restart_hooks.append(lambda game, _attempt: restarted(game))
    return host

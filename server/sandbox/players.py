"""``HostedPlayers``: hosted bots seated in a lobby (the ladder's, or a tournament's) as connected players are.

Each bot is a ``HostedBot`` process bound to the session its lobby gives it (``admit``), exactly
as a websocket is: the tournament or the ladder then plays it like any player. A process that ends
is started again (its session waits for it, as for a player that reconnects); a process that has
used half its CPU seconds (a per-process limit) is started afresh while its player is in no game.
``put`` seats another bot while they run, or a newer version of one (by name): the old process
leaves once its player is in no game, and the new one is seated under the same key.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from shared.referee import RefereeSettings

from server.seats.players import PlayerSession
from server.sandbox.causes import BotEnd
from server.sandbox.host import BotEntry
from server.sandbox.limits import SandboxLimits
from server.sandbox.process import HostedBot, SandboxUnavailable
from server.sandbox.seat import HostedPeer, welcome_for

__all__ = ["HostedPlayer", "HostedPlayers", "Admit"]

log = logging.getLogger("quoridor.server")

#: Seats a loaded bot: ``admit(key, name, peer, version)`` returns its session (a lobby's ``admit``).
Admit = Callable[[str, str, HostedPeer, str | None], PlayerSession]


@dataclass(frozen=True)
class HostedPlayer:
    """A bot to seat: what to run (``entry``) and the key it plays under."""

    entry: BotEntry
    key: str


def _idle(session: PlayerSession) -> bool:
    """True when the session is in no game (a ladder session also in no pairing)."""
    return not session.playing and getattr(session, "busy", 0) == 0


class HostedPlayers:
    """Keeps each of ``players`` running and seated through ``admit`` until ``stop``."""

    def __init__(self, players: Sequence[HostedPlayer], admit: Admit, referee: RefereeSettings,
                 limits: SandboxLimits | None = None, *, restart_s: float = 5.0, recycle_check_s: float = 1.0) -> None:
        self.players = list(players)
        self.admit = admit
        self.referee = referee
        self.limits = limits or SandboxLimits()
        self.restart_s = restart_s
        self.recycle_check_s = recycle_check_s
        self.tasks: list[asyncio.Task[None]] = []
        #: Each player's current process, by name.
        self.bots: dict[str, HostedBot] = {}
        #: The bot each name should run now (a newer version replaces the running one between games).
        self.wanted: dict[str, HostedPlayer] = {}
        #: The bot each name's session was last admitted with (the version its games are rated as).
        self.seated: dict[str, HostedPlayer] = {}
        self._keepers: dict[str, asyncio.Task[None]] = {}
        #: Set by ``stop``: a keeper ends at its next turn of the loop even if code it awaited caught its
        #: cancellation; else it would see its bot end and start it again, and ``stop`` would wait for ever.
        self._stopping = False

    def start(self) -> None:
        """Start every player's process and seat it (each in a task of its own)."""
        for player in self.players:
            self.put(player)

    def put(self, player: HostedPlayer) -> None:
        """Seat ``player`` (once started); a player of the same name is replaced by it once in no game."""
        name = player.entry.name
        self.wanted[name] = player
        keeper = self._keepers.get(name)
        if keeper is None or keeper.done():         # new, or its last version was not admitted
            keeper = self._keepers[name] = asyncio.get_running_loop().create_task(self._keep(name))
            self.tasks.append(keeper)

    async def _keep(self, name: str) -> None:
        while not self._stopping:
            player = self.wanted[name]
            entry = player.entry
            bot = self.bots[entry.name] = entry.hosted_bot(self.limits)
            peer = HostedPeer(bot, referee=self.referee)      # its games' clock (--hosted-clock)
            try:
                failed = await bot.start()
            except SandboxUnavailable as exc:
                failed = BotEnd("sandbox_unavailable", str(exc))
            if self._stopping:                  # stopped while it started: never seated
                await bot.close(BotEnd("ok", ""))
                return
            if failed is None:
                said = bot.hello.get("version") if bot.hello else None
                version = entry.version or (said if isinstance(said, str) else None)
                try:
                    session = self.admit(player.key, entry.name, peer, version)
                except ValueError as exc:       # AdmissionError: not on the roster, seat taken, full
                    await bot.close(BotEnd("ok", f"not admitted: {exc}"))
                    log.warning("hosted player %s was not admitted: %s", entry.name, exc)
                    return
                peer.session = session
                self.seated[entry.name] = player
                peer.send_now(welcome_for(session.name, self.referee))
                failed = await self._serve(bot, session, player)
            if failed.cause != "ok":
                log.warning("hosted player %s ended (%s); starting it again in %g s", entry.name, failed,
                            self.restart_s)
                await asyncio.sleep(self.restart_s)

    async def _serve(self, bot: HostedBot, session: PlayerSession, player: HostedPlayer) -> BotEnd:
        """Wait for the process to end; between games, start it afresh once it used half its CPU seconds, or
        make way for a newer version (``put``)."""
        while True:
            try:
                # Not wait_for: on 3.11 it can swallow a cancellation that comes as the process ends, and
                # stop() would wait for this loop for ever.
                async with asyncio.timeout(self.recycle_check_s):
                    return await asyncio.shield(bot.wait())
            except TimeoutError:
                pass
            if self._stopping:
                return await bot.close(BotEnd("ok", ""))
            newer = self.wanted[player.entry.name]
            if newer is not player and _idle(session):
                return await bot.close(BotEnd("ok", f"replaced by version {newer.entry.version}"))
            used = bot.cpu_seconds() or 0.0
            if used > self.limits.cpu_seconds / 2 and _idle(session):
                return await bot.close(BotEnd("ok", f"started afresh after {used:.0f} CPU seconds"))

    async def stop(self) -> None:
        """Stop every process (a game in progress is lost as a disconnect)."""
        self._stopping = True
        for task in self.tasks:
            task.cancel()
        for bot in self.bots.values():      # now, before any wait: a stop cancelled meanwhile leaves none running
            bot.stop(BotEnd("ok", ""))
        if self.tasks:
            await asyncio.wait(self.tasks)
        await asyncio.gather(*(bot.close() for bot in self.bots.values()))
        self.bots.clear()

"""Handed-in bots in a tournament (``--players-from-submissions``, roster entries that name a submission): a seat
each, a fresh process per pairing.

Each key's newest accepted bot (or the version its roster entry names: ``named_version``) takes a seat
as a ``SubmittedSeat``: a player that never disconnects and holds no process between pairings. The tournament starts a new sandboxed process for each of its
pairings, before the pairing's first turn (so importing never counts against a step), and stops it
after the pairing's last game; the process's CPU limit covers one pairing (``pairing_limits``), not
the whole tournament. A pairing of two handed-in bots is played by the server's ``GameHost`` (at most
one fewer pairings at once than the cores); a pairing of a handed-in bot and a connected one is played
here, the handed-in bot's process seated for it (``start_pairing_seat``).

Before the doors close each bot is started once and stopped (``seat_submissions``): a bot that cannot
start here takes no seat and the organiser is told why; connected bots take the seats left. A bot
accepted while the seats fill is seated the same way (``LateSeats``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence

from shared.referee import RefereeSettings

from server.seats.lobby import Lobby
from server.seats.players import PlayerSession
from server.sandbox import (
    BotEnd, BotEntry, HostedPeer, HostedSeat, SandboxLimits, SandboxUnavailable,
)
from server.settings import ServerSettings
from server.submissions.store import StoredVersion

__all__ = ["SubmittedSeat", "LateSeats", "named_version", "seat_submissions", "pairing_limits", "start_pairing_seat",
           "hosted_peer"]


class SubmittedSeat(PlayerSession):
    """A handed-in bot's seat in a tournament: always present, played by a process started for each pairing."""

    def __init__(self, key: str, entry: BotEntry) -> None:
        super().__init__(key, entry.name)
        #: What to run: the bot's files, entry and version.
        self.entry = entry
        self.present.set()

    @property
    def connected(self) -> bool:
        """Always True: a handed-in bot never disconnects (a process that fails loses its games, not its seat)."""
        return True


def named_version(player: str, versions: Sequence[StoredVersion], wanted: str | None) -> StoredVersion:
    """The version of ``player``'s bot its roster entry names (pure): ``wanted``, or the newest accepted of
    ``versions`` (newest first) when ``wanted`` is None; ``ValueError`` in one line when there is none such."""
    if not versions:
        raise ValueError(f"the roster seats {player}'s handed-in bot, but {player} has handed in no bot: hand one in "
                         "(quoridor-submit BOT.py -k KEY) or drop 'submission' from its entry")
    if wanted is None:
        accepted = next((version for version in versions if version.accepted), None)
        if accepted is None:
            newest = versions[0]
            raise ValueError(f"the roster seats {player}'s newest accepted handed-in bot, but none of its "
                             f"{len(versions)} version(s) was accepted (the newest, {newest.version}: {newest.cause}: "
                             f"{newest.reason}); hand in a bot that passes validation")
        return accepted
    named = next((version for version in versions if version.version == wanted), None)
    if named is None:
        shown = ", ".join(version.version for version in versions[:5]) + (", ..." if len(versions) > 5 else "")
        raise ValueError(f"the roster seats version {wanted} of {player}'s handed-in bot, which {player} never handed "
                         f"in (its versions, newest first: {shown}; quoridor-submit --list shows them)")
    if not named.accepted:
        raise ValueError(f"the roster seats version {wanted} of {player}'s handed-in bot, which was refused "
                         f"({named.cause}: {named.reason}); name an accepted version")
    return named


def pairing_limits(settings: ServerSettings) -> SandboxLimits:
    """The sandbox's limits for one bot's process in one pairing: CPU seconds for every step it may think.

    Never below the sandbox's own ``cpu_seconds``; the other limits are the sandbox's.
    """
    step_s = (settings.effective_time_limit_ms or 10_000) / 1000
    budget = math.ceil(settings.games_per_pairing * settings.step_cap * step_s)
    limits = settings.sandbox
    return dataclasses.replace(limits, cpu_seconds=max(limits.cpu_seconds, budget))


async def start_pairing_seat(seat: SubmittedSeat, limits: SandboxLimits,
                             referee: RefereeSettings) -> HostedSeat | BotEnd:
    """A new process for ``seat``'s bot, started and loaded, as a player for one pairing; else why it failed."""
    entry = seat.entry
    hosted = HostedSeat(entry.name, entry.hosted_bot(limits), referee,
                        key=seat.key)
    try:
        failed = await hosted.start()
    except SandboxUnavailable as exc:
        return BotEnd("sandbox_unavailable", str(exc))
    if failed is not None:
        await hosted.close()
        return failed
    return hosted


async def _probe(entry: BotEntry, limits: SandboxLimits) -> BotEnd | None:
    """Start ``entry``'s bot and stop it: ``None`` when it starts here, else why not."""
    bot = entry.hosted_bot(limits)
    try:
        failed = await bot.start()
    except SandboxUnavailable as exc:
        return BotEnd("sandbox_unavailable", str(exc))
    await bot.close()
    return failed


async def seat_submissions(lobby: Lobby, bots: Mapping[str, BotEntry], settings: ServerSettings,
                           say: Callable[[str], None]) -> list[SubmittedSeat]:
    """Seat a ``SubmittedSeat`` for each of ``bots`` (key -> bot) that starts here, up to the free seats.

    A resumed tournament seats only its own players' bots (``lobby.expected``).
    """
    if lobby.expected is not None:
        bots = {key: entry for key, entry in bots.items() if entry.name in lobby.expected}
    free = lobby.seats - len(lobby.sessions)
    chosen = list(bots.items())[:max(0, free)]
    for entry in list(bots.values())[len(chosen):]:
        say(f"{entry.name} (handed in, version {entry.version}) takes no seat: all {lobby.seats} are taken "
            "(raise -n)")
    limits = pairing_limits(settings)
    failures = await asyncio.gather(*(_probe(entry, limits) for _, entry in chosen))
    seated = []
    for (key, entry), failed in zip(chosen, failures, strict=True):
        if lobby.started or len(lobby.sessions) >= lobby.seats or any(s.key == key for s in lobby.sessions):
            say(f"{entry.name}'s handed-in bot takes no seat: the tournament started, or the seat was taken "
                "meanwhile")
            continue
        if failed is not None:
            say(f"{entry.name}'s handed-in bot (version {entry.version}) did not start: {failed}; it takes no seat")
            continue
        seat = SubmittedSeat(key, entry)
        lobby.sessions.append(seat)
        seated.append(seat)
        say(f"{entry.name} takes a seat with its handed-in bot, version {entry.version} "
            "(a fresh sandboxed process for each pairing)")
    lobby.release()                 # the seats the roster held for these bots: taken, or free for connected bots
    if len(lobby.sessions) >= lobby.seats:
        lobby.full.set()
    return seated


class LateSeats:
    """Seats each bot accepted while a tournament's seats fill (``SubmissionDesk.on_accepted``), into ``seated``.

    A newer version of a bot already seated takes its place, unless the roster names the version to play;
    nothing is seated once the doors closed.
    """

    def __init__(self, lobby: Lobby, seated: list[SubmittedSeat], settings: ServerSettings,
                 say: Callable[[str], None], *, everyone: bool = True) -> None:
        self.lobby = lobby
        self.seated = seated
        self.settings = settings
        self.say = say
        #: Seat any key's bot (``--players-from-submissions``); else only those the roster seats by their newest.
        self.everyone = everyone
        self._tasks: set[asyncio.Task[None]] = set()

    def __call__(self, key: str, entry: BotEntry) -> None:
        """``key``'s bot ``entry`` was accepted: seat it (in a task of its own: it is started once first)."""
        named = self.settings.roster_submissions
        if self.lobby.started or named.get(key) is not None:      # a version the roster names plays, not a newer one
            return
        if not self.everyone and key not in named:                # this key's bot connects, as the roster says
            return
        seat = next((seat for seat in self.seated if seat.key == key), None)
        if seat is not None:
            seat.entry = entry
            self.say(f"{entry.name} will play version {entry.version} of its handed-in bot")
            return
        task = asyncio.get_running_loop().create_task(self._seat(key, entry))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _seat(self, key: str, entry: BotEntry) -> None:
        self.seated += await seat_submissions(self.lobby, {key: entry}, self.settings, self.say)

    def close(self) -> None:
        """Stop seating (the bots being started are stopped)."""
        for task in self._tasks:
            task.cancel()


def hosted_peer(session: PlayerSession | None) -> HostedPeer | None:
    """``session``'s process when the server hosts its player (a handed-in bot, a resident), else None."""
    peer = None if session is None else session.peer
    return peer if isinstance(peer, HostedPeer) else None

"""``LadderRecords``: the ladder's database as the server uses it, typed ``async`` calls on the store's own thread.

``LadderStore`` (``server.ladder.store``) is synchronous SQLite. ``LadderRecords`` owns the one worker
thread it runs on (a ``server.disk.store_thread.StoreThread``, as every store's facade; not the log
thread: the games' logs are written elsewhere). Calls run in the order they are made, so a game
recorded before its players hear of it is read by every later call; cancelling a wait does not
cancel the call. Their arguments are read on the store's thread: a caller must not change a list
it passed before the call returns.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from shared.ladder import BotReport, GameFact, PublishedRow, Skill
from shared.organiser import LadderActivity

from server.disk.store_thread import StoreClosedError, StoreFacade, StoreThread
from server.ladder.store import LadderGame, LadderStore, Track

__all__ = ["LadderRecords", "THREAD_NAME"]

#: The name (prefix) of the ladder store's worker thread.
THREAD_NAME = "quoridor-ladder-db"


class LadderRecords(StoreFacade[LadderStore]):
    """The ladder's database at ``path``: ``await LadderRecords.open(path)``, then one ``async`` method per call.

    Every method raises what ``LadderStore`` raises for it (``ValueError``, ``sqlite3.Error``); after
    ``close()`` every call raises ``StoreClosedError``.
    """

    @classmethod
    async def open(cls, path: Path) -> LadderRecords:
        """Open (creating it and its folder if missing) the ladder's database at ``path`` on a new thread.

        ``ValueError`` in one line for another kind of file or a newer schema; no thread is left behind.
        """
        path = Path(path)
        return cls(await StoreThread.open(THREAD_NAME, lambda: LadderStore(path), closed=lambda: StoreClosedError(
            f"the ladder's store {path} is closed; open it again with LadderRecords.open")))

    # -- tracks -------------------------------------------------------------------------------
    async def track(self, bot: str, version: str, initial: Skill) -> Track:
        """The track of ``bot`` at ``version``, created (at ``initial``) the first time it plays."""
        return await self._thread.call(lambda store: store.track(bot, version, initial))

    async def tracks(self) -> list[Track]:
        """Every track, oldest first."""
        return await self._thread.call(LadderStore.tracks)

    # -- games --------------------------------------------------------------------------------
    async def record(self, game: LadderGame) -> None:
        """Store a finished game and the two ratings it produced, in one transaction."""
        await self._thread.call(lambda store: store.record(game))

    async def last_pairing(self) -> int:
        """The highest pairing number recorded (pairings are numbered on from it after a restart)."""
        return await self._thread.call(LadderStore.last_pairing)

    async def meetings(self, since: str | None = None) -> Counter[tuple[str, str]]:
        """Games per pair of bots (by name), ended since ``since`` (an ISO time; all of them without it)."""
        return await self._thread.call(lambda store: store.meetings(since))

    async def facts(self, track_ids: Sequence[int] | None = None) -> list[GameFact]:
        """Games (all, or those involving ``track_ids``) as ``GameFact``s named by track label, in play order."""
        ids = None if track_ids is None else tuple(track_ids)
        return await self._thread.call(lambda store: store.facts(ids))

    async def report(self, wanted: str, limit_ms: int) -> tuple[Track, BotReport] | None:
        """The report of the version ``wanted`` (its label or ``bot@version``) with its track; None if there is none."""
        return await self._thread.call(lambda store: store.report(wanted, limit_ms))

    async def activity(self, bots: Sequence[str]) -> dict[str, LadderActivity]:
        """What each of ``bots`` (by name) did on the ladder: its newest track and that track's games, its last game
        (``LadderStore.activity``); bots that never played are left out."""
        wanted = tuple(bots)
        return await self._thread.call(lambda store: store.activity(wanted))

    async def game_log(self, game_id: str) -> str | None:
        """The log of the ladder game ``game_id``, as its path in the data directory; None when there is none."""
        return await self._thread.call(lambda store: store.game_log(game_id))

    async def published(self) -> tuple[list[PublishedRow], dict[str, Track]]:
        """The published table of the current tracks, with those tracks by label (fitted on the store's thread)."""
        return await self._thread.call(LadderStore.published)

"""``Results``: the results database as the server uses it — typed ``async`` calls on the store's own thread.

``ResultStore`` (``server.tournament.store``) is synchronous SQLite. ``Results`` owns the one worker thread it
runs on (a ``server.disk.store_thread.StoreThread``, as every store's facade): the calls that queue up while the thread is busy
(hundreds of games ending together) run as one batch in one transaction, so they share one
commit, one sync to disk. Each call is still all or nothing by itself (a savepoint): one that
raises fails alone, and the others of its batch are committed.

Calls run in the order they are made. Their arguments are read on the store's thread, so a
caller must not change a mapping or list it passed before the call returns. Cancelling a wait
does not cancel the call: a write that was asked for is made.

``record_timeout_later`` is for callbacks that cannot wait (a step's hook): it returns at once,
logs its failure, and ``flush()``/``close()`` wait for it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from shared.tournament import GameResult, ScheduledGame

from server.disk.store_thread import StoreFacade, StoreThread
from server.tournament.store import ResultStore, StoreError
from server.tournament.rows import Entrant, GameRow, TournamentRow

__all__ = ["Results", "GameKey", "THREAD_NAME"]

log = logging.getLogger("quoridor.server")

#: The store's identity of a scheduled game: (round, pairing, game in pairing).
GameKey = tuple[int, int, int]
#: The name (prefix) of the store's worker thread.
THREAD_NAME = "quoridor-db"


class Results(StoreFacade[ResultStore]):
    """The results database at ``path``: ``await Results.open(path)``, then one ``async`` method per operation.

    Every method raises what ``ResultStore`` raises for it (``StoreError``, its ``NotFoundError``,
    ``StoreUsageError``); after ``close()`` every call raises ``StoreError``.
    """

    @classmethod
    async def open(cls, path: Path) -> Results:
        """Open (creating it and its folder if missing) the results database at ``path`` on a new thread.

        Raises ``StoreError`` if it cannot be opened or is not a results database; no thread is left behind.
        """
        path = Path(path)
        return cls(await StoreThread.open(THREAD_NAME, lambda: ResultStore(path), batch=ResultStore.batch,
                                          closed=lambda: StoreError(f"the results store {path} is closed; open it "
                                                                    "again with Results.open")))

    @property
    def commits(self) -> int:
        """Transactions committed so far (a batch of calls counts once; reads count too)."""
        return self._thread.store.commits

    # -- tournaments ----------------------------------------------------------------------------
    async def create_tournament(self, name: str, fmt: str, games_per_pairing: int, seed: int | None,
                                players: Sequence[str], settings: Mapping[str, Any],
                                entrants: Mapping[str, Entrant] | None = None) -> int:
        """Store a new, unfinished tournament and its players (in seat order), with who each is (``entrants``: key
        and handed-in version, by name); returns its id."""
        players, settings, who = tuple(players), dict(settings), dict(entrants or {})
        return await self._thread.call(lambda store: store.create_tournament(name, fmt, games_per_pairing, seed,
                                                                     players, settings, who))

    async def latest_unfinished(self) -> TournamentRow | None:
        """The most recently created tournament not marked finished, or None."""
        return await self._thread.call(lambda store: store.latest_unfinished())

    async def tournament(self, tid: int) -> TournamentRow:
        """The tournament ``tid``; ``NotFoundError`` (a KeyError) if there is none."""
        return await self._thread.call(lambda store: store.tournament(tid))

    async def finish_tournament(self, tid: int, standings: Sequence[Mapping[str, Any]]) -> None:
        """Mark ``tid`` finished with its final ``standings`` (one mapping per row, best first)."""
        rows = list(standings)
        await self._thread.call(lambda store: store.finish_tournament(tid, rows))

    async def export(self, tid: int, folder: Path) -> tuple[Path, Path]:
        """Write ``folder/results.json`` and ``folder/results.csv`` for ``tid``; returns both paths."""
        return await self._thread.call(lambda store: store.export(tid, folder))

    # -- games ------------------------------------------------------------------------------------
    async def schedule(self, tid: int, games: Iterable[ScheduledGame]) -> None:
        """Add ``games`` as 'pending' (a key already stored keeps its row); all or nothing."""
        planned = tuple(games)
        await self._thread.call(lambda store: store.schedule(tid, planned))

    async def reset_unfinished(self, tid: int) -> int:
        """Turn the 'running' games of ``tid`` (left by a crash) back to 'pending'; returns how many."""
        return await self._thread.call(lambda store: store.reset_unfinished(tid))

    async def mark_started(self, tid: int, key: GameKey, game_id: str, started_at: str) -> None:
        """Set a scheduled game 'running' with its ``game_id`` and start time; a finished game is refused."""
        await self._thread.call(lambda store: store.mark_started(tid, key, game_id, started_at))

    async def record_result(self, tid: int, key: GameKey, result: GameResult, *, log_path: str | None,
                            game_id: str, started_at: str | None, ended_at: str, steps: int) -> None:
        """Store the ``result`` of a scheduled game and set it 'finished' (the same result again: no-op)."""
        await self._thread.call(lambda store: store.record_result(tid, key, result, log_path=log_path, game_id=game_id,
                                                          started_at=started_at, ended_at=ended_at, steps=steps))

    async def games(self, tid: int, status: str | None = None) -> list[GameRow]:
        """The games of ``tid`` (only those with ``status`` if given), by (round, pairing, game_in_pairing)."""
        return await self._thread.call(lambda store: store.games(tid, status))

    async def results(self, tid: int) -> list[GameRow]:
        """The finished games of ``tid`` in order."""
        return await self._thread.call(lambda store: store.results(tid))

    # -- players ----------------------------------------------------------------------------------
    async def record_timeout(self, tid: int, player: str, *, kicked: bool = False) -> int:
        """Count a timeout of ``player`` (and its removal, when ``kicked``); returns its timeouts so far."""
        return await self._thread.call(lambda store: store.record_timeout(tid, player, kicked=kicked))

    def record_timeout_later(self, tid: int, player: str, *, kicked: bool = False) -> None:
        """``record_timeout`` without waiting (from a callback): queued now, a failure is logged.

        ``flush()`` and ``close()`` wait for it. Raises ``StoreError`` at once if the store is closed.
        """
        self._thread.call_later(lambda store: store.record_timeout(tid, player, kicked=kicked),
                          f"a timeout of {player!r} in tournament {tid}")

    async def player_states(self, tid: int) -> dict[str, tuple[int, bool]]:
        """Each player's timeouts so far and whether it was removed for them, by name."""
        return await self._thread.call(lambda store: store.player_states(tid))

    # -- lifecycle ----------------------------------------------------------------------------------
    async def flush(self) -> None:
        """Wait until every write queued by a ``*_later`` method so far is made (or has failed, logged)."""
        await self._thread.flush()

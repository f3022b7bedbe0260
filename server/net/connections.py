"""``Connections``: who is connected, over either transport, counted against the limits, and the broadcasts.

Counting (``Limits``), so that no client and no address can lock others out:

* every TCP connection counts against ``capacity`` from the moment it is accepted, handshake
  included (``add``); a refused one is cut at once and holds no file descriptor;
* a connection that has not said ``hello`` yet is *pending*, and one address may have at most
  ``max_pending_per_address`` pending connections: half-open handshakes cannot pile up. At that
  quota a new connection from the address takes the place of its *oldest* pending one (of those
  whose wrong key waits for its answer, ``server.net.admission``, if any), which is closed (1013),
  instead of being refused: connections that sit idle without a hello, even reopened as soon as
  they close, cannot keep the address's players out, since a player's connection says hello
  within a round trip and is the newest, so it would take ``max_pending_per_address`` newer
  connections within that round trip to push it out. A new
  connection is never refused for its address's pending quota (only for the server's total): a
  refusal is what a crowd that reopens at once wins every race for, while an eviction always goes
  to the crowd's oldest. Each new connection evicts at most one, and an evicted one that reopens
  evicts another only while its address is still at its quota, so nothing churns by itself;
* once greeted (``settle``), a connection that holds no checked key (a spectator) is
  *anonymous*, capped per address by ``max_anonymous_per_address``; players are never counted
  there, so a classroom behind one address can always seat its keyed players.

Broadcasts are serialised once and written a chunk of ``BROADCAST_CHUNK`` connections per pass
of the event loop, so writing to a thousand clients never holds the steps up in between.

Latest-state messages (a game's updates, ``publish``) wait for a lull: they are written once no
update has come for ``QUIET_S`` (the games of a round step together, in a burst), or once the
oldest has waited ``HOLD_S`` (a burst that goes on), and at most once per ``GATHER_S``. The bots'
steps come first: in ``bench/web_spectators.py`` (100 spectators of 50 games), writing every
``GATHER_S`` through the bursts instead put the spectators' writes, and their readers' work,
among the bots' steps: the bots' p99 added delay was +1.37 ms against +0.84 ms now (medians of 7
rounds), with 75% more frames; the spectators' p99 latency was 14.9 against 13.1 ms (20 allowed).

Each connection's updates, in order, are framed by its websocket protocol and handed to its
transport as one write, as long as they keep it under its high-water mark (the rest go one by one
through ``send_latest``, which keeps a slow reader to the newest of each kind): one system call per
spectator and drain, not per update (a write per update was half of the server's time). A reader
that keeps up gets every step; what waits for a connection is at most ``MAX_WAITING`` updates
before only the newest of each game is kept. A step's own work stays O(1) however many watch:

* the spectators that watch every game (``"*"``: the tournament page, TV) read one shared *feed*:
  a step appends its update, each such spectator keeps how far it has been written, and a drain
  writes each the feed from there, a ``Gathered`` shared by all that were as far (their
  ``game_updates`` frame is built once); the feed is cut back to the least written after every
  drain, so it holds at most the updates of a drain and the wait before it;
* those that watch the game by its id (a game's page) are shared it in the pass of the loop after
  the step (``_share_out``; within one pass the newest of a game replaces an older one, as a slow
  reader would see it).

A *paced* broadcast (the standings: a big table, often) keeps to a byte rate, passes over the
connections that are busy when their turn comes, and a newer one replaces what is left of the
one before. Nothing here waits for a client: see ``server.net.connection.Peer`` for what a client
that stops reading is sent.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter, deque
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from server.net.admission import WrongKeys
from server.net.connection import CLOSE_TRY_LATER, Connection, Encoded, Gathered
from server.net.limits import Limits

__all__ = [
    "BROADCAST_CHUNK",
    "GATHER_S",
    "HOLD_S",
    "MAX_WAITING",
    "PACED_PASS_BYTES",
    "QUIET_S",
    "STANDINGS",
    "WATCHERS_KEPT",
    "Connections",
]

#: Connections written to per pass of the event loop during a broadcast.
BROADCAST_CHUNK = 50
#: Games whose ``watchers`` are kept at most (a ladder plays thousands; they are found again when asked).
WATCHERS_KEPT = 4096
#: Least seconds between the starts of two drains of game updates.
GATHER_S = 0.002
#: Seconds without a new update after which the waiting ones are written (the burst of a round is over).
QUIET_S = 0.002
#: Most seconds an update waits for that lull (a burst that goes on is written in parts).
HOLD_S = 0.006
#: Updates waiting for one connection above which only the newest of each game is kept (a flood between drains).
MAX_WAITING = 256
#: Bytes a paced broadcast writes in one go (at least one frame) before it waits for its rate.
PACED_PASS_BYTES = 64 * 1024
#: The kind of latest-state message the standings are (a newer table replaces an unsent older one).
STANDINGS = "standings"

log = logging.getLogger("quoridor.server")


class Connections:
    """The open connections, counted against ``limits`` and at most ``capacity`` at once.

    ``clock`` paces the answers to wrong keys (the server's one clock).
    """

    def __init__(self, limits: Limits, paced_bytes_per_s: float = 4 * 1024 * 1024,
                 capacity: int | None = None, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.paced_bytes_per_s = paced_bytes_per_s
        #: Connections open at once (``limits.max_connections``, or fewer to keep within the open-file limit).
        self.capacity = limits.max_connections if capacity is None else min(capacity, limits.max_connections)
        self.open: set[Connection] = set()
        self.pending: Counter[str] = Counter()
        self.anonymous: Counter[str] = Counter()
        #: Wrong keys per address, over every transport (``server.net.admission``).
        self.wrong_keys = WrongKeys(clock=clock)
        #: Per address, its pending connections, oldest first (a dict keeps the order they were added in).
        self._pending: dict[str, dict[Connection, None]] = {}
        self._evicting: set[str] = set()        # addresses whose pending connections were evicted (logged once)
        self._anonymous: set[Connection] = set()
        #: Connections that said hello (or sent a legacy key): only they hear broadcasts.
        self.greeted: set[Connection] = set()
        #: Spectator -> the game ids it watches (``"*"``: all); changed only through ``spectate`` and ``watch``.
        self.spectators: dict[Connection, set[str]] = {}
        #: ``watchers`` by game, kept until the spectators change (asked at every step of every game).
        self._watchers: dict[str, list[Connection]] = {}
        #: The feed of every game's updates, for the spectators that watch ``"*"`` (None: an update forgotten).
        self._feed: list[tuple[Hashable, Encoded] | None] = []
        self._feed_start = 0                    # the number of feed[0]: updates are numbered from the first
        #: Each spectator that watches ``"*"``, and the number of the first update it has not been written.
        self._fed: dict[Connection, int] = {}
        self._feed_new = False                  # updates came since the drain's round of the feed began
        self._feed_round: deque[Connection] = deque()
        self._slices: dict[tuple[int, int], Gathered] = {}
        self._outbox: deque[tuple[Connection, Encoded]] = deque()
        #: Per connection, the latest-state messages not handed to it yet, in order, with their kinds.
        self._latest: dict[Connection, list[tuple[Hashable, Encoded]]] = {}
        self._latest_order: deque[Connection] = deque()
        self._draining = False
        #: This pass's latest-state broadcasts, the newest of each kind, shared out in the next (``_share_out``).
        self._broadcasts: dict[Hashable, tuple[list[Connection], Encoded]] = {}
        self._sharing = False
        self._gathering: asyncio.TimerHandle | None = None
        self._written_at = -GATHER_S              # loop.time() of the last drain of latest-state messages
        self._published_at = 0.0                  # loop.time() of the last update
        self._held_since: float | None = None     # loop.time() of the oldest update no drain has begun to write
        self._paced: deque[tuple[Connection, Encoded]] = deque()
        self._pacing: asyncio.TimerHandle | asyncio.Handle | None = None
        self._paced_busy: Callable[[], set[Connection]] | None = None

    # -- counting ---------------------------------------------------------------------------
    def add(self, conn: Connection) -> bool:
        """Count a new connection as pending; False (not counted) when it is over a limit.

        At its address's pending quota it takes the place of the address's oldest pending connection
        (closed with 1013): see the module docstring.
        """
        address = conn.address
        if len(self.open) >= self.capacity:
            return False
        if self.pending[address] >= self.limits.max_pending_per_address:
            self._evict(address)
        self.open.add(conn)
        self._pending.setdefault(address, {})[conn] = None
        self.pending[address] += 1
        return True

    def _evict(self, address: str) -> None:
        """Close the oldest pending connection of ``address`` whose wrong key waits for its answer, else its oldest
        pending one (logged once while the address has pending ones)."""
        waiting, held = self._pending[address], self.pending[address]
        oldest = next((conn for conn in waiting if conn in self.wrong_keys.held), None) or next(iter(waiting))
        self._unpend(oldest)
        if address not in self._evicting:       # after: the address may have had no other pending one
            self._evicting.add(address)
            log.info("%s holds %d connections that have not said hello; each new one from it takes the place of the "
                     "oldest", address, held)
        oldest.close(CLOSE_TRY_LATER, "too many connections from your address have not said hello")

    def settle(self, conn: Connection, *, anonymous: bool) -> bool:
        """A pending connection said who it is; False when ``anonymous`` and its address has too many such."""
        self._unpend(conn)
        if not anonymous or conn in self._anonymous:
            return True
        if self.anonymous[conn.address] >= self.limits.max_anonymous_per_address:
            return False
        self._anonymous.add(conn)
        self.anonymous[conn.address] += 1
        return True

    def remove(self, conn: Connection) -> None:
        """A connection closed: stop counting it (a connection never counted is ignored)."""
        if conn not in self.open:
            return
        self.open.discard(conn)
        self._unpend(conn)
        if conn in self._anonymous:
            self._anonymous.discard(conn)
            _decrement(self.anonymous, conn.address)
        if self.spectators.pop(conn, None) is not None:
            self._watchers.clear()
            if self._fed.pop(conn, None) is not None:
                self._cut_feed()
        self.greeted.discard(conn)
        self._latest.pop(conn, None)

    def _unpend(self, conn: Connection) -> None:
        address = conn.address
        waiting = self._pending.get(address)
        if waiting is not None and conn in waiting:
            del waiting[conn]
            _decrement(self.pending, address)
            if not waiting:
                del self._pending[address]
                self._evicting.discard(address)

    def spectate(self, conn: Connection) -> None:
        """``conn`` is a spectator from now on, watching nothing until ``watch``."""
        self.spectators.setdefault(conn, set())

    def watch(self, conn: Connection, game: str) -> None:
        """The spectator ``conn`` watches ``game`` too (a game id, or ``"*"`` for all: from the next update on)."""
        self.spectators[conn].add(game)
        self._watchers.clear()
        if game == "*":
            self._fed.setdefault(conn, self._feed_start + len(self._feed))

    def watchers(self, game: str) -> list[Connection]:
        """The spectators that watch ``game`` by its id and not every game (those read the feed): a list shared
        until the spectators change, not to be modified."""
        found = self._watchers.get(game)
        if found is None:
            if len(self._watchers) >= WATCHERS_KEPT:
                self._watchers.clear()
            found = self._watchers[game] = [conn for conn, games in self.spectators.items()
                                            if game in games and "*" not in games]
        return found

    @property
    def feed_held(self) -> int:
        """Updates the feed of every game holds: those some spectator of ``"*"`` has not been written yet."""
        return len(self._feed)

    def watched(self, game: str) -> bool:
        """Whether anyone would be sent an update of ``game`` (``publish``); asked at every step of every game."""
        return bool(self.spectators) and (bool(self._fed) or bool(self.watchers(game)))

    def watching(self, game: str) -> list[Connection]:
        """The spectators watching ``game`` by its id (a game's page), not every game."""
        return [conn for conn, games in self.spectators.items() if game in games]

    # -- broadcasts -------------------------------------------------------------------------
    def send_later(self, conns: list[Connection], message: Any, *, paced: bool = False,
                   busy: Callable[[], set[Connection]] | None = None) -> int:
        """Send ``message`` (a model, or already an ``Encoded``) to each connection, serialised once, a chunk per
        loop pass; the bytes queued.

        ``paced`` (the standings, kind ``STANDINGS``): at ``paced_bytes_per_s`` at most, replacing
        what a paced broadcast before it has not written yet; ``busy``: the connections to pass over
        when their turn comes (asked once per pass).
        """
        if not conns:
            return 0
        encoded = message if isinstance(message, Encoded) else Encoded.of(message)
        if paced:
            self._paced.clear()
            self._paced_busy = busy
            self._paced.extend((conn, encoded) for conn in conns)
            if self._pacing is None:
                self._pacing = asyncio.get_running_loop().call_soon(self._drain_paced)
        else:
            self._outbox.extend((conn, encoded) for conn in conns)
            self._start_drain()
        return len(encoded.payload) * len(conns)

    def publish(self, game: str, update: Encoded) -> None:
        """Send a step's ``update`` of ``game`` to those who watch it, as a latest-state message of kind
        ``("game", game)`` (``Peer.send_latest``: one that is behind keeps only the newest of each game),
        written with the others of its burst once they stop coming (see the module docstring)."""
        kind, loop = ("game", game), asyncio.get_running_loop()
        self._published_at = now = loop.time()
        if self._held_since is None:
            self._held_since = now
        if self._fed:
            self._feed.append((kind, update))
            self._feed_new = True
        if conns := self.watchers(game):
            self._broadcasts[kind] = (conns, update)
        if not self._sharing:
            self._sharing = True
            loop.call_soon(self._share_out)

    def forget(self, kind: Hashable) -> None:
        """Drop every latest-state message of ``kind`` not written yet (a game that starts again from the beginning)."""
        self._broadcasts.pop(kind, None)
        self._feed[:] = [None if item is not None and item[0] == kind else item for item in self._feed]
        self._slices.clear()
        for waiting in self._latest.values():
            waiting[:] = [(k, encoded) for k, encoded in waiting if k != kind]
        for conn in self.spectators:
            conn.forget_latest(kind)

    def _share_out(self) -> None:
        """Append the pass's updates for watchers of a game to their waiting messages; schedule their drain."""
        self._sharing = False
        latest, order = self._latest, self._latest_order
        for kind, (conns, encoded) in self._broadcasts.items():
            for conn in conns:
                waiting = latest.get(conn)
                if waiting is None:
                    waiting = latest[conn] = []
                    order.append(conn)
                elif len(waiting) >= MAX_WAITING:
                    waiting[:] = {k: e for k, e in waiting}.items()     # the newest of each game
                waiting.append((kind, encoded))
        self._broadcasts.clear()
        self._schedule()

    def _schedule(self) -> None:
        """Start a drain of the waiting updates when it is due (a lull of ``QUIET_S``, ``HOLD_S`` since the oldest,
        ``GATHER_S`` since the last drain), or set a timer to look again then."""
        if self._draining or self._gathering is not None or not (self._latest_order or self._feed_new):
            return                  # a drain under way takes them in its next passes
        loop = asyncio.get_running_loop()
        due = max(self._written_at + GATHER_S, self._published_at + QUIET_S)
        if self._held_since is not None:
            due = min(due, self._held_since + HOLD_S)
        wait = due - loop.time()
        if wait > 0:                # gather the rest of the burst for one write each
            self._gathering = loop.call_later(wait, self._gathered)
        else:
            self._start_drain()

    def _gathered(self) -> None:
        self._gathering = None
        self._schedule()

    def _start_drain(self) -> None:
        self._held_since = None
        if not self._draining:
            self._draining = True
            asyncio.get_running_loop().call_soon(self._drain)

    def _drain(self) -> None:
        if self._feed_new and not self._feed_round:         # a round of the feed: each of its spectators in turn
            self._feed_new = False
            self._feed_round.extend(self._fed)
        if self._latest_order or self._feed_round:
            self._written_at = asyncio.get_running_loop().time()
        end = self._feed_start + len(self._feed)
        for _ in range(BROADCAST_CHUNK):
            if self._outbox:
                conn, encoded = self._outbox.popleft()
                conn.send_now(encoded)
            elif self._latest_order:
                conn = self._latest_order.popleft()
                waiting = self._latest.pop(conn, None)
                if waiting:
                    conn.send_latest_many(Gathered(waiting))
            elif self._feed_round:
                conn = self._feed_round.popleft()
                start = self._fed.get(conn, end)            # a spectator gone since the round began: nothing
                if start < end:
                    self._fed[conn] = end
                    conn.send_latest_many(self._slice(start, end))
            else:
                break
        if self._outbox or self._latest_order or self._feed_round:
            asyncio.get_running_loop().call_soon(self._drain)
            return
        self._draining = False
        self._cut_feed()
        self._schedule()                # updates that came during the drain, for those it had written already

    def _slice(self, start: int, end: int) -> Gathered:
        """The feed's updates numbered ``start`` to ``end``, gathered once for every spectator that needs them."""
        found = self._slices.get((start, end))
        if found is None:
            items = [item for item in self._feed[start - self._feed_start:end - self._feed_start] if item is not None]
            if len(items) > MAX_WAITING:
                items = list({kind: encoded for kind, encoded in items}.items())     # the newest of each game
            found = self._slices[(start, end)] = Gathered(items)
        return found

    def _cut_feed(self) -> None:
        """Forget the updates every spectator of the feed has been written."""
        low = min(self._fed.values(), default=self._feed_start + len(self._feed))
        del self._feed[:low - self._feed_start]
        self._feed_start = low
        self._slices.clear()

    def _drain_paced(self) -> None:
        written = 0
        busy = self._paced_busy() if self._paced_busy is not None else set()
        while self._paced and written < PACED_PASS_BYTES:
            conn, encoded = self._paced.popleft()
            if conn in busy:
                continue
            conn.send_latest(STANDINGS, encoded)   # now: no game can start between this check and the write
            written += len(encoded.payload)
        self._pacing = (asyncio.get_running_loop().call_later(written / self.paced_bytes_per_s, self._drain_paced)
                        if self._paced else None)

    async def flush(self) -> None:
        """Write what waits now, without waiting for its lull: the game updates held back and the broadcasts queued;
        returns once each was handed to its connection (the tournament's end: closing them follows).

        A paced broadcast still under way (the standings) is dropped: the final table that follows supersedes it.
        """
        self._paced.clear()
        while True:
            if self._sharing:                       # this pass's updates for the watchers of one game
                self._share_out()
            if self._gathering is not None:         # no lull to wait for
                self._gathering.cancel()
                self._gathering = None
            if not (self._draining or self._outbox or self._latest_order or self._feed_new or self._feed_round):
                return
            self._start_drain()
            await asyncio.sleep(0)                  # a chunk of connections per pass, as a drain writes them

    async def send_all(self, message: Any, conns: Iterable[Connection] | None = None) -> None:
        """Write ``message`` to ``conns`` (every greeted connection by default: the tournament's end),
        ``BROADCAST_CHUNK`` per pass of the loop; returns once each was written to, so that closing them may follow.

        Written in one pass, a big frame to every connection held the loop (puzzle rooms, pages): the whole final
        table of 1,000 players, 200 KB to each, for 200 ms (``bench/server_load.py`` (c)).
        """
        encoded = Encoded.of(message)
        await self.send_each(lambda conn: encoded, conns)

    async def send_each(self, frame: Callable[[Connection], Encoded],
                        conns: Iterable[Connection] | None = None) -> None:
        """Write to each of ``conns`` (every greeted connection by default) its own ``frame(conn)``, as ``send_all``
        does: ``BROADCAST_CHUNK`` per pass of the loop; returns once each was written to."""
        conns = list(self.greeted if conns is None else conns)
        for start in range(0, len(conns), BROADCAST_CHUNK):
            if start:
                await asyncio.sleep(0)          # a pass of the loop between chunks
            for conn in conns[start:start + BROADCAST_CHUNK]:
                conn.send_now(frame(conn))

    async def close_all(self, code: int, reason: str, wait_s: float = 3.0) -> None:
        """Close every connection, and wait up to ``wait_s`` for them to be gone."""
        for conn in list(self.open):
            conn.close(code, reason)
        loop = asyncio.get_running_loop()
        until = loop.time() + wait_s
        while self.open and loop.time() < until:
            await asyncio.sleep(0.01)


def _decrement(counter: Counter[str], key: str) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]

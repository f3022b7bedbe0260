"""``ResultStore``: the SQLite database of tournaments, their players and games, and the scheduler's state.

Every write is committed before the call that made it returns: alone, or inside a ``batch``
(one commit for the calls made together, each still all or nothing by itself). So a killed
server loses nothing it has recorded and ``--resume`` can rebuild the tournament from the
database alone. ``server.tournament.results.Results`` is how the server calls it, off the event loop.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any

from server.disk.sqlite_files import AUTOCHECKPOINT_PAGES, WAL_LIMIT_BYTES, checkpoint, database_error
from server.logs.logfile import out_of_descriptors
from server.tournament.export import to_json, write_export
from server.tournament.rows import Entrant, GameRow, TournamentRow
from server.tournament.schema import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    SchemaError,
    check_schema,
    create_or_upgrade,
)
from server.timestamps import utc_now

__all__ = ["ResultStore", "TournamentRow", "GameRow", "StoreError", "NotFoundError", "StoreUsageError",
           "SCHEMA_VERSION", "APPLICATION_ID", "FORMATS", "STATUSES"]

FORMATS = ("round-robin", "knockout", "swiss", "final")
_NOBODY = Entrant()
"""The tournament formats the store accepts."""
STATUSES = ("pending", "running", "finished")
"""A game's life: scheduled, being played, result recorded."""
BUSY_TIMEOUT_S = 10.0  # how long to wait for another process's write before giving up

_WHERE_KEY = "tournament_id = ? AND round = ? AND pairing = ? AND game_in_pairing = ?"
_GAME_COLUMNS = ("round, pairing, game_in_pairing, white, black, status, game_id, winner, reason, "
                 "white_thinking_ms, black_thinking_ms, white_violations, black_violations, "
                 "log_path, started_at, ended_at, steps")


class StoreError(RuntimeError):
    """The database cannot be opened, read or written, is not a results database, or is too new."""


class NotFoundError(StoreError, KeyError):
    """No tournament with that id, or no scheduled game with that key."""

    def __str__(self) -> str:  # KeyError would print the message quoted
        return str(self.args[0]) if self.args else ""


class StoreUsageError(ValueError):
    """A bad argument, or a call that contradicts what is stored (e.g. another result for a finished game)."""


def _out_of_descriptors_now() -> str | None:
    """What ran out if the process cannot open a file now for lack of descriptors, else None.

    SQLite says only "unable to open database file"; trying to open one file ourselves tells
    whether descriptors are the cause.
    """
    try:
        os.close(os.open(os.devnull, os.O_RDONLY))
    except OSError as exc:
        return out_of_descriptors(exc)
    return None


def _count(value: Any, what: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise StoreUsageError(f"{what} must be an integer >= {minimum}, got {value!r}")
    return value


def _pair(value: Any, what: str) -> tuple[int, int]:
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise StoreUsageError(f"{what} must be a pair (seat 0, seat 1) of integers >= 0, got {value!r}")
    return _count(value[0], f"{what}[0]"), _count(value[1], f"{what}[1]")


def _key(key: Any) -> tuple[int, int, int]:
    if not isinstance(key, tuple) or len(key) != 3:
        raise StoreUsageError(f"a game key must be (round, pairing, game_in_pairing), got {key!r}")
    return (_count(key[0], "round"), _count(key[1], "pairing"), _count(key[2], "game_in_pairing"))


def _json(value: Any, what: str) -> str:
    try:
        return to_json(value)
    except (TypeError, ValueError) as exc:
        raise StoreUsageError(f"{what} must be JSON data (strings, numbers, lists, mappings): {exc}") from None


class ResultStore:
    """The results database at ``path`` (created, with its folder, if missing), in WAL mode, one connection.

    Calls are synchronous and meant for one thread at a time (the server's store worker thread);
    a lock serialises them, so accidental use from two threads is safe, merely not concurrent.
    Other ``ResultStore`` objects, in this or other processes, may share the file.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        self._batching = False
        #: Transactions this connection has committed (reads included; a batch counts once).
        self.commits = 0
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)  # the server opens us before making --data-dir
            # isolation_level=None: we issue BEGIN/COMMIT ourselves, so every write commits by itself.
            self._conn: sqlite3.Connection | None = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            if (ran_out := out_of_descriptors(exc) or _out_of_descriptors_now()) is not None:
                raise StoreError(f"cannot open database {self.path}: {ran_out}; raise the limit (ulimit -n)") from None
            raise StoreError(f"cannot open database {self.path}: {exc}; check the path and its permissions, "
                             "or pass another --data-dir") from None
        self._conn.row_factory = sqlite3.Row
        try:
            self._open()
        except BaseException:
            self.close()
            raise

    def _open(self) -> None:
        with self._transaction("reading the schema of", immediate=False) as conn:
            version = self._check_schema(conn)
            problems = [" ".join(str(row[0]).split()) for row in conn.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:      # resumed from, it would forget or garble results without a word
            raise StoreError(f"database {self.path} is damaged ({'; '.join(problems)}): restore it from a backup "
                             "(copied with its -wal and -shm files, or with sqlite3's .backup), or move it aside and "
                             "start a new tournament (every finished game's log is kept in its tournament's folder)")
        if version != SCHEMA_VERSION:
            with self._guard("upgrading"):
                assert self._conn is not None
                self._conn.execute("PRAGMA foreign_keys = OFF")    # an upgrade may copy a referenced table
            # BEGIN IMMEDIATE and a second look: two processes may create (or upgrade) the same file at once.
            with self._transaction("creating the tables in" if version == 0 else "upgrading") as conn:
                create_or_upgrade(conn, self._check_schema(conn))
        with self._guard("configuring"):
            assert self._conn is not None
            self._conn.execute("PRAGMA foreign_keys = ON")
            # WAL lets readers and one writer in several processes share the file. Set only now, after
            # the file proved to be ours: journal_mode=WAL is persistent and would alter a foreign file.
            self._use_wal(self._conn)
            # FULL, not NORMAL: NORMAL survives a killed server but may drop the last commits on power
            # loss; a fsync per commit costs nothing at a few commits per game.
            self._conn.execute("PRAGMA synchronous = FULL")
            # The WAL bounded (server.disk.sqlite_files): checkpointed every AUTOCHECKPOINT_PAGES, cut back after.
            self._conn.execute(f"PRAGMA wal_autocheckpoint = {AUTOCHECKPOINT_PAGES}")
            self._conn.execute(f"PRAGMA journal_size_limit = {WAL_LIMIT_BYTES}")
            # SQLite opens the -wal and -shm files at the first read and keeps them: read now, so that a
            # server short of file descriptors mid-tournament (a socket each) needs no new one to record.
            self._conn.execute("SELECT count(*) FROM tournaments").fetchone()

    @staticmethod
    def _use_wal(conn: sqlite3.Connection) -> None:
        """Switch the file to WAL unless it is already (the mode is persistent: one switch per file).

        SQLite answers "locked" at once, without its busy wait, when a switch meets another
        connection's lock (two servers creating the same new file), so the switch is retried here
        for up to ``BUSY_TIMEOUT_S``.
        """
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        while conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            try:
                conn.execute("PRAGMA journal_mode = WAL")
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def _check_schema(self, conn: sqlite3.Connection) -> int:
        """The schema version of our file (0: an empty file, to create); StoreError for anything else."""
        try:
            return check_schema(conn, self.path)
        except SchemaError as exc:
            raise StoreError(str(exc)) from None

    # -- plumbing -------------------------------------------------------------------------------------
    @contextmanager
    def _guard(self, what: str) -> Iterator[None]:
        """Turn sqlite3 errors into a StoreError that says what was being done to which file."""
        try:
            yield
        except sqlite3.Error as exc:
            text = str(exc)
            if "not a database" in text:
                raise StoreError(f"database {self.path} is not a Quoridor Arena results database (not an "
                                 f"SQLite file: {text}); pass another --data-dir") from None
            if "malformed" in text or "corrupt" in text:
                raise StoreError(str(database_error(exc, self.path, what))) from None
            if "full" in text:
                raise StoreError(f"{what} database {self.path} failed: the disk is full ({text}); free space on it, "
                                 "then start again with --resume: every result stored before is kept") from None
            if "unable to open" in text and (ran_out := _out_of_descriptors_now()) is not None:
                raise StoreError(f"{what} database {self.path} failed: {text}: {ran_out}; raise the limit "
                                 "(ulimit -n) or play fewer games at once (-c)") from exc
            hint = (f"another process held it for over {BUSY_TIMEOUT_S:g} s; retry, or stop the other server"
                    if "locked" in text or "busy" in text else "pass another --data-dir")
            raise StoreError(f"{what} database {self.path} failed: {text}; {hint}") from exc

    @contextmanager
    def _transaction(self, what: str, *, immediate: bool = True) -> Iterator[sqlite3.Connection]:
        """One transaction, committed on success and rolled back on any error.

        Writes use BEGIN IMMEDIATE: in WAL a deferred transaction that reads and then writes fails at
        once (SQLITE_BUSY_SNAPSHOT) when another process wrote meanwhile, without waiting.
        """
        with self._lock, self._guard(what):
            if self._conn is None:
                raise StoreError(f"the results store {self.path} is closed; open a new ResultStore")
            conn = self._conn
            if self._batching:          # inside batch(): all or nothing for this call alone, committed with the batch
                conn.execute("SAVEPOINT call")
                try:
                    yield conn
                except BaseException:
                    conn.execute("ROLLBACK TO call")
                    conn.execute("RELEASE call")
                    raise
                conn.execute("RELEASE call")
                return
            conn.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")
            try:
                yield conn
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            self.commits += 1

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Make the calls inside one transaction with one commit (one sync to disk for them all).

        Each call stays all-or-nothing by itself (a savepoint): one that raises is undone alone and
        the others are still committed at the end. Calls from other threads wait until the end.
        """
        with self._lock:
            if self._batching:
                yield                   # already in a batch: part of it
                return
            with self._guard("starting a batch of writes in"):
                if self._conn is None:
                    raise StoreError(f"the results store {self.path} is closed; open a new ResultStore")
                conn = self._conn
                conn.execute("BEGIN IMMEDIATE")
            self._batching = True
            try:
                yield
            except BaseException:
                self._batching = False
                with self._guard("rolling back a batch of writes in"):
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                raise
            self._batching = False
            with self._guard("committing a batch of writes to"):
                try:
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
                self.commits += 1

    def checkpoint(self) -> bool:
        """Empty the WAL into the file at a quiet time (``server.disk.sqlite_files.checkpoint``); False when a
        reader held part of it back, or a batch is open."""
        with self._lock, self._guard("checkpointing"):
            if self._conn is None or self._batching:
                return False
            return checkpoint(self._conn)

    def close(self) -> None:
        """Close the connection; idempotent. Everything was already committed."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> ResultStore:
        return self  # closed by __exit__

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    @staticmethod
    def _require_tournament(conn: sqlite3.Connection, tid: int) -> sqlite3.Row:
        row = conn.execute("SELECT * FROM tournaments WHERE id = ?", (tid,)).fetchone()
        if row is None:
            raise NotFoundError(f"no tournament with id {tid!r} in the results database; "
                                "check the id (latest_unfinished() finds the one to resume)")
        return row

    @staticmethod
    def _require_game(conn: sqlite3.Connection, tid: int, key: tuple[int, int, int]) -> sqlite3.Row:
        row = conn.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE {_WHERE_KEY}", (tid, *key)).fetchone()
        if row is None:
            ResultStore._require_tournament(conn, tid)
            raise NotFoundError(f"game {key} (round, pairing, game_in_pairing) of tournament {tid} is not "
                                "scheduled; call schedule() with it first")
        return row

    @staticmethod
    def _tournament_row(conn: sqlite3.Connection, row: sqlite3.Row) -> TournamentRow:
        seats = conn.execute("SELECT name, key, version FROM players WHERE tournament_id = ? ORDER BY seat_order",
                             (row["id"],)).fetchall()
        entrants = {name: Entrant(key, version) for name, key, version in seats if key is not None or version}
        return TournamentRow.from_columns(row, [seat[0] for seat in seats], entrants)

    # -- tournaments ----------------------------------------------------------------------------------
    def create_tournament(self, name: str, fmt: str, games_per_pairing: int, seed: int | None,
                          players: Sequence[str], settings: Mapping[str, Any],
                          entrants: Mapping[str, Entrant] | None = None) -> int:
        """Store a new, unfinished tournament and its players (in seat order), with who each is (``entrants``, by
        name: its key and the handed-in version it plays); returns its id."""
        if not isinstance(name, str) or not name:
            raise StoreUsageError(f"a tournament name must be a non-empty string, got {name!r}")
        if fmt not in FORMATS:
            raise StoreUsageError(f"unknown tournament format {fmt!r}; expected one of {', '.join(FORMATS)}")
        _count(games_per_pairing, "games per pairing", 1)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not -2**63 <= seed < 2**63):
            raise StoreUsageError(f"seed must be None or a 64-bit signed integer, got {seed!r}")
        names = [players] if isinstance(players, str) else list(players)
        if len(names) < 2 or len(set(names)) != len(names) or not all(isinstance(n, str) and n for n in names):
            raise StoreUsageError(f"players must be at least two distinct non-empty names, got {names!r}")
        if not isinstance(settings, Mapping):
            raise StoreUsageError(f"settings must be a mapping, got {type(settings).__name__}")
        settings_json = _json(settings, "settings")
        with self._transaction("creating a tournament in") as conn:
            tid: int = conn.execute(
                "INSERT INTO tournaments (name, format, games_per_pairing, seed, settings, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)", (name, fmt, games_per_pairing, seed, settings_json, utc_now())).lastrowid
            who = dict(entrants or {})
            conn.executemany("INSERT INTO players (tournament_id, seat_order, name, key, version) VALUES (?, ?, ?, ?, ?)",
                             [(tid, i, n, who.get(n, _NOBODY).key, who.get(n, _NOBODY).version)
                              for i, n in enumerate(names)])
        return tid

    def latest_unfinished(self) -> TournamentRow | None:
        """The most recently created tournament not marked finished, or None."""
        with self._transaction("reading", immediate=False) as conn:
            row = conn.execute("SELECT * FROM tournaments WHERE finished_at IS NULL "
                               "ORDER BY id DESC LIMIT 1").fetchone()
            return None if row is None else self._tournament_row(conn, row)

    def tournaments(self) -> list[TournamentRow]:
        """Every stored tournament, oldest first (the order they were created in)."""
        with self._transaction("reading", immediate=False) as conn:
            rows = conn.execute("SELECT * FROM tournaments ORDER BY id").fetchall()
            return [self._tournament_row(conn, row) for row in rows]

    def tournament(self, tid: int) -> TournamentRow:
        """The tournament ``tid``; NotFoundError (a KeyError) if there is none."""
        with self._transaction("reading", immediate=False) as conn:
            return self._tournament_row(conn, self._require_tournament(conn, tid))

    def finish_tournament(self, tid: int, standings: Sequence[Mapping[str, Any]]) -> None:
        """Mark ``tid`` finished with its final ``standings`` (one mapping per row, best first).

        Calling it again replaces the standings and keeps the first finishing time. Non-finite
        floats (an Elo of ±inf) are stored as null: JSON has no infinity.
        """
        if isinstance(standings, (str, Mapping)) or not isinstance(standings, Sequence):
            raise StoreUsageError(f"standings must be a sequence of rows, got {type(standings).__name__}")
        standings_json = _json(list(standings), "standings")
        with self._transaction("finishing a tournament in") as conn:
            self._require_tournament(conn, tid)
            conn.execute("UPDATE tournaments SET finished_at = COALESCE(finished_at, ?), standings = ? "
                         "WHERE id = ?", (utc_now(), standings_json, tid))

    # -- games ----------------------------------------------------------------------------------------
    def schedule(self, tid: int, games: Iterable[Any]) -> None:
        """Add ``games`` (ScheduledGame-like) as 'pending'; a key already stored keeps its row.

        All or nothing: a game naming a non-player, or a stored key with other players, raises
        StoreUsageError and adds none of them.
        """
        wanted = [(_key((g.round, g.pairing, g.game_in_pairing)), g.white, g.black) for g in games]
        with self._transaction("scheduling games in") as conn:
            self._require_tournament(conn, tid)
            players = {r[0] for r in conn.execute("SELECT name FROM players WHERE tournament_id = ?", (tid,))}
            for key, white, black in wanted:
                if white == black or white not in players or black not in players:
                    raise StoreUsageError(f"game {key} seats {white!r} against {black!r}; a game needs two "
                                          f"different players of tournament {tid}: {', '.join(sorted(players))}")
                row = conn.execute(f"SELECT white, black FROM games WHERE {_WHERE_KEY}", (tid, *key)).fetchone()
                if row is None:
                    conn.execute("INSERT INTO games (tournament_id, round, pairing, game_in_pairing, white, black, "
                                 "status) VALUES (?, ?, ?, ?, ?, ?, 'pending')", (tid, *key, white, black))
                elif (row["white"], row["black"]) != (white, black):
                    raise StoreUsageError(
                        f"game {key} of tournament {tid} is stored as {row['white']} vs {row['black']}, not "
                        f"{white} vs {black}; a resumed tournament must use the stored players, order and seed")

    def mark_started(self, tid: int, key: tuple[int, int, int], game_id: str, started_at: str) -> None:
        """Set a scheduled game 'running' with its ``game_id`` and start time; a finished game is refused."""
        key = _key(key)
        with self._transaction("starting a game in") as conn:
            row = self._require_game(conn, tid, key)
            if row["status"] == "finished":
                raise StoreUsageError(f"game {key} of tournament {tid} is already finished "
                                      f"({row['game_id']}); it cannot be started again")
            conn.execute(f"UPDATE games SET status = 'running', game_id = ?, started_at = ? WHERE {_WHERE_KEY}",
                         (game_id, started_at, tid, *key))

    def record_result(self, tid: int, key: tuple[int, int, int], result: Any, *, log_path: str | None,
                      game_id: str, started_at: str | None, ended_at: str, steps: int) -> None:
        """Store the GameResult-like ``result`` of a scheduled game and set it 'finished'.

        Recording the same outcome again is a no-op (the first record stays); a different outcome
        for a finished game, or players other than the scheduled ones, raise StoreUsageError.
        """
        key = _key(key)
        winner, reason = result.winner, result.reason
        if winner not in (0, 1, None) or isinstance(winner, bool) or not isinstance(reason, str) or not reason:
            raise StoreUsageError(f"a result needs a winner 0, 1 or None (a draw) and a non-empty reason, "
                                  f"got winner {winner!r}, reason {reason!r}")
        thinking, violations = _pair(result.thinking_ms, "thinking_ms"), _pair(result.violations, "violations")
        _count(steps, "steps")
        outcome = (winner, reason, thinking, violations)
        with self._transaction("recording a result in") as conn:
            row = self._require_game(conn, tid, key)
            if (row["white"], row["black"]) != (result.white, result.black):
                raise StoreUsageError(f"game {key} of tournament {tid} is {row['white']} vs {row['black']}; "
                                      f"got a result for {result.white} vs {result.black}")
            old = GameRow.from_columns(row)
            if old.status == "finished" and (old.winner, old.reason, old.thinking_ms, old.violations) != outcome:
                raise StoreUsageError(f"game {key} of tournament {tid} already has a different result "
                                      f"(winner {old.winner!r}, {old.reason}); results are final")
            if old.status == "finished":
                return  # the same result again: keep the first record
            conn.execute(
                "UPDATE games SET status = 'finished', game_id = ?, winner = ?, reason = ?, white_thinking_ms = ?, "
                "black_thinking_ms = ?, white_violations = ?, black_violations = ?, log_path = ?, started_at = ?, "
                f"ended_at = ?, steps = ? WHERE {_WHERE_KEY}",
                (game_id, winner, reason, *thinking, *violations, log_path, started_at, ended_at, steps, tid, *key))

    def record_timeout(self, tid: int, player: str, *, kicked: bool = False) -> int:
        """Count a timeout of ``player`` (and its removal, when ``kicked``); returns its timeouts so far."""
        with self._transaction("recording a timeout in") as conn:
            self._require_tournament(conn, tid)
            row = conn.execute("SELECT timeouts FROM players WHERE tournament_id = ? AND name = ?",
                               (tid, player)).fetchone()
            if row is None:
                raise NotFoundError(f"no player {player!r} in tournament {tid}")
            conn.execute("UPDATE players SET timeouts = timeouts + 1, kicked_at = COALESCE(kicked_at, ?) "
                         "WHERE tournament_id = ? AND name = ?", (utc_now() if kicked else None, tid, player))
            return int(row["timeouts"]) + 1

    def player_states(self, tid: int) -> dict[str, tuple[int, bool]]:
        """Each player's timeouts so far and whether it was removed for them, by name."""
        with self._transaction("reading the players of", immediate=False) as conn:
            self._require_tournament(conn, tid)
            return {r["name"]: (int(r["timeouts"]), r["kicked_at"] is not None) for r in conn.execute(
                "SELECT name, timeouts, kicked_at FROM players WHERE tournament_id = ? ORDER BY seat_order", (tid,))}

    def reset_unfinished(self, tid: int) -> int:
        """Turn the 'running' games of ``tid`` (left by a crash) back to 'pending'; returns how many."""
        with self._transaction("resetting games in") as conn:
            self._require_tournament(conn, tid)
            return conn.execute("UPDATE games SET status = 'pending', game_id = NULL, started_at = NULL "
                                "WHERE tournament_id = ? AND status = 'running'", (tid,)).rowcount

    def games(self, tid: int, status: str | None = None) -> list[GameRow]:
        """The games of ``tid`` (only those with ``status`` if given), by (round, pairing, game_in_pairing)."""
        if status is not None and status not in STATUSES:
            raise StoreUsageError(f"unknown game status {status!r}; expected one of {', '.join(STATUSES)}")
        with self._transaction("reading", immediate=False) as conn:
            return self._games(conn, tid, status)

    def _games(self, conn: sqlite3.Connection, tid: int, status: str | None) -> list[GameRow]:
        self._require_tournament(conn, tid)
        return [GameRow.from_columns(row) for row in conn.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE tournament_id = ? AND status = COALESCE(?, status) "
            "ORDER BY round, pairing, game_in_pairing", (tid, status))]

    def results(self, tid: int) -> list[GameRow]:
        """The finished games of ``tid`` in order; each has the attributes of a GameResult."""
        return self.games(tid, "finished")

    def export(self, tid: int, folder: Path) -> tuple[Path, Path]:
        """Write ``folder/results.json`` and ``folder/results.csv`` for ``tid`` (one consistent read), each
        replaced atomically; see ``server.tournament.export`` for their layout. Returns both paths."""
        with self._transaction("reading", immediate=False) as conn:
            tournament = self._tournament_row(conn, self._require_tournament(conn, tid))
            games = self._games(conn, tid, None)
        try:
            return write_export(Path(folder), tournament, games)
        except OSError as exc:
            raise StoreError(f"cannot write the results of tournament {tid} to {folder}: {exc}; "
                             "check the folder's permissions and free space") from exc

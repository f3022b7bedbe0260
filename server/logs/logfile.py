"""Game log files: atomic writes, a live ``.part`` file during play, and reading with file-named errors.

Crash safety: a finished log appears under its final name only through a rename of a complete,
fsynced file (the game's ``.part`` file once its result rows are appended, or a temporary file
written from memory), so a crash leaves either the old state or the whole new file; never over
another finished log (``FileExistsError``): a finished game's log is evidence, kept as it is.
While a game runs, its rows go to ``<name>.part``, flushed as they are handed over (the server
batches them a few times a second) so a crash keeps what was played; that name cannot pass for a
finished game (its content has no result row, except while it is being renamed into place: a
failed rename cuts the rows back off, and only a crash at that moment leaves them). Everything
here is synchronous: the server's event loop makes the ``.part`` files and writes their rows (copies
into the page cache), and its log thread finishes logs (``finish_logs``: a game's last rows, and the syncs
that wait for the disk).
"""

from __future__ import annotations

import errno
import logging
import os
import secrets
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

try:
    import resource     # POSIX only; imported now: out of descriptors, an import cannot open its file
except ImportError:     # pragma: no cover - Windows
    resource = None     # type: ignore[assignment]

from shared.gamelog import (
    MAX_LOG_BYTES, GameHeader, GameLog, GameOutcome, LogFormatError, RowFormatter, StepRecord, format_header,
    format_outcome, read_log_data,
)

from server.logs.filesync import sync_files

__all__ = ["new_run_folder", "write_text_atomic", "LiveLogWriter", "finish_logs", "read_log", "part_path",
           "PART_SUFFIX", "LOG_MODE", "LogUnavailableError", "out_of_descriptors"]

log = logging.getLogger("quoridor.server")

PART_SUFFIX = ".part"
"""The suffix of a game log that is still being played (or was cut short by a crash)."""
#: The permissions a game log is created with (less the umask), whichever way it is written.
LOG_MODE = 0o644


def out_of_descriptors(error: BaseException) -> str | None:
    """What ran out, when ``error`` is the process's (EMFILE) or the system's (ENFILE) lack of file
    descriptors: ``"out of file descriptors (ulimit -n 1024)"``; None for any other error."""
    if not isinstance(error, OSError):
        return None
    if error.errno == errno.ENFILE:
        return "out of file descriptors (the system's table of open files is full)"
    if error.errno != errno.EMFILE:
        return None
    if resource is None:
        return "out of file descriptors (the process's limit)"
    try:
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (OSError, ValueError):
        return "out of file descriptors (the process's limit)"
    return f"out of file descriptors (ulimit -n {'unlimited' if soft == resource.RLIM_INFINITY else soft})"


class LogUnavailableError(OSError):
    """A game's log could not be written while the server was out of file descriptors, not even after
    retrying for ``waited_s`` seconds: the game is not recorded and must be voided and played again.

    An ``OSError`` with the cause's ``errno`` (EMFILE or ENFILE) and the log's path as ``filename``.
    """

    def __init__(self, path: Path, cause: OSError, waited_s: float) -> None:
        super().__init__(cause.errno, cause.strerror, str(path))
        self.path = Path(path)
        self.cause = cause
        self.waited_s = waited_s

    def __str__(self) -> str:
        what = out_of_descriptors(self.cause) or "out of file descriptors"
        return (f"{what}: the log {self.path} could not be written in {self.waited_s:.1f} s of retrying "
                f"({self.cause.strerror or self.cause}); the game must be played again")


def new_run_folder(parent: Path, prefix: str, now: datetime | None = None) -> Path:
    """A new, empty folder of one run's own under ``parent``: ``<prefix><date>-<time>`` (UTC), or ``…-2``, ``…-3``
    when a run started in the same second took the name; each name is tried with one ``mkdir`` that fails if it
    exists, so two runs never share a folder (the client's twin: ``client.logfiles.new_run_folder``)."""
    parent.mkdir(parents=True, exist_ok=True)
    stamp = prefix + (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    folder, number = parent / stamp, 1
    while True:
        try:
            folder.mkdir(0o755)
            return folder
        except FileExistsError:      # taken (by a run, or a file of that name): the next number
            number += 1
            folder = parent / f"{stamp}-{number}"


def part_path(path: Path) -> Path:
    """Where the live rows of the game logged at ``path`` are kept while it is played."""
    return path.with_name(path.name + PART_SUFFIX)


def _fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (POSIX; Windows cannot and need not sync a folder)."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    except OSError:   # some file systems (network, FUSE) cannot sync a folder; the rename is done
        pass
    finally:
        os.close(fd)


def write_text_atomic(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` (utf-8) so that readers see the old file or the whole new one."""
    path = Path(path)
    _replace_with(path, text)
    _fsync_dir(path.parent)


def _replace_with(path: Path, text: str, *, overwrite: bool = True) -> None:
    """``write_text_atomic`` but for the final sync of the folder (the caller's, once for many files); with
    ``overwrite=False`` an existing ``path`` is kept and ``FileExistsError`` raised (``_move_new``)."""
    folder = path.parent
    data = text.encode("utf-8")
    # A hidden name ending in .tmp: a crash may leave it behind, but never under a log's name.
    for _ in range(100):
        tmp = folder / f".{path.name}.{secrets.token_hex(6)}.tmp"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, LOG_MODE)
            break
        except FileExistsError:
            continue
    else:  # pragma: no cover - 100 collisions of 48 random bits
        raise FileExistsError(f"no free temporary name for {path} in {folder}")
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        if overwrite:
            os.replace(tmp, path)
        else:
            _move_new(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


#: What ``link`` says on a file system without hard links.
_NO_LINKS = frozenset({errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK, errno.ENOSYS})


def _move_new(source: Path, target: Path) -> None:
    """Rename ``source`` to ``target`` in one step unless ``target`` exists: a finished game's log is never
    overwritten (``FileExistsError``, nothing changed). A hard link, then the old name removed; where the file
    system has no hard links, a look first (only this server writes its folders) and a rename."""
    try:
        os.link(source, target)
    except FileExistsError:
        raise FileExistsError(errno.EEXIST, "a finished game's log is there already and is never overwritten",
                              str(target)) from None
    except OSError as exc:
        if exc.errno not in _NO_LINKS:
            raise
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, "a finished game's log is there already and is never overwritten",
                                  str(target)) from None
        os.replace(source, target)
        return
    try:
        os.unlink(source)
    except OSError:
        pass        # the log is in place under both names: the other one is clutter, never a second game


def _write_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` to the file ``fd`` (``os.write`` may take part of it, e.g. when the disk is full)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _close_quietly(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:
        pass


def _cut_back(fd: int | None, part: Path, size: int) -> None:
    """Close ``fd`` (None: closed already) and cut ``part`` back to ``size`` bytes (what it held before the
    result rows); best effort."""
    if fd is not None:
        _close_quietly(fd)
    try:
        os.truncate(part, size)
    except OSError:
        pass        # it is gone (renamed after all) or cannot be changed: its name still says unfinished


class LiveLogWriter:
    """Appends a game's rows to ``<path>.part`` as they are played; ``finish`` writes the log at ``path``.

    Rows are ``stage``d (formatted and kept in memory) and written to the ``.part`` file by
    ``write_staged``, as many as were staged in one system call; ``append`` does both. Calls from
    several threads never interleave inside a row, but rows land in the order the calls run: give one
    game's calls to one thread in order. A game started again under the same ``path`` starts a fresh
    ``.part`` file.

    Every row is also kept in memory, so the finished log is complete even when the ``.part`` file
    is opened late (rows that came before are written by ``open``) or never (then only a crash
    loses them).
    """

    def __init__(self, path: Path, header: GameHeader, *, fsync_rows: bool = False, open_now: bool = True) -> None:
        self.path = Path(path)
        if self.path.name.endswith(PART_SUFFIX):
            raise ValueError(f"log path {str(self.path)!r} ends with {PART_SUFFIX!r}, the suffix of unfinished logs")
        self.part = part_path(self.path)
        self.header = header
        self.records: list[StepRecord] = []
        self._texts = [format_header(header)]   # the log so far (header, rows): finish adds the end
        self._row = RowFormatter(header)        # format_row with this game's seats, names checked once
        #: Also fsync each row (survives a power cut, not only a crash of the server); slower.
        self.fsync_rows = fsync_rows
        self._lock = threading.Lock()
        # The open .part file (a raw descriptor: each write is one system call, and a system call
        # made on a thread hands the GIL over from the event loop and back) and its size.
        self._fd: int | None = None
        self._size = 0
        self._written = 1                       # how many of _texts the .part file has (when it is open)
        #: The open ``.part`` file holds exactly ``_texts`` (no write to it failed): ``finish`` may rename it.
        self._intact = True
        self._renamed = False                   # the .part file became the finished log: nothing to remove
        self._placed = False                    # the finished log was written from memory: never again
        self._closed = False                    # finished or closed: no more rows, no .part file again
        if open_now:
            self.open()

    @property
    def closed(self) -> bool:
        """True once the log is finished or ``close``d: rows and ``finish`` then raise ``ValueError``."""
        return self._closed

    def open(self) -> None:
        """Create the ``.part`` file with the header and the rows so far, in one write (``open_now=False``
        leaves this to the caller: ``RowBatcher.open``); does nothing if it is open already.

        Raises ``OSError`` when the file cannot be made (nothing changes: it may be tried again) and
        ``ValueError`` once the writer is closed. Until it is open, rows are kept in memory only.
        """
        with self._lock:
            if self._closed:
                raise ValueError(f"the live log {str(self.part)!r} is closed")
            if self._fd is not None:
                return
            # LOG_MODE, as a log written from memory (``_replace_with``): this file becomes the log.
            fd = os.open(self.part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, LOG_MODE)
            data = "".join(self._texts).encode("utf-8")
            try:
                _write_all(fd, data)
            except BaseException:
                _close_quietly(fd)              # a .part without its header is never renamed: tried again
                raise
            self._fd, self._size, self._written = fd, len(data), len(self._texts)

    def _write(self, text: str) -> None:
        if self._fd is None:
            return                              # not open (yet): the text is kept in memory only
        try:
            data = text.encode("utf-8")
            _write_all(self._fd, data)
            self._size += len(data)
            if self.fsync_rows:
                os.fsync(self._fd)
        except BaseException:
            self._intact = False                # part of it may be on disk: the finished log comes from memory
            raise

    def stage(self, records: Sequence[StepRecord]) -> None:
        """Add rows to the log in memory, formatted now; ``write_staged`` writes them to the ``.part`` file.

        ``ValueError`` (nothing added) if a player does not play in this game, or once the log is closed.
        """
        rows = list(map(self._row, records))
        with self._lock:
            if self._closed:
                raise ValueError(f"the live log {str(self.part)!r} is closed")
            self.records.extend(records)
            self._texts.extend(rows)

    def write_staged(self) -> None:
        """Write the rows staged since the last write to the ``.part`` file, in one system call (none if it is
        not open, or the log is closed). ``OSError`` when the write fails: the rows stay in the log all the same,
        and the finished log is written from memory."""
        with self._lock:
            start = self._written
            if start == len(self._texts) or self._closed:
                return
            self._written = len(self._texts)
            self._write("".join(self._texts[start:]))

    def append(self, record: StepRecord) -> None:
        """Add one row and write it (``stage``, then ``write_staged``)."""
        self.append_many([record])

    def append_many(self, records: Sequence[StepRecord]) -> None:
        """Add rows and write them in one system call (``stage``, then ``write_staged``)."""
        self.stage(records)
        self.write_staged()

    def finish(self, outcome: GameOutcome) -> GameLog:
        """Write the complete log atomically to ``path``, then remove the ``.part`` file; returns the log."""
        ((ok, value),) = finish_logs([(self, outcome)])
        if not ok:
            raise value
        game: GameLog = value
        return game

    def _append_end(self, outcome: GameOutcome) -> _Ending:
        """Finishing, step 1: the rows not written yet and the result rows appended to an intact ``.part`` file, in
        one write, not yet synced.

        The ending's ``fd`` is then the file's descriptor, to be synced and closed by ``finish_logs``;
        None when the log was put in place before (only its folder's sync failed) or is to be written
        from memory (the ``.part`` file is not whole, or the append failed and was cut back off).
        """
        with self._lock:
            if self._closed:
                raise ValueError(f"the live log {str(self.part)!r} is closed")
            ending = _Ending(self, GameLog(self.header, list(self.records), outcome), format_outcome(outcome))
            if self._renamed or self._fd is None:
                return ending
            fd, self._fd = self._fd, None
            if self._intact:
                rows = "".join(self._texts[self._written:]).encode("utf-8")
                try:
                    _write_all(fd, rows + ending.end.encode("utf-8"))
                except BaseException as exc:
                    self._intact = False
                    _cut_back(fd, self.part, self._size)    # a .part never carries a result row
                    if not isinstance(exc, OSError):
                        raise
                    return ending
                # Its rows are the .part's own now: a sync that fails cuts only the result rows back off.
                self._size, self._written = self._size + len(rows), len(self._texts)
                ending.fd = fd
                return ending
            # A .part file that is not whole is closed and stays until the log, written from memory, is in place.
            _close_quietly(fd)
            return ending

    def _place(self, ending: _Ending) -> GameLog:
        """Finishing, step 3: the log under its final name in one rename, its data synced (its folder's sync
        is ``finish_logs``'s). The synced ``.part`` file is renamed; any other log is written from memory
        under a temporary name, synced and renamed. May be called again after it failed."""
        with self._lock:
            if self._renamed:
                return ending.game
            if ending.synced:
                try:
                    _move_new(self.part, self.path)
                    self._renamed = True
                    return ending.game
                except BaseException as exc:
                    self._intact = False
                    _cut_back(None, self.part, self._size)  # a .part never carries a result row
                    if not isinstance(exc, OSError):
                        raise
            if self._placed:        # written from memory before; only its folder's sync failed
                return ending.game
            # format_log(game), from the rows already formatted for the .part file
            _replace_with(self.path, "".join(self._texts) + ending.end, overwrite=False)
            self._placed = True
            return ending.game

    def _retire(self) -> None:
        """Close and remove the ``.part`` file, once the finished log is safely in place."""
        with self._lock:
            self._closed = True
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None
            if self._renamed:
                return
            try:
                self.part.unlink(missing_ok=True)
            except OSError as exc:      # the finished log is in place: a leftover .part is only clutter
                log.warning("could not remove %s: %s", self.part, exc)

    def close(self) -> None:
        """Stop writing and keep the ``.part`` file (an unfinished game); safe to call twice."""
        with self._lock:
            self._closed = True
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None

    def __enter__(self) -> LiveLogWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


@dataclass(eq=False)
class _Ending:
    """A log being finished (``finish_logs``): its game, its result rows, the ``.part`` file's descriptor to sync."""

    writer: LiveLogWriter
    game: GameLog
    end: str
    fd: int | None = None
    synced: bool = False


def finish_logs(jobs: Sequence[tuple[LiveLogWriter, GameOutcome]]) -> list[tuple[bool, Any]]:
    """Finish several games' logs with one sync of their data and one sync per folder; per job
    ``(True, GameLog)`` or ``(False, error)``.

    1. Each intact ``.part`` file gets its result rows (``_append_end``).
    2. Their data is synced at once (``_sync_data``: one ``syncfs`` per folder on Linux, else each
       file's ``fsync``, a few at a time); a file whose sync failed is cut back off its result rows.
    3. Each is renamed into place, or, when its ``.part`` file could not be used, written from memory
       under a temporary name, synced and renamed (``_place``).
    4. Each folder is synced once (the renames are durable); only then do leftover ``.part`` files go.

    A crash at any point leaves a game's ``.part``, its finished log, or both, never neither, and a
    finished log is always whole. A folder that cannot be synced (e.g. no file descriptor left to open
    it) fails its jobs with that error and keeps their leftover ``.part`` files: finishing them again
    is safe (a renamed one only has its folder synced again).
    """
    endings: list[_Ending | None] = []
    outcomes: list[tuple[bool, Any]] = []
    for writer, outcome in jobs:
        try:
            endings.append(writer._append_end(outcome))
            outcomes.append((True, None))
        except Exception as exc:  # noqa: BLE001 - one game's failure is that game's, not the batch's
            endings.append(None)
            outcomes.append((False, exc))
    _sync_data([e for e in endings if e is not None and e.fd is not None])
    for index, ending in enumerate(endings):
        if ending is None:
            continue
        try:
            outcomes[index] = (True, ending.writer._place(ending))
        except Exception as exc:  # noqa: BLE001 - as above
            outcomes[index] = (False, exc)
    unsynced: dict[Path, OSError] = {}
    for folder in dict.fromkeys(writer.path.parent for (writer, _), (ok, _) in zip(jobs, outcomes) if ok):
        try:
            _fsync_dir(folder)
        except OSError as exc:
            unsynced[folder] = exc
    for index, ((writer, _), (ok, _)) in enumerate(zip(jobs, outcomes)):
        if not ok:
            continue
        if writer.path.parent in unsynced:
            outcomes[index] = (False, unsynced[writer.path.parent])
        else:
            writer._retire()
    return outcomes


def _sync_data(endings: Sequence[_Ending]) -> None:
    """Sync the files of ``endings`` (``server.logs.filesync.sync_files``: one ``syncfs`` per folder on Linux) and
    close them; each one synced gets ``synced``, each other is cut back off its result rows (it is then
    written from memory, which syncs again and says what fails)."""
    by_folder: dict[Path, list[_Ending]] = {}
    for ending in endings:
        by_folder.setdefault(ending.writer.path.parent, []).append(ending)
    for folder, group in by_folder.items():
        fds = [ending.fd for ending in group if ending.fd is not None]
        assert len(fds) == len(group)       # finish_logs passes only the files it appended to
        for ending, synced in zip(group, sync_files(folder, fds)):
            ending.synced = synced
    for ending in endings:
        assert ending.fd is not None
        _close_quietly(ending.fd)
        ending.fd = None
        if not ending.synced:
            _cut_back(None, ending.writer.part, ending.writer._size)


def read_log(path: Path, name: str | None = None) -> GameLog:
    """Read and replay the log at ``path`` with ``shared.gamelog.read_log_data`` (at most ``MAX_LOG_BYTES`` read).

    Raises ``LogFormatError`` (one line naming ``name``, the path by default) for a file that cannot be read or is
    not a game log.
    """
    path = Path(path)
    name = str(path) if name is None else name
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_LOG_BYTES + 1)
    except OSError as exc:
        raise LogFormatError(name, None, f"cannot read it: {exc.strerror or exc}") from None
    return read_log_data(data, name)

"""``SubmissionDesk``: the connections that hand bots in as files: their ``hello``, their parts, their answers.

A ``hello`` with the role ``submitter`` is admitted here (with a roster, only its keys); the
connection's ``SubmitterContext`` holds the submission being sent. It is a ``RoomContext``, so the
router gives the connection a puzzle room's frame size: a bot arrives in parts of up to 96 KiB.
When the last part is in, the work leaves the event loop: the archive is read and checked
(``server.submissions.files``) and its files stored on the store's own thread
(``server.submissions.records``), then the bot is validated in the sandbox (``server.sandbox.validate``), one bot at a time.
The desk's guarantees:

* At most ``submission_queue`` finished submissions wait while one is validated, and at most
  ``MAX_UPLOADS`` are being sent at once; beyond either, ``busy`` (no strike). A part-sent
  submission older than ``UPLOAD_TIMEOUT_S`` gives its place up to a new one.
* A validation's result is stored before the submitter hears it (``submitted``).
* Without a working sandbox, and unless the server runs with ``--unsafe-no-sandbox``, nothing is
  validated: a submission is refused with ``sandbox_unavailable`` and ``sandbox_status()``'s reason.
* A C++ bot is built first (in the sandbox, cached under ``settings.build_cache``; a compile error refuses it,
  ``compile_error``); on a server that cannot build C++ (``cpp_status()``) it is refused with ``no_compiler`` and
  what to install, nothing recorded, while Python bots are still taken.
* A failure in here is logged and answered ``internal_error``; the connection and the server go on.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
import weakref
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shared.protocol import (
    GameRequest, Hello, LogUpload, ReplaysRequest, SubmissionEntry, Submissions, SubmissionsRequest, Submit, Submitted,
    Welcome,
)

from server.net.connection import CLOSE_POLICY, CLOSE_TRY_LATER, Peer
from server.net.connections import Connections
from server.rooms import RoomContext
from shared.hosting import bot_language

from server.sandbox import BotEntry, SandboxLimits, sandbox_status
from server.sandbox import buildcache
from server.sandbox.status import cpp_status
from server.sandbox.validate import Validation, validate_bot
from server.settings import ServerSettings
from server.submissions.files import ArchiveLimits, SubmissionError
from server.submissions.records import SubmissionRecords
from server.submissions.seats import named_version
from server.submissions.store import StoredVersion
from server.timestamps import utc_now_seconds

__all__ = ["SubmissionDesk", "SubmitterContext", "SUBMISSION_FRAMES", "MAX_UPLOADS", "UPLOAD_TIMEOUT_S"]

log = logging.getLogger("quoridor.server")

#: The frames of a submitter connection.
SUBMISSION_FRAMES = (Submit, SubmissionsRequest)
#: Submissions that may be under way (parts sent, not all yet) at once, over every connection.
MAX_UPLOADS = 8
#: Seconds after which a part-sent submission may be dropped to make room for a new one.
UPLOAD_TIMEOUT_S = 60.0
_MAX_REASON_CHARS = 500

Validate = Callable[[Path, str, SandboxLimits], Awaitable[Validation]]


@dataclass
class _Upload:
    """A submission being sent: its first part's fields and the base64 text so far."""

    entry: str | None
    parts: int
    started: float
    chunks: list[str] = field(default_factory=list)
    chars: int = 0


@dataclass(eq=False)
class SubmitterContext(RoomContext):
    """One submitter connection: its key, and the submission it is sending."""

    key: str = ""
    upload: _Upload | None = None
    #: True after a submission was refused part-way: its remaining parts are dropped without a word.
    dropping: bool = False


class SubmissionDesk:
    """Admits submitters, gathers their parts, checks, stores and validates their bots, answers them."""

    def __init__(self, settings: ServerSettings, connections: Connections, welcome: Callable[[str], Welcome],
                 say: Callable[[str], None], *, sandbox: SandboxLimits | None = None, validate: Validate | None = None,
                 sandbox_problem: Callable[[], str | None] | None = None,
                 cpp_problem: Callable[[], str | None] | None = None) -> None:
        self.settings = settings
        self.connections = connections
        self.welcome = welcome
        self.say = say
        self.archive_limits = ArchiveLimits(max_archive_bytes=settings.max_submission_bytes,
                                            max_files=settings.max_submission_files)
        self.sandbox = sandbox or SandboxLimits()
        self._validate = validate or functools.partial(validate_bot, builds=settings.build_cache)
        buildcache.bound(settings.build_cache, settings.cpp_builds_keep)
        self._sandbox_problem = sandbox_problem or sandbox_status
        self._cpp_problem = cpp_problem or cpp_status
        self.store: SubmissionRecords | None = None
        self._one_at_a_time = asyncio.Lock()
        self._waiting = 0                        # finished submissions not yet answered
        self._tasks: set[asyncio.Task[None]] = set()
        self._uploads: weakref.WeakValueDictionary[int, SubmitterContext] = weakref.WeakValueDictionary()
        #: Told of each newly accepted version (key, bot): the ladder seats it as a resident.
        self.on_accepted: Callable[[str, BotEntry], object] | None = None
        #: When the running tournament stopped taking hand-ins (its freeze, or its start): an accepted version
        #: handed in later is told it does not play in it (``Submitted.note``). None: no tournament is seated yet.
        self.closed_at: str | None = None

    async def open(self) -> None:
        """Open the store (``DATA_DIR/submissions.db`` and ``DATA_DIR/submissions/``).

        ``ValueError`` when a roster entry names a handed-in bot that cannot play (``roster_bots``):
        the server stops before it listens.
        """
        self.store = await SubmissionRecords.open(self.settings.data_dir)
        if self.settings.roster_submissions:
            await self.roster_bots()

    async def close(self) -> None:
        """Stop the submissions in hand (their validations are cancelled) and close the store."""
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.store is not None:
            await self.store.close()
            self.store = None

    @property
    def waiting(self) -> int:
        """Submissions whose last part arrived and that are not answered yet (the one being validated included)."""
        return self._waiting

    async def accepted_bots(self, cutoff: str | None = None) -> dict[str, BotEntry]:
        """Each key's newest accepted bot (key -> bot), named as the roster names it; keys off the roster left out.

        With a ``cutoff`` (``2026-11-28T09:00:00Z``, a final's freeze) only versions handed in at or before it count.
        """
        assert self.store is not None
        latest = await self.store.latest_accepted(cutoff)
        roster = self.settings.roster
        return {key: self.bot_entry(version) for key, version in sorted(latest.items())
                if roster is None or key in roster}

    async def roster_bots(self, cutoff: str | None = None) -> dict[str, BotEntry]:
        """The bots the roster's entries name (``roster_submissions``), key -> bot, in the roster's order.

        Each is the version its entry names, or the key's newest accepted one; ``ValueError`` in one
        line when a named bot was never handed in or was not accepted (``named_version``). With a ``cutoff``, versions
        handed in after it are not there.
        """
        assert self.store is not None
        roster = self.settings.roster or {}
        bots = {}
        for key, wanted in self.settings.roster_submissions.items():
            versions = [v for v in await self.store.versions(key) if cutoff is None or v.submitted_at <= cutoff]
            bots[key] = self.bot_entry(named_version(roster.get(key, key), versions, wanted))
        return bots

    async def tournament_bots(self, everyone: bool, cutoff: str | None = None,
                              played: Mapping[str, str] | None = None) -> dict[str, BotEntry]:
        """The handed-in bots to seat in a tournament: those the roster names first, then, when ``everyone``
        (``--players-from-submissions``, or a resumed tournament of them), each other key's newest accepted bot;
        with a ``cutoff`` (``--freeze-at``), of the versions handed in at or before it only. ``played`` (key -> version,
        a resumed tournament's stored entrants) seats exactly those versions instead, whatever was handed in since."""
        if played:
            assert self.store is not None
            roster = self.settings.roster or {}
            return {key: self.bot_entry(named_version(roster.get(key, key), await self.store.versions(key), version))
                    for key, version in played.items()}
        bots = await self.roster_bots(cutoff)
        if everyone:
            bots |= {key: entry for key, entry in (await self.accepted_bots(cutoff)).items() if key not in bots}
        return bots

    def bot_entry(self, version: StoredVersion) -> BotEntry:
        """What runs ``version``: its files and entry, named as the roster names its key."""
        assert self.store is not None
        roster = self.settings.roster
        name = roster.get(version.key, version.key) if roster is not None else version.key
        return BotEntry(name, version.entry, self.store.folder(version.digest), version.version,
                        builds=self.settings.build_cache)

    # -- admission --------------------------------------------------------------------------
    def admit(self, peer: Peer, hello: Hello) -> SubmitterContext | None:
        """Admit a ``submitter`` hello (its context), or refuse it and close the connection (None)."""
        roster = self.settings.roster
        refusal = None
        if hello.room != "quoridor":
            refusal = "room_unavailable", "bots are handed in for the quoridor room: say hello without a room"
        elif roster is not None and hello.key not in roster:
            refusal = "unknown_key", "this server takes bots from the keys on its roster only; ask the organiser"
        elif not self.connections.settle(peer, anonymous=roster is None):
            refusal = "too_many_connections", "too many connections from your address; close some and try again"
        if refusal is not None and refusal[0] == "unknown_key":     # slowed down per address (server.net.admission)
            self.connections.wrong_keys.refuse(peer, refusal[1])
            return None
        if refusal is not None:
            peer.tell(*refusal, "hello")
            peer.close(CLOSE_TRY_LATER if refusal[0] == "too_many_connections" else CLOSE_POLICY, refusal[0])
            return None
        peer.anonymous = roster is None
        peer.role = "submitter"
        name = roster[hello.key] if roster is not None else (hello.name or hello.key)
        peer.send_now(self.welcome(name))
        self.say(f"{name} connected from {peer.address} to hand in a bot")
        return SubmitterContext(name, key=hello.key)

    # -- frames -----------------------------------------------------------------------------
    def take(self, peer: Peer, context: RoomContext | None, message: Any) -> tuple[str, str] | None:
        """Take a submission frame (or any frame of a submitter); ``(code, message)`` when it is refused (a strike)."""
        if isinstance(message, SUBMISSION_FRAMES):
            if not isinstance(context, SubmitterContext):
                return "not_a_submitter", (f"{message.type!r} frames come from submitters: open another connection "
                                           "with hello role 'submitter'")
            if isinstance(message, Submit):
                return self._part(peer, context, message)
            self._spawn(self._list(peer, context))
            return None
        if isinstance(message, (GameRequest, ReplaysRequest, LogUpload)):
            return "not_a_spectator", "only spectators send page requests; connect with role 'spectator'"
        return "wrong_room", (f"a submitter connection sends submit and submissions_request only; open another "
                              f"connection for {message.type!r} frames")

    def _part(self, peer: Peer, context: SubmitterContext, message: Submit) -> tuple[str, str] | None:
        if message.part == 0:
            context.upload, context.dropping = None, False
            if message.parts > 1 and not self._room_for_upload(context):
                peer.tell("busy", f"{MAX_UPLOADS} bots are being sent to this server now; try again in a minute",
                          message.type)
                context.dropping = True
                return None
            context.upload = _Upload(message.entry, message.parts, time.monotonic())
        upload = context.upload
        if upload is None:
            if context.dropping:
                return None
            return "bad_part", f"part {message.part} came with no submission under way: send part 0 first"
        if message.part != len(upload.chunks) or message.parts != upload.parts:
            context.upload, context.dropping = None, True
            return "bad_part", (f"expected part {len(upload.chunks)} of {upload.parts}, got part {message.part} of "
                                f"{message.parts}: the submission is dropped, send it again from part 0")
        most = (self.archive_limits.max_archive_bytes + 2) // 3 * 4
        if upload.chars + len(message.zip) > most:
            context.upload, context.dropping = None, True
            return "submission_too_large", (f"the archive is over {self.archive_limits.max_archive_bytes} bytes; "
                                            "hand in the bot's own files only")
        upload.chunks.append(message.zip)
        upload.chars += len(message.zip)
        if message.part < upload.parts - 1:
            return None
        context.upload = None
        if self._waiting > self.settings.submission_queue:
            peer.tell("busy", f"{self._waiting} bots are waiting for validation; try again in a minute", message.type)
            return None
        self._waiting += 1
        self._spawn(self._submit(peer, context, "".join(upload.chunks), upload.entry))
        return None

    def _room_for_upload(self, context: SubmitterContext) -> bool:
        now = time.monotonic()
        for other_id, other in list(self._uploads.items()):
            if other.upload is None or now - other.upload.started > UPLOAD_TIMEOUT_S:
                if other.upload is not None:
                    other.upload, other.dropping = None, True
                del self._uploads[other_id]
        if len(self._uploads) >= MAX_UPLOADS and id(context) not in self._uploads:
            return False
        self._uploads[id(context)] = context
        return True

    # -- the work off the event loop --------------------------------------------------------
    async def _submit(self, peer: Peer, context: SubmitterContext, text: str, entry: str | None) -> None:
        try:
            problem = None if self.sandbox.unsafe else await asyncio.to_thread(self._sandbox_problem)
            if problem is not None:
                peer.tell("sandbox_unavailable", f"this server cannot run handed-in bots now: {problem}", "submit")
                return
            assert self.store is not None
            try:
                received = await self.store.receive(context.key, text, entry, self.archive_limits)
            except SubmissionError as exc:
                if not peer.strike(exc.code, exc.message, "submit"):
                    peer.close(CLOSE_POLICY, "too many bad frames")
                return
            before = received.before
            cpp_problem = self._cpp_problem() if bot_language(received.entry) == "cpp" else None
            if cpp_problem is not None:
                peer.tell("no_compiler", f"this server cannot take C++ bots: {cpp_problem}", "submit")
                return
            if before is not None and before.accepted:
                peer.send_now(_submitted(before, new=False, note=self._late_note(before)))
                return
            async with self._one_at_a_time:
                if peer.closed:             # gone while waiting: nobody to tell, nothing to spend the sandbox on
                    return
                result = await self._validate(received.folder, received.entry, self.sandbox)
            if result.cause == "no_compiler":            # the server's too: it lost its compiler meanwhile
                peer.tell("no_compiler", f"this server cannot take C++ bots: {result.reason}", "submit")
                return
            if result.cause == "sandbox_unavailable":   # the server's fault: nothing is judged, nothing recorded
                peer.tell("sandbox_unavailable", f"this server could not run your bot just now ({result.reason}); it "
                                                 "was not judged: hand it in again later", "submit")
                self.say(f"{context.player}'s hand-in was not judged: the sandbox failed here ({result.reason})")
                return
            version = StoredVersion(context.key, received.digest, received.entry, utc_now_seconds(), result.accepted,
                                    result.cause, _one_line(result.reason), round(result.seconds, 3), received.files,
                                    received.bytes)
            await self.store.record(version)
            note = self._late_note(version)
            peer.send_now(_submitted(version, new=before is None, note=note))
            verdict = "accepted" if version.accepted else f"refused ({version.cause}: {version.reason})"
            self.say(f"{context.player} handed in version {version.version}: {verdict}" + (f"; {note}" if note else ""))
            if version.accepted and self.on_accepted is not None:
                self.on_accepted(context.key, self.bot_entry(version))
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - one submission's failure must not take the server down
            log.exception("handling a submission from %s failed", peer.address)
            peer.tell("internal_error", "the server failed while handling this submission; it was dropped (the "
                                        "server logged the details)", "submit")
        finally:
            self._waiting -= 1

    async def _list(self, peer: Peer, context: SubmitterContext) -> None:
        try:
            assert self.store is not None
            versions = await self.store.versions(context.key)
            peer.send_now(Submissions(player=context.player, versions=[_entry(version) for version in versions]))
        except Exception:  # noqa: BLE001 - as in _submit
            log.exception("listing the submissions of %s failed", peer.address)
            peer.tell("internal_error", "the server failed to list the submissions (it logged the details)",
                      "submissions_request")

    def _late_note(self, version: StoredVersion) -> str | None:
        """What an accepted ``version`` handed in after the running tournament stopped taking hand-ins is told."""
        if not version.accepted or self.closed_at is None or version.submitted_at <= self.closed_at:
            return None
        return (f"the tournament running here took its bots at {self.closed_at}: this version does not play in it "
                "(it is kept, for the ladder and the next tournament)")

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= _MAX_REASON_CHARS else line[:_MAX_REASON_CHARS - 3] + "..."


def _submitted(version: StoredVersion, *, new: bool, note: str | None = None) -> Submitted:
    return Submitted(version=version.version, entry=version.entry, accepted=version.accepted, cause=version.cause,
                     reason=version.reason, seconds=version.seconds, files=version.files, bytes=version.bytes, new=new,
                     note=note)


def _entry(version: StoredVersion) -> SubmissionEntry:
    return SubmissionEntry(version=version.version, entry=version.entry, submitted_at=version.submitted_at,
                           accepted=version.accepted, cause=version.cause, reason=version.reason,
                           seconds=version.seconds, files=version.files, bytes=version.bytes)

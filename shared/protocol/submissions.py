"""The frames that hand a bot in as files (issue 18): ``submit`` in parts, ``submitted``, and the key's versions.

A connection says ``hello`` with the role ``submitter`` and its key, then sends the bot as one zip
archive, base64 in the ``zip`` field of one or more ``submit`` frames (parts of at most
``SUBMIT_PART_CHARS`` characters, numbered from 0, so that no frame is larger than a puzzle room's).
The server validates the bot in its sandbox and answers ``submitted``; ``submissions_request``
lists the key's versions. Pure models: the server checks the archive, these only carry it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Message, ProtocolModel

__all__ = [
    "MAX_SUBMISSION_BYTES", "SUBMISSION_CEILING_BYTES", "SUBMIT_PART_CHARS", "MAX_SUBMIT_PARTS", "VALIDATION_CAUSES", "Submit",
    "SubmissionsRequest", "Submitted", "SubmissionEntry", "Submissions",
]

MAX_SUBMISSION_BYTES = 1024 * 1024
"""The largest zip archive a bot may be handed in as by default (decoded, all parts together): 1 MiB.

A server may take more (``--max-submission-bytes``, up to ``SUBMISSION_CEILING_BYTES``) and refuses
an archive over its own limit with ``submission_too_large``, naming the limit."""
SUBMISSION_CEILING_BYTES = 4 * 1024 * 1024
"""The largest archive any server takes (4 MiB): what a client checks before sending anything."""
SUBMIT_PART_CHARS = 96 * 1024
"""The most base64 characters one ``submit`` frame carries (a frame stays under the rooms' 128 KiB)."""
MAX_SUBMIT_PARTS = 64
"""The most parts one submission may be sent in."""

VALIDATION_CAUSES: dict[str, str] = {
    "ok": "accepted: the bot was imported, created and played a short game against random without a violation",
    "syntax_error": "a file of the bot does not compile (the reason names the file and line)",
    "import_error": "the entry file is missing, or importing it raised (a module that is not there), or the bot holds a `client`, `shared` or `server` of its own (rename it: those names are the arena's)",
    "no_player": "the entry names no bot class, or several (name one: FILE.py:CLASS)",
    "init_error": "creating the bot raised (the reason names the bot's own file and line)",
    "compile_error": "a C++ bot did not build: the first compile error (the student's file:line: message), or the build's limit it hit",
    "illegal_steps": "a step broke the rules, or next_step raised (the reason gives the first one)",
    "timeout": "a step came at or after the time limit",
    "too_slow": "importing and creating the bot, or the validation game, took longer than allowed",
    "memory_limit": "the bot ran out of its address space",
    "cpu_limit": "the bot used up its CPU seconds",
    "output_limit": "the bot printed more than allowed, or wrote an overlong line",
    "crashed": "the bot's process ended otherwise (the reason gives its last line)",
    "sandbox_unavailable": "the server could not start its sandbox; nothing of the bot ran",
}
"""The causes a validation ends with, as ``submitted.cause``. Stable; new ones may be added."""


class Submit(Message):
    """Submitter -> server: one part of a bot's zip archive (base64); the last part hands the bot in."""

    type: Literal["submit"] = "submit"
    entry: str | None = Field(
        None, min_length=1, max_length=200,
        description="The bot in the archive, as quoridor-client takes it: mybot.py, mybot.py:MyPlayer or "
                    "pkg/mod.py:MyPlayer; a C++ bot, MyPlayer.cpp:MyPlayer; a program of its own, its file; null: "
                    "the archive's only .py file, else its MyPlayer.cpp (or only C++ file). Read from part 0.")
    part: int = Field(0, ge=0, lt=MAX_SUBMIT_PARTS, description="This part's number, from 0; part 0 starts a "
                                                                 "new submission.")
    parts: int = Field(1, ge=1, le=MAX_SUBMIT_PARTS, description="How many parts the archive is sent in.")
    zip: str = Field(min_length=1, max_length=SUBMIT_PART_CHARS,
                     description="This part of the zip archive, base64 (the parts' text joined is the archive's "
                                 "base64); at most 96 KiB of text a part.")


class SubmissionsRequest(Message):
    """Submitter -> server: the key's versions and their validation results, answered by ``submissions``."""

    type: Literal["submissions_request"] = "submissions_request"


class Submitted(Message):
    """Server -> submitter: a handed-in bot was stored and validated: accepted, or refused with a cause."""

    type: Literal["submitted"] = "submitted"
    version: str = Field(description="The version id: the first 12 hex digits of the SHA-256 of the files and "
                                     "the entry.")
    entry: str = Field(description="The entry the bot was validated with: mybot.py, or mybot.py:MyPlayer.")
    accepted: bool = Field(description="True when the bot passed validation and may play.")
    cause: str = Field(description="ok, or why it was refused: syntax_error, init_error, illegal_steps, timeout, "
                                   "... (see the table of validation causes).")
    reason: str = Field(description="The same for people, in one line (a syntax error with its file and line).")
    seconds: float = Field(description="How long the validation took, in seconds.")
    files: int = Field(description="Files in the archive.")
    bytes: int = Field(description="Size of the files, unpacked, in bytes.")
    new: bool = Field(True, description="False when this key handed in the same files before: the stored result "
                                        "of that version is answered again.")
    note: str | None = Field(None, description="What else the submitter should know, in one line: an accepted version "
                                               "handed in after the running tournament took its bots (its freeze, or "
                                               "its start) does not play in it; null: nothing.")


class SubmissionEntry(ProtocolModel):
    """One version of a key's bot, in ``submissions``."""

    version: str = Field(description="The version id.")
    entry: str = Field(description="The entry the bot was validated with.")
    submitted_at: str = Field(description="When it was handed in: ISO 8601 in UTC (2026-11-24T08:30:00Z).")
    accepted: bool = Field(description="True when it passed validation.")
    cause: str = Field(description="The validation's cause code.")
    reason: str = Field(description="The validation's one-line reason.")
    seconds: float = Field(description="How long the validation took, in seconds.")
    files: int = Field(description="Files in the archive.")
    bytes: int = Field(description="Size of the files, unpacked, in bytes.")


class Submissions(Message):
    """Server -> submitter: the answer to ``submissions_request``: the key's versions, newest first."""

    type: Literal["submissions"] = "submissions"
    player: str = Field(description="The name the key plays under.")
    versions: list[SubmissionEntry] = Field(description="The key's versions, newest first.")

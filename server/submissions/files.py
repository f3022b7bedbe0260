"""A handed-in bot's zip archive read safely, its version id, and its files written read-only.

``read_archive`` turns the base64 text of a ``submit`` into the archive's files, refusing with a
``SubmissionError`` (its ``code`` a protocol error code) anything that could reach outside the
bot's own folder or fill the disk: absolute paths, ``..``, links and devices, too many files, too
many bytes (the archive's declared sizes are not trusted: every file is read with a cap). It reads
bytes from memory only. ``find_entry`` says which file the bot is: a Python file, a C++ bot's
(built by the server, ``FILE.cpp[:CLASS]``) or a program of the bot's own (``shared.hosting.bot_language``).
``write_tree`` writes the files under a new folder, never following a link, and leaves them read-only
(an executable entry read-only and executable).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import os
import stat
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from shared.hosting import CPP_SUFFIXES, bot_language

__all__ = ["SubmissionError", "ArchiveLimits", "safe_name", "read_archive", "find_entry", "executable_entry",
           "content_digest", "write_tree"]

#: A file name's longest part, as most file systems allow.
_MAX_NAME_PART = 255


class SubmissionError(ValueError):
    """A submission that cannot be taken; ``code`` is a protocol error code (``bad_zip``, ``unsafe_path``, ...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True)
class ArchiveLimits:
    """How big a handed-in archive may be: its own bytes, its files, and their bytes once unpacked."""

    max_archive_bytes: int = 1024 * 1024
    max_files: int = 200
    max_unpacked_bytes: int = 8 * 1024 * 1024


def _decode(text: str, limits: ArchiveLimits) -> bytes:
    if len(text) > (limits.max_archive_bytes + 2) // 3 * 4:
        raise SubmissionError("submission_too_large", f"the archive is over {limits.max_archive_bytes} bytes "
                                                      f"({len(text)} characters of base64)")
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise SubmissionError("bad_zip", f"the zip field is not valid base64 ({exc})") from None
    if len(data) > limits.max_archive_bytes:
        raise SubmissionError("submission_too_large", f"the archive has {len(data)} bytes; the limit is "
                                                      f"{limits.max_archive_bytes}")
    return data


def safe_name(name: str) -> str:
    """``name`` (a path in an archive) when it stays inside the folder it is unpacked in; else ``SubmissionError``."""
    shown = repr(name[:80])
    if not name or "\\" in name or "\x00" in name or not name.isprintable():
        raise SubmissionError("unsafe_path", f"{shown} is not a plain relative path (no backslashes or control "
                                             "characters)")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise SubmissionError("unsafe_path", f"{shown} is an absolute path; the archive's paths must be relative")
    parts = name.rstrip("/").split("/")
    if any(part in ("", ".", "..") for part in parts):
        raise SubmissionError("unsafe_path", f"{shown} has an empty, '.' or '..' part; the archive's paths must "
                                             "stay inside it")
    if any(len(part.encode()) > _MAX_NAME_PART for part in parts):
        raise SubmissionError("unsafe_path", f"{shown} has a part longer than {_MAX_NAME_PART} bytes")
    return name


def read_archive(text: str, limits: ArchiveLimits) -> dict[str, bytes]:
    """The files (relative path -> bytes) of the zip archive whose base64 is ``text``; ``SubmissionError`` if unsafe."""
    data = _decode(text, limits)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as exc:
        raise SubmissionError("bad_zip", f"not a readable zip archive ({exc})") from None
    files: dict[str, bytes] = {}
    folders: set[str] = set()
    total = 0
    with archive:
        for info in archive.infolist():
            name = safe_name(info.filename)
            mode = info.external_attr >> 16
            kind = stat.S_IFMT(mode)
            if kind and kind not in (stat.S_IFREG, stat.S_IFDIR):
                what = "a link" if kind == stat.S_IFLNK else "not a regular file"
                raise SubmissionError("unsafe_path", f"{name!r} is {what}; an archive may hold files and folders "
                                                     "only")
            if info.is_dir() or kind == stat.S_IFDIR:
                folders.add(name.rstrip("/"))
                continue
            if info.flag_bits & 0x1:
                raise SubmissionError("bad_zip", f"{name!r} is encrypted; hand the files in unencrypted")
            if name in files:
                raise SubmissionError("bad_zip", f"{name!r} is in the archive twice")
            if len(files) >= limits.max_files:
                raise SubmissionError("too_many_files", f"the archive holds more than {limits.max_files} files")
            left = limits.max_unpacked_bytes - total
            try:
                with archive.open(info) as member:
                    content = member.read(left + 1)       # the header's size is not trusted
            except (zipfile.BadZipFile, NotImplementedError, ValueError, EOFError, OSError) as exc:
                raise SubmissionError("bad_zip", f"{name!r} cannot be read from the archive ({exc})") from None
            if len(content) > left:
                raise SubmissionError("submission_too_large", f"the files unpack to more than "
                                                              f"{limits.max_unpacked_bytes} bytes")
            total += len(content)
            files[name] = content
    clash = next((name for name in files if name in folders
                  or any("/".join(name.split("/")[:i]) in files for i in range(1, name.count("/") + 1))), None)
    if clash is not None:
        raise SubmissionError("bad_zip", f"{clash!r} is both a file and a folder in the archive")
    if not files:
        raise SubmissionError("no_python", "the archive holds no file: hand in your bot's files")
    return files


def _shown(names: list[str]) -> str:
    return ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")


def _found_entry(files: Mapping[str, bytes]) -> str:
    """The entry of an archive handed in without one: its only ``.py`` file, else its C++ bot's file."""
    python = sorted(name for name in files if name.endswith(".py"))
    if len(python) == 1:
        return python[0]
    if python:
        raise SubmissionError("bad_entry", f"the archive has {len(python)} .py files ({_shown(python)}): name the "
                                           "bot's file as the entry (quoridor-submit --entry FILE.py[:CLASS])")
    cpp = sorted(name for name in files if name.lower().endswith(CPP_SUFFIXES))
    players = [name for name in cpp if name.rsplit("/", 1)[-1] == "MyPlayer.cpp"]
    if len(players) == 1 or len(cpp) == 1:      # the build finds its Player class, the same in every later build
        return (players or cpp)[0]
    if cpp:
        raise SubmissionError("bad_entry", f"the archive has {len(cpp)} C++ files ({_shown(cpp)}): name the bot's "
                                           "file and class as the entry (quoridor-submit --entry MyPlayer.cpp:MyPlayer)")
    raise SubmissionError("no_python", "the archive holds no bot: hand in your bot's .py file(s), its C++ files "
                                       "(MyPlayer.cpp, MyPlayer.h), or a program of your own named as the entry "
                                       "(quoridor-submit --entry FILE)")


def find_entry(files: Mapping[str, bytes], entry: str | None) -> str:
    """The entry spec checked against ``files``: ``FILE.py[:CLASS]`` (a Python bot), ``FILE.cpp[:CLASS]`` (a C++ bot,
    built by the server), or ``FILE`` (a program of the bot's own), its file one of theirs.

    ``None`` means the archive's only ``.py`` file or, without any, its C++ bot's file (``MyPlayer.cpp``, or its only
    C++ file); ``SubmissionError('bad_entry')`` in one line saying what to write when there are several, or the entry
    names no file of the archive.
    """
    if entry is None:
        return _found_entry(files)
    text = entry.strip()
    language = bot_language(text)
    if language == "builtin":
        raise SubmissionError("bad_entry", f"entry {entry!r} is the name of a built-in bot: rename your bot's file")
    where, _, cls = text.rpartition(":") if language in ("python", "cpp") and ":" in text else (text, "", "")
    where = where.removeprefix("./")
    if language == "python" and (not where.endswith(".py") or (cls and not cls.isidentifier())):
        raise SubmissionError("bad_entry", f"entry {entry!r} should be FILE.py or FILE.py:CLASS (a path in the "
                                           "archive, a class name)")
    if language == "cpp" and cls and not cls.isidentifier():
        raise SubmissionError("bad_entry", f"entry {entry!r} should be FILE.cpp or FILE.cpp:CLASS (a path in the "
                                           "archive, a class name: --entry MyPlayer.cpp:MyPlayer)")
    if where not in files:
        kind = {"python": ".py", "cpp": "C++"}.get(language)
        names = sorted(name for name in files if kind is None or (name.endswith(".py") if kind == ".py"
                                                                  else name.lower().endswith(CPP_SUFFIXES)))
        raise SubmissionError("bad_entry", f"entry {entry!r} names no file of the archive (its "
                                           f"{kind + ' ' if kind else ''}files: {_shown(names)})")
    if language == "executable" and not files[where].startswith((b"\x7fELF", b"#!")):
        raise SubmissionError("bad_entry", f"entry {entry!r} is no program: name your bot's .py or C++ file "
                                           "(--entry MyPlayer.cpp:MyPlayer), or a program of your own (a Linux "
                                           "executable, or a script starting with #!)")
    return f"{where}:{cls}" if cls else where


def executable_entry(entry: str) -> str | None:
    """The file of ``entry`` when it is a program of the bot's own (written read-only and executable), else ``None``."""
    return entry if bot_language(entry) == "executable" else None


def content_digest(files: Mapping[str, bytes], entry: str) -> str:
    """The SHA-256 (hex) of the files (paths and bytes, in path order) and the entry: the same bot, the same digest."""
    digest = hashlib.sha256()
    for name in sorted(files):
        content = files[name]
        digest.update(f"{len(name.encode())}:{name}:{len(content)}:".encode())
        digest.update(content)
    digest.update(f"entry:{entry}".encode())
    return digest.hexdigest()


def write_tree(folder: Path, files: Mapping[str, bytes], *, executable: str | None = None) -> None:
    """Write ``files`` under the new folder ``folder`` (which must not exist), read-only (mode 0444; the file
    ``executable``, a bot's program, 0555: anyone may run it); links are never followed."""
    folder.mkdir(mode=0o755)
    made = [folder]
    for name, content in sorted(files.items()):
        target = folder.joinpath(*safe_name(name).split("/"))
        for parent in reversed(target.relative_to(folder).parents[:-1]):
            here = folder / parent
            if not here.is_dir():
                here.mkdir(mode=0o755)
                made.append(here)
        handle = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o444)
        with os.fdopen(handle, "wb") as out:
            out.write(content)
            if name == executable:
                os.fchmod(out.fileno(), 0o555)    # not by os.open's mode: the umask would take from it
    for here in reversed(made):      # the deepest first: a read-only folder takes no new entries
        here.chmod(0o555)

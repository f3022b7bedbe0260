"""``quoridor-submit``: hand a bot in to a Quoridor Arena server as files, or list the versions a key handed in.

``quoridor-submit mybot.py -k KEY`` zips the bot (a ``.py`` file, a folder, a zip as it is, a C++ bot's
files, ``MyPlayer.cpp MyPlayer.h``, or a program of the bot's own; at most 1 MiB unless the server takes more), sends it over the websocket as a ``submitter`` (``docs/protocol.md``,
"submit"), waits while the server validates it in its sandbox, and prints the report: accepted
with its version id (exit code 0), or refused with the reason in one line (exit code 1).
``quoridor-submit --list -k KEY`` prints the key's versions and their validation results.
Bad options, unreadable files and a server that cannot be reached end with one line, never a
traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import io
import os
import sys
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from rich.console import Console
from rich.table import Table
from rich.text import Text
from websockets.exceptions import ConnectionClosed

from shared.hosting import bot_language
from shared.protocol import (
    PROTOCOL_VERSION, SUBMISSION_CEILING_BYTES, SUBMIT_PART_CHARS, ErrorMessage, Hello, ProtocolError, Submissions,
    SubmissionsRequest, Submit, Submitted, Welcome, dump, parse_server,
)

from .connecting import ServerUnavailable, check_server_url, connect_waiting
from .render import notice_printer

__all__ = ["main", "build_parser", "pack_bot", "parts_of", "versions_table", "report_line", "SubmitError",
           "DEFAULT_SERVER"]

#: The server asked when none is given (as ``quoridor-client``).
DEFAULT_SERVER = "ws://127.0.0.1:19330/"
#: Folders and files of a bot's folder that are never handed in.
_SKIPPED = ("__pycache__", ".git", ".hg", ".svn", ".venv", ".mypy_cache", ".pytest_cache", ".DS_Store")
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)      # a fixed time: the same files make the same archive


class SubmitError(Exception):
    """What went wrong, in one line for people (a file that cannot be read, a refusal, a lost connection)."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (with a pointer to --help), not the usage and a line."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser."""
    p = _Parser(
        prog="quoridor-submit",
        description="Hand a bot in to a Quoridor Arena server: the server stores it, validates it in its sandbox "
                    "(import, create, one short game against random) and says whether it was accepted.",
        epilog="examples: quoridor-submit mybot.py -k KEY --server ws://HOST:19330/   |   "
               "quoridor-submit mybot/ -k KEY --entry main.py:MyPlayer   |   "
               "quoridor-submit MyPlayer.cpp MyPlayer.h -k KEY   |   "
               "quoridor-submit QuoridorClient/ -k KEY --entry MyPlayer.cpp:MyPlayer   |   "
               "quoridor-submit mybot -k KEY (a program of your own, docs/hosted-bots.md)   |   "
               "quoridor-submit --list -k KEY")
    p.add_argument("path", nargs="*", type=Path, metavar="PATH",
                   help="the bot: a .py file, a folder, a .zip, a C++ bot's files (MyPlayer.cpp MyPlayer.h: the "
                        "server builds them with g++), or a program of your own that speaks the hosted-bot channel "
                        "(at most 1 MiB zipped, or the server's own limit)")
    p.add_argument("-k", "--key", help="your player key (required: the bot is handed in under it; the key you "
                                       "play under with quoridor-client, given out by the organiser)")
    p.add_argument("--server", default=DEFAULT_SERVER, help=f"server URL (default {DEFAULT_SERVER})")
    p.add_argument("--entry", metavar="SPEC",
                   help="the bot in a folder, a zip or several files, as quoridor-client takes it: FILE.py or "
                        "FILE.py:CLASS, FILE.cpp or FILE.cpp:CLASS (MyPlayer.cpp:MyPlayer, when several classes "
                        "derive from Player), or the name of a program of your own (a path inside the folder; "
                        "default: its only .py file, else MyPlayer.cpp or its only C++ file); for a single file, "
                        ":CLASS names the class")
    p.add_argument("--list", action="store_true", help="print the key's versions and their validation results")
    p.add_argument("--wait", type=float, default=10.0, dest="wait_s", metavar="S",
                   help="seconds to wait for the server to come up (default 10)")
    p.add_argument("--timeout", type=float, default=600.0, dest="timeout_s", metavar="S",
                   help="seconds to wait for the server's report once the bot is sent (default 600: it may be "
                        "validating other bots first)")
    return p


# -- the archive ------------------------------------------------------------------------------
def _add(archive: zipfile.ZipFile, name: str, data: bytes, *, executable: bool = False) -> None:
    info = zipfile.ZipInfo(name, date_time=_ZIP_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = (0o755 if executable else 0o644) << 16
    archive.writestr(info, data)


def _folder_files(folder: Path) -> list[tuple[str, Path]]:
    found: list[tuple[str, Path]] = []
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if any(part in _SKIPPED or part.startswith(".") for part in relative.parts) or path.suffix == ".pyc":
            continue
        if path.is_symlink():
            raise SubmitError(f"{path} is a link: hand in plain files (copy what it points to)")
        if path.is_file():
            found.append((relative.as_posix(), path))
    return found


def _is_program(path: Path) -> bool:
    """True for a program of the bot's own: a Linux executable or a script starting with ``#!``."""
    with path.open("rb") as handle:
        return handle.read(4).startswith((b"\x7fELF", b"#!"))


def _zip_files(files: Sequence[tuple[str, Path]]) -> bytes:
    """A zip of ``files`` (name in the archive, file), programs kept executable (mode 0755)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, file in files:
            _add(archive, name, file.read_bytes(), executable=os.access(file, os.X_OK) and _is_program(file))
    return buffer.getvalue()


def _is_bot_file(name: str) -> bool:
    return bot_language(name) in ("python", "cpp") or name.endswith(".py")


def pack_bot(path: Path | Sequence[Path], entry: str | None) -> tuple[bytes, str | None]:
    """The zip archive to hand in for ``path`` (a .py file, a C++ file, a program, a folder, a .zip, or several
    files: ``MyPlayer.cpp MyPlayer.h``), and the entry to send.

    A single file's entry defaults to its name (with ``entry``'s class, if it names one only: ``:MyPlayer``); several
    files go in side by side, the entry left to ``entry`` or the server (``MyPlayer.cpp``, or the only C++ file);
    ``SubmitError`` when a path cannot be read or the archive is over the 4 MiB no server takes.
    """
    paths = [path] if isinstance(path, Path) else list(path)
    shown = " ".join(str(p) for p in paths)
    try:
        missing = [p for p in paths if not p.exists()]
        if missing:
            raise SubmitError(f"{missing[0]} does not exist")
        if len(paths) > 1:
            if any(p.is_dir() or p.suffix.lower() == ".zip" for p in paths):
                raise SubmitError("give one folder or .zip, or the bot's files (MyPlayer.cpp MyPlayer.h), not both")
            names = [p.name for p in paths]
            twice = sorted({n for n in names if names.count(n) > 1})
            if twice:
                raise SubmitError(f"two files are called {twice[0]}: hand in a folder to keep them apart")
            data = _zip_files(sorted(zip(names, paths)))
            if entry is not None and entry.startswith(":"):
                cpp = [n for n in names if bot_language(n) == "cpp"]
                entry = (cpp[0] if len(cpp) == 1 else "MyPlayer.cpp") + entry
        elif paths[0].is_dir():
            folder = paths[0]
            files = _folder_files(folder)
            wanted = entry.rpartition(":")[0] if entry and bot_language(entry) in ("python", "cpp") and ":" in entry \
                else entry
            if not any(_is_bot_file(name) or name == wanted for name, _ in files):
                raise SubmitError(f"{folder} holds no .py or C++ file: a bot is Python files, C++ files "
                                  "(MyPlayer.cpp), or a program of its own named with --entry")
            data = _zip_files(files)
        elif paths[0].suffix.lower() == ".zip":
            data = paths[0].read_bytes()
        elif _is_bot_file(paths[0].name) or _is_program(paths[0]):
            data = _zip_files([(paths[0].name, paths[0])])
            if entry is None or entry.startswith(":"):
                entry = paths[0].name + (entry or "")
        elif paths[0].suffix.lower() in (".h", ".hpp", ".hh", ".hxx"):
            raise SubmitError(f"{paths[0]} is a header: hand it in with its .cpp file "
                              f"(quoridor-submit {paths[0].with_suffix('.cpp')} {paths[0]})")
        else:
            raise SubmitError(f"{paths[0]} is not a .py file, a C++ file, a program, a folder or a .zip")
    except FileNotFoundError as exc:
        raise SubmitError(f"{exc.filename or shown} does not exist") from None
    except OSError as exc:
        raise SubmitError(f"cannot read {exc.filename or shown}: {exc.strerror or exc}") from None
    if len(data) > SUBMISSION_CEILING_BYTES:
        raise SubmitError(f"{shown} makes a {len(data):,} byte archive; no server takes more than "
                          f"{SUBMISSION_CEILING_BYTES:,} bytes zipped (leave out data files the bot does not need)")
    return data, entry


def parts_of(data: bytes, entry: str | None) -> list[Submit]:
    """The ``submit`` frames that carry ``data``, in order."""
    text = base64.b64encode(data).decode("ascii")
    chunks = [text[i:i + SUBMIT_PART_CHARS] for i in range(0, len(text), SUBMIT_PART_CHARS)] or [""]
    return [Submit(entry=entry, part=number, parts=len(chunks), zip=chunk) for number, chunk in enumerate(chunks)]


# -- what the user sees -----------------------------------------------------------------------
def report_line(report: Submitted) -> Text:
    """The one line a submission ends with: accepted and its version, or refused and why."""
    again = " (handed in before)" if not report.new else ""
    if report.accepted:
        note = f"; {report.note}" if report.note else ""
        return Text.assemble(("accepted", "bold green"), f": version {report.version} ({report.entry}){again}, "
                                                         f"validated in {report.seconds:.1f} s", (note, "yellow"))
    return Text.assemble(("refused", "bold red"), f" ({report.cause}): {report.reason}",
                         f" [version {report.version}{again}]")


def versions_table(listing: Submissions) -> Table:
    """The key's versions as a table, newest first."""
    table = Table(title=f"bots handed in by {listing.player}", title_justify="left")
    table.add_column("version", no_wrap=True, min_width=12)
    table.add_column("handed in (UTC)", no_wrap=True, min_width=19)
    table.add_column("entry", overflow="fold", max_width=30)
    table.add_column("result", overflow="fold", ratio=1)
    table.add_column("s", justify="right", no_wrap=True)
    for version in listing.versions:
        result = Text("accepted", "green") if version.accepted else Text(f"{version.cause}: {version.reason}", "red")
        table.add_row(version.version, version.submitted_at.replace("T", " ").removesuffix("Z"), version.entry,
                      result, f"{version.seconds:.1f}")
    return table


# -- talking to the server --------------------------------------------------------------------
async def _next(ws: Any, timeout_s: float, waiting_for: str) -> Any:
    try:
        frame = await asyncio.wait_for(ws.recv(), timeout_s)
    except TimeoutError:
        raise SubmitError(f"no {waiting_for} from the server within {timeout_s:.0f} s") from None
    except ConnectionClosed as exc:
        why = exc.rcvd.reason if exc.rcvd is not None and exc.rcvd.reason else "no reason given"
        raise SubmitError(f"the server closed the connection before the {waiting_for} ({why})") from None
    try:
        return parse_server(frame)
    except ProtocolError as exc:
        raise SubmitError(f"the server sent a frame this client cannot read: {exc.message}") from None


async def _exchange(args: argparse.Namespace, frames: list[Any], console: Console) -> Submitted | Submissions:
    """Say hello as a submitter, send ``frames``, and return the server's answer (``SubmitError`` otherwise)."""
    ws = await connect_waiting(args.server, args.wait_s, notice_printer(console), hint="check --server")
    async with ws:
        await ws.send(dump(Hello(protocol=PROTOCOL_VERSION, role="submitter", key=args.key)))
        while not isinstance(welcome := await _next(ws, args.wait_s, "welcome"), Welcome):
            if isinstance(welcome, ErrorMessage):
                raise SubmitError(f"the server refused the key {args.key!r}: {welcome.message} ({welcome.code})")
        for frame in frames:
            try:
                await ws.send(dump(frame))
            except ConnectionClosed:    # refused part-way: the server's error frame is read below
                break
        want = "report" if isinstance(frames[-1], Submit) else "list of versions"
        while True:
            answer = await _next(ws, args.timeout_s, want)
            if isinstance(answer, (Submitted, Submissions)):
                return answer
            if isinstance(answer, ErrorMessage):
                raise SubmitError(f"{answer.message} ({answer.code})")


def _fail(console: Console, text: str) -> int:
    console.print(Text(f"quoridor-submit: {text}", "red"), soft_wrap=True)
    return 1


def main(argv: Sequence[str] | None = None, *, console: Console | None = None) -> int:
    """Run the command; 0 when the bot was accepted (or the list printed), 1 when not, 2 for bad options."""
    parser = build_parser()
    args = parser.parse_args(argv)
    out = console or Console()
    errors = console or Console(stderr=True)
    try:
        check_server_url(args.server)
    except ValueError as exc:
        parser.error(str(exc))
    if args.list == bool(args.path):
        parser.error("give the bot's PATH to hand it in, or --list to see the key's versions (not both)")
    if args.list and args.entry:
        parser.error("--entry goes with a PATH, not with --list")
    if not args.key or not args.key.strip():
        parser.error("say whose bot it is with -k KEY: your player key, the one you play under with "
                     "quoridor-client (the organiser gives it out)")
    try:
        if args.list:
            frames: list[Any] = [SubmissionsRequest()]
        else:
            data, entry = pack_bot(args.path, args.entry)
            frames = parts_of(data, entry)
            what = " ".join(str(path) for path in args.path)
            named = f", entry {entry}" if entry else ""
            errors.print(Text(f"handing in {what} ({len(data):,} bytes zipped{named}) as {args.key} at {args.server}; "
                              "the server validates it, which may take a while"), soft_wrap=True)
        answer = asyncio.run(_exchange(args, frames, errors))
    except (SubmitError, ServerUnavailable) as exc:
        return _fail(errors, str(exc))
    except ValueError as exc:           # a URL that can never work, said by connect_waiting
        return _fail(errors, str(exc))
    except OSError as exc:
        return _fail(errors, f"the connection to {args.server} failed: {exc.strerror or exc}")
    except KeyboardInterrupt:
        errors.print("interrupted")
        return 130
    if isinstance(answer, Submissions):
        if not answer.versions:
            out.print(Text(f"{answer.player} has handed in no bot yet"), soft_wrap=True)
        else:
            out.print(versions_table(answer))
        return 0
    out.print(report_line(answer), soft_wrap=True)
    return 0 if answer.accepted else 1


if __name__ == "__main__":
    sys.exit(main())

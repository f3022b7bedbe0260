"""The one reader of a game log's contents: size cap, byte order mark, encoding, binary data, then ``parse_log``.

Pure: the callers open the file themselves (the server's ``logfile.read_log``, which the pages' ``records`` use,
and the replay's ``sources.read_log_file``), read at most ``MAX_LOG_BYTES + 1`` bytes and hand them over; a
page's upload hands over its text. Every refusal is a ``LogFormatError`` of one line naming the file.
"""

from __future__ import annotations

from .csvformat import LogFormatError, parse_log
from .records import GameLog

__all__ = ["MAX_LOG_BYTES", "read_log_data"]

MAX_LOG_BYTES = 1024 * 1024
"""The largest game log read, in bytes (1 MiB): 25 times the largest log a game can write.

The step cap (100 steps a seat, ``STEP_CAP``) bounds every log, ours and the old server's and client's: a
200-step game is 8 to 10 KB, 41 KB with 40-character names, 120-character reasons and every CPU time
measured. Uploads from the pages are smaller still (``MAX_UPLOAD_BYTES``, 96 KiB). A cap this low keeps the
server's reads short (a page may ask for any log of the data directory) and refuses at once what cannot be a
game (a 9 MB file, ``/dev/zero`` read up to the cap); the replay's 8 MiB cap served no log of a real game.
"""

def _line_of(data: bytes | str, offset: int) -> int:
    return data.count(b"\n" if isinstance(data, bytes) else "\n", 0, offset) + 1


def read_log_data(data: bytes | str, name: str) -> GameLog:
    """The game log in a file's contents (bytes, or text already decoded), replayed; ``LogFormatError`` otherwise.

    UTF-8 with or without a byte order mark, LF or CRLF lines. Refused, in one line naming ``name`` (and the
    line at fault when there is one): more than ``MAX_LOG_BYTES`` bytes, a NUL byte (binary data), bytes that
    are not UTF-8, and text that is not a game log (``parse_log``: an empty file, other columns, ...).
    """
    name = " ".join(name.split())     # a page's upload may name itself on several lines: its messages keep to one
    size = len(data)
    if isinstance(data, str) and size <= MAX_LOG_BYTES:     # characters <= bytes: count the bytes only then
        size = len(data.encode("utf-8", "surrogatepass"))
    if size > MAX_LOG_BYTES:
        raise LogFormatError(name, None, f"more than {MAX_LOG_BYTES} bytes, far too large for a game log "
                                         f"(a game of 200 steps is about 10 KB)")
    nul = data.find(b"\0" if isinstance(data, bytes) else "\0")
    if nul >= 0:
        raise LogFormatError(name, _line_of(data, nul), f"binary data (a NUL byte at offset {nul}); "
                                                        "a game log is CSV text")
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")   # a byte order mark is kept as U+FEFF, which parse_log skips
        except UnicodeDecodeError as exc:
            raise LogFormatError(name, _line_of(data, exc.start), f"not UTF-8 text (byte 0x{data[exc.start]:02x} "
                                 f"at offset {exc.start}); a game log is CSV text") from None
    else:
        text = data
    return parse_log(text, name=name)      # its problems are one line: what the file holds is quoted by repr()

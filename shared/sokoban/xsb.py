"""XSB text: telling map rows from the rest, run-length decoding, and parsing one level's text.

A level's text is its map rows (consecutive), and around them ``Key: value`` metadata lines,
``;`` comment lines and ``comment:`` ... ``comment-end`` blocks. Rows may be joined by ``|`` and
run-length encoded (``4#`` = ``####``). Splitting a collection into such texts is in
``collection``; this module turns one text into a ``Level``.
"""

from __future__ import annotations

import re

from .errors import (DuplicateMetadataError, InvalidCharacterError, MapInterruptedError, NoMapError,
                     RunLengthError, UnterminatedCommentError)
from .level import Level, _level_from_data, level_from_block

__all__ = ["SYMBOLS", "blocks", "decode_rle", "encode_rle", "is_map_line", "parse_level", "without_blocks"]

#: The XSB map symbols (``-`` and ``_`` are floor, like the space).
SYMBOLS = "#@+$*. -_"

# A map row, as soukoban tells them: XSB symbols only, or symbols mixed with run-length digits
# and '|' row separators (a line of digits alone is not a row). Leading/trailing blanks (spaces and
# tabs) allowed.
# Possessive quantifiers (no backtracking into a row, which could not change a match) make the
# search for the map about a third faster.
_ROW = r"[ \t]*+(?:[-_#$.@*+][-_ #$.@*+0-9|]*+|[0-9|]++[-_ #$.@*+0-9|]*?[-_#$.@*+][-_ #$.@*+0-9|]*+)[ \t]*+"
_ROW_RE = re.compile(_ROW)
#: The first run of consecutive map rows in a text (multiline).
MAP_BLOCK = re.compile(r"(?:^" + _ROW + r"(?:\n|\Z))++", re.M)
#: Any map row in a text (multiline).
MAP_ROW = re.compile(r"^" + _ROW + r"$", re.M)
# A line ending in ':' (cheap to find: a literal first character) comes before the exact test
# for a block opener, a line 'comment:' alone in any case (slow for a regex to look for).
_COLON_END = re.compile(r":[ \t]*$", re.M)
#: A line that opens a comment block (multiline).
_OPENER = re.compile(r"^[ \t]*comment[ \t]*:[ \t]*$", re.I | re.M)
_CLOSER = re.compile(r"^[ \t]*comment-end", re.I | re.M)
# The same tests on lower-cased ASCII text, where case-sensitive regexes that start with the word
# (found at C speed, where '^' is tried at every character) run several times faster; the blanks
# before the word, back to the line start, are checked apart (``_find_line``).
_OPENER_LOW = re.compile(r"comment[ \t]*:[ \t]*$", re.M)
_CLOSER_LOW = re.compile(r"comment-end")
_BLANKS = re.compile(r"[ \t]*")
_DIGIT = re.compile(r"\d")
_RUN = re.compile(r"(\d+)(.)")
_RLE_OK = re.compile(r"(?:\d*[-_ #$.@*+])*")
_RLE_CHARS = frozenset(SYMBOLS + "0123456789|")
_PLAIN = (SYMBOLS + "\n\t").encode("ascii")


def is_map_line(line: str) -> bool:
    """True for a map row (possibly run-length encoded or ``|``-joined), as opposed to metadata or comments."""
    return _ROW_RE.fullmatch(line) is not None


def decode_rle(row: str) -> str:
    """Expand the counts of a run-length encoded row (``3#`` = ``###``); ``RunLengthError`` if it does not decode exactly."""
    if _RLE_OK.fullmatch(row) is None:
        raise RunLengthError(f"run-length row {row!r} does not decode: every count needs a map symbol after it")
    if re.search(r"(?<!\d)0+(?=\D)", row):
        raise RunLengthError(f"run-length row {row!r} has a count of 0; expected counts of 1 or more")
    return _RUN.sub(lambda m: m[2] * int(m[1]), row)


def encode_rle(row: str) -> str:
    """Run-length encode one map row (floor as ``-``), the inverse of ``decode_rle``."""
    row = row.replace(" ", "-").replace("_", "-")
    return re.sub(r"(.)\1+", lambda m: f"{len(m[0])}{m[1]}", row)


def blocks(text: str) -> tuple[list[tuple[int, int]], bool]:
    """The spans of the ``comment:`` blocks of ``text`` (from the opener to the end of the closer line),
    and whether the last one is still open at the end."""
    if text.isascii():
        low, opener_re, closer_re = text.lower(), _OPENER_LOW, _CLOSER_LOW
    else:
        low, opener_re, closer_re = text, _OPENER, _CLOSER
    spans: list[tuple[int, int]] = []
    pos = 0
    while True:
        opener = _find_line(opener_re, low, pos)
        if opener is None:
            return spans, False
        closer = _find_line(closer_re, low, opener[1])
        if closer is None:
            return spans, True
        end = low.find("\n", closer[1])
        pos = len(low) if end < 0 else end
        spans.append((opener[0], pos))


def _find_line(regex: re.Pattern[str], text: str, pos: int) -> tuple[int, int] | None:
    """The first match of ``regex`` from ``pos`` with only blanks before it on its line, as (line start, match
    end), or None."""
    while (found := regex.search(text, pos)) is not None:
        line = text.rfind("\n", 0, found.start()) + 1
        if _BLANKS.fullmatch(text, line, found.start()) is not None:
            return line, found.end()
        pos = found.end()       # the rest of a line whose start is not blank holds no match either
    return None


def without_blocks(text: str, spans: list[tuple[int, int]], keep: bool = False) -> str:
    """``text`` with the comment blocks at ``spans`` cut out, or with ``keep`` turned into ``;`` comment lines."""
    kept, pos = [], 0
    for start, end in spans:
        kept.append(text[pos:start])
        if keep:
            inner = text[start:end].split("\n")[1:-1]
            kept.append("\n".join(";" + line.strip() for line in inner if line.strip()))
        pos = end
    kept.append(text[pos:])
    return "".join(kept)


def _map_text(block: str) -> str:
    """A block of consecutive map lines (ASCII, as the row pattern matches), run-length and ``|`` rows decoded."""
    if not block.encode("ascii").translate(None, _PLAIN):
        return block        # symbols and blanks only: nothing to decode (one C pass)
    rows = block.split("\n")
    if "|" in block:
        rows = [part for row in rows for part in row.split("|")]
    return "\n".join(decode_rle(row.rstrip()) if _DIGIT.search(row) else row for row in rows)


def parse_level(text: str) -> Level:
    """Parse one level's XSB text (its map, metadata and comments) into a validated ``Level``.

    Raises the ``LevelError`` named for what is wrong (see ``errors``).
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if ":" in text and _COLON_END.search(text) is not None:
        spans, unclosed = blocks(text)
        if unclosed:
            raise UnterminatedCommentError("a 'comment:' block has no 'comment-end' line; expected one to close it")
        if spans:
            # Each block becomes ';' lines in place: kept in order, and its rows can no longer pass for the map.
            text = without_blocks(text, spans, keep=True)
    # Fast path: no comment block is left to hide map rows, so the first run of rows is the map.
    found = MAP_BLOCK.search(text)
    if found is None:
        return _parse_slowly(text)     # no map rows at all: the careful walk reports what is wrong
    metadata: dict[str, str] = {}
    comments: list[str] = []
    start, end = found.span()
    if start:
        _take_lines(text[:start - 1], metadata, comments, map_done=False)   # up to the newline before the map
    if end < len(text):
        _take_lines(text[end:], metadata, comments, map_done=True)
    block = found.group().removesuffix("\n")
    data = block.encode("ascii")
    if data.translate(None, _PLAIN):    # a character other than a symbol or a blank: run-length rows to decode
        data = _map_text(block).encode("ascii")
    return _level_from_data(data, metadata, tuple(comments))


def _parse_slowly(text: str) -> Level:
    """The line-by-line parse: block comments, and every error case."""
    metadata: dict[str, str] = {}
    comments: list[str] = []
    rows: list[str] = []
    map_state = 0            # 0 before the map, 1 in it, 2 after it
    in_block = False
    for line in text.split("\n"):
        stripped = line.strip()
        if in_block:
            if stripped.lower().startswith("comment-end"):
                in_block = False
            elif stripped:
                comments.append(stripped)
            continue
        if not stripped:
            if map_state == 1:
                map_state = 2
            continue
        if not stripped.startswith(";") and ":" in stripped:
            key, _, value = stripped.partition(":")
            if key.strip().lower() == "comment" and not value.strip():
                in_block = True
                if map_state == 1:
                    map_state = 2
                continue
        if _ROW_RE.fullmatch(line) is not None:
            if map_state == 2:
                raise MapInterruptedError(f"map row {stripped!r} comes after the map ended; "
                                          "expected a level's rows to be consecutive")
            map_state = 1
            rows.append(line)
            continue
        if map_state == 1:
            map_state = 2
        _take_line(stripped, metadata, comments, map_done=map_state == 2)
    if in_block:
        raise UnterminatedCommentError("a 'comment:' block has no 'comment-end' line; expected one to close it")
    if not rows:
        raise NoMapError(f"no map rows in {_quote(text)}; expected rows of XSB symbols (# @ + $ * . space - _)")
    return level_from_block(_map_text("\n".join(rows)), metadata, comments)


def _take_lines(text: str, metadata: dict[str, str], comments: list[str], *, map_done: bool) -> None:
    """``_take_line`` on each line of ``text``, with the common ones (``;`` comments, new metadata) taken here."""
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            continue
        if line[0] == ";":
            comments.append(line[1:].strip())
            continue
        key, colon, value = line.partition(":")
        if colon:
            key = key.rstrip().lower()  # the line is stripped: the key needs no lstrip, the value no rstrip
            if key != "comment" and key not in metadata:
                metadata[key] = value.lstrip()
                continue
        elif not map_done and line[0] != "#":
            comments.append(line)       # text before the map (a heading, a number): kept as a comment
            continue
        _take_line(line, metadata, comments, map_done=map_done)


def _take_line(stripped: str, metadata: dict[str, str], comments: list[str], *, map_done: bool) -> None:
    """Record one stripped non-map line (comment or metadata) of a level outside comment blocks."""
    if not stripped:
        return
    if stripped[0] == ";":
        comments.append(stripped[1:].strip())
        return
    key, colon, value = stripped.partition(":")
    if colon:
        key, value = key.strip().lower(), value.strip()
        if key == "comment":
            if value:
                comments.append(value)
            else:   # only the slow path sees blocks; the fast path never has one
                raise UnterminatedCommentError("a 'comment:' block has no 'comment-end' line")
            return
        if key in metadata:
            raise DuplicateMetadataError(key)
        metadata[key] = value
        return
    if map_done:
        if _ROW_RE.fullmatch(stripped) is not None:
            raise MapInterruptedError(f"map row {stripped!r} comes after the map ended; "
                                      "expected a level's rows to be consecutive")
        raise InvalidCharacterError(_first_bad(stripped), stripped)
    if stripped[0] == "#":      # a broken first map row, not a heading
        raise InvalidCharacterError(_first_bad(stripped), stripped)
    # Text before the map that is neither metadata nor a map row (a heading, a copyright line):
    # kept as a comment, as it describes the level.
    comments.append(stripped)


def _first_bad(line: str) -> str:
    return next((c for c in line if c not in _RLE_CHARS), line[0])


def _quote(text: str, limit: int = 60) -> str:
    text = text.strip()
    return repr(text if len(text) <= limit else text[:limit - 3] + "...")

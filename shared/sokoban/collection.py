"""Collections: many levels in one XSB text, split by blank lines and parsed lazily.

Splitting only looks for blank lines (outside ``comment:`` blocks) and for a map row in each
piece, at C speed (``re`` and ``str`` methods over the whole text); a level's text is parsed
only when it is reached, so the n-th level costs one split and one parse. ``split_text`` is the
same split as a generator, and ``split_lines`` runs it over any iterable of lines (an open file),
which streams a file without reading it whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from itertools import compress

from .errors import LevelError, LevelIndexError
from .level import Level
from .xsb import _COLON_END, _OPENER, _ROW_RE, MAP_ROW, blocks, parse_level, without_blocks

__all__ = ["Collection", "split_text", "split_lines", "iter_levels"]

_BLANKS = re.compile(r"\n(?:[ \t]*\n)+")
_BLANKS_KEPT = re.compile(r"(\n(?:[ \t]*\n)+)")
_FIRST_ROW = re.compile(_ROW_RE.pattern + r"(?:\n|\Z)")


def _opens_block(stripped: str) -> bool:
    key, colon, value = stripped.partition(":")
    return bool(colon) and key.strip().lower() == "comment" and not value.strip()


def split_text(text: str) -> Iterator[str]:
    """Lazily yield the text of each level (pieces between blank lines that hold a map row).

    Blank lines inside ``comment:`` blocks do not split; a piece that ends inside an unclosed
    block is yielded too, so that parsing it reports the unterminated comment.
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    pos, end_of_text = 0, len(text)
    search, first_row, colon_end = _BLANKS.search, _FIRST_ROW.match, _COLON_END.search
    while pos < end_of_text:
        blank = search(text, pos)
        end, after = (blank.start(), blank.end()) if blank else (end_of_text, end_of_text)
        piece = text[pos:end]
        if colon_end(piece) is not None and _OPENER.search(piece) is not None:
            if blocks(piece)[1]:
                # A block runs on past a blank line: walk it line by line.
                group, pos = _walk_group(text, pos)
                if group is not None:
                    yield group
                continue
            if MAP_ROW.search(without_blocks(piece, blocks(piece)[0])) is not None:
                yield piece
        elif first_row(piece) is not None or MAP_ROW.search(piece) is not None:
            yield piece
        pos = after


def _walk_group(text: str, pos: int) -> tuple[str | None, int]:
    """Line by line from ``pos``: the group there (``None`` without a map row) and where the next starts."""
    in_block = has_map = False
    start, end_of_text = pos, len(text)
    while pos < end_of_text:
        newline = text.find("\n", pos)
        if newline < 0:
            newline = end_of_text
        line = text[pos:newline]
        stripped = line.strip(" \t")
        if in_block:
            if stripped.lower().startswith("comment-end"):
                in_block = False
        elif not stripped:
            blanks = _BLANKS.match(text, pos - 1)   # skip this blank line and any that follow
            return (text[start:pos] if has_map else None), blanks.end() if blanks else newline + 1
        elif _opens_block(stripped):
            in_block = True
        elif not has_map and _ROW_RE.fullmatch(line) is not None:
            has_map = True
        pos = newline + 1
    return (text[start:] if has_map or in_block else None), end_of_text


def split_lines(lines: Iterable[str]) -> Iterator[str]:
    """Like ``split_text`` over an iterable of lines (with or without their line ends), e.g. an open file."""
    buffer: list[str] = []
    in_block = has_map = False
    for line in lines:
        line = line.rstrip("\r\n")
        stripped = line.strip(" \t")
        if in_block:
            buffer.append(line)
            if stripped.lower().startswith("comment-end"):
                in_block = False
            continue
        if not stripped:
            if has_map:
                yield "\n".join(buffer)
            buffer, has_map = [], False
            continue
        buffer.append(line)
        if _opens_block(stripped):
            in_block = True
        elif not has_map and _ROW_RE.fullmatch(line) is not None:
            has_map = True
    if buffer and (has_map or in_block):
        yield "\n".join(buffer)


def iter_levels(lines: Iterable[str]) -> Iterator[Level]:
    """Parse levels one by one from an iterable of lines (streaming a file); raises at the first bad level."""
    for text in split_lines(lines):
        yield parse_level(text)


class Collection:
    """The levels of one XSB text, by number from 0; nothing is parsed until a level is asked for."""

    def __init__(self, text: str, name: str = "") -> None:
        self.text = text
        self.name = name
        self._count: int | None = None

    def texts(self) -> Iterator[str]:
        """Each level's text (the split is one pass at C speed; no level is parsed)."""
        return iter(self._pieces())

    def __iter__(self) -> Iterator[Level]:
        """Every level in order, each parsed when reached; a bad level raises its ``LevelError``."""
        for number, text in enumerate(self.texts()):
            try:
                yield parse_level(text)
            except LevelError as exc:
                exc.add_note(f"level {number} of {self.name or 'the collection'}")
                raise

    def results(self) -> Iterator[Level | LevelError]:
        """Every level in order, or the error that its text raises (for checking whole collections)."""
        for text in self.texts():
            try:
                yield parse_level(text)
            except LevelError as exc:
                yield exc

    def __len__(self) -> int:
        if self._count is None:
            self._count = len(self._pieces())
        return self._count

    def _pieces(self) -> list[str]:
        """Each level's text, split at C speed: one split of the whole text, one search per piece;
        only pieces with a comment block are looked at in Python (joined to the next while open)."""
        text = self.text
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        parts = _BLANKS_KEPT.split(text)
        pieces, separators = parts[0::2], parts[1::2]
        has_row: list[object] = list(map(MAP_ROW.search, pieces))
        if _COLON_END.search(text) is not None:
            count = len(pieces)
            for number in compress(range(count), map(_COLON_END.search, pieces)):
                piece = pieces[number]
                spans, unclosed = blocks(piece)
                if not spans and not unclosed:
                    continue
                following = number + 1
                while unclosed and following < count:
                    piece += separators[following - 1] + pieces[following]
                    pieces[following], has_row[following] = "", None
                    following += 1
                    spans, unclosed = blocks(piece)
                pieces[number] = piece
                has_row[number] = unclosed or MAP_ROW.search(without_blocks(piece, spans))
        return list(compress(pieces, has_row))

    def level_text(self, index: int) -> str:
        """The text of level ``index`` (from 0; negative counts from the end); ``LevelIndexError`` outside."""
        pieces = self._pieces()
        self._count = len(pieces)
        if not -len(pieces) <= index < len(pieces):
            raise LevelIndexError(f"no level {index} in {self.name or 'the collection'}: it has {len(pieces)} "
                                  f"levels" + (f", numbered 0 to {len(pieces) - 1}" if pieces else ""))
        return pieces[index]

    def level(self, index: int) -> Level:
        """Level ``index`` (from 0; negative counts from the end), parsing no other level."""
        return parse_level(self.level_text(index))

    def __repr__(self) -> str:
        return f"<Collection {self.name!r}>"

"""Collections: many levels in one XSB text, split by blank lines and parsed lazily.

A level is a piece of text between blank lines (outside ``comment:`` blocks) holding a map row.
Finding where the levels start is one regex pass over the whole text at C speed, with no level
parsed: after a blank line, the lines up to the first map row (a piece without one fails and the
scan goes on). The starts are kept, so the n-th level costs that pass once and one parse, and
iterating parses only the levels it reaches. ``split_text`` is the same split as a generator, and
``split_lines`` runs it over any iterable of lines (an open file), which streams a file without
reading it whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .errors import LevelError, LevelIndexError
from .level import Level
from .xsb import _ROW, _ROW_RE, MAP_ROW, parse_level

__all__ = ["Collection", "split_text", "split_lines", "iter_levels"]

# From a separator (the scan text starts with one) over the non-blank lines before a level's first
# map row, and that row; a piece without a map row fails at its end and the scan moves on.
_LEVEL = re.compile(r"\n\n(?:[^\n]+\n)*?" + _ROW + r"(?:\n|\Z)")
_MASK = ";"     # block cells in the scan text: one line that is neither a map row nor a separator

# Whole-text passes below use str.find (a fast C search) rather than a regex: a regex scan over a
# big collection tries every newline or colon, which costs ~1 ms per pass on the 615 KiB of the
# bundled data, more than the level scan itself.


def _empty_blank_lines(text: str) -> str:
    """``text`` with each line of blanks (after the first line) made empty, so that a separator is two newlines."""
    cuts: list[int] = []
    for ending in (" \n", "\t\n") if "\t" in text else (" \n",):
        at = text.find(ending)
        while at >= 0:
            start = text.rfind("\n", 0, at) + 1
            if start and not text[start:at].strip(" \t"):
                cuts.append(start)
            at = text.find(ending, at + 2)
    if not cuts:
        return text
    cuts.sort()
    parts, pos = [], 0
    for start in cuts:
        parts.append(text[pos:start])
        pos = text.find("\n", start)
    parts.append(text[pos:])
    return "".join(parts)


def _line_start_at(low: bytes, at: int) -> int:
    """Where the line of ``at`` starts, or -1 when something other than blanks comes before ``at`` on it."""
    start = low.rfind(b"\n", 0, at) + 1
    return start if not low[start:at].strip(b" \t") else -1


def _block_spans(low: bytes) -> tuple[list[tuple[int, int]], bool]:
    """The ``comment:`` blocks of a lower-cased text (opener line start to closer line end) and whether the last is open.

    An opener is a line ``comment:`` alone and a closer a line starting ``comment-end``.
    """
    spans: list[tuple[int, int]] = []
    at = low.find(b"comment")
    while at >= 0:
        line_end = low.find(b"\n", at)
        if line_end < 0:
            line_end = len(low)
        start = _line_start_at(low, at)
        if start < 0 or low[at + 7:line_end].strip(b" \t") != b":":
            at = low.find(b"comment", at + 7)
            continue
        closer = low.find(b"comment-end", line_end)
        while closer >= 0 and _line_start_at(low, closer) < 0:
            closer = low.find(b"comment-end", closer + 11)
        if closer < 0:
            spans.append((start, len(low)))
            return spans, True
        end = low.find(b"\n", closer)
        if end < 0:
            end = len(low)
        spans.append((start, end))
        at = low.find(b"comment", end)
    return spans, False


class _Index:
    """Where each level of a text starts: one scan, no level parsed."""

    __slots__ = ("text", "scan", "starts")

    def __init__(self, text: str) -> None:
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        text = _empty_blank_lines(text)
        #: The text the levels are cut from (line ends normalised, blank lines empty).
        self.text = text
        scan = text
        open_block = -1
        # Lower case as bytes, each character one byte ('?' past Latin-1, so offsets are kept):
        # only ASCII letters matter here, and str.lower is several times slower on non-ASCII text.
        low = text.encode("latin-1", "replace").lower()
        if b"comment" in low:
            spans, unclosed = _block_spans(low)
            if unclosed:
                open_block = spans[-1][0]
            # A block that holds a blank line or a map-like row is masked (same length) in the scan
            # text, so that it neither splits its level nor counts as its map.
            hiding = [(start, end) for start, end in spans
                      if text.find("\n\n", start, end) >= 0 or MAP_ROW.search(text, start, end) is not None]
            if hiding:
                parts, pos = [], 0
                for start, end in hiding:
                    parts += (text[pos:start], _MASK * (end - start))
                    pos = end
                parts.append(text[pos:])
                scan = "".join(parts)
        #: The scan text: a separator, then the text with its hiding blocks masked (offsets + 2).
        self.scan = "\n\n" + scan
        #: Offset in ``text`` of each level's first line.
        self.starts: list[int] = list(map(re.Match.start, _LEVEL.finditer(self.scan)))
        if open_block >= 0:
            # The piece where a block opens and never closes is a level, map or not: parsing it says so.
            piece = self.scan.rfind("\n\n", 0, open_block + 2)
            if not self.starts or self.starts[-1] < piece:
                self.starts.append(piece)

    def __len__(self) -> int:
        return len(self.starts)

    def piece(self, number: int) -> str:
        """The text of level ``number`` (0 <= number < len)."""
        start = self.starts[number]
        end = self.scan.find("\n\n", start + 2)
        return self.text[start:] if end < 0 else self.text[start:end - 2]

    def pieces(self) -> Iterator[str]:
        """Each level's text in order."""
        text, find = self.text, self.scan.find
        for start in self.starts:
            end = find("\n\n", start + 2)
            yield text[start:] if end < 0 else text[start:end - 2]


def split_text(text: str) -> Iterator[str]:
    """The text of each level (pieces between blank lines that hold a map row), in order.

    Blank lines inside ``comment:`` blocks do not split; a piece that ends inside an unclosed
    block is yielded too, so that parsing it reports the unterminated comment.
    """
    return _Index(text).pieces()


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


def _opens_block(stripped: str) -> bool:
    key, colon, value = stripped.partition(":")
    return bool(colon) and key.strip().lower() == "comment" and not value.strip()


def iter_levels(lines: Iterable[str]) -> Iterator[Level]:
    """Parse levels one by one from an iterable of lines (streaming a file); raises at the first bad level."""
    for text in split_lines(lines):
        yield parse_level(text)


class Collection:
    """The levels of one XSB text, by number from 0; nothing is parsed until a level is asked for."""

    def __init__(self, text: str, name: str = "") -> None:
        self.text = text
        self.name = name
        self._index: _Index | None = None

    def _levels(self) -> _Index:
        if self._index is None:
            self._index = _Index(self.text)
        return self._index

    def texts(self) -> Iterator[str]:
        """Each level's text (the split is one scan at C speed, done once; no level is parsed)."""
        return self._levels().pieces()

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
        return len(self._levels())

    def level_text(self, index: int) -> str:
        """The text of level ``index`` (from 0; negative counts from the end); ``LevelIndexError`` outside."""
        levels = self._levels()
        count = len(levels)
        if not -count <= index < count:
            raise LevelIndexError(f"no level {index} in {self.name or 'the collection'}: it has {count} "
                                  f"levels" + (f", numbered 0 to {count - 1}" if count else ""))
        return levels.piece(index % count)

    def level(self, index: int) -> Level:
        """Level ``index`` (from 0; negative counts from the end), parsing no other level."""
        return parse_level(self.level_text(index))

    def __repr__(self) -> str:
        return f"<Collection {self.name!r}>"

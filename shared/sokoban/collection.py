"""Collections: many levels in one XSB text, split by blank lines and parsed lazily.

A level is a piece of text between blank lines (outside ``comment:`` blocks) holding a map row.
Finding where the levels start takes three regex passes over the whole text at C speed, with no
level parsed: lines of blanks, ``comment:`` blocks (found from the colon ending their opener), then
after each blank line the lines up to the first map row (a piece without one fails and the scan
goes on). The starts are kept, so the n-th level costs that pass once and one parse, and
iterating parses only the levels it reaches. ``split_text`` is the same split as a generator, and
``split_lines`` runs it over any iterable of lines (an open file), which streams a file without
reading it whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .errors import LevelError, LevelIndexError
from .level import Level
from .xsb import _ROW, _ROW_RE, parse_level

__all__ = ["Collection", "split_text", "split_lines", "iter_levels"]

# From a separator (the scan text starts with one) over the non-blank lines before a level's first
# map row, and that row; a piece without a map row fails at its end and the scan moves on.
_LEVEL = re.compile(r"\n\n(?:[^\n]+\n)*?" + _ROW + r"(?=\n|\Z)")
_MASK = ";"     # block cells in the scan text: one line that is neither a map row nor a separator

# Every whole-text pass below is a regex whose pattern starts with a literal ("\n ", ":", "\n\n"),
# which re finds with a tight C loop and tries to match only there: ~0.4-1.2 ms each on the 615 KiB
# of the bundled data, where a pattern tried at every line (or a case-insensitive one) costs 1-5 ms.
# Lines of blanks (made empty in the scan text, as separators); a tab-led one only if there is a tab.
_BLANK_LINE = re.compile(r"\n [ \t]*+(?=\n)")
_TAB_BLANK_LINE = re.compile(r"\n\t[ \t]*+(?=\n)")
# A colon ending a line after 't' or a blank: where a 'comment:' opener may end (checked by _BLOCK).
_OPENER_END = re.compile(r":(?:(?<=[tT]:)|(?<=[ \t]:))[ \t]*+(?=\n|\Z)")
_CLOSER = r"[ \t]*+(?i:comment-end)"
# A line of a block that cannot split or end a level: not blank, not a map row, not the closer.
_QUIET = r"(?!" + _CLOSER + r")(?!" + _ROW + r"(?:\n|\Z))[ \t]*+[^ \t\n][^\n]*+"
#: From a line start: a 'comment:' opener line and, when the block is closed and hides no blank
#: line or map row (it can stay as it is in the scan text), the block through its closer (``quiet``).
_BLOCK = re.compile(r"[ \t]*+(?i:comment)[ \t]*+:[ \t]*+(?=\n|\Z)(?P<quiet>(?:\n" + _QUIET + r")*+\n" + _CLOSER
                    + r"[^\n]*+)?", re.A)
_CLOSER_LINE = re.compile(r"\n" + _CLOSER, re.A)
_BLANK_OR_ROW = re.compile(r"\n[ \t]*+\n|^" + _ROW + r"$", re.M)


def _blocks(scan: str) -> tuple[list[tuple[int, int]], int]:
    """The ``comment:`` blocks of ``scan`` that hide a blank line or a map row (opener line start to closer
    line end), and where an unclosed block opens (-1 if none).

    An opener is a line ``comment:`` alone (any case) and its closer the next line starting ``comment-end``.
    """
    hiding: list[tuple[int, int]] = []
    block_end = 0
    for colon in _OPENER_END.finditer(scan):
        if colon.start() < block_end:
            continue            # inside the block before
        start = scan.rfind("\n", 0, colon.start()) + 1
        opener = _BLOCK.match(scan, start)
        if opener is None:
            continue            # not an opener line
        if opener["quiet"] is not None:
            block_end = opener.end()
            continue
        closer = _CLOSER_LINE.search(scan, opener.end())
        if closer is None:      # open to the end: hides what it holds, and is a level of its own
            if _BLANK_OR_ROW.search(scan, opener.end()) is not None:
                hiding.append((start, len(scan)))
            return hiding, start
        end = scan.find("\n", closer.end())
        block_end = len(scan) if end < 0 else end
        hiding.append((start, block_end))
    return hiding, -1


def _inside(at: int, spans: list[tuple[int, int]]) -> bool:
    return any(start <= at < end for start, end in spans)


class _Index:
    """Where each level of a text starts: one scan, no level parsed."""

    __slots__ = ("text", "scan", "starts")

    def __init__(self, text: str) -> None:
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        #: The text the levels are cut from (line ends normalised).
        self.text = text
        scan = "\n\n" + text
        # Same-length edits, so that offsets in the scan text are offsets in ``text`` plus 2: a line of
        # blanks becomes newlines (a separator), a block hiding a blank line or a map row one ';' line.
        spans, open_block = _blocks(scan) if ":" in text else ([], -1)
        blanks = [match.span() for regex in ((_BLANK_LINE, _TAB_BLANK_LINE) if "\t" in text else (_BLANK_LINE,))
                  for match in regex.finditer(scan)]
        cuts = [(start, end, _MASK) for start, end in spans]
        cuts += [(start + 1, end, "\n") for start, end in blanks if not _inside(start, spans)]
        if cuts:
            cuts.sort()
            parts, pos = [], 0
            for start, end, fill in cuts:
                parts += (scan[pos:start], fill * (end - start))
                pos = end
            parts.append(scan[pos:])
            scan = "".join(parts)
        #: The scan text: a separator, then the text with blank lines emptied and hiding blocks masked.
        self.scan = scan
        #: Offset in ``text`` of each level's first line.
        self.starts: list[int] = list(map(re.Match.start, _LEVEL.finditer(scan)))
        if open_block >= 0:
            # The piece where a block opens and never closes is a level, map or not: parsing it says so.
            piece = scan.rfind("\n\n", 0, open_block)
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

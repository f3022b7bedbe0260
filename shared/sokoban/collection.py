"""Collections: many levels in one XSB text, split by blank lines and parsed lazily.

A level is a piece of text between blank lines (outside ``comment:`` blocks) holding a map row.
Finding where the levels start takes a few regex passes over the whole text at C speed, with no
level parsed and no copy of the text made: ``comment:`` blocks (found from the colon ending their
opener), lines of blanks, then after each pair of newlines the lines up to the first map row (a
piece without one fails and the scan goes on). The few pieces holding a block that hides a blank
line or a map row are decided one by one. The starts are kept, so the n-th level costs those passes
once and one parse, and iterating parses only the levels it reaches. ``split_text`` is the same
split as a generator, and ``split_lines`` runs it over any iterable of lines (an open file), which
streams a file without reading it whole.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator

from .errors import LevelError, LevelIndexError
from .level import Level
from .xsb import _ROW, _ROW_RE, MAP_ROW, parse_level

__all__ = ["Collection", "split_text", "split_lines", "iter_levels"]

# Every whole-text pass below is a regex whose pattern starts with a literal ("\n\n", "\n ", ":"),
# which re finds with a tight C loop and tries to match only there: ~0.3-1.2 ms each on the 615 KiB
# of the bundled data, where a pattern tried at every line (or a case-insensitive one) costs 1-5 ms.
# No pass builds a new text (a copy with blank lines emptied and blocks masked cost ~1 ms more in
# allocation alone): the few places where such a copy would differ are handled around it.

# A separator followed by the non-blank lines before a level's first map row, and that row; only the
# separator is matched (the rest is a lookahead), so the match ends where the level's first line starts.
_LEVEL = re.compile(r"\n\n(?=(?:[^\n]+\n)*?" + _ROW + r"(?:\n|\Z))")
# The same from a piece's first line, for the first piece of a stretch (no separator before it).
_HEAD = re.compile(r"(?:[^\n]+\n)*?" + _ROW + r"(?:\n|\Z)")
_NEWLINES = re.compile(r"\n*+")
# Lines of blanks followed by a line end (they separate levels as an empty line does); a tab-led one is
# looked for only if there is a tab. The text's first line has no newline before it: a match of its own.
_BLANK_LINE = re.compile(r"\n [ \t]*+(?=\n)")
_TAB_BLANK_LINE = re.compile(r"\n\t[ \t]*+(?=\n)")
_FIRST_BLANK_LINE = re.compile(r"[ \t]++(?=\n)")
_CLOSER = r"[ \t]*+(?i:comment-end)"
# A line of a block that cannot split or end a level: not blank, not a map row, not the closer.
_QUIET = r"(?!" + _CLOSER + r")(?!" + _ROW + r"(?:\n|\Z))[ \t]*+[^ \t\n][^\n]*+"
# A closed block that hides no blank line or map row, from its opener's line end through its closer.
_QUIET_BLOCK = r"(?:\n" + _QUIET + r")*+\n" + _CLOSER + r"[^\n]*+"
# A colon ending a line after 't' or a blank: where a 'comment:' opener may end (checked by _BLOCK); the
# cheap test (only blanks up to the line end) comes first, as most colons fail it at once. A line
# 'comment:' alone, unindented (most openers), needs no more checking (``plain``), and when its block
# hides nothing the match takes it whole (``quiet``), so that neither Python nor the search sees it again.
_OPENER_END = re.compile(r":(?=[ \t]*+(?:\n|\Z))(?:(?<=\n(?i:comment):)(?P<plain>)[ \t]*+(?P<quiet>" + _QUIET_BLOCK
                         + r")?|(?<=[tT \t]:))", re.A)
#: From a line start: a 'comment:' opener line and, when the block is closed and hides no blank
#: line or map row (it can be scanned as it is), the block through its closer (``quiet``).
_BLOCK = re.compile(r"[ \t]*+(?i:comment)[ \t]*+:[ \t]*+(?=\n|\Z)(?P<quiet>" + _QUIET_BLOCK + r")?", re.A)
_CLOSER_LINE = re.compile(r"\n" + _CLOSER, re.A)


def _blocks(text: str) -> tuple[list[tuple[int, int]], bool]:
    """The ``comment:`` blocks of ``text`` that hide a blank line or a map row, or never close (from the
    opener's line start to the closer's line end, or to the end of the text), and whether one never closes.

    An opener is a line ``comment:`` alone (any case) and its closer the next line starting ``comment-end``.
    """
    hiding: list[tuple[int, int]] = []
    block_end = 0
    for colon in _OPENER_END.finditer(text):
        if colon["quiet"] is not None or colon.start() < block_end:
            continue            # a quiet block, or inside the block before
        if colon["plain"] is not None:
            start, opener_end = colon.start() - len("comment"), colon.end()
        else:
            start = text.rfind("\n", 0, colon.start()) + 1
            opener = _BLOCK.match(text, start)
            if opener is None:
                continue        # not an opener line
            if opener["quiet"] is not None:
                block_end = opener.end()
                continue
            opener_end = opener.end()
        closer = _CLOSER_LINE.search(text, opener_end)
        if closer is None:      # open to the end: hides what it holds, and is a level of its own
            hiding.append((start, len(text)))
            return hiding, True
        end = text.find("\n", closer.end())
        block_end = len(text) if end < 0 else end
        hiding.append((start, block_end))
    return hiding, False


def _blank_lines(text: str) -> list[int]:
    """Where each line of blanks followed by a line end starts (such a line separates levels)."""
    starts = [match.start() + 1 for match in _BLANK_LINE.finditer(text)]
    if "\t" in text:
        starts += [match.start() + 1 for match in _TAB_BLANK_LINE.finditer(text)]
        starts.sort()
    if _FIRST_BLANK_LINE.match(text) is not None:
        starts.insert(0, 0)
    return starts


class _Index:
    """Where each level of a text starts: a few regex passes, no level parsed, no copy of the text."""

    __slots__ = ("text", "starts", "_blanks", "_block_starts", "_block_ends", "_block_piece_ends")

    def __init__(self, text: str) -> None:
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        #: The text the levels are cut from (line ends normalised).
        self.text = text
        blocks, unclosed = _blocks(text) if ":" in text else ([], False)
        self._block_starts = [start for start, _ in blocks]
        self._block_ends = [end for _, end in blocks]
        # Lines of blanks (their starts) outside the hiding blocks: separators, as empty lines are.
        self._blanks = [start for start in _blank_lines(text) if not self._in_block(start)]
        # Where each level holding a hiding block ends (the others end at the first separator).
        self._block_piece_ends: dict[int, int] = {}
        #: Offset in ``text`` of each level's first line.
        self.starts: list[int] = []
        if not self._blanks and not blocks:
            self._scan(0, len(text))
            return
        # Between the lines of blanks and the pieces holding a hiding block the text is scanned as it is;
        # a hiding block stands for one line of comment, and the piece holding it is decided here.
        events = sorted([(start, 0, False) for start in self._blanks] + [(start, end, True) for start, end in blocks])
        pos, number = 0, 0
        while number < len(events):
            start, end, is_block = events[number]
            if not is_block:
                self._scan(pos, start - 1)
                pos, number = text.find("\n", start) + 1, number + 1
                continue
            # The scan up to the block finds the block's piece if it has a map row before the block.
            self._scan(pos, start)
            before = text.rfind("\n\n", pos, start)
            first = _NEWLINES.match(text, pos).end() if before < 0 else before + 2
            found = bool(self.starts) and self.starts[-1] == first
            # The piece has no separator before the block, and none inside it counts; nor in a later block.
            last = self._next_separator(end)
            while (block := bisect_right(self._block_starts, last) - 1) >= 0 and last < self._block_ends[block]:
                last = self._next_separator(self._block_ends[block])
            while number < len(events) and events[number][0] < last:
                number += 1     # the blocks of this piece
            # The piece of an unclosed block is a level, map or not: parsing it reports the block.
            if found or (unclosed and last == len(text)) or self._holds_row(first, last):
                if not found:
                    self.starts.append(first)
                self._block_piece_ends[first] = last
            pos = last
        self._scan(pos, len(text))

    def _in_block(self, at: int) -> bool:
        block = bisect_right(self._block_starts, at) - 1
        return block >= 0 and at < self._block_ends[block]

    def _scan(self, start: int, end: int) -> None:
        """Add the levels among the pieces of ``text[start:end]``, which holds no line of blanks and no
        hiding block (``start`` is a line start, ``end`` a line end or a block's start)."""
        if end <= start:
            return
        first = _NEWLINES.match(self.text, start, end).end()
        if first < end and _HEAD.match(self.text, first, end) is not None:
            self.starts.append(first)
        self.starts += map(re.Match.end, _LEVEL.finditer(self.text, first, end))

    def _holds_row(self, start: int, end: int) -> bool:
        """Whether ``text[start:end]`` has a map row outside hiding blocks."""
        pos = start
        for block in range(bisect_left(self._block_ends, start + 1), bisect_left(self._block_starts, end)):
            if MAP_ROW.search(self.text, pos, self._block_starts[block]) is not None:
                return True
            pos = self._block_ends[block]
        return MAP_ROW.search(self.text, pos, end) is not None

    def _next_separator(self, pos: int) -> int:
        """The first line end at or after ``pos`` followed by an empty line or a line of blanks (or the end
        of the text); ``pos`` is not inside a hiding block, but the line end found may be."""
        end = self.text.find("\n\n", pos)
        if end < 0:
            end = len(self.text)
        if self._blanks:
            blank = bisect_right(self._blanks, pos)
            if blank < len(self._blanks) and self._blanks[blank] - 1 < end:
                end = self._blanks[blank] - 1
        return end

    def _end(self, start: int) -> int:
        """Where the level whose first line is at ``start`` ends."""
        end = self._block_piece_ends.get(start)
        return self._next_separator(start) if end is None else end

    def __len__(self) -> int:
        return len(self.starts)

    def piece(self, number: int) -> str:
        """The text of level ``number`` (0 <= number < len)."""
        start = self.starts[number]
        return self.text[start:self._end(start)]

    def pieces(self) -> Iterator[str]:
        """Each level's text in order."""
        text = self.text
        if self._blanks or self._block_starts:
            for start in self.starts:
                yield text[start:self._end(start)]
            return
        find = text.find
        for start in self.starts:
            end = find("\n\n", start)
            yield text[start:] if end < 0 else text[start:end]


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

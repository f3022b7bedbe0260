"""Collections: splitting by blank lines, laziness, streaming, and every data file's level count."""

from __future__ import annotations

import re
from importlib import resources
from itertools import islice
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.sokoban import (Collection, InvalidCharacterError, Level, LevelIndexError, NoPlayerError,
                            UnterminatedCommentError, iter_levels, split_lines, split_text)
from shared.sokoban import collection as collection_module

A = "#####\n#@$.#\n#####"
B = "######\n#@ $.#\n######"
BAD = "#####\n# $.#\n#####"         # no player

TEXT = f"""Header of the file: not a level
; and a comment

; 1
{A}
Title: one

comment:
a block with a blank line

and a map-like row inside it
#####
comment-end
{B}
Title: two

   \t
{BAD}
"""


def test_split_by_blank_lines_keeping_comment_blocks_whole():
    texts = list(split_text(TEXT))
    assert len(texts) == 3
    assert texts[0].startswith("; 1") and "Title: one" in texts[0]
    assert texts[1].startswith("comment:") and "Title: two" in texts[1]


def test_streaming_split_matches_the_text_split():
    assert [t.rstrip() for t in split_lines(TEXT.splitlines(keepends=True))] == \
           [t.rstrip() for t in split_text(TEXT)]


def test_levels_in_order_with_their_metadata():
    collection = Collection(TEXT, "t")
    assert len(collection) == 3
    assert collection.level(0).title == "one"
    assert collection.level(1).title == "two" and "a block with a blank line" in collection.level(1).comments
    assert collection.level(-2).title == "two"


def test_loading_the_nth_level_parses_no_other():
    collection = Collection(TEXT)
    with mock.patch.object(collection_module, "parse_level", wraps=collection_module.parse_level) as spy:
        level = collection.level(1)
    assert spy.call_count == 1 and level.title == "two"


def test_iteration_parses_only_what_it_reaches():
    collection = Collection(TEXT)
    with mock.patch.object(collection_module, "parse_level", wraps=collection_module.parse_level) as spy:
        first = next(iter(collection))
    assert spy.call_count == 1 and first.title == "one"
    # the bad third level raises only when reached, with a note saying which level it is
    levels = iter(Collection(TEXT, "t"))
    assert [lv.title for lv in islice(levels, 2)] == ["one", "two"]
    with pytest.raises(NoPlayerError) as caught:
        next(levels)
    assert "level 2 of t" in caught.value.__notes__[0]


def test_results_report_bad_levels_in_place():
    results = list(Collection(TEXT).results())
    assert isinstance(results[0], Level) and isinstance(results[2], NoPlayerError)


def test_streaming_levels_from_lines():
    lines = iter(f"{A}\n\n{B}\n".splitlines(keepends=True))
    levels = iter_levels(lines)
    assert next(levels).render() == A
    assert next(levels).render() == B


def test_index_outside_the_collection():
    with pytest.raises(LevelIndexError, match="no level 5"):
        Collection(TEXT).level(5)
    with pytest.raises(IndexError):
        Collection("").level(0)


def test_an_unclosed_block_still_yields_its_level_to_report_it():
    texts = list(split_text(f"{A}\ncomment:\nnever closed\n\nmore"))
    assert len(texts) == 1
    with pytest.raises(UnterminatedCommentError):
        Collection(f"{A}\ncomment:\nnever closed").level(0)


def test_an_invalid_row_after_the_map_names_its_character():
    with pytest.raises(InvalidCharacterError):
        Collection(f"{A}\nThis is no row\n").level(0)


def test_every_data_file_loads_the_count_in_its_name(data_dir):
    files = sorted(data_dir.glob("*.xsb"))
    assert len(files) == 20
    total = 0
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        expected = int(re.search(r"_(\d+)$", path.stem).group(1))
        results = list(Collection(text, path.stem).results())
        errors = [r for r in results if not isinstance(r, Level)]
        assert (len(results), errors) == (expected, []), path.name
        with path.open(encoding="utf-8", errors="replace") as handle:
            assert sum(1 for _ in split_lines(handle)) == expected, path.name
        assert sum(1 for _ in split_text(text)) == expected, path.name
        total += expected
    assert total == 3318


def test_render_round_trips_on_real_levels(data_dir):
    text = (data_dir / "Microban_155.xsb").read_text(encoding="utf-8")
    for level in islice(Collection(text), 30):
        again = Collection(level.to_xsb()).level(0)
        assert again.same_map(level)


def test_fast_and_careful_parses_agree_on_real_levels(data_dir):
    from shared.sokoban.xsb import _parse_slowly, parse_level
    for path in sorted(data_dir.glob("*.xsb")):
        for text in Collection(path.read_text(encoding="utf-8", errors="replace")).texts():
            assert parse_level(text) == _parse_slowly(text), path.name


def test_rows_with_trailing_tabs_split_and_load():
    text = f"; one\n#####\t\n#@$.#\t\n#####\n\t \n{B}\t\n"
    collection = Collection(text)
    assert len(collection) == 2
    assert collection.level(0).render() == A and collection.level(1).render() == B
    assert [t.rstrip() for t in split_lines(text.splitlines())] == [t.rstrip() for t in split_text(text)]


def test_blank_lines_inside_a_comment_block_do_not_split_it():
    text = f"comment:\nfirst\n\n  \n#####\ncomment-end\n{A}\n\n{B}"
    assert [level.render() for level in Collection(text)] == [A, B]
    assert Collection(text).level(0).comments[:1] == ("first",)


def test_a_piece_without_a_map_row_is_no_level():
    text = f"Header\n; just words\n\n{A}\n\n; trailing note\n\n\n{B}\n\n"
    collection = Collection(text)
    assert len(collection) == 2 and collection.level(-1).render() == B


def test_each_bundled_collection_loads_the_count_in_its_name():
    bundled = sorted((entry for entry in resources.files("shared.sokoban").joinpath("levels").iterdir()
                      if entry.name.endswith(".xsb")), key=lambda entry: entry.name)
    assert [entry.name for entry in bundled] == ["Grigr2001_100.xsb", "Grigr2002_40.xsb", "GrigrSpecial_40.xsb",
                                                 "Holland_81.xsb"]
    for entry in bundled:
        expected = int(re.search(r"_(\d+)\.xsb$", entry.name).group(1))
        collection = Collection(entry.read_text(encoding="utf-8"), entry.name)
        results = list(collection.results())
        assert len(results) == len(collection) == expected, entry.name
        assert all(isinstance(result, Level) for result in results), entry.name
        assert collection.level(expected - 1) == results[-1]


# -- the index's scan: blank lines of blanks, comment blocks found from their colon, CRLF ----------

C = "#######\n#@ $ .#\n#######"


def test_a_level_whose_only_row_ends_its_piece_does_not_swallow_the_next():
    # the first row's line end is also the separator's first newline
    assert list(split_text(f"#####\n\n{A}\n")) == ["#####", A + "\n"]
    assert len(Collection(f"; x\n#####\n\n{A}")) == 2


def test_lines_of_blanks_separate_levels_wherever_they_stand():
    text = f"{A}\n   \n{B}\n\t \t\n{C}\n \n\n{A}\n\t\n{B}"
    assert [level.render() for level in Collection(text)] == [A, B, C, A, B]
    assert [t.rstrip() for t in split_lines(text.splitlines())] == [t.rstrip() for t in split_text(text)]


@pytest.mark.parametrize("opener, closer", [("comment:", "comment-end"), ("Comment:", "Comment-End:"),
                                            ("COMMENT :", "  COMMENT-END trailing words"), ("  cOmMeNt\t:  ", "Comment-end")])
def test_blocks_holding_blank_lines_and_rows_neither_split_nor_count_as_maps(opener, closer):
    block = f"{opener}\nnote\n\n  \n{B}\n\n{closer}"
    text = f"{A}\nTitle: one\n{block}\n; still level one\n\n{block}\n{C}\nTitle: two\n"
    collection = Collection(text)
    assert len(collection) == 2
    assert collection.level(0).title == "one" and "still level one" in collection.level(0).comments
    assert collection.level(1).render() == C and collection.level(1).title == "two"
    assert "#@ $.#" in collection.level(1).comments      # the block's row is a comment of the level


def test_a_block_between_levels_with_no_map_of_its_own_is_no_level():
    text = f"{A}\n\ncomment:\n{B}\n\n{B}\ncomment-end\n\n{C}"
    assert [level.render() for level in Collection(text)] == [A, C]


def test_lines_that_look_like_openers_are_not():
    text = f"{A}\nTitle: comment:\n; comment:\nComment: a short one\nNot a comment:\n\n{B}"
    assert [level.render() for level in Collection(text)] == [A, B]


def test_an_opener_inside_a_block_opens_nothing():
    text = f"comment:\ncomment:\n\n{B}\ncomment-end\n{A}\n\n{C}"
    assert [level.render() for level in Collection(text)] == [A, C]


def test_an_unclosed_block_holding_rows_is_one_last_level_that_reports_it():
    text = f"{A}\n\n; header\ncomment:\n{B}\n\n{C}"
    collection = Collection(text)
    assert len(collection) == 2
    with pytest.raises(UnterminatedCommentError):
        collection.level(1)


def test_windows_line_ends_and_a_last_level_without_a_newline():
    text = f"; 1\n{A}\nTitle: one\n\ncomment:\nx\n\ncomment-end\n{B}"
    crlf = Collection(text.replace("\n", "\r\n"))
    assert len(crlf) == 2 and crlf.level(-1).render() == B and crlf.level(0).title == "one"
    assert [level.render() for level in Collection(text.replace("\n", "\r"))] == [A, B]


def test_the_nth_level_is_the_one_iteration_reaches(data_dir):
    texts = [path.read_text(encoding="utf-8", errors="replace") for path in sorted(data_dir.glob("*.xsb"))]
    joined = "\n\n".join(texts)
    collection = Collection(joined)
    levels = list(Collection(joined))
    assert len(collection) == len(levels) == 3318
    for index in (0, 1, 281, 282, 1700, 3317, -1):
        assert collection.level(index) == levels[index]


# -- properties: the index's fast paths against the streaming split and against each other -------------
#
# The index scans stretches without lines of blanks or hiding blocks with one regex, and decides the pieces
# around those apart; 'comment:' blocks alone and unindented that hide nothing are taken in one match, the
# others line by line. The streaming split (``split_lines``) walks every line instead: on texts built from
# these pieces (every kind of line that matters to the split) the two must agree, and so must the same text
# with empty lines for lines of blanks, indented openers, or Windows line ends.

_ROWS = ["#####", "#@$.#", "  #@$.#  ", "5#|#@$.#|5#", "#@ $ .#\t", "\t####", "---", "#"]
_WORDS = ["; note", ";", "Title: one", "Author: x", "12", "hello", "Comment: short", "x:", "t:", "not a comment:",
          "-- level 26", "#hello"]
_OPENERS = ["comment:", "Comment:", "comment:  ", "COMMENT :", "  cOmMeNt\t:"]
_CLOSERS = ["comment-end", "Comment-End:", "  COMMENT-END trailing words"]
_BLANKS = ["", "", " ", "\t", " \t "]
_LINES = st.lists(st.sampled_from(_ROWS + _WORDS), max_size=4)


@st.composite
def _comment_blocks(draw: st.DrawFn) -> list[str]:
    inner = draw(st.lists(st.sampled_from(["note", "", "  ", "#####", "#@$.#", "comment:", "Title: in"]), max_size=4))
    closer = draw(st.sampled_from(_CLOSERS + [None]))       # None: never closed
    return [draw(st.sampled_from(_OPENERS)), *inner] + ([closer] if closer else [])


@st.composite
def _texts(draw: st.DrawFn) -> str:
    lines: list[str] = draw(st.lists(st.sampled_from(_BLANKS), max_size=2))
    for _ in range(draw(st.integers(0, 5))):
        piece = draw(_LINES) + (draw(_comment_blocks()) if draw(st.booleans()) else []) + draw(_LINES)
        lines += piece + draw(st.lists(st.sampled_from(_BLANKS), min_size=1, max_size=3))
    text = "\n".join(lines)
    return text + "\n" if draw(st.booleans()) else text


def _compare(texts: list[str]) -> list[str]:
    """The pieces as split_text and split_lines give them: all but the last with their exact text."""
    return texts[:-1] + [text.rstrip() for text in texts[-1:]]


@settings(max_examples=300, deadline=None)
@given(_texts())
def test_the_index_splits_as_the_streaming_split_does(text):
    pieces = list(split_text(text))
    assert _compare(pieces) == _compare(list(split_lines(text.splitlines(keepends=True))))
    collection = Collection(text)
    assert [collection.level_text(number) for number in range(len(collection))] == pieces


def _blank_to_empty(text: str) -> str:
    return re.sub(r"(?m)^[ \t]+$", "", text)


@settings(max_examples=200, deadline=None)
@given(_texts())
def test_lines_of_blanks_split_as_empty_lines_do(text):
    assert [_blank_to_empty(piece) for piece in split_text(text)] == list(split_text(_blank_to_empty(text)))


@settings(max_examples=200, deadline=None)
@given(_texts())
def test_indented_openers_and_windows_line_ends_split_the_same(text):
    def lines(pieces):
        return [[line.strip() for line in piece.split("\n")] for piece in pieces]
    indented = re.sub(r"(?im)^(?=comment[ \t]*:[ \t]*$)", " ", text)
    assert lines(split_text(indented)) == lines(split_text(text))
    assert list(split_text(text.replace("\n", "\r\n"))) == list(split_text(text))

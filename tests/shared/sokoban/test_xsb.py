"""Parsing one level's XSB text: symbols, trimming, RLE and '|', metadata, comments, and each named error."""

from __future__ import annotations

from itertools import islice

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.grid import Pos
from shared.sokoban import (BoxGoalMismatchError, DuplicateMetadataError, InvalidCharacterError, LevelError,
                            MapInterruptedError, MoreThanOnePlayerError, NoBoxError, NoMapError, NoPlayerError,
                            OpenLevelError, RunLengthError, UnterminatedCommentError, decode_rle, encode_rle,
                            is_map_line, parse_level)

SIMPLE = """\
#####
#@$.#
#####"""


def test_symbols_and_positions():
    level = parse_level("""\
#######
#@ $. #
#.*-_$#
#######""")
    assert (level.width, level.height) == (7, 4)
    assert level.player_pos == Pos(1, 1)
    assert level.box_positions == {Pos(1, 3), Pos(2, 2), Pos(2, 5)}
    assert level.goal_positions == {Pos(1, 4), Pos(2, 1), Pos(2, 2)}
    assert level.is_wall(Pos(0, 0)) and not level.is_wall(Pos(2, 4)) and level.is_floor(Pos(2, 4))
    assert level.is_wall(Pos(-1, 3)) and not level.is_floor(Pos(9, 9))


def test_player_on_goal_and_box_on_goal():
    level = parse_level("######\n#+$* #\n######")
    assert level.player_pos == Pos(1, 1)
    assert level.goal_positions == {Pos(1, 1), Pos(1, 3)}
    assert level.box_positions == {Pos(1, 2), Pos(1, 3)}
    assert level.render() == "######\n#+$* #\n######"


def test_floor_symbols_render_as_spaces_and_outside_is_not_floor():
    level = parse_level("  #####\n###-_ #\n#@$.  #\n#######")
    assert level.render() == "  #####\n###   #\n#@$.  #\n#######"
    assert not level.is_floor(Pos(0, 0)) and level.is_floor(Pos(1, 3))


def test_indentation_and_trailing_blanks_are_trimmed():
    level = parse_level("    #####   \n    #@$.#\n    #####     ")
    assert (level.width, level.height) == (5, 3)
    assert level.render() == SIMPLE


def test_trailing_and_leading_tabs_are_blanks_too():
    level = parse_level("#####\n#@$.#\t\n#####")
    assert level.render() == SIMPLE
    assert parse_level("\t#####\t \n\t#@$.#\n\t#####").render() == SIMPLE
    assert is_map_line("#@$.#\t") and is_map_line("\t #@$.#")


def test_a_tab_inside_a_row_is_still_an_invalid_character():
    with pytest.raises(InvalidCharacterError):
        parse_level("#####\n#@\t$.#\n#####")


def test_width_comes_from_the_longest_row():
    level = parse_level("####\n#@$.###\n#  . $#\n#######")
    assert (level.width, level.height) == (7, 4)
    assert level.render().split("\n")[0] == "####"


def test_run_length_rows_and_bar_separators():
    plain = parse_level(SIMPLE)
    assert parse_level("5#|#@$.#|5#").same_map(plain)
    assert parse_level("5#\n#@$.#\n5#").same_map(plain)
    assert parse_level("7#|#@-$-.#|7#").render() == "#######\n#@ $ .#\n#######"
    assert decode_rle("3#2-$") == "###  $".replace(" ", "-")
    assert encode_rle("####  $") == "4#2-$"
    assert decode_rle(encode_rle("#  @$$ .#")) == "#--@$$-.#"


@pytest.mark.parametrize("row", ["3#4", "0#", "#2"])
def test_run_length_rows_must_decode_exactly(row):
    with pytest.raises(RunLengthError, match="run-length row"):
        decode_rle(row)


def test_bad_run_length_in_a_level():
    with pytest.raises(RunLengthError):
        parse_level("5#|#@$.#|5#3")


def test_map_line_detection():
    assert is_map_line("  ###  ") and is_map_line("4#|#@$.#") and is_map_line("---")
    assert not is_map_line("Title: x") and not is_map_line("; 1") and not is_map_line("12")
    assert not is_map_line("-- level 26")


def test_metadata_keys_are_case_insensitive_and_kept():
    level = parse_level(f"{SIMPLE}\nTitle: First\nAUTHOR: Someone\n")
    assert level.title == "First" and level.author == "Someone"
    assert dict(level.metadata) == {"title": "First", "author": "Someone"}


def test_duplicate_metadata_is_an_error_whatever_the_case():
    with pytest.raises(DuplicateMetadataError) as caught:
        parse_level(f"Title: a\n{SIMPLE}\ntitle: b")
    assert caught.value.key == "title" and "'title'" in str(caught.value)


def test_comments_are_kept_with_the_level():
    text = f"; level one\n{SIMPLE}\nComment: short note\ncomment:\nline a\n\nline b\ncomment-end:\n;last\n"
    level = parse_level(text)
    assert level.comments == ("level one", "short note", "line a", "line b", "last")
    assert level.render() == SIMPLE


def test_a_comment_block_can_hide_map_rows():
    level = parse_level(f"Comment:\n#####\n#@@ #\nComment-End\n{SIMPLE}")
    assert level.render() == SIMPLE and "#@@ #" in level.comments


def test_unterminated_comment():
    with pytest.raises(UnterminatedCommentError, match="comment-end"):
        parse_level(f"{SIMPLE}\ncomment:\nnever closed")


def test_no_map():
    with pytest.raises(NoMapError, match="no map rows"):
        parse_level("Title: nothing here\n; just words")


def test_more_than_one_player():
    with pytest.raises(MoreThanOnePlayerError, match="2 players"):
        parse_level("######\n#@$.@#\n######")


def test_no_player():
    with pytest.raises(NoPlayerError, match="no player"):
        parse_level("#####\n# $.#\n#####")


def test_boxes_and_goals_differ():
    with pytest.raises(BoxGoalMismatchError) as caught:
        parse_level("######\n#@$$.#\n######")
    assert (caught.value.boxes, caught.value.goals) == (2, 1)


def test_no_box():
    with pytest.raises(NoBoxError):
        parse_level("####\n#@ #\n####")


def test_invalid_character_is_named():
    with pytest.raises(InvalidCharacterError) as caught:
        parse_level("#####\n#@$x.#\n#####")
    assert caught.value.char == "x" and "'x'" in str(caught.value)


def test_invalid_character_in_the_first_row():
    with pytest.raises(InvalidCharacterError) as caught:
        parse_level("##?##\n#@$.#\n#####")
    assert caught.value.char == "?"


def test_map_rows_must_be_consecutive():
    with pytest.raises(MapInterruptedError):
        parse_level(f"{SIMPLE}\nTitle: x\n#####")


def test_walls_must_enclose_the_player():
    with pytest.raises(OpenLevelError, match="walk off the map"):
        parse_level("#####\n#@$. \n#####")


def test_every_error_is_a_value_error():
    for text in ("", "#####\n#@$x#", "####\n#@ #\n####"):
        with pytest.raises(LevelError):
            parse_level(text)
        assert issubclass(LevelError, ValueError)


def test_windows_line_ends():
    assert parse_level(SIMPLE.replace("\n", "\r\n") + "\r\nTitle: t\r\n").title == "t"


def test_text_before_the_map_is_kept_as_a_comment():
    level = parse_level(f"// Copyright someone //\n{SIMPLE}")
    assert level.comments == ("// Copyright someone //",)


def test_xsb_round_trip():
    level = parse_level(f"; note\n{SIMPLE}\nTitle: T\n")
    again = parse_level(level.to_xsb())
    assert again == level


# -- building the masks and the flood fill -------------------------------------------------------


SPIRAL = """\
#########
#@  $  .#
####### #
#.      #
# ### # #
# #$  # #
# #######
#   #   #
#####   #
#########"""


def _walk(level):
    """The cells the player reaches, one step at a time (the reference for the bitboard fill)."""
    rows = level.render().split("\n")
    seen, todo = {level.player_pos}, [level.player_pos]
    while todo:
        pos = todo.pop()
        for step in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            nxt = Pos(pos.row + step[0], pos.col + step[1])
            if nxt not in seen and nxt.col < len(rows[nxt.row]) and rows[nxt.row][nxt.col] != "#":
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_floor_is_what_the_player_reaches_in_any_direction():
    level = parse_level(SPIRAL)
    floor = set(level.positions(level.floor))
    assert floor == _walk(level)
    assert Pos(7, 3) in floor and Pos(5, 4) in floor            # right, down, left along row 3, down again
    assert Pos(7, 5) not in floor and Pos(8, 7) not in floor    # the sealed room
    assert level.walls & level.floor == 0


def test_floor_matches_a_step_by_step_walk_on_real_levels(data_dir):
    from shared.sokoban import Collection
    for name in ("Microban_155.xsb", "Sven_1623.xsb"):
        for level in islice(Collection((data_dir / name).read_text(encoding="utf-8", errors="replace")), 150):
            assert set(level.positions(level.floor)) == _walk(level), level.title


def test_walls_are_the_hash_cells_only():
    level = parse_level("  #####\n###   #\n#@$.  #\n#######")
    walls = set(level.positions(level.walls))
    assert Pos(0, 2) in walls and Pos(0, 0) not in walls and Pos(1, 3) not in walls
    assert len(walls) == level.render().count("#")


def test_common_indentation_is_found_whatever_the_first_rows():
    level = parse_level("   #####\n  ##@$.#\n  #####")
    assert level.render() == " #####\n##@$.#\n#####" and level.width == 6


def test_level_from_rows_matches_the_parser():
    from shared.sokoban import level_from_rows
    assert level_from_rows(["  #####", "  #@$.#  ", "", "  #####"]) == parse_level(SIMPLE)
    with pytest.raises(NoMapError):
        level_from_rows(["", "   "])


# -- properties: the parser's fast paths against the careful walk and against each other -------------------
#
# parse_level finds the map with one regex and takes the common lines around it inline; blocks are found from
# their words on lower-cased ASCII text; maps without tabs are laid out by expandtabs and only a map whose first
# line starts with a blank is checked for indentation. Each is checked against a slower path on the same input.

@st.composite
def _maps(draw: st.DrawFn) -> list[str]:
    """Rows of a walled map (ragged on the right), mostly valid: one player, as many boxes as goals."""
    height, width = draw(st.integers(1, 5)), draw(st.integers(1, 7))
    inside = [draw(st.lists(st.sampled_from("   -_#"), min_size=width, max_size=width)) for _ in range(height)]
    players = draw(st.sampled_from(["@", "@", "@", "+", "+", "", "@@", "@+", "++"]))
    pairs = draw(st.integers(0, 3))
    things = list(players) + ["$"] * (pairs + players.count("+")) + ["."] * pairs + ["*"] * draw(st.integers(0, 1))
    cells = draw(st.permutations([(row, col) for row in range(height) for col in range(width)]))
    for (row, col), thing in zip(cells, things):     # a small map may not hold them all: then they differ
        inside[row][col] = thing
    rows = ["#" * (width + 2)] + ["#" + "".join(row) + "#" for row in inside] + ["#" * (width + 2)]
    if draw(st.booleans()):     # a shorter last row: ragged, and open if it leaves a gap
        rows[-1] = rows[-1][:draw(st.integers(1, width + 2))]
    return rows


_BEFORE = st.sampled_from(["; note", ";", "Title: one", "Author: x", "12", "// heading //", "#hello", "comment:",
                           "Comment :", "comment-end", "é: ü"])
_AFTER = st.sampled_from(["; note", "Title: one", "title: two", "Author: x", "Comment: short", "Comment:",
                          "Comment-End:", "comment-end", "note", "é: ü"])


@st.composite
def _level_texts(draw: st.DrawFn) -> str:
    rows = draw(_maps())
    if draw(st.booleans()):
        rows = [encode_rle(row) if draw(st.booleans()) else row for row in rows]
    if draw(st.booleans()):
        rows = ["|".join(rows[:2])] + rows[2:]
    return "\n".join(draw(st.lists(_BEFORE, max_size=3)) + rows + draw(st.lists(_AFTER, max_size=4)))


def _outcome(parse, *args):
    try:
        level = parse(*args)
    except LevelError as exc:
        return type(exc)
    return level._key(), dict(level.metadata), level.comments


@settings(max_examples=300, deadline=None)
@given(_level_texts())
def test_fast_and_careful_parses_agree(text):
    from shared.sokoban.xsb import _parse_slowly
    fast, careful = _outcome(parse_level, text), _outcome(_parse_slowly, text)
    if isinstance(fast, tuple) or isinstance(careful, tuple):
        assert fast == careful
    # (when both fail they may name different faults first: the fast path checks blocks before all else)


@settings(max_examples=300, deadline=None)
@given(_maps(), st.sampled_from(["", " ", "\t", "  \t"]), st.lists(st.sampled_from(["", "", " ", "\t", " \t"])))
def test_indentation_tabs_and_trailing_blanks_leave_the_level_as_it_is(rows, indent, trailing):
    from shared.sokoban import level_from_rows
    padded = [indent + row + (trailing[number] if number < len(trailing) else "") for number, row in enumerate(rows)]
    assert _outcome(level_from_rows, padded) == _outcome(level_from_rows, rows)


@settings(max_examples=200, deadline=None)
@given(_maps(), st.lists(st.sampled_from(["", " ", "\t"])))
def test_a_tab_beside_a_row_is_a_blank_like_a_space(rows, blanks):
    from shared.sokoban import level_from_rows
    tabbed = [(blanks[number] if number < len(blanks) else "") + row for number, row in enumerate(rows)]
    spaced = [row.replace("\t", " ") for row in tabbed]
    assert _outcome(level_from_rows, tabbed) == _outcome(level_from_rows, spaced)


@settings(max_examples=300, deadline=None)
@given(_maps())
def test_players_are_counted_and_the_floor_is_what_the_player_walks(rows):
    from shared.sokoban import level_from_rows
    players = sum(row.count("@") + row.count("+") for row in rows)
    try:
        level = level_from_rows(rows)
    except LevelError as exc:
        if players != 1:
            assert isinstance(exc, NoPlayerError if players == 0 else MoreThanOnePlayerError)
        return
    assert players == 1 and set(level.positions(level.floor)) == _walk(level)
    assert level.walls & level.floor == 0 and level.render().count("#") == level.walls.bit_count()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["comment:", " Comment :", "COMMENT:  ", "x comment:", "comment: x", "comment-end",
                                 "  Comment-End x", "xcomment-end", "note", "", "#####"]), max_size=10))
def test_blocks_are_found_alike_in_ascii_and_other_text(lines):
    from shared.sokoban.xsb import blocks
    text = "\n".join(lines)
    assert blocks(text + "\n; é") == blocks(text)        # the second goes the case-insensitive regex way

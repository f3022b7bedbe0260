"""Algebraic notation and the text forms."""

import pytest

from shared.quoridor import (
    BlockBar, Location, NotationError, Position, Step, diagram, parse_diagram, parse_position, parse_square,
    parse_step, parse_wall, position_text, square, step_name, wall_name,
)


def test_the_examples_of_the_issue():
    assert wall_name(BlockBar.of(4, 1, 6, 1)) == "e1h"
    assert wall_name(BlockBar.of(5, 0, 5, 2)) == "e1v"
    assert wall_name(BlockBar.of(6, 1, 4, 1)) == "e1h"
    assert square(Location(5, 2)) == "e2"
    assert parse_wall("e1h") == BlockBar.of(4, 1, 6, 1)
    assert parse_wall("E1V") == BlockBar.of(5, 0, 5, 2)


def test_corner_names():
    assert square(Location(1, 1)) == "a1" and square(Location(9, 9)) == "i9"
    assert wall_name(BlockBar.of(0, 1, 2, 1)) == "a1h" and wall_name(BlockBar.of(7, 8, 9, 8)) == "h8h"
    assert wall_name(BlockBar.of(8, 7, 8, 9)) == "h8v"


def test_steps():
    assert parse_step("e2") == Step.move(5, 2)
    assert parse_step("e1h") == Step.wall(4, 1, 6, 1)
    assert parse_step("-") == Step() and step_name(Step()) == "-"


@pytest.mark.parametrize("text", ["", "j1", "a0", "e10", "i1h", "a9h", "e1x", "e1hh", "zz"])
def test_bad_notation_is_refused_with_the_text_quoted(text):
    with pytest.raises(NotationError) as info:
        parse_step(text) if len(text) != 2 else parse_square(text)
    assert repr(text.strip().lower()) in str(info.value).lower() or repr(text) in str(info.value)


def test_walls_on_the_border_have_no_name():
    with pytest.raises(NotationError):
        wall_name(BlockBar.of(0, 0, 2, 0))


def test_position_text_round_trips_and_reads_like_the_docstring():
    pos = Position.initial().play(parse_step("e2")).play(parse_step("d3v"))
    assert position_text(pos) == "e2 e9 0 10 9 d3v course"
    assert parse_position(position_text(pos)) == pos


@pytest.mark.parametrize("text, problem", [
    ("e1 e9 0 10", "expected"),
    ("e1 e9 x 10 10 -", "bad position"),
    ("e1 e9 0 10 10 - chess", "unknown ruleset"),
    ("e1 e1 0 10 10 -", "both pawns"),
])
def test_bad_position_text_names_the_problem(text, problem):
    with pytest.raises(ValueError, match=problem):
        parse_position(text)


def test_diagram_draws_pawns_walls_and_status():
    pos = Position.initial().play(parse_step("e1h")).play(parse_step("e1v"))
    text = diagram(pos)
    lines = text.split("\n")
    assert lines[2].startswith("9 |") and " 1 " in lines[2]
    assert "---+---" in lines[-5]                     # e1h crossed by e1v under row 2
    assert lines[-1] == "player 0 to move · walls left 9 9 · course rules"
    assert parse_diagram(text) == pos


def test_bad_diagram_names_the_problem():
    with pytest.raises(ValueError, match="lines"):
        parse_diagram("nothing here")
    text = diagram(Position.initial()).replace("player 0 to move", "someone to move")
    with pytest.raises(ValueError, match="status line"):
        parse_diagram(text)

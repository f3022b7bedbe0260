"""The grid library: directions, positions, grids, parsing and rendering."""

import pytest

from shared.grid import DIRECTIONS, Direction, Grid, GridShapeError, Pos


def test_direction_letters_and_conventions():
    assert [d.letter for d in DIRECTIONS] == ["u", "d", "l", "r"]
    assert Direction.from_letter("U") is Direction.UP
    assert Direction.UP.screen_delta == (-1, 0) and Direction.UP.cartesian_delta == (0, 1)
    assert Direction.RIGHT.screen_delta == (0, 1) and Direction.RIGHT.cartesian_delta == (1, 0)
    assert all(d.opposite.opposite is d for d in Direction)
    assert Direction.UP.turn_right() is Direction.RIGHT and Direction.UP.turn_left() is Direction.LEFT
    with pytest.raises(ValueError, match="'x'"):
        Direction.from_letter("x")


def test_pos_steps_in_screen_convention():
    assert Pos(2, 3).step(Direction.UP) == Pos(1, 3)
    assert Pos(2, 3).step(Direction.RIGHT, 2) == Pos(2, 5)
    assert Pos(0, 0).manhattan(Pos(2, 3)) == 5
    assert Pos(1, 1).direction_to(Pos(2, 1)) is Direction.DOWN
    with pytest.raises(ValueError):
        Pos(1, 1).direction_to(Pos(3, 3))


def test_parse_and_render_round_trip():
    text = "#####\n#@ $#\n#####"
    grid = Grid.parse(text)
    assert (grid.width, grid.height) == (5, 3)
    assert grid[Pos(1, 1)] == "@" and grid[Pos(1, 3)] == "$"
    assert grid.render() == text
    assert grid.find(lambda c: c == "$") == [Pos(1, 3)]


def test_ragged_text_is_an_error_unless_padded():
    with pytest.raises(GridShapeError, match="row 1"):
        Grid.parse("###\n#\n###")
    assert Grid.parse("###\n#\n###", pad=" ").render() == "###\n#  \n###"
    with pytest.raises(GridShapeError):
        Grid.parse("\n\n")


def test_bounds_neighbours_and_copies():
    grid = Grid(3, 2, 0)
    assert grid.in_bounds(Pos(1, 2)) and not grid.in_bounds(Pos(2, 0)) and not grid.in_bounds(Pos(-1, 0))
    assert sorted(p for _, p in grid.neighbours(Pos(0, 0))) == [Pos(0, 1), Pos(1, 0)]
    with pytest.raises(IndexError):
        grid[Pos(5, 5)]
    assert grid.get(Pos(5, 5), -1) == -1
    copy = grid.copy()
    copy[Pos(0, 0)] = 7
    assert grid[Pos(0, 0)] == 0 and copy != grid
    assert grid.map(lambda v: v + 1).rows() == [[1, 1, 1], [1, 1, 1]]
    assert len(list(grid.positions())) == 6

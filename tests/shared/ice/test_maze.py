"""Parsing, validation and the slide rule of ice mazes."""

import pytest

from shared.grid import Direction, Pos
from shared.ice import IceMaze, IceMazeError, parse_maze

KATA = "    x \n  #   \n   E  \n #    \n    # \nS    #"


def test_the_kata_example_parses_in_screen_order():
    maze = parse_maze(KATA)
    assert (maze.width, maze.height) == (6, 6)
    assert maze.start == Pos(5, 0) and maze.end == Pos(2, 3)
    assert maze[Pos(0, 4)] == "x" and maze[Pos(1, 2)] == "#"
    assert maze.render() == KATA and parse_maze(maze.rows()) == maze
    assert parse_maze(KATA + "\n") == maze          # one final newline is not a row


def test_all_ice_rows_are_kept():
    maze = parse_maze("      \nS    E\n      ")
    assert maze.height == 3 and maze.start == Pos(1, 0)


@pytest.mark.parametrize("text, words", [
    ("", "empty"),
    ("S  \nE", "not a rectangle: row 1"),
    ("S z\n  E", "invalid character 'z' at row 0, column 2"),
    ("   \n  E", "0 'S' cells"),
    ("S E\nE  ", "2 'E' cells (at row 0 col 2, row 1 col 0)"),
    ("SS E", "2 'S' cells"),
])
def test_bad_mazes_are_named(text, words):
    with pytest.raises(IceMazeError) as info:
        parse_maze(text)
    assert words in str(info.value)
    assert isinstance(info.value, ValueError)


def test_rows_must_be_strings():
    with pytest.raises(IceMazeError, match="row 1 is 3"):
        parse_maze(["S E", 3])


def test_slides_stop_before_obstacles_and_the_border_and_on_sticky_cells():
    maze = parse_maze("S  #x \n x    \n     E")
    assert maze.slide(Pos(0, 0), Direction.RIGHT) == (Pos(0, 2), 2)    # stops before '#'
    assert maze.slide(Pos(0, 0), Direction.UP) == (Pos(0, 0), 0)       # the border: blocked at once
    assert maze.slide(Pos(0, 1), Direction.DOWN) == (Pos(1, 1), 1)     # stops on 'x'
    assert maze.slide(Pos(1, 1), Direction.DOWN) == (Pos(2, 1), 1)     # leaves 'x' freely
    assert maze.slide(Pos(2, 0), Direction.RIGHT) == (Pos(2, 5), 5)    # stops on 'E'
    assert maze.slide(Pos(0, 5), Direction.DOWN) == (Pos(2, 5), 2)
    assert maze.slide(Pos(2, 5), Direction.LEFT) == (Pos(2, 5), 0)     # the game ends on 'E'
    assert maze.slide(Pos(0, 4), Direction.LEFT) == (Pos(0, 4), 0)


def test_mazes_are_immutable_values():
    maze = parse_maze(KATA)
    grid = maze.grid()
    grid[Pos(0, 0)] = "#"
    assert maze[Pos(0, 0)] == " "
    assert len({maze, parse_maze(KATA)}) == 1 and isinstance(maze, IceMaze)
    assert "6x6" in repr(maze)

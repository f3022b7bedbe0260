"""``quoridor-puzzle ice``: solve, generate, check, and clean errors."""

import pytest

from client.puzzle_cli import main
from shared.ice import best_route, parse_maze

KATA = "    x \n  #   \n   E  \n #    \n    # \nS    #\n"


@pytest.fixture
def kata_file(tmp_path):
    path = tmp_path / "kata.txt"
    path.write_text(KATA, encoding="utf-8")
    return path


def test_solve_prints_the_optimal_route(kata_file, capsys):
    assert main(["ice", "solve", str(kata_file)]) == 0
    out = capsys.readouterr().out
    assert "route: u r d l u r" in out and "moves 6, distance 16" in out
    assert "↑ → → → x" in out


def test_solve_says_when_there_is_no_route(tmp_path, capsys):
    path = tmp_path / "walled.txt"
    path.write_text("S#E\n", encoding="utf-8")
    assert main(["ice", "solve", str(path)]) == 0
    assert "no route" in capsys.readouterr().out


def test_generate_prints_a_maze_that_parses(capsys):
    assert main(["ice", "generate", "--size", "12", "--seed", "4"]) == 0
    maze = parse_maze(capsys.readouterr().out)
    assert (maze.width, maze.height) == (12, 12) and best_route(maze) is not None
    assert main(["ice", "generate", "--size", "12", "--seed", "4", "--unsolvable"]) == 0
    assert best_route(parse_maze(capsys.readouterr().out)) is None


def test_check_judges_answers(kata_file, capsys):
    assert main(["ice", "check", str(kata_file), "u r d l u r"]) == 0
    assert "solved in 6 moves, distance 16; optimal" in capsys.readouterr().out
    assert main(["ice", "check", str(kata_file), "urdlulr"]) == 0
    assert "not optimal" in capsys.readouterr().out
    assert main(["ice", "check", str(kata_file), "uq"]) == 0
    assert "invalid: move 1 is 'q'" in capsys.readouterr().out


def test_padding_restores_trimmed_lines(tmp_path, capsys):
    path = tmp_path / "trimmed.txt"
    path.write_text("\n".join(line.rstrip() for line in KATA.splitlines()) + "\n", encoding="utf-8")
    assert main(["ice", "solve", str(path)]) == 1
    assert "not a rectangle" in capsys.readouterr().err
    assert main(["ice", "solve", "--pad", str(path)]) == 0
    assert "route: u r d l u r" in capsys.readouterr().out


@pytest.mark.parametrize("content, words", [
    (None, "cannot read it"),
    ("S z E\n", "invalid character 'z'"),
    (b"\xff\xfe", "not a UTF-8 text file"),
])
def test_bad_files_exit_1_with_one_line(tmp_path, capsys, content, words):
    path = tmp_path / "maze.txt"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["ice", "solve", str(path)]) == 1
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and err.startswith("quoridor-puzzle ice: ")
    assert main(["ice", "play", str(path)]) == 1


@pytest.mark.parametrize("argv", [["ice"], ["ice", "fly"], ["ice", "generate", "--size", "1"]])
def test_bad_usage_exits_2(argv, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert "usage" in capsys.readouterr().err


def test_generate_without_size_draws_a_kata_side_from_the_seed(capsys):
    sides = set()
    for seed in range(12):
        assert main(["ice", "generate", "--seed", str(seed)]) == 0
        text = capsys.readouterr().out
        maze = parse_maze(text)
        assert 10 <= maze.width == maze.height <= 34 and best_route(maze) is not None
        sides.add(maze.width)
        assert main(["ice", "generate", "--seed", str(seed)]) == 0
        assert capsys.readouterr().out == text                               # the seed gives the same maze
    assert len(sides) > 3


def test_generate_help_documents_the_default_side(capsys):
    with pytest.raises(SystemExit):
        main(["ice", "generate", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "drawn from 10 to 34" in help_text and "2 to 200" in help_text


def test_seed_7_no_longer_draws_a_one_move_maze(capsys):
    assert main(["ice", "generate", "--seed", "7"]) == 0          # the default difficulty: kata, 8 moves or more
    assert best_route(parse_maze(capsys.readouterr().out)).moves >= 8


@pytest.mark.parametrize("difficulty, sides, fewest", [
    ("easy", (6, 10), 4), ("normal", (10, 16), 8), ("hard", (16, 24), 12), ("hell", (24, 34), 16)])
def test_a_difficulty_sets_the_sides_and_the_fewest_moves(capsys, difficulty, sides, fewest):
    for seed in range(15):
        assert main(["ice", "generate", "--difficulty", difficulty, "--seed", str(seed)]) == 0
        maze = parse_maze(capsys.readouterr().out)
        assert sides[0] <= maze.width == maze.height <= sides[1]
        assert best_route(maze).moves >= fewest


def test_a_minimum_too_high_for_the_side_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as info:
        main(["ice", "generate", "--size", "4", "--seed", "7"])
    assert info.value.code == 2
    assert "no solvable 4x4 maze needing 8 moves or more" in capsys.readouterr().err
    assert main(["ice", "generate", "--size", "4", "--seed", "7", "--min-moves", "1"]) == 0
    assert parse_maze(capsys.readouterr().out).width == 4

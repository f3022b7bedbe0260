"""``quoridor-puzzle circuit``: generate, solve, and clean errors."""

import pytest

from client.puzzle_cli import main
from shared.circuit import parse_circuit


def test_generate_then_solve(tmp_path, capsys):
    assert main(["circuit", "generate", "--difficulty", "hell", "--seed", "5"]) == 0
    text = capsys.readouterr().out
    circuit = parse_circuit(text)
    assert not circuit.connected and 7 <= circuit.width <= 8
    path = tmp_path / "level.txt"
    path.write_text(text, encoding="utf-8")
    assert main(["circuit", "solve", str(path)]) == 0
    out = capsys.readouterr().out
    assert "quarter turns" in out and "◎" in out and "●" in out
    solved_text = "\n".join(line for line in out.splitlines() if line[:1] in ".SITL")
    assert parse_circuit(solved_text).connected


def test_generate_with_solution_and_size(capsys):
    assert main(["circuit", "generate", "--difficulty", "easy", "--size", "6", "--seed", "1", "--solution"]) == 0
    level, solution = capsys.readouterr().out.split("\n\n")
    assert parse_circuit(solution).connected and parse_circuit(level).width == 6


def test_solve_says_when_there_is_none(tmp_path, capsys):
    path = tmp_path / "broken.txt"
    path.write_text("S90 . L0\n. . T0\n", encoding="utf-8")
    assert main(["circuit", "solve", str(path)]) == 0
    assert "no solution" in capsys.readouterr().out


@pytest.mark.parametrize("content, words", [
    (None, "cannot read it"),
    ("S90 Q1\n", "'Q1' is not a tile"),
    ("S90 I0\n", "0 terminal (T) tiles"),
])
def test_bad_files_exit_1_with_one_line(tmp_path, capsys, content, words):
    path = tmp_path / "level.txt"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    for command in ("solve", "play"):
        assert main(["circuit", command, str(path)]) == 1
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1 and err.startswith("quoridor-puzzle circuit: ")


@pytest.mark.parametrize("argv", [["circuit"], ["circuit", "generate", "--difficulty", "mild"],
                                  ["circuit", "generate", "--size", "40"]])
def test_bad_usage_exits_2(argv, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert "usage" in capsys.readouterr().err

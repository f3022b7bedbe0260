"""``quoridor-puzzle sokoban``: show, list, check, solve, build; bad input gives a one-line message and exit 1/2."""

from __future__ import annotations

import pytest

from client.puzzle_cli import main

LEVEL = "; first\n#######\n#@ $ .#\n#######\nTitle: corridor\n\n#####\n#@$.#\n#####\n"


@pytest.fixture
def xsb(tmp_path):
    path = tmp_path / "two.xsb"
    path.write_text(LEVEL, encoding="utf-8")
    return str(path)


def test_show_a_level_of_a_file(xsb, capsys):
    assert main(["sokoban", "show", xsb, "--level", "2"]) == 0
    out = capsys.readouterr().out
    assert "#@$.#" in out and "5x3, 1 boxes" in out


def test_show_a_bundled_collection_by_name(capsys):
    assert main(["sokoban", "show", "Holland", "-n", "1"]) == 0
    assert "boxes" in capsys.readouterr().out


def test_list_levels_and_bundled_collections(xsb, capsys):
    assert main(["sokoban", "list", xsb]) == 0
    out = capsys.readouterr().out
    assert "corridor" in out and out.count("boxes") == 2
    assert main(["sokoban", "list"]) == 0
    assert "Holland_81  (81 levels)" in capsys.readouterr().out


def test_check_solutions(xsb, capsys):
    assert main(["sokoban", "check", xsb, "rRR"]) == 0
    assert capsys.readouterr().out.strip() == "solved: 3 moves, 2 pushes"
    assert main(["sokoban", "check", xsb, "rRRR"]) == 1
    assert "invalid: step 3" in capsys.readouterr().out
    assert main(["sokoban", "check", xsb, "rZ"]) == 1
    assert "bad answer" in capsys.readouterr().err


def test_solve_prints_a_lurd_solution(xsb, capsys):
    assert main(["sokoban", "solve", xsb, "--level", "1", "--time-limit", "5"]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == "rRR" and "3 moves, 2 pushes" in captured.err


def test_solve_reports_an_unsolvable_level(tmp_path, capsys):
    path = tmp_path / "stuck.xsb"
    path.write_text("#####\n#@ $#\n#  .#\n#####\n", encoding="utf-8")
    assert main(["sokoban", "solve", str(path)]) == 1
    assert "no solution" in capsys.readouterr().out


def test_build_prints_the_level_of_a_solution(capsys):
    assert main(["sokoban", "build", "RRR"]) == 0
    assert capsys.readouterr().out == "#######\n#@$  .#\n#######\n"


@pytest.mark.parametrize("argv, words", [
    (["show", "/no/such/file.xsb"], "neither a file nor a bundled collection"),
    (["show", "{xsb}", "--level", "9"], "fewer than 9 levels"),
    (["show", "{bad}"], "invalid character 'x'"),
    (["build", "rr"], "pushes no box"),
])
def test_bad_input_is_one_line_and_exit_1(xsb, tmp_path, capsys, argv, words):
    bad = tmp_path / "bad.xsb"
    bad.write_text("#####\n#@$x.#\n#####\n", encoding="utf-8")
    argv = [a.format(xsb=xsb, bad=bad) for a in argv]
    assert main(["sokoban", *argv]) == 1
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["sokoban"])
    assert caught.value.code == 2
    with pytest.raises(SystemExit) as caught:
        main(["sokoban", "show", "x", "--level", "one"])
    assert caught.value.code == 2

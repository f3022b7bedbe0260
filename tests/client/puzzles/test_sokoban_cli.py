"""``quoridor-puzzle sokoban``: show, list, check, solve, build; bad input gives a one-line message and exit 1/2."""

from __future__ import annotations

import io

import pytest

from client.puzzle_cli import main
from client.puzzles import sokoban_cli
from shared.sokoban import solve
from shared.sokoban.progress import SolveProgress
from tests.clocks import TickingClock

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


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_solve_says_its_time_limit_then_shows_its_progress(monkeypatch, capsys):
    def slow_solve(level, **kwargs):      # the real solver on a clock that makes it take about 5 s
        return solve(level, **{**kwargs, "clock": TickingClock(0.0004)})

    monkeypatch.setattr(sokoban_cli, "solve", slow_solve)
    assert main(["sokoban", "solve", "Grigr2001", "--level", "4"]) == 0
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert lines[0] == "solving level 4 of Grigr2001: time limit 60 s (Ctrl-C stops)"
    progress = [line for line in lines if line.startswith("searching: ")]
    assert len(progress) >= 6 and all(line.endswith(" s of 60 s") for line in progress)
    assert progress[0].startswith("searching: ") and " states, 0." in progress[0]
    assert "moves" in lines[-1] and captured.out.strip().isalpha()       # the solution stays alone on stdout


def test_the_progress_line_is_rewritten_in_place_on_a_terminal():
    stream = Terminal()
    line = sokoban_cli.ProgressLine(stream)
    line.update(SolveProgress(12_345, 0.5, 60.0))
    line.update(SolveProgress(99, 1.04, 60.0))
    line.close()
    assert stream.getvalue() == ("\rsearching: 12,345 states, 0.5 s of 60 s"
                                 "\rsearching: 99 states, 1.0 s of 60 s    "
                                 "\r" + " " * 35 + "\r")
    plain = io.StringIO()
    other = sokoban_cli.ProgressLine(plain)
    other.update(SolveProgress(7, 0.5, 10.0))
    other.close()
    assert plain.getvalue() == "searching: 7 states, 0.5 s of 10 s\n"


def test_ctrl_c_stops_a_solve_with_a_clean_line(monkeypatch, xsb, capsys):
    def interrupted(level, *, progress, **kwargs):
        progress(SolveProgress(10, 0.5, 60.0))
        raise KeyboardInterrupt

    monkeypatch.setattr(sokoban_cli, "solve", interrupted)
    assert main(["sokoban", "solve", xsb]) == 130
    assert capsys.readouterr().err.splitlines()[-2:] == ["searching: 10 states, 0.5 s of 60 s",
                                                         "stopped: no solution yet"]

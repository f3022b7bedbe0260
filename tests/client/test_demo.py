"""The demo command and the coloured board renderer."""

import io

from rich.console import Console

from client.commands import installed_command
from client.demo import main
from client.render import render_board
from shared.quoridor import Position, diagram, parse_step


def test_render_board_matches_the_plain_diagram():
    pos = Position.initial().play(parse_step("e2")).play(parse_step("e7h"))
    console = Console(file=io.StringIO(), width=80, color_system=None)
    console.print(render_board(pos))
    assert console.file.getvalue().rstrip("\n") == diagram(pos)


def test_render_board_colours_the_pawns():
    segments = list(render_board(Position.initial()).render(Console(width=80)))
    styles = {seg.text: str(seg.style) for seg in segments if seg.text in "01"}
    assert "cyan" in styles["0"] and "magenta" in styles["1"]


def test_demo_runs_a_tournament_end_to_end(tmp_path, capsys):
    code = main(["--bots", "runner,random,runner", "-r", "1", "--data-dir", str(tmp_path), "--view", "plain",
                 "--timeout", "120"])
    out = capsys.readouterr().out
    assert code == 0
    assert "3 game logs" in out
    assert f"replay a game:  {installed_command('quoridor-replay')} " in out   # .venv/bin/quoridor-replay
    folder = next(p for p in tmp_path.iterdir() if p.is_dir())
    assert (folder / "results.json").exists()


def test_demo_rejects_bad_arguments(capsys):
    import pytest
    with pytest.raises(SystemExit) as info:
        main(["--bots", "strong,chess"])
    assert info.value.code == 2
    assert "--bots" in capsys.readouterr().err


def test_render_board_leaves_the_coordinates_plain():
    segments = list(render_board(Position.initial()).render(Console(width=80)))
    coloured = [seg.text for seg in segments if seg.style and "magenta" in str(seg.style)]
    assert coloured == ["1"]          # player 1's pawn, not the row label "1"

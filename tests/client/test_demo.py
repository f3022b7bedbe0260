"""The demo command and the coloured board renderer."""

import io

from rich.console import Console

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


def test_demo_plays_a_game_to_the_end(capsys):
    assert main(["--seed", "3", "--every", "0"]) == 0
    out = capsys.readouterr().out
    assert "wins after" in out and "player" in out


def test_demo_rejects_bad_arguments(capsys):
    import pytest
    with pytest.raises(SystemExit) as info:
        main(["--every", "-1"])
    assert info.value.code == 2
    assert "--every" in capsys.readouterr().err

"""The command line: --print, --step, exports, and usage errors (exit 2, one line, no traceback)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from client.replay.cli import build_parser, main
from shared.quoridor import diagram
from client.replay import load_game
from tests.client.replay.helpers import legacy

S0 = str(legacy("server_0_DEFENSIVE_VS_BASELINE.csv"))
CLIENT = str(legacy("client_example.csv"))


def test_print_writes_every_frame(capsys):
    assert main([S0, "--print"]) == 0
    out = capsys.readouterr().out
    assert out.count("step ") >= 88 and "step 0/87" in out and "step 87/87 · line 88" in out
    assert "\x1b[" not in out                                  # plain text in a pipe


def test_print_is_plain_text_even_on_a_terminal(capsys, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")              # rich takes stdout for a colour terminal
    monkeypatch.setenv("TERM", "xterm-256color")
    for argv in ([CLIENT, "--print"], [S0, "--print", "--step", "3"], [str(legacy("")), "--print"]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert out.strip() and "\x1b[" not in out, argv


def test_without_a_terminal_print_is_implied(capsys):
    assert main([CLIENT]) == 0
    out = capsys.readouterr().out
    assert "step 3/36 · line 4" in out and "the log disagrees with the rules (line 4)" in out
    assert "step 36/36 · line 37" in out and "unverified: after the disagreement at line 4" in out


def test_print_one_step(capsys):
    assert main([S0, "--print", "--step", "87"]) == 0
    out = capsys.readouterr().out
    game = load_game(legacy("server_0_DEFENSIVE_VS_BASELINE.csv"))
    board = diagram(game.frames[87].position).split("\n")[:-1]
    assert "\n".join(board) in out and out.count("step ") == 1


def test_step_out_of_range_is_a_usage_error(capsys):
    assert main([CLIENT, "--print", "--step", "37"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"quoridor-replay: {CLIENT}: no step 37: this game shows steps 0 to 36"


def test_exports(tmp_path, capsys):
    svg, html = tmp_path / "g.svg", tmp_path / "g.html"
    assert main([S0, "--svg", str(svg), "--html", str(html)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and f"wrote {svg}" in captured.err and f"wrote {html}" in captured.err
    assert ET.parse(svg).getroot().tag.endswith("svg")
    assert "193304BASELINE" in html.read_text(encoding="utf-8") and "<svg" in html.read_text(encoding="utf-8")
    assert main([S0, "--svg", str(svg), "--step", "3", "--print"]) == 0
    assert "step 3/87" in capsys.readouterr().out
    assert "step 3/87" in svg.read_text(encoding="utf-8")


def test_export_to_an_unwritable_place(tmp_path, capsys):
    assert main([S0, "--svg", str(tmp_path / "no" / "such" / "dir.svg")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "cannot write it" in err[0]


@pytest.mark.parametrize("argv, message", [
    ([], "give a game log or a folder of logs, or --live URL"),
    ([S0, "--live", "ws://127.0.0.1:1/"], "one of them"),
    ([S0, "--step", "-1"], "--step must be 0 or more"),
    ([S0, "--step", "x"], "invalid int value"),
    (["--live", "http://example.org"], "--live takes a websocket URL"),
    (["--live", "ws://127.0.0.1:1/", "--svg", "x.svg"], "take a game log, not --live"),
    ([str(legacy("")), "--step", "2"], "take a game log, not a folder"),
])
def test_usage_errors_exit_2(argv, message, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_print_says_when_a_rows_wall_is_ignored_and_how_the_log_ends(capsys):
    assert main([CLIENT, "--print"]) == 0
    out = " ".join(capsys.readouterr().out.split())        # whatever the console's width
    assert out.startswith("Me (0) vs Enemy (1) · course rules · Enemy won (goal, unverified)")
    step2 = out.split("step 2/36 · line 3")[1].split("step 3/36")[0]
    assert "Enemy moved to e8 [e8] this row also gives the wall e7h: not placed" in step2
    assert out.count("this row also gives the wall") == 1


def test_the_help_shows_real_tournament_folders(capsys):
    epilog = build_parser().epilog or ""
    assert "replays/t1/" not in epilog
    assert "quoridor-replay replays/tournament-20240501-120000/t1-r1-p1-g1_alice_vs_bob.csv " in epilog
    assert "quoridor-replay replays/tournament-20240501-120000/ " in epilog
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "20240501" in out and "replays/t1/" not in out

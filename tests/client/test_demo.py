"""The demo command and the coloured board renderer."""

import io
import json
import subprocess

import pytest
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


def test_demo_runs_a_tournament_end_to_end(tmp_path, capfd):
    code = main(["--bots", "runner,random,runner", "-r", "1", "--data-dir", str(tmp_path), "--view", "plain",
                 "--timeout", "120"])
    out = capfd.readouterr().out                   # the server's end screen too: it is another process
    assert code == 0
    folder = next(p for p in tmp_path.iterdir() if p.is_dir())
    assert out.splitlines()[-1] == f"3 game logs in {folder}/ (the bots' output: {tmp_path / folder.name}-clients.log)"
    first = json.loads((folder / "results.json").read_text())["games"][0]["log_path"]
    assert out.count("replay a game:") == 1          # said once, by the server, as it used to be by the demo
    assert f"replay a game:  {installed_command('quoridor-replay')} {first}\n" in out   # .venv/bin/quoridor-replay


class FakeProcess:
    """A server or bot process that is done at once (exit 0); the argv of each one started is kept."""

    started: list[list[str]] = []

    def __init__(self, argv: list[str], **kwargs: object) -> None:
        print(f"<started {argv[2]}>", flush=True)
        FakeProcess.started.append(argv)

    def poll(self) -> int:
        return 0

    def wait(self, timeout: float | None = None) -> int:
        return 0


def test_demo_says_what_it_starts_before_anything_starts(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(subprocess, "Popen", FakeProcess)
    assert main(["--bots", "strong,runner", "--data-dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "quoridor-demo: starting a server and 2 bots (strong, runner) …" and len(lines[0]) <= 80
    assert lines[1:] == ["<started server>", "<started client>", "<started client>"]


def test_demo_help_is_plain_text_and_names_games_per_pairing(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "``" not in out and "-r R, --games-per-pairing R" in out and "--rounds" not in out


def test_demo_rounds_still_works_with_a_one_line_note(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(subprocess, "Popen", FakeProcess)
    FakeProcess.started.clear()
    assert main(["--bots", "strong,runner", "--rounds", "3", "--data-dir", str(tmp_path)]) == 0
    server = FakeProcess.started[0]
    assert server[server.index("-r") + 1] == "3"
    assert capsys.readouterr().err.splitlines() == [
        "quoridor-demo: note: --rounds is deprecated (it means games per pairing, not rounds); "
        "use -r or --games-per-pairing"]


def test_demo_rejects_bad_arguments(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--bots", "strong,chess"])
    assert info.value.code == 2
    assert "--bots" in capsys.readouterr().err


def test_render_board_leaves_the_coordinates_plain():
    segments = list(render_board(Position.initial()).render(Console(width=80)))
    coloured = [seg.text for seg in segments if seg.style and "magenta" in str(seg.style)]
    assert coloured == ["1"]          # player 1's pawn, not the row label "1"

"""The README's first bot and the example file run as the README shows."""

import pathlib
import re

from client.match_cli import main

ROOT = pathlib.Path(__file__).resolve().parents[2]


def readme_bot_source() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Write your first bot"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_readme_bot_beats_random_locally(tmp_path, capsys):
    path = tmp_path / "readme_bot.py"
    path.write_text(readme_bot_source())
    assert main(["random", f"{path}:MyPlayer", "-g", "4", "--log-dir", "none"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"MyPlayer\s+│\s+4\s+│\s+4/0/0", out), out


def test_the_example_file_runs_as_the_readme_shows(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    command = "quoridor-match runner examples/my_first_bot.py:MyPlayer -g 10"
    assert command in (ROOT / "README.md").read_text(encoding="utf-8")
    assert main(command.split()[1:] + ["--log-dir", "none"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"MyPlayer\s+│\s+10\s+│\s+10/0/0", out), out


def test_the_example_file_alone_names_its_bot(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", "160")
    assert main(["runner", "examples/my_first_bot.py", "-g", "2", "--log-dir", "none"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"MyPlayer\s+│\s+2\s+│\s+2/0/0", out), out

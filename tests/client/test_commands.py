"""The replay command the tools print can be pasted into a shell whose virtual environment is not activated."""

from __future__ import annotations

import sys

from client.commands import installed_command
from client.match_cli import main as match_main


def fake_venv(tmp_path, monkeypatch):
    """A ``.venv/bin`` with a python and a quoridor-replay under ``tmp_path``, which becomes the cwd."""
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for name in ("python", "quoridor-replay"):
        (bin_dir / name).write_text("#!/bin/sh\n")
    monkeypatch.setattr(sys, "executable", str(bin_dir / "python"))
    monkeypatch.chdir(tmp_path)
    return bin_dir


def test_the_script_beside_the_python_relative_to_the_cwd(tmp_path, monkeypatch):
    fake_venv(tmp_path, monkeypatch)
    assert installed_command("quoridor-replay") == ".venv/bin/quoridor-replay"


def test_the_script_outside_the_cwd_is_named_by_its_full_path(tmp_path, monkeypatch):
    bin_dir = fake_venv(tmp_path, monkeypatch)
    elsewhere = tmp_path / "work"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert installed_command("quoridor-replay") == str(bin_dir / "quoridor-replay")


def test_a_script_that_is_not_installed_falls_back_to_the_path_or_its_name(tmp_path, monkeypatch):
    fake_venv(tmp_path, monkeypatch)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert installed_command("quoridor-nothing") == "quoridor-nothing"


def test_quoridor_match_prints_the_replay_command_with_its_path(tmp_path, monkeypatch, capsys):
    fake_venv(tmp_path, monkeypatch)
    monkeypatch.setenv("COLUMNS", "200")
    assert match_main(["runner", "runner", "-g", "1", "--log-dir", "logs"]) == 0
    assert "replay one with: .venv/bin/quoridor-replay logs/<game>.csv" in capsys.readouterr().out

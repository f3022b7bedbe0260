"""The command line: help, bad options as one clear line (no traceback), rosters, and a real run."""

from __future__ import annotations

import asyncio
import errno
import json
import os
import re
import signal
import socket
import sys
from pathlib import Path

import pytest

from server import cli
from server.app import Stage
from server.cli import build_parser, interrupted_message, main, read_roster, settings_from_args
from shared.cli import deprecation_notes
from server.logs.logfile import LogUnavailableError
from tests.server.conftest import ScriptedBot, bounded
from tests.server.support import fails

ROOT = Path(__file__).resolve().parents[2]




def test_help_lists_the_short_flags(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for flag in ("-p", "-n", "-r", "-t", "-d", "--kick-after-timeouts", "--roster", "--resume"):
        assert re.search(rf"(^|\s|,){flag}\b", out), flag


@pytest.mark.parametrize("argv, words", [
    (["-n", "1"], "a tournament needs at least 2 players (or 0 to serve only the puzzle rooms)"),
    (["-n", "-1"], "--players: Input should be greater than or equal to 0"),
    (["-n", "0", "--resume"], "--resume continues a tournament"),
    (["--ruleset", "chess"], "invalid choice: 'chess'"),
    (["-t", "0"], "--time-limit: Input should be greater than or equal to 1"),
    (["-r", "0"], "--games-per-pairing: Input should be greater than or equal to 1"),
    (["-p", "70000"], "--port: Input should be less than or equal to 65535"),
    (["--kick-after-timeouts", "0"], "--kick-after-timeouts: Input should be greater than or equal to 1"),
    (["-n", "two"], "invalid int value: 'two'"),
])
def test_bad_options_exit_2_with_one_line(capsys, argv, words):
    line = fails(capsys, argv)
    assert line.startswith("quoridor-server: error:") and words in line


@pytest.mark.parametrize("text, words", [
    (None, "cannot read roster"),
    ('{"k1": "A",', "is not valid JSON"),
    ('{"k1": "A", "k1": "B"}', "key 'k1' is listed twice"),
    ('["k1", "k2"]', "expected a JSON object"),
    ('{"k1": 5, "k2": "B"}', "every key and name must be a string"),
    ("k1 Alice\nk1 Bob\n", "line 2: key 'k1' is listed twice"),
    ("k1 Alice\nk2\n", "line 2: expected 'KEY NAME'"),
    ("# nobody\n\n", "lists no players"),
    ("k1 Alice\nk2 Alice\n", "the roster gives the same player name to two keys"),
    ("k1 Alice\n", "the roster lists 1 player(s), fewer than the 2 the server waits for"),
    ('{"k 1": "A", "k2": "B"}', "key 'k 1' is not 1 to 64 printable ASCII"),
])
def test_a_bad_roster_exits_2_with_one_line(capsys, tmp_path, text, words):
    path = tmp_path / "roster.txt"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    line = fails(capsys, ["--roster", str(path)])
    assert words in line and "--:" not in line


def test_roster_formats(tmp_path):
    as_json = tmp_path / "roster.json"
    as_json.write_text('\ufeff{"k1": "Team 1", "k2": " Team 2 "}', encoding="utf-8")
    assert read_roster(as_json) == {"k1": "Team 1", "k2": "Team 2"}
    as_lines = tmp_path / "roster.txt"
    as_lines.write_text("# key name\nk1 Team One\n\n  # the second\n  k2,Smith, J.\nk3\tThird team\n", encoding="utf-8")
    assert read_roster(as_lines) == {"k1": "Team One", "k2": "Smith, J.", "k3": "Third team"}
    args = build_parser().parse_args(["--roster", str(as_lines), "-n", "3", "-r", "2", "-d"])
    settings = settings_from_args(args)
    assert settings.roster == read_roster(as_lines) and settings.games_per_pairing == 2 and settings.debug
    assert settings.effective_time_limit_ms is None


def test_a_roster_comment_is_a_whole_line_and_names_and_keys_may_hold_a_hash(tmp_path):
    # Only a line whose first non-blank character is '#' is a comment: "Team #7" is a name.
    path = tmp_path / "roster.txt"
    path.write_text("# key name\n   # an indented comment\nk3y Team #7\nk#2 C# bots  #1\n#k4 Commented Out\n",
                    encoding="utf-8")
    assert read_roster(path) == {"k3y": "Team #7", "k#2": "C# bots  #1"}


def test_resume_without_a_tournament_exits_1(capsys, tmp_path):
    assert main(["--resume", "--data-dir", str(tmp_path), "-p", "0", "--view", "plain"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("quoridor-server: --resume: no unfinished tournament") and "Traceback" not in "".join(err)


def test_a_port_in_use_exits_1(capsys, tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["-p", str(port), "--data-dir", str(tmp_path), "--view", "plain"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith(f"quoridor-server: cannot listen on 127.0.0.1:{port}")


@pytest.mark.parametrize("error", [
    OSError(errno.EMFILE, "Too many open files", "replays/cup/t1-r1-p1-g1_a_vs_b.csv.part"),
    LogUnavailableError(Path("replays/cup/g.csv"), OSError(errno.EMFILE, "Too many open files"), 30.0),
])
def test_running_out_of_descriptors_mid_tournament_says_so_not_cannot_listen(capsys, tmp_path, monkeypatch, error):
    async def run_out(settings, reporter):
        raise error
    monkeypatch.setattr(cli, "_run", run_out)
    assert main(["-p", "0", "--data-dir", str(tmp_path), "--view", "plain"]) == 1
    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert line.startswith("quoridor-server: out of file descriptors (ulimit -n ") and "cannot listen" not in line
    assert line.count("out of file descriptors") == 1 and "--resume" in line


async def test_python_m_server_runs_a_match_and_writes_results(tmp_path):
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server", "-n", "2", "-p", "0", "--data-dir", str(tmp_path), "--view", "plain",
        "--name", "cup", cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        lines: list[str] = []
        while not lines or "listening on" not in lines[-1]:
            line = await bounded(process.stdout.readline(), 30)
            assert line, f"the server stopped: {(await process.stderr.read()).decode()}"
            lines.append(line.decode())
        port = int(re.search(r"ws://127\.0\.0\.1:(\d+)/", lines[-1]).group(1))
        bots = [ScriptedBot(f"ws://127.0.0.1:{port}/", key) for key in ("a", "b")]
        await bounded(asyncio.gather(*(bot.run() for bot in bots)))
        out, err = await bounded(process.communicate(), 30)
    finally:
        await _reap(process)
    assert process.returncode == 0, err.decode()
    text = "".join(lines) + out.decode()
    assert "[1/1]" in text and "final standings:" in text and "results written to" in text
    results = json.loads((tmp_path / "cup" / "results.json").read_text())
    assert [g["reason"] for g in results["games"]] == ["goal"] and results["tournament"]["finished"]
    assert bots[0].frames[-1]["type"] == "tournament_over"


def test_help_says_what_n_c_and_r_mean_here_and_what_n_and_c_mean_on_the_client(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "On quoridor-client, -n is the display name" in out and "On quoridor-client, -c is the config file" in out
    assert "-r R, --games-per-pairing R games per pairing" in out and "not rounds" in out
    assert "--rounds" not in out                                   # the old spelling works but is not offered


def test_rounds_still_works_and_says_in_one_line_that_it_is_deprecated(capsys):
    args = build_parser().parse_args(["--rounds", "3"])
    assert settings_from_args(args).games_per_pairing == 3
    assert deprecation_notes(args) == ["quoridor-server: note: --rounds is deprecated (it means games per pairing, "
                                       "not rounds); use -r or --games-per-pairing"]     # main prints it on stderr
    assert not capsys.readouterr().err                           # parsing writes nothing itself
    plain = build_parser().parse_args([])
    assert settings_from_args(plain).games_per_pairing == 1 and deprecation_notes(plain) == []
    assert fails(capsys, ["--rounds", "0"]).endswith("--games-per-pairing: Input should be greater than or equal to 1")


class StoppedServer:
    """An ``ArenaServer`` stand-in that Ctrl-C stops at ``stage`` (asyncio cancels the main task)."""

    stage = Stage.WAITING

    def __init__(self, settings, reporter) -> None:
        self.folder = settings.data_dir / "cup" if self.stage is not Stage.WAITING else None

    async def start(self) -> None:
        return None

    async def run_tournament(self) -> None:
        raise asyncio.CancelledError

    async def close(self) -> None:
        return None


@pytest.mark.parametrize("stage, argv, words", [
    (Stage.WAITING, [], "interrupted while waiting for players: no game was played, so there is nothing to resume; "
                        "start the server again as before"),
    (Stage.WAITING, ["--resume"], "interrupted before the tournament resumed: nothing new was played; "
                                  "start again with --resume"),
    (Stage.PLAYING, [], "interrupted: finished games are saved; start again with --resume to continue"),
    (Stage.FINISHED, [], "stopped after the tournament finished: its results are in {data}/cup/; "
                         "there is nothing to resume"),
])
def test_ctrl_c_says_what_it_leaves_for_the_moment_it_came(capsys, tmp_path, monkeypatch, stage, argv, words):
    monkeypatch.setattr(StoppedServer, "stage", stage)
    monkeypatch.setattr(cli, "ArenaServer", StoppedServer)
    assert main(["-p", "0", "--data-dir", str(tmp_path), "--view", "plain", *argv]) == 130
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [words.format(data=tmp_path)]


def test_interrupted_message_of_a_puzzle_server():
    assert interrupted_message(Stage.WAITING, resume=False, puzzles_only=True, folder=Path("replays")) == \
        "stopped: the puzzle leaderboards are saved"


async def _line_with(stream: asyncio.StreamReader, words: str) -> str:
    while True:
        line = (await bounded(stream.readline(), 30)).decode()
        assert line, f"the server stopped before saying {words!r}"
        if words in line:
            return line


async def _server(tmp_path: Path, *argv: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server", "-n", "2", "-p", "0", "-d", "--data-dir", str(tmp_path), "--view", "plain",
        "--name", "cup", *argv, cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


async def _reap(process: asyncio.subprocess.Process) -> None:
    """Kill ``process`` if it is still running, and wait for it: no test leaves a server behind."""
    if process.returncode is None:
        process.kill()
        await process.wait()


async def _interrupt(process: asyncio.subprocess.Process) -> tuple[int, str]:
    process.send_signal(signal.SIGINT)
    _, err = await bounded(process.communicate(), 30)
    return process.returncode, err.decode()


@pytest.mark.skipif(os.name != "posix", reason="Ctrl-C is SIGINT on POSIX")
async def test_ctrl_c_on_a_real_server_before_during_and_on_resume(tmp_path):
    # Before the tournament: nothing to resume, and --resume agrees.
    process = await _server(tmp_path)
    try:
        await _line_with(process.stdout, "listening on")
        code, err = await _interrupt(process)
    finally:
        await _reap(process)
    assert code == 130 and err.strip().splitlines()[-1] == (
        "interrupted while waiting for players: no game was played, so there is nothing to resume; "
        "start the server again as before")
    assert await asyncio.to_thread(main, ["--resume", "--data-dir", str(tmp_path), "-p", "0", "--view", "plain"]) == 1
    # During: two bots that never answer (-d: no time limit) hold the first game open.
    process = await _server(tmp_path)
    silent = [ScriptedBot("", key, policy=lambda pos, seat: None) for key in ("a", "b")]
    tasks: list[asyncio.Task] = []
    try:
        line = await _line_with(process.stdout, "listening on")
        port = int(re.search(r"ws://127\.0\.0\.1:(\d+)/", line).group(1))
        for bot in silent:
            bot.url = f"ws://127.0.0.1:{port}/"
            tasks.append(asyncio.create_task(bot.run()))
        await _line_with(process.stdout, "started")
        code, err = await _interrupt(process)
    finally:
        await _reap(process)
        await asyncio.gather(*tasks, return_exceptions=True)
    assert code == 130 and err.strip().splitlines()[-1] == (        # -d logs every frame before it
        "interrupted: finished games are saved; start again with --resume to continue")
    # ... and --resume does find it.
    process = await _server(tmp_path, "--resume")
    try:
        assert "resuming cup: 1 unfinished game(s)" in await _line_with(process.stdout, "resuming")
        await _line_with(process.stdout, "listening on")
        code, err = await _interrupt(process)
    finally:
        await _reap(process)
    assert code == 130 and err.strip().splitlines()[-1].endswith("start again with --resume to continue")

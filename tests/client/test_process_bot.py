"""A bot that is a process of its own (an executable speaking the hosted-bot channel), played locally like any bot:
a match against a Python bot, a process that crashes or writes garbage (one line, no traceback, no process left),
a process that says no hello, and the one-line errors of a spec that names no runnable file."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from client.driver import BotDriver, BotFailure, BotProblem, ProblemKind
from client.loader import BotLoadError, bot_label, load_bot, resolve_spec
from client.match_cli import main as match_main
from client.process_bot import ProcessBot
from client.cli import main as client_main
from client.cppbuild import CppBuildError
from client.cppcache import cached_build
from client.render import notice_printer
from shared.gamelog import read_log_data
from client.runner import BotRunner
from tests.client.support import Walker, quiet
from tests.server.conftest import bounded, url

# A bot in Python, run as an executable of its own: it speaks the channel itself (docs/hosted-bots.md). It walks
# straight to its goal row, writes its pid to pids.txt when it starts, and behaves as its folder's mode.txt says:
# "crash" exits with code 15 at its 3rd turn, "garbage" answers its 2nd turn with lines that are no step, "mute"
# never says hello, "stuck" never answers its 2nd turn (nor reads on).
CHANNEL_BOT = """#!{python}
import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
mode = open(os.path.join(here, "mode.txt")).read().strip() if os.path.exists(os.path.join(here, "mode.txt")) else ""
with open(os.path.join(here, "pids.txt"), "a") as pids:
    pids.write(f"{{os.getpid()}}\\n")
if mode == "mute":
    sys.stdin.read()
    sys.exit(0)
print(json.dumps({{"type": "hello", "protocol": 1, "role": "player", "key": "hosted", "name": "walker"}}), flush=True)
seen = []
turns = 0
for line in sys.stdin:
    message = json.loads(line)
    seen.append(message["type"])
    if message["type"] == "game_start":
        with open(os.path.join(here, "met.txt"), "a") as met:
            met.write(f"{{message['opponent']}} {{message['game']}}\\n")
        goal = 9 if message["seat"] == 0 else 1
    elif message["type"] == "turn":
        turns += 1
        if mode == "stuck" and turns == 2:
            import time
            time.sleep(600)
        if mode == "crash" and turns == 3:
            sys.stderr.write("walker: out of ideas\\n")
            sys.exit(15)
        if mode == "garbage" and turns == 2:
            for _ in range(12):
                print("thinking...", flush=True)
            continue
        x, y = message["my_loc"]
        ex, ey = message["enemy_loc"]
        step = 1 if goal > y else -1
        target = [x, y + step] if [x, y + step] != [ex, ey] else [x + (1 if x < 9 else -1), y]
        print(json.dumps({{"type": "step", "game": message["game"], "turn": message["turn"], "move": target,
                          "wall": None}}), flush=True)
    elif message["type"] == "tournament_over":
        break
with open(os.path.join(here, "heard.txt"), "w") as heard:
    heard.write(" ".join(dict.fromkeys(seen)))
"""


def channel_bot(folder: Path, mode: str = "") -> Path:
    """The channel bot as an executable ``folder/walker`` (its mode written beside it)."""
    folder.mkdir(parents=True, exist_ok=True)
    bot = folder / "walker"
    bot.write_text(CHANNEL_BOT.format(python=sys.executable), encoding="utf-8")
    bot.chmod(0o755)
    if mode:
        (folder / "mode.txt").write_text(mode, encoding="utf-8")
    return bot


def gone(pid: int) -> bool:
    """True when no process ``pid`` exists (ended and reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def pids(folder: Path) -> list[int]:
    return [int(line) for line in (folder / "pids.txt").read_text().split()]


def test_an_executable_bot_plays_a_match_against_a_python_bot_and_hears_the_channel(tmp_path, capsys):
    bot = channel_bot(tmp_path / "bot")
    code = match_main([str(bot), "runner", "-g", "2", "--step-cap", "30", "--log-dir", "none"])
    out = capsys.readouterr()
    assert code == 0, out
    assert "walker" in out.out and "2/0/0" in out.out          # the walker outruns the runner (it moves first)...
    assert "Traceback" not in out.err
    # ...hearing every message of the channel, and ending when the match did
    assert (tmp_path / "bot" / "heard.txt").read_text() == "welcome game_start turn game_over tournament_over"
    assert (tmp_path / "bot" / "met.txt").read_text() == "runner g1\nrunner g2\n"
    assert all(gone(pid) for pid in pids(tmp_path / "bot"))


def test_a_bot_process_that_crashes_mid_game_is_one_line_and_leaves_no_process(tmp_path, capfd):
    bot = channel_bot(tmp_path / "bot", "crash")
    code = match_main([str(bot), "runner", "-g", "2", "--step-cap", "30", "--log-dir", "none"])
    out = capfd.readouterr()
    assert code == 1
    told = [line for line in out.out.splitlines() if "process ended" in line]
    assert told == ["walker: its process ended mid-game (exit code 15: crashed, see its stderr above)"] * 2
    assert "Traceback" not in out.out + out.err
    assert "walker: out of ideas" in out.err                      # its stderr is the user's terminal
    started = pids(tmp_path / "bot")
    assert len(started) == 3                                      # the check, then one process per game
    assert all(gone(pid) for pid in started)


def test_a_bot_process_that_writes_no_step_is_stopped_after_ten_lines(tmp_path):
    bot = load_bot(str(channel_bot(tmp_path / "bot", "garbage")), "walker")
    problems: list[BotProblem] = []
    from client.match import play_game
    from shared.referee import RefereeSettings

    runner = load_bot("runner", "runner")
    settings = RefereeSettings(time_limit_ms=None, step_cap=20)
    with BotDriver(bot, problems.append) as first, BotDriver(runner) as second:
        play_game((first, second), ("walker", "runner"), settings)
    bot.close()
    assert [(p.kind, p.message) for p in problems] == [
        (ProblemKind.FAILED, "it wrote 10 lines in a row that are no step for its turn (the last: 'thinking...')")]
    assert all(gone(pid) for pid in pids(tmp_path / "bot"))


def test_a_bot_process_that_says_no_hello_is_one_line_when_loaded(tmp_path):
    channel_bot(tmp_path / "bot", "mute")
    with pytest.raises(BotFailure) as raised:
        ProcessBot([str(tmp_path / "bot" / "walker")], "walker", cwd=tmp_path / "bot", hello_timeout_s=0.5)
    assert str(raised.value) == "it said no hello within 0.5 s of its start"
    assert all(gone(pid) for pid in pids(tmp_path / "bot"))


def test_specs_that_name_no_runnable_bot_are_one_line(tmp_path):
    script = tmp_path / "notrun"
    script.write_text("#!/bin/sh\n")
    with pytest.raises(BotLoadError, match=r"^unknown bot 'strnog': give a built-in name .*the path of an executable$"):
        load_bot("strnog")
    with pytest.raises(BotLoadError, match=r"^bot file '\./nobot' does not exist$"):
        load_bot("./nobot")
    with pytest.raises(BotLoadError, match=rf"^{script} is not executable: make it so \(chmod \+x {script}\)"):
        load_bot(str(script))
    assert resolve_spec(str(script)) == str(script)               # never imported as Python
    assert bot_label(str(script)) == "notrun"
    assert bot_label("dir/MyPlayer.cpp") == bot_label("MyPlayer.cpp") == "MyPlayer"
    assert bot_label("dir/MyPlayer.cpp:RunPlayer") == "RunPlayer"


def test_without_gpp_a_cpp_bot_says_what_to_install(tmp_path, monkeypatch):
    (tmp_path / "MyPlayer.cpp").write_text("class MyPlayer : public Player {};\n")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(CppBuildError, match=r"^no C\+\+ compiler: install g\+\+ \(apt-get install g\+\+\)"):
        cached_build(tmp_path, cache=tmp_path / "cache")


async def test_quoridor_client_plays_an_executable_bot_on_a_server(make_server, tmp_path, capfd):
    server = await make_server(players=2, games_per_pairing=2)
    bot = channel_bot(tmp_path / "bot")
    client = asyncio.create_task(asyncio.to_thread(client_main, ["--server", url(server), "-k", "one", "--bot",
                                                                 str(bot), "--wait", "10"]))
    other = asyncio.create_task(BotRunner(Walker("two"), url(server), "two", say=notice_printer(quiet())).run())
    await bounded(server.run_tournament())
    assert await bounded(client) == 0
    await bounded(other)
    err = capfd.readouterr().err
    assert " as one with walker · " in err and "one: 2 games: " in err
    assert (tmp_path / "bot" / "heard.txt").read_text() == "welcome game_start turn game_over tournament_over"
    games = [line.split() for line in (tmp_path / "bot" / "met.txt").read_text().splitlines()]
    assert [opponent for opponent, _ in games] == ["two", "two"]
    assert all(game.startswith("t") for _, game in games)               # the server's game ids
    assert all(gone(pid) for pid in pids(tmp_path / "bot"))


def test_a_run_with_an_executable_bot_draws_openings_of_pawn_moves_only(tmp_path, capsys):
    bot = channel_bot(tmp_path / "bot")
    report = tmp_path / "run.json"
    code = match_main([str(bot), "runner", "-g", "4", "--openings", "6", "--seed", "3", "--step-cap", "30",
                       "--json", str(report), "--log-dir", str(tmp_path / "logs")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "openings of 6 plies (pawn moves only: walker cannot be told an opening's walls)" in " ".join(out.split())
    assert json.loads(report.read_text())["opening_walls"] is False
    logs = sorted((tmp_path / "logs").glob("*.csv"))
    assert len(logs) == 4
    for log in logs:                                    # no wall in any game's first 6 rows, the opening's
        steps = read_log_data(log.read_bytes(), log.name).steps
        assert len(steps) > 6 and all(record.step.is_move() for record in steps[:6]), log.name


@pytest.mark.parametrize("stop, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_stopping_a_run_in_worker_processes_leaves_no_bot_process(tmp_path, stop, code):
    bot = channel_bot(tmp_path / "bot", "stuck")
    run = subprocess.Popen([sys.executable, "-m", "client.match_cli", str(bot), str(bot), "-g", "40", "-j", "2",
                            "--log-dir", "none"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        until = time.monotonic() + 60
        # the checks' two processes, then both bots in each of the two workers
        while (not (tmp_path / "bot" / "pids.txt").exists() or len(pids(tmp_path / "bot")) < 6) \
                and run.poll() is None and time.monotonic() < until:
            time.sleep(0.05)
        assert run.poll() is None, "the run ended before it could be interrupted"
        run.send_signal(stop)
        assert run.wait(30) == code
    finally:
        if run.poll() is None:
            run.kill()
    started = pids(tmp_path / "bot")
    until = time.monotonic() + 10
    while not all(gone(pid) for pid in started) and time.monotonic() < until:
        time.sleep(0.05)                   # a stopped worker's bots are killed as it dies: asynchronously
    assert [pid for pid in started if not gone(pid)] == []

"""``quoridor-client`` end to end against a real server: config file, summary, exit codes, waiting, warnings."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import shlex
import socket
import sys
from pathlib import Path

import pytest

from client.cli import main
from client.player import Player
from client.render import notice_printer
from client.runner import BotRunner
from shared.quoridor import ChessboardChange, Step
from tests.client.support import Walker, best_move, duel, poll, quiet
from tests.server.conftest import bounded, url

# Appends the file it is given to a list: stands in for the replay viewer.
REPLAY_SCRIPT = "import sys; open(sys.argv[1], 'a').write(sys.argv[2] + '\\n')"


async def test_a_config_file_against_a_real_server_saves_and_replays_local_logs(make_server, tmp_path, capsys):
    server = await make_server(players=2, games_per_pairing=2)
    replayed = tmp_path / "replayed.txt"
    config = tmp_path / "config.json"
    config.write_text(json.dumps({
        "network": {"host": "127.0.0.1", "port": server.port}, "playerKey": "one", "bot": "runner",
        "saveLog": True, "logDir": str(tmp_path / "mine"), "gameReplay": True,
        "gameReplayCmd": f"{shlex.quote(sys.executable)} -c {shlex.quote(REPLAY_SCRIPT)} {shlex.quote(str(replayed))} "
                         "%file%"}))
    client = asyncio.create_task(asyncio.to_thread(main, ["-c", str(config), "--wait", "20"]))
    other = asyncio.create_task(BotRunner(Walker("two"), url(server), "two", say=notice_printer(quiet())).run())
    await bounded(server.run_tournament())
    assert await bounded(client) == 0
    await bounded(other)
    err = capsys.readouterr().err
    assert "one: 2 games: 1 won, 1 lost, 0 drawn; 0 violations (0 timeouts)" in err
    logs = sorted((tmp_path / "mine").glob("*.csv"))
    assert len(logs) == 2
    assert sorted(Path(line) for line in replayed.read_text().splitlines()) == logs   # the local files


async def test_a_key_the_roster_refuses_exits_1_with_the_reason(make_server, capsys):
    server = await make_server(players=2, roster={"k1": "alice", "k2": "bob"})
    code = await bounded(asyncio.to_thread(main, ["--server", url(server), "-k", "nope", "--bot", "runner",
                                                  "--wait", "5"]))
    err = capsys.readouterr().err
    assert code == 1
    assert err.strip().splitlines() == [
        "quoridor-client: the server refused to let this client play (unknown_key: this key is not on the "
        "server's roster; ask the organiser for yours)"]



async def test_a_server_that_goes_away_before_the_end_exits_1(make_server, capsys):
    server = await make_server(players=3)          # waits for a third player that never comes
    client = asyncio.create_task(asyncio.to_thread(main, ["--server", url(server), "-k", "one", "--bot", "runner",
                                                          "--wait", "5"]))
    await poll(lambda: len(server.connections.greeted) == 1)
    await server.close()
    assert await bounded(client) == 1
    err = capsys.readouterr().err
    assert "did not finish: the server closed the connection before the tournament was over" in err


async def test_the_client_waits_for_a_server_that_comes_up_late(make_server):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    console = quiet()
    early = asyncio.create_task(BotRunner(Walker("one"), f"ws://127.0.0.1:{port}/", "one", say=notice_printer(console),
                                          wait_s=30).run())
    await poll(lambda: "nothing answers at" in console.file.getvalue())
    server = await make_server(port=port, players=2, games_per_pairing=1)
    other = asyncio.create_task(BotRunner(Walker("two"), url(server), "two", say=notice_printer(quiet())).run())
    await bounded(server.run_tournament())
    summary = await bounded(early)
    await bounded(other)
    assert summary.completed and summary.games == 1


async def test_a_slow_step_is_warned_about(make_server):
    ticks = itertools.count(0.0, 0.9)     # every reading of the clock is 900 ms after the last
    (slow, _), (out, _), _ = await duel(make_server, Walker("one"), Walker("two"), games=1,
                                        server={"time_limit_ms": 1000}, options=({"clock": lambda: next(ticks)}, {}))
    assert "slow step: 900 ms of the 1000 ms limit" in out
    assert slow.close_calls > 0 and slow.violations == 0


class AsyncPorted(Player):
    """Ported from C++ with an ``async def nextStep``; notes the time limit it was told."""

    seen_limits: set[int | None]

    async def nextStep(self, change: ChessboardChange) -> Step:  # noqa: N802 - the C++ name on purpose
        self.seen_limits = getattr(self, "seen_limits", set()) | {self.time_limit_ms}
        await asyncio.sleep(0)
        return best_move(self)


async def test_an_async_nextstep_bot_plays_and_is_told_the_time_limit(make_server):
    bot = AsyncPorted("one")
    (a, b), _, _ = await duel(make_server, bot, Walker("two"), server={"time_limit_ms": 700})
    assert a.completed and a.games == 2 and a.wins == 1 and b.wins == 1
    assert a.violations == a.bot_errors == 0
    assert bot.seen_limits == {700}


SLOW_BOT = '''
import time

from client.player import Player
from shared.quoridor import Step


class Slow(Player):
    """Walks, but thinks 400 ms on every turn: over a 300 ms limit, so every step is late."""

    def next_step(self, change):
        time.sleep(0.4)
        pos = self.position
        return Step(min(pos.legal_moves(), key=lambda m: pos.apply(Step(m)).distance(self.seat)))
'''


@pytest.mark.parametrize("games", [1, 2])
async def test_a_bot_that_times_out_in_the_last_game_finishes_the_run(make_server, tmp_path, capsys, games):
    # The server ends the last game on the bot's 3rd timeout, says tournament_over and closes
    # while the bot is still thinking: the run is over all the same, and a late answer is no error.
    server = await make_server(players=2, games_per_pairing=games, time_limit_ms=300)
    path = tmp_path / "slow_bot.py"
    path.write_text(SLOW_BOT)
    client = asyncio.create_task(asyncio.to_thread(main, ["--server", url(server), "-k", "one", "--bot", str(path),
                                                          "--wait", "10"]))
    other = asyncio.create_task(BotRunner(Walker("two"), url(server), "two", say=notice_printer(quiet())).run())
    await bounded(server.run_tournament())
    code = await bounded(client)
    await bounded(other)
    err = capsys.readouterr().err
    assert code == 0, err
    # The 3rd timeout, the game's end, is told in game_over: a timeout too.
    assert f"one: {games} games: 0 won, {games} lost, 0 drawn; {3 * games} violations ({3 * games} timeouts)" in err
    assert err.count("too late: no answer within the limit of 300 ms") == 3 * games
    assert "did not finish" not in err and "server error" not in err
    assert re.search(r"^a late answer to turn \d+ was discarded$", err, re.M), err


async def test_without_bot_the_joined_line_names_the_default_bot(make_server, capsys):
    server = await make_server(players=2, games_per_pairing=1)
    client = asyncio.create_task(asyncio.to_thread(main, ["--server", url(server), "-k", "nobot", "--wait", "10"]))
    other = asyncio.create_task(BotRunner(Walker("two"), url(server), "two", say=notice_printer(quiet())).run())
    await bounded(server.run_tournament())
    assert await bounded(client) == 0
    await bounded(other)
    joined = [line for line in capsys.readouterr().err.splitlines() if line.startswith("joined")]
    assert len(joined) == 1
    assert " as nobot with random (the default bot: choose yours with --bot) · course rules" in joined[0]


async def test_the_joined_line_names_a_bot_given_as_a_file_alone(make_server, tmp_path, capsys):
    server = await make_server(players=2, games_per_pairing=1)
    path = tmp_path / "walker_bot.py"
    path.write_text(WALKER_BOT)
    client = asyncio.create_task(asyncio.to_thread(main, ["--server", url(server), "-k", "one", "--bot", str(path),
                                                          "--wait", "10"]))
    other = asyncio.create_task(BotRunner(Walker("two"), url(server), "two", say=notice_printer(quiet())).run())
    await bounded(server.run_tournament())
    assert await bounded(client) == 0
    await bounded(other)
    err = capsys.readouterr().err
    assert " as one with Walking · " in err and "default" not in err
    assert "one: 1 games: " in err


WALKER_BOT = '''
from client.player import Player
from shared.quoridor import Step


class Walking(Player):
    def next_step(self, change):
        pos = self.position
        return Step(min(pos.legal_moves(), key=lambda m: pos.apply(Step(m)).distance(self.seat)))
'''

BROKEN_BOT = '''
from client.player import Player


class Broken(Player):
    def __init__(self, key=""):
        super().__init__(key)
        raise FileNotFoundError("weights.bin is missing")
'''


def test_a_bot_that_raises_in_init_gets_one_line_with_its_own_line(tmp_path, capsys):
    path = tmp_path / "broken_bot.py"
    path.write_text(BROKEN_BOT)
    with pytest.raises(SystemExit) as info:
        main(["--bot", f"{path}:Broken", "-k", "one", "--wait", "1"])
    err = capsys.readouterr().err
    assert info.value.code == 2
    assert err.splitlines() == [f"quoridor-client: error: {path}:8: creating the bot Broken raised "
                                "FileNotFoundError: weights.bin is missing"]


async def test_replay_opens_the_runs_folder_in_one_viewer(make_server, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    opened = tmp_path / "opened.txt"
    viewer = f"{shlex.quote(sys.executable)} -c {shlex.quote(REPLAY_SCRIPT)} {shlex.quote(str(opened))}"
    monkeypatch.setattr("client.cli.installed_command", lambda name: viewer if name == "quoridor-replay" else name)
    server = await make_server(players=2, games_per_pairing=2)
    client = asyncio.create_task(asyncio.to_thread(main, ["--server", url(server), "-k", "one", "--bot", "runner",
                                                          "--replay", "--wait", "10"]))
    other = asyncio.create_task(BotRunner(Walker("two"), url(server), "two", say=notice_printer(quiet())).run())
    await bounded(server.run_tournament())
    assert await bounded(client) == 0
    await bounded(other)
    runs = list((tmp_path / "replays" / "client").iterdir())
    assert len(runs) == 1 and len(list(runs[0].glob("*.csv"))) == 2     # a folder of the run's own
    assert opened.read_text().splitlines() == [str(Path("replays") / "client" / runs[0].name)]   # opened once
    assert f"2 game logs in {Path('replays') / 'client' / runs[0].name}/" in capsys.readouterr().err


def test_two_clients_started_in_the_same_second_save_their_logs_apart(tmp_path, monkeypatch):
    from datetime import datetime

    from client.cli import ClientConfig, run_log_dir

    monkeypatch.chdir(tmp_path)
    second = datetime(2026, 11, 27, 12, 15, 30)
    first, other = run_log_dir(ClientConfig(), second), run_log_dir(ClientConfig(), second)
    assert (first.name, other.name) == ("20261127-121530", "20261127-121530-2")
    assert first.is_dir() and other.is_dir()
    assert run_log_dir(ClientConfig(log_dir=tmp_path / "mine"), second) == tmp_path / "mine"    # asked for: as it is


def test_a_run_that_played_no_game_leaves_no_empty_log_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    assert main(["--server", f"ws://127.0.0.1:{port}/", "-k", "one", "--save-log", "--wait", "0.2"]) == 1
    assert "no server at" in capsys.readouterr().err
    assert list((tmp_path / "replays" / "client").iterdir()) == []

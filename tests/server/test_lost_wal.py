"""A results database that lost its ``-wal`` file between a crash and ``--resume``: the finished games' logs on disk
are evidence, kept as they are and counted again, and the server says what it found."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from shared.tournament import ScheduledGame

from server.tournament.recovery import LoggedGame, Unreadable, logged_games, recover
from tests.server.conftest import ScriptedBot, bounded, url
from tests.server.support import Recorder, play


async def _until(condition, seconds: float = 20.0) -> None:
    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.01)
    await bounded(wait(), seconds)


def _logs(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in folder.glob("*.csv") if path.name.startswith("t")}


async def test_a_wal_deleted_between_a_kill_and_a_resume_loses_no_finished_game(make_server, tmp_path):
    data = tmp_path / "data"
    server = await make_server(players=2, games_per_pairing=6, data_dir=data, tournament_name="cup")
    a, b = ScriptedBot(url(server), "a", delay=0.005), ScriptedBot(url(server), "b", delay=0.005)
    bots = [asyncio.create_task(a.run()), asyncio.create_task(b.run())]
    run = asyncio.create_task(server.run_tournament())
    await _until(lambda: len(a.games_over) >= 1)
    await server.results.flush()
    other = sqlite3.connect(data / "arena.db")
    try:
        other.execute("PRAGMA wal_checkpoint(FULL)")         # the main file holds the first game(s) from now on
    finally:
        other.close()
    copied = (data / "arena.db").read_bytes()               # what copying arena.db alone keeps
    await _until(lambda: len(a.games_over) >= 4)
    run.cancel()                                            # the crash
    for task in bots:
        task.cancel()
    await bounded(asyncio.gather(run, *bots, return_exceptions=True), 30)
    await server.close()
    for name in ("arena.db-wal", "arena.db-shm"):
        (data / name).unlink(missing_ok=True)
    (data / "arena.db").write_bytes(copied)                 # arena.db without its -wal
    logs = _logs(data / "cup")
    assert len(logs) >= 4

    recorder = Recorder()
    again = await make_server(players=2, data_dir=data, resume=True)
    again.reporter = recorder
    a2, b2 = ScriptedBot(url(again), "a"), ScriptedBot(url(again), "b")
    standings = await play(again, [a2, b2])
    assert standings.games_done == 6
    assert len(a2.games_over) == 6 - len(logs)              # only the games without a log are played
    after = _logs(data / "cup")
    assert {name: after[name] for name in logs} == logs     # every finished log kept, byte for byte
    assert len(after) == 6
    said = [m for m in recorder.messages() if "had lost" in m]
    assert len(said) == 1 and str(data / "arena.db") in said[0] and "-wal" in said[0]
    rows = await again.results.games(again.tournament_id, "finished")
    assert {Path(row.log_path).name for row in rows} == set(after)


def test_a_log_of_other_players_or_without_a_result_is_kept_and_not_counted(tmp_path):
    game = ScheduledGame(0, 0, 0, "a", "b")
    other = ScheduledGame(0, 1, 0, "c", "d")
    (tmp_path / "t1-r1-p1-g1_a_vs_b.csv").write_text("not a log\n")
    (tmp_path / "t1-r1-p2-g1_c_vs_d.csv.part").write_text("")
    (tmp_path / "results.csv").write_text("")
    logs = logged_games(tmp_path)
    assert logs == {"t1-r1-p1-g1": [tmp_path / "t1-r1-p1-g1_a_vs_b.csv"]}
    (found,) = recover([(game, "t1-r1-p1-g1"), (other, "t1-r1-p2-g1")], logs)
    assert isinstance(found, Unreadable) and found.log_path.name == "t1-r1-p1-g1_a_vs_b.csv"
    assert not isinstance(found, LoggedGame)


async def test_a_leftover_log_that_is_not_this_game_is_kept_and_the_game_played_under_a_new_id(make_server, tmp_path):
    data = tmp_path / "data"
    (data / "cup").mkdir(parents=True)
    leftover = data / "cup" / "t1-r1-p1-g1_a_vs_b.csv"
    leftover.write_bytes(b"cut short by a crash of the disk\n")
    server = await make_server(players=2, games_per_pairing=1, data_dir=data, tournament_name="cup")
    recorder = Recorder()
    server.reporter = recorder
    a, b = ScriptedBot(url(server), "a"), ScriptedBot(url(server), "b")
    standings = await play(server, [a, b])
    assert standings.games_done == 1 and [g["game"] for g in a.games_over] == ["t1-r1-p1-g1-replay1"]
    assert leftover.read_bytes() == b"cut short by a crash of the disk\n"
    assert len(list((data / "cup").glob("t1-r1-p1-g1-replay1_*_vs_*.csv"))) == 1
    assert any(str(leftover) in m and "is kept but does not count" in m for m in recorder.messages())


async def test_a_log_of_a_game_played_before_the_tournament_was_created_is_another_tournaments(make_server, tmp_path):
    data = tmp_path / "data"
    first = await make_server(players=2, games_per_pairing=1, data_dir=data, tournament_name="cup")
    await play(first, [ScriptedBot(url(first), "a"), ScriptedBot(url(first), "b")])
    await first.close()
    (old,) = (data / "cup").glob("t1-r1-p1-g1_*.csv")
    kept = old.read_bytes()
    for name in ("arena.db", "arena.db-wal", "arena.db-shm"):       # the organiser starts the cup over
        (data / name).unlink(missing_ok=True)
    again = await make_server(players=2, games_per_pairing=1, data_dir=data, tournament_name="cup")
    recorder = Recorder()
    again.reporter = recorder
    a, b = ScriptedBot(url(again), "a"), ScriptedBot(url(again), "b")
    await play(again, [a, b])
    assert [g["game"] for g in a.games_over] == ["t1-r1-p1-g1-replay1"]        # played, not taken from the old log
    assert old.read_bytes() == kept
    assert any("before this tournament was created" in m for m in recorder.messages())
    assert not any("had lost" in m for m in recorder.messages())

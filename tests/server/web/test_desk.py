"""The pages' frames: a log's record equals the replay viewer's, uploads give one-line errors, paths stay home."""

import json
import pathlib
import shutil

import pytest

from client.replay.sources import load_game
from server.web.records import list_replays, log_path, record_from_log
from shared.gamelog import read_log_data
from shared.protocol import parse_server
from tests.server.conftest import url
from tests.server.support import Client, hello

LEGACY = pathlib.Path("/work/shared/data/legacy-logs")
LOGS = sorted(LEGACY.glob("*.csv")) if LEGACY.is_dir() else []


def board_of(position):
    walls = sorted(sorted([[w.start.x, w.start.y], [w.stop.x, w.stop.y]]) for w in position.walls)
    return [list(position.pawn(0)), list(position.pawn(1))], walls


@pytest.mark.skipif(not LOGS, reason="the course's logs are not on this machine")
@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_a_course_log_ends_where_the_replay_viewer_ends(path):
    record = record_from_log(read_log_data(path.read_text(encoding="utf-8"), path.name), path.name)
    game = load_game(path)
    last = record.steps[-1].board
    pawns, walls = board_of(game.frames[-1].position)
    assert [list(p) for p in last.pawns] == pawns
    assert sorted(sorted([list(a), list(b)]) for a, b in last.walls) == walls
    assert len(record.steps) == len(game.frames) - 1


def test_a_malformed_log_is_one_line_naming_the_line():
    text = "player,newLoc_x,newLoc_y,newBar_start_x,newBar_start_y,newBar_stop_x,newBar_stop_y,status\nMe,5,2,0\n"
    with pytest.raises(ValueError) as info:
        read_log_data(text, "bad.csv")
    message = str(info.value)
    assert "\n" not in message and "line 2" in message and "bad.csv" in message


def test_log_paths_stay_inside_the_data_directory(tmp_path):
    data = tmp_path / "data"
    (data / "t1").mkdir(parents=True)
    (data / "t1" / "g.csv").write_text("x")
    (tmp_path / "secret.csv").write_text("x")
    (data / "t1" / "link.csv").symlink_to(tmp_path / "secret.csv")
    assert log_path(data, "t1/g.csv") == (data / "t1" / "g.csv").resolve()
    for bad in ["../secret.csv", "t1/../../secret.csv", "..", "/etc/passwd", "t1/link.csv", "%2e%2e/secret.csv",
                "t1\\..\\..\\secret.csv", ".hidden.csv", "t1/g.py", "t1//g.csv", "a/b/c.csv", ""]:
        assert log_path(data, bad) is None, bad


def test_the_listing_names_tournaments_and_their_logs(tmp_path):
    data = tmp_path / "data"
    (data / "t1").mkdir(parents=True)
    for path in LOGS[:2]:
        shutil.copy(path, data / "t1" / path.name)
    listing = list_replays(data)
    assert [f.name for f in listing.folders] == (["t1"] if LOGS else [])
    for entry in listing.folders[0].games if LOGS else []:
        assert entry.path.startswith("t1/") and entry.white != "?"


def test_a_part_file_is_listed_as_unfinished_even_with_result_rows_in_it(tmp_path):
    from server.logs.logfile import part_path
    from shared.gamelog import GameHeader, GameLog, GameOutcome, StepRecord, format_log
    from shared.quoridor import GameStatus, Step
    folder = tmp_path / "data" / "t1"
    folder.mkdir(parents=True)
    log = GameLog(GameHeader(("Ann", "Bob"), game="g1"), [StepRecord("Ann", Step.move(5, 2), GameStatus.OK, 5, 0)],
                  GameOutcome(0, "goal", (5, 0), (0, 0)))
    part_path(folder / "g1_Ann_vs_Bob.csv").write_text(format_log(log), encoding="utf-8")   # cut off while finishing
    (entry,) = list_replays(tmp_path / "data").folders[0].games
    assert (entry.white, entry.black, entry.score, entry.result) == ("Ann", "Bob", "*", "unfinished")


async def test_a_page_uploads_lists_and_asks_over_the_websocket(make_server, tmp_path):
    server = await make_server(players=0)
    if LOGS:
        (server.settings.data_dir / "t1").mkdir(parents=True, exist_ok=True)
        shutil.copy(LOGS[0], server.settings.data_dir / "t1" / LOGS[0].name)
    page = await Client.open(url(server))
    await page.send(hello("web", "spectator"))
    await page.next("welcome")
    await page.send({"type": "replays_request"})
    replays = parse_server(json.dumps(await page.next("replays")))
    if LOGS:
        path = replays.folders[0].games[0].path
        await page.send({"type": "game_request", "game": path})
        record = await page.next("game_record")
        assert record["steps"] and record["players"][0]
        await page.send({"type": "log_upload", "name": LOGS[0].name, "csv": LOGS[0].read_text()})
        uploaded = await page.next("game_record")
        assert [s["board"] for s in uploaded["steps"]] == [s["board"] for s in record["steps"]]
    for sneaky in ["../arena.db", "t1/../../etc/passwd", "/etc/passwd", "..%2farena.db"]:
        await page.send({"type": "game_request", "game": sneaky})
        error = await page.next("error")
        assert error["code"] == "unknown_game"
    await page.send({"type": "log_upload", "name": "bad.csv", "csv": "player,x\nMe,1,2,3\n"})
    error = await page.next("error")
    assert error["code"] == "bad_log" and "bad.csv" in error["message"] and "\n" not in error["message"]


def test_the_desk_forgets_old_games_and_stale_boards(monkeypatch, tmp_path):
    from server.web import desk as module
    from shared.gamelog import GameOutcome, StepRecord
    from shared.quoridor import GameStatus, Position, Step
    from shared.referee import StepJudged
    monkeypatch.setattr(module, "GAMES_KEPT", 3)
    web = module.WebDesk(tmp_path)
    judged = StepJudged(0, StepRecord("a", Step(), GameStatus.OK, 1, 0), Position.initial(), (1, 0))
    for n in range(5):
        web.step(f"g{n}", ("a", "b"), judged, None, GameOutcome(0, "goal", (1, 0), (0, 0)))
    web.step("live", ("a", "b"), judged, None)
    assert [u.game for u in web.running()] == ["live"]
    assert len(web._games) <= 4 and "g4" in web._games and "g0" not in web._games
    monkeypatch.setattr(module, "STALE_S", -1.0)
    assert web.running() == []


def test_the_desk_keeps_the_steps_of_the_newest_finished_games_and_of_a_game_played_again(monkeypatch, tmp_path):
    from server.web import desk as module
    from shared.gamelog import GameOutcome, StepRecord
    from shared.quoridor import GameStatus, Position, Step
    from shared.referee import StepJudged
    monkeypatch.setattr(module, "FINISHED_KEPT", 2)
    web = module.WebDesk(tmp_path)
    judged = StepJudged(0, StepRecord("a", Step(), GameStatus.OK, 1, 0), Position.initial(), (1, 0))
    over = GameOutcome(0, "goal", (1, 0), (0, 0))
    for n in range(4):
        web.step(f"g{n}", ("a", "b"), judged, None, over)
    kept = {game: web.live_record(game) is not None for game in ("g0", "g1", "g2", "g3")}
    assert kept == {"g0": False, "g1": False, "g2": True, "g3": True}     # the older ones are read from their logs
    web.restart("g3")                                   # played again: live, whatever ends after it
    web.step("g3", ("a", "b"), judged, None)
    for n in range(4, 7):
        web.step(f"g{n}", ("a", "b"), judged, None, over)
    assert web.live_record("g3") is not None and web.live_record("g3").live
    assert [web.live_record(g) is not None for g in ("g2", "g4", "g5", "g6")] == [False, False, True, True]


async def test_after_the_end_every_replays_answer_shows_the_final_listing_of_the_tournaments_folder(tmp_path):
    # An answer read from the disk before the results were written could reach a page after the final listing
    # and replace its recent results (found at the end of a 4-player tournament: the newest game shown was not
    # the last to end).
    from server.web import WebDesk
    from shared.protocol import ReplayFolder, ReplayGameEntry, ReplaysRequest
    for name in ("tournament-a", "tournament-b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "t1-r1-p1-g1_a_vs_b.csv").write_text("player,newLoc_x\n", encoding="utf-8")
    desk = WebDesk(tmp_path)
    final = ReplayFolder(name="tournament-b", games=[
        ReplayGameEntry(game="t1-r1-p2-g1", white="c", black="d", score="0-1", result="goal", path=None),
        ReplayGameEntry(game="t1-r1-p1-g1", white="a", black="b", score="1-0", result="goal", path=None)])
    before = await desk.answer(ReplaysRequest())
    assert final not in before.folders and {f.name for f in before.folders} == {"tournament-a", "tournament-b"}
    desk.final_folder = final
    after = await desk.answer(ReplaysRequest())
    assert after.folders[0] == final
    assert sorted(f.name for f in after.folders) == ["tournament-a", "tournament-b"]   # the others as on the disk

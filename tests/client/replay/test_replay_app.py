"""The interactive screen, driven headless with keys."""

from __future__ import annotations

import shutil

from client.replay import LogFileSource, list_folder, load_game
from client.replay.app import ReplayApp
from client.replay.screens import GotoScreen, HelpScreen, ListScreen
from tests.client.replay.helpers import LEGACY, legacy

SIZE = (110, 32)


def text_of(app: ReplayApp, widget: str) -> str:
    return str(app.query_one(widget).content)


async def test_keys_move_through_the_game():
    app = ReplayApp(LogFileSource(legacy("server_0_DEFENSIVE_VS_BASELINE.csv")))
    async with app.run_test(size=SIZE) as pilot:
        assert app.controller.index == 0 and "step 0/87" in text_of(app, "#info")
        await pilot.press("n", "right", "enter")
        assert app.controller.index == 3 and "step 3/87 · line 4" in text_of(app, "#info")
        await pilot.press("p", "left")
        assert app.controller.index == 1
        await pilot.press("end")
        assert app.controller.index == 87 and "193304BASELINE won (goal)" in text_of(app, "#info")
        await pilot.press("n")
        assert app.controller.index == 87
        await pilot.press("home")
        assert app.controller.index == 0
        assert "193304BASELINE (0) vs 193304DEFENSIVE (1)" in text_of(app, "#title")
        await pilot.press("q")
    assert app.return_code == 0


async def test_go_to_a_step():
    app = ReplayApp(LogFileSource(legacy("server_1_DEFENSIVE_VS_BASELINE.csv")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")
        assert isinstance(app.screen, GotoScreen)
        await pilot.press("7", "enter")
        assert not isinstance(app.screen, GotoScreen) and app.controller.index == 7
        info = text_of(app, "#info")
        assert "InvalidStep: your pawn already stands on e1" in info
        await pilot.press("g", "9", "9", "enter")
        assert app.controller.index == 7 and "no step 99: this game shows steps 0 to 68" in text_of(app, "#bar")
        await pilot.press("g", "escape")
        assert app.controller.index == 7 and not isinstance(app.screen, GotoScreen)


async def test_play_pause_and_speed():
    app = ReplayApp(LogFileSource(legacy("client_example.csv")))
    async with app.run_test(size=SIZE) as pilot:
        speed = app.controller.speed
        await pilot.press("plus")
        assert app.controller.speed == 2 * speed
        await pilot.press("minus", "minus")
        assert app.controller.speed == speed / 2
        await pilot.press("space")
        assert app.controller.playing and "pause" in text_of(app, "#bar")
        for _ in range(3):                      # what the timer does, without waiting for it
            app.action_tick()
        assert app.controller.index == 3 and app.controller.playing
        assert "the log disagrees with the rules (line 4)" in text_of(app, "#info")
        for _ in range(33):                     # past the disagreement, to the log's last row
            app.action_tick()
        assert app.controller.index == 36 and not app.controller.playing
        assert "unverified: after the disagreement at line 4" in text_of(app, "#info")
        await pilot.press("space")
        assert app.controller.playing and app.controller.index == 0      # from the start again
        await pilot.press("space")
        assert not app.controller.playing


async def test_help():
    app = ReplayApp(LogFileSource(legacy("client_example.csv")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert "go to a step" in str(app.screen.query_one("#help").content)
        await pilot.press("n")                  # keys of the game do nothing under the help
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen) and app.controller.index == 0


async def test_start_at_a_step():
    app = ReplayApp(LogFileSource(legacy("client_example.csv")), step=2)
    async with app.run_test(size=SIZE):
        assert app.controller.index == 2 and "step 2/36" in text_of(app, "#info")


async def test_a_folder_lists_its_games_and_opens_the_chosen_one(tmp_path):
    for log in LEGACY.glob("*.csv"):
        shutil.copy(log, tmp_path)
    (tmp_path / "junk.csv").write_bytes(b"\x00\x01")
    entries = list_folder(tmp_path)
    app = ReplayApp(entries=entries, folder=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ListScreen) and app.game is None
        await pilot.press("down", "enter")      # junk.csv: cannot be opened, the list stays
        assert isinstance(app.screen, ListScreen) and "cannot be opened" in str(app.screen.query_one("#listbar").content)
        await pilot.press("down", "enter")      # server_0
        await pilot.pause()
        assert not isinstance(app.screen, ListScreen)
        assert app.game.players == ("193304BASELINE", "193304DEFENSIVE")
        await pilot.press("end")
        assert app.controller.index == 87
        await pilot.press("l")
        assert isinstance(app.screen, ListScreen)
        await pilot.press("up", "up", "enter")  # client_example
        await pilot.pause()
        assert app.game.players == ("Me", "Enemy") and app.controller.index == 0
        await pilot.press("escape")
        assert isinstance(app.screen, ListScreen)
        await pilot.press("escape")             # back to the game shown
        assert not isinstance(app.screen, ListScreen)


async def test_the_screen_is_a_game_view():
    app = ReplayApp()
    async with app.run_test(size=SIZE) as pilot:
        assert app.game is None and "no game open" in text_of(app, "#title")
        game = load_game(legacy("client_example.csv"))
        app.show_game(game)                     # the whole game: opened at its start, to step through
        assert app.game is game and app.controller.index == 0 and "step 0/36" in text_of(app, "#info")
        app.show(game, 36)                      # one frame: drawn as it is
        assert "step 36/36 · line 37" in text_of(app, "#info")
        await pilot.press("end")
        assert app.controller.index == 36

"""The Textual play screen, headless: moves, undo/redo, restart, level changes, the solved message."""

from __future__ import annotations

from textual.widgets import Static

from client.puzzles.sokoban_app import SokobanApp
from shared.sokoban import Collection

TEXT = "#######\n#@ $ .#\n#######\n\n######\n#@$ .#\n######\n\n#####\n# $.#\n#####\n"


def status(app: SokobanApp) -> str:
    return str(app.query_one("#status", Static).render())


async def test_play_a_level_to_the_solved_message():
    app = SokobanApp(Collection(TEXT, "test"))
    async with app.run_test(size=(60, 20)) as pilot:
        assert "level 1/3" in status(app) and "moves 0" in status(app)
        await pilot.press("left")                     # a wall: nothing moves
        await pilot.press("right", "right")
        assert "moves 2  pushes 1" in status(app)
        await pilot.press("u")
        assert "moves 1  pushes 0" in status(app)
        await pilot.press("r")
        assert "moves 2" in status(app)
        await pilot.press("escape", "escape")          # the first Esc asks
        assert "moves 0" in status(app)
        await pilot.press("right", "right", "right")
        assert app.game.solved and "Solved!" in status(app)


async def test_next_and_previous_levels_and_a_bad_level():
    app = SokobanApp(Collection(TEXT, "test"), 1)
    async with app.run_test(size=(60, 20)) as pilot:
        assert "level 2/3" in status(app)
        await pilot.press("p")
        assert "level 1/3" in status(app)
        await pilot.press("p")                        # no level before the first
        assert "level 1/3" in status(app)
        await pilot.press("n", "n")
        assert "level 3/3" in status(app) and "cannot be played" in status(app) and "no player" in status(app)
        await pilot.press("right", "u")               # nothing to play: no crash
        assert app.game is None

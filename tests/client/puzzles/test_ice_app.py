"""The ice maze app, headless: arrows slide, undo/redo/reset, the message when solved."""

from shared.grid import Direction, Pos
from shared.ice import parse_maze

from client.puzzles.ice_app import IceApp, IceGame, render_maze

KATA = parse_maze("    x \n  #   \n   E  \n #    \n    # \nS    #")


async def test_playing_the_optimal_route_says_optimal():
    app = IceApp(KATA)
    async with app.run_test() as pilot:
        await pilot.press("up", "right", "down", "left", "up")
        assert app.game.player == Pos(2, 2) and not app.game.solved
        status = str(app.query_one("#status").render())
        assert "moves 5" in status
        await pilot.press("right")
        assert app.game.solved
        assert "optimal!" in str(app.query_one("#status").render())
        await pilot.press("left")                       # the game is over: nothing moves
        assert app.game.player == KATA.end and app.game.moves == 6


async def test_undo_redo_reset_and_the_route_hint():
    app = IceApp(KATA)
    async with app.run_test() as pilot:
        await pilot.press("up", "right", "u")
        assert app.game.player == Pos(0, 0) and app.game.moves == 1
        await pilot.press("r")                           # redo
        assert app.game.player == Pos(0, 4)
        await pilot.press("escape", "escape")            # start again (the first Esc asks)
        assert app.game.player == KATA.start and app.game.moves == 0
        await pilot.press("s")
        assert "optimal: u r d l u r" in str(app.query_one("#status").render())
        await pilot.press("left")                        # blocked at once: nothing happens
        assert app.game.moves == 0


def test_a_longer_route_is_called_so():
    game = IceGame(KATA)
    for letter in "urdlulr":
        assert game.move(Direction.from_letter(letter))
    assert game.solved and "optimal route takes 6 moves, distance 16" in game.status()


def test_the_renderer_draws_cells_player_and_route():
    text = render_maze(KATA, player=Pos(0, 0)).plain.splitlines()
    assert text[0] == "@ · · · x · " and text[5] == "S · · · · # "
    route = render_maze(KATA, stops=[Pos(5, 0), Pos(0, 0), Pos(0, 4)]).plain.splitlines()
    assert route[0].startswith("↑ → → → x") and route[4].startswith("↑")

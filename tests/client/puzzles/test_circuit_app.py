"""The circuit app, headless: cursor, rotate, lock, undo, hint, and the message when solved."""

from shared.circuit import Tile, TileKind, generate_level, parse_circuit, solve
from shared.grid import Pos

from client.puzzles.circuit_app import CircuitApp, CircuitGame, render_circuit, tile_lines

SMALL = parse_circuit("S90  I90  L0\n.    .    T0")       # turn (0,1) once and (0,2) twice


async def test_rotating_to_the_solution_says_solved():
    app = CircuitApp(SMALL)
    async with app.run_test() as pilot:
        assert app.game.cursor == Pos(0, 1)             # starts on the first movable tile
        await pilot.press("space")
        assert app.game.circuit[Pos(0, 1)].rotation == 180
        await pilot.press("right", "enter", "enter")
        assert app.game.solved and app.game.rotations == 3
        assert "Solved!" in str(app.query_one("#status").render())


async def test_lock_undo_reset_and_hint():
    app = CircuitApp(SMALL)
    async with app.run_test() as pilot:
        await pilot.press("l", "space")
        assert app.game.locked == {Pos(0, 1)} and app.game.rotations == 0
        assert "locked" in str(app.query_one("#status").render())
        await pilot.press("u", "space")                 # undo the lock, then the turn goes through
        assert app.game.locked == set() and app.game.rotations == 1
        await pilot.press("h")
        assert "hint: turn the tile at row 0, column 2" in str(app.query_one("#status").render())
        await pilot.press("left", "space")               # the source does not turn
        assert "only straight and corner tiles turn" in str(app.query_one("#status").render())
        await pilot.press("up", "left", "escape", "escape")   # the cursor stays in the grid
        assert app.game.cursor == Pos(0, 0) and app.game.circuit == SMALL


def test_the_game_solves_generated_levels_by_the_solvers_rotations():
    level = generate_level("hard", seed=11)
    game = CircuitGame(level.initial)
    for pos, rotation in solve(level.initial).items():
        game.cursor = pos
        while not game.circuit[pos].accepts(rotation):
            assert game.rotate() is None
    assert game.solved and "Solved!" in game.status()
    game.cursor = level.path[1]
    assert game.toggle_lock() is None and game.hint() == "already connected"


def test_box_drawing_tiles():
    assert tile_lines(Tile(TileKind.CORNER, 0)) == ("  │  ", "  └──", "     ")
    assert tile_lines(Tile(TileKind.CORNER, 180), powered=True) == ("     ", "━━┓  ", "  ┃  ")
    assert tile_lines(Tile(TileKind.STRAIGHT, 90)) == ("  │  ", "  │  ", "  │  ")
    assert tile_lines(Tile(TileKind.SOURCE, 90))[1] == "  ●──"
    assert tile_lines(Tile(TileKind.EMPTY)) == ("     ", "  ·  ", "     ")
    lines = render_circuit(SMALL.with_rotations([0, 180])).plain.splitlines()
    assert lines[1] == "  ●" + "━" * 9 + "┓  " and len(lines) == 6

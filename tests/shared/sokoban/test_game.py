"""Play: moves, one-box pushes, blocked steps, undo and redo, counters, the row-pushing variant."""

from __future__ import annotations

import pytest

from shared.grid import Direction, Pos
from shared.sokoban import Game, LurdError, parse_level, parse_lurd

U, D, L, R = Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT
CORRIDOR = parse_level("########\n#@$ $..#\n########")


def test_moves_and_pushes_are_counted():
    game = Game(parse_level("#######\n#@ $ .#\n#######"))
    assert game.move(R).pushed == 0
    assert game.move(R).pushed == 1
    assert (game.moves, game.pushes, game.solved) == (2, 1, False)
    game.move(R)
    assert game.solved and game.lurd == "rRR" and game.player_pos == Pos(1, 4)


def test_walls_block_and_nothing_changes():
    game = Game(CORRIDOR)
    assert game.move(L) is None and game.move(U) is None
    assert game.moves == 0 and game.player_pos == Pos(1, 1)


def test_a_box_behind_a_box_does_not_move():
    game = Game(CORRIDOR)
    assert game.move(R).pushed == 1
    assert game.move(R) is None          # $ $ now touch
    assert game.box_positions == {Pos(1, 3), Pos(1, 4)}


def test_the_row_pushing_variant_moves_whole_rows():
    game = Game(CORRIDOR, push_rows=True)
    game.move(R)
    step = game.move(R)
    assert step.pushed == 2 and game.box_positions == {Pos(1, 4), Pos(1, 5)}
    assert game.move(R).pushed == 2 and game.solved
    assert game.move(R) is None          # the wall stops the row
    game.undo()
    game.undo()
    assert game.box_positions == {Pos(1, 3), Pos(1, 4)} and game.player_pos == Pos(1, 2)


def test_undo_and_redo():
    game = Game(parse_level("#######\n#@ $ .#\n#######"))
    for d in (R, R, R):
        game.move(d)
    assert game.solved
    assert game.undo().direction is R and not game.solved
    assert game.undo().pushed == 1
    assert (game.moves, game.pushes, game.lurd) == (1, 0, "r")
    assert game.box_positions == {Pos(1, 3)}
    assert game.redo().pushed == 1 and game.redo() is not None and game.solved
    assert game.redo() is None


def test_a_new_move_clears_what_was_undone():
    game = Game(CORRIDOR)
    game.move(R)
    game.undo()
    game.move(R)
    assert game.redo() is None


def test_undo_at_the_start_and_reset():
    game = Game(CORRIDOR)
    assert game.undo() is None
    game.move(R)
    game.reset()
    assert game.moves == 0 and game.player_pos == Pos(1, 1) and game.redo() is None
    assert game.render() == CORRIDOR.render()


def test_lurd_parsing():
    assert parse_lurd("rU d\nL") == [(R, False), (U, True), (D, False), (L, True)]
    with pytest.raises(LurdError, match="'x' at position 1"):
        parse_lurd("rx")


def test_the_package_exports_resolve():
    import shared.sokoban as package
    for name in package.__all__:
        assert hasattr(package, name), name

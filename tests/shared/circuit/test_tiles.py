"""Tiles, rotations and connections, as in the design note's tables."""

import pytest

from shared.circuit import Tile, TileError, TileKind, clicks, corner_rotation, straight_rotation, stub_rotation
from shared.grid import Direction

N, E, S, W = Direction.UP, Direction.RIGHT, Direction.DOWN, Direction.LEFT


def test_straight_tiles_accept_both_equivalent_rotations():
    assert Tile(TileKind.STRAIGHT, 0).openings == {W, E} == Tile(TileKind.STRAIGHT, 180).openings
    assert Tile(TileKind.STRAIGHT, 90).openings == {N, S} == Tile(TileKind.STRAIGHT, 270).openings
    assert Tile(TileKind.STRAIGHT, 0).accepted_rotations() == (0, 180)
    assert Tile(TileKind.STRAIGHT, 270).accepted_rotations() == (90, 270)
    assert Tile(TileKind.STRAIGHT, 90).accepts(270) and not Tile(TileKind.STRAIGHT, 90).accepts(0)


def test_corner_rotations_follow_the_note():
    assert [Tile(TileKind.CORNER, r).openings for r in (0, 90, 180, 270)] == [{N, E}, {E, S}, {S, W}, {W, N}]
    assert Tile(TileKind.CORNER, 90).accepted_rotations() == (90,)


@pytest.mark.parametrize("entry, exit_, rotation", [
    (N, E, 0), (E, N, 0), (E, S, 90), (S, E, 90), (S, W, 180), (W, S, 180), (W, N, 270), (N, W, 270)])
def test_the_corner_table_of_the_note(entry, exit_, rotation):
    assert corner_rotation(entry, exit_) == rotation


def test_rotation_helpers():
    assert straight_rotation(N) == straight_rotation(S) == 90 and straight_rotation(E) == 0
    assert [stub_rotation(d) for d in (N, E, S, W)] == [0, 90, 180, 270]
    assert Tile(TileKind.SOURCE, 90).openings == {E} and Tile(TileKind.TERMINAL, 180).openings == {S}
    assert Tile(TileKind.EMPTY).openings == frozenset()
    assert Tile(TileKind.CORNER, 270).rotated() == Tile(TileKind.CORNER, 0)
    assert Tile(TileKind.CORNER, 90).rotated(3) == Tile(TileKind.CORNER, 0)
    assert clicks(270, 0) == 1 and clicks(0, 270) == 3 and clicks(90, 90) == 0
    assert Tile(TileKind.CORNER, 90).code == "L90" and Tile(TileKind.EMPTY).code == "."
    assert TileKind.STRAIGHT.movable and not TileKind.SOURCE.movable and not TileKind.EMPTY.movable


def test_bad_tiles_are_refused():
    with pytest.raises(TileError, match="rotation 45 of a corner tile"):
        Tile(TileKind.CORNER, 45)
    with pytest.raises(TileError, match="perpendicular"):
        corner_rotation(N, S)

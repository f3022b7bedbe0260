"""Circuits: text form, rotations, and the connection check."""

import pytest

from shared.circuit import Circuit, CircuitFormatError, CircuitMoveError, Tile, TileKind, parse_circuit
from shared.grid import Pos

# Source at the top left, east stub; a straight, a corner down, the terminal below with a north stub.
SOLVED = """
S90  I0   L180
.    .    T0
"""
SCRAMBLED = """
S90  I90  L0
.    .    T0
"""


def test_text_form_round_trips_in_screen_order():
    circuit = parse_circuit(SOLVED)
    assert (circuit.height, circuit.width) == (2, 3)
    assert circuit.source == Pos(0, 0) and circuit.terminal == Pos(1, 2)    # note's (x, y) = Pos(x, y)
    assert circuit[Pos(0, 2)] == Tile(TileKind.CORNER, 180)
    assert parse_circuit(circuit.render()) == circuit
    assert parse_circuit(circuit.rows()) == circuit
    assert circuit.rows()[0] == "S90  I0   L180"


def test_connection_needs_both_sides_open():
    assert parse_circuit(SOLVED).connected
    scrambled = parse_circuit(SCRAMBLED)
    assert not scrambled.connected and scrambled.powered() == {Pos(0, 0)}
    assert parse_circuit(SOLVED).powered() == {Pos(0, 0), Pos(0, 1), Pos(0, 2), Pos(1, 2)}
    # The other equivalent rotation of a straight tile works as well.
    assert parse_circuit(SOLVED.replace("I0 ", "I180")).connected
    # A terminal whose stub looks away is not connected.
    assert not parse_circuit(SOLVED.replace("T0", "T90")).connected


def test_rotations_give_new_circuits():
    scrambled = parse_circuit(SCRAMBLED)
    assert scrambled.movable() == [Pos(0, 1), Pos(0, 2)] and scrambled.rotations() == [90, 0]
    turned = scrambled.rotate(Pos(0, 1)).rotate(Pos(0, 2), 2)
    assert turned.connected and not scrambled.connected
    assert scrambled.clicks_to(turned) == 3
    assert scrambled.with_rotations([180, 180]) == turned
    assert scrambled.with_rotations({Pos(0, 1): 0, Pos(0, 2): 180}).connected


@pytest.mark.parametrize("call, words", [
    (lambda c: c.rotate(Pos(0, 0)), "holds a source tile, which does not turn"),
    (lambda c: c.rotate(Pos(1, 0)), "holds a empty tile"),
    (lambda c: c.rotate(Pos(5, 0)), "outside the 2x3 grid"),
    (lambda c: c.with_rotations([0]), "1 rotations given for 2 movable tiles"),
    (lambda c: c.with_rotations([0, 45]), "rotation 45 for row 0, column 2"),
])
def test_bad_rotations_are_named(call, words):
    with pytest.raises(CircuitMoveError) as info:
        call(parse_circuit(SCRAMBLED))
    assert words in str(info.value)


@pytest.mark.parametrize("text, words", [
    ("", "empty"),
    ("S90 X0\n. T0", "row 0, column 1: 'X0' is not a tile"),
    ("S90 L45\n. T0", "'L45' is not a tile"),
    ("S90 I0\n. T0 .", "row 1 has 3 cells"),
    ("S90 S0\n. T0", "2 source (S) tiles"),
    ("S90 .\n. .", "0 terminal (T) tiles"),
])
def test_bad_texts_are_named(text, words):
    with pytest.raises(CircuitFormatError) as info:
        parse_circuit(text)
    assert words in str(info.value)


def test_circuits_are_values():
    a, b = parse_circuit(SOLVED), parse_circuit(SOLVED)
    assert a == b and hash(a) == hash(b) and a != parse_circuit(SCRAMBLED)
    grid = a.grid()
    grid[Pos(0, 1)] = Tile(TileKind.EMPTY)
    assert a[Pos(0, 1)].kind is TileKind.STRAIGHT and isinstance(Circuit(grid), Circuit)

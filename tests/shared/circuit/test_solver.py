"""The solver finds a wiring whenever one exists (checked by brute force on small circuits)."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.circuit import DIFFICULTIES, Tile, TileKind, generate_level, parse_circuit, solve, solved
from shared.grid import Grid, Pos


def test_a_small_circuit_is_solved_with_the_fewest_clicks_for_straights():
    circuit = parse_circuit("S90  I90  L0\n.    .    T0")
    rotations = solve(circuit)
    assert rotations == {Pos(0, 1): 180, Pos(0, 2): 180}      # 180 is one click from 90, 0 would be three
    assert circuit.with_rotations(rotations).connected


def test_unsolvable_circuits_give_none():
    assert solve(parse_circuit("S90  .    L0\n.    .    T0")) is None        # a gap
    assert solve(parse_circuit("S90  I0   L0\n.    .    T90")) is None       # the terminal looks away
    assert solve(parse_circuit("S0   I0   L0\n.    .    T0")) is None        # the source looks off the grid
    assert solve(parse_circuit("S90  I0   I0\n.    .    T0")) is None        # no corner to turn down
    assert solved(parse_circuit("S90  .    L0\n.    .    T0")) is None


def test_locked_tiles_keep_their_rotation():
    circuit = parse_circuit("""
        S90  L0   L0
        L0   L0   L0
        .    .    T0
    """)
    free = solve(circuit)
    assert free is not None and circuit.with_rotations(free).connected
    # The route must turn west-south at (1, 2): locked the wrong way, there is no route.
    assert solve(circuit, fixed={Pos(1, 2)}) is None
    assert solve(circuit, fixed={Pos(0, 1)}) is None
    right = circuit.rotate(Pos(1, 2), 2)
    rotations = solve(right, fixed={Pos(1, 2)})
    assert rotations is not None and rotations[Pos(1, 2)] == 180
    assert right.with_rotations(rotations).connected


def test_every_generated_level_is_solved():
    for name in DIFFICULTIES:
        for seed in range(50):
            level = generate_level(name, seed=seed)
            rotations = solve(level.initial)
            assert rotations is not None and set(rotations) == set(level.path[1:-1])
            assert level.initial.with_rotations(rotations).connected


def brute_force(circuit, fixed=frozenset()):
    """True when some choice of rotations of the free movable tiles connects the circuit."""
    cells = [p for p in circuit.movable() if p not in fixed]
    choices = [(0, 90) if circuit[p].kind is TileKind.STRAIGHT else (0, 90, 180, 270) for p in cells]
    return any(circuit.with_rotations(dict(zip(cells, combo))).connected for combo in itertools.product(*choices))


@st.composite
def small_circuits(draw):
    height, width = draw(st.integers(2, 3)), draw(st.integers(2, 4))
    cells = [Pos(r, c) for r in range(height) for c in range(width)]
    source, terminal = draw(st.lists(st.sampled_from(cells), min_size=2, max_size=2, unique=True))
    grid = Grid(width, height, Tile(TileKind.EMPTY))
    movable = 0
    for pos in cells:
        kind = draw(st.sampled_from([TileKind.EMPTY, TileKind.STRAIGHT, TileKind.CORNER, TileKind.CORNER]))
        if kind is not TileKind.EMPTY and movable < 6:
            grid[pos] = Tile(kind, draw(st.sampled_from([0, 90, 180, 270])))
            movable += 1
    grid[source] = Tile(TileKind.SOURCE, draw(st.sampled_from([0, 90, 180, 270])))
    grid[terminal] = Tile(TileKind.TERMINAL, draw(st.sampled_from([0, 90, 180, 270])))
    return parse_circuit([" ".join(t.code for t in row) for row in grid.rows()])


@settings(max_examples=200, deadline=None)
@given(small_circuits(), st.data())
def test_the_solver_agrees_with_brute_force(circuit, data):
    fixed = frozenset(data.draw(st.sets(st.sampled_from(circuit.movable()), max_size=2))
                      if circuit.movable() else set())
    rotations = solve(circuit, fixed=fixed)
    assert (rotations is not None) == brute_force(circuit, fixed)
    if rotations is not None:
        assert all(rotations[p] == circuit[p].rotation for p in set(rotations) & fixed)
        assert circuit.with_rotations(rotations).connected

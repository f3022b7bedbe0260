"""The bit-parallel layout agrees with the generic search on both orientations."""

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.grid import BitLayout, Direction, Grid, Orientation, Pos, bfs_distances, iter_bits


def test_orientation_decides_which_way_up_is():
    screen = BitLayout(3, 3, Orientation.SCREEN)
    cart = BitLayout(3, 3, Orientation.CARTESIAN)
    assert screen.shift(screen.bit(1, 1), Direction.UP) == screen.bit(1, 0)
    assert cart.shift(cart.bit(1, 1), Direction.UP) == cart.bit(1, 2)
    assert screen.shift(screen.bit(1, 0), Direction.UP) == 0          # the edge stops it
    assert cart.shift(cart.bit(2, 1), Direction.RIGHT) == 0           # no wrap onto the next row


def test_rows_columns_and_cells():
    layout = BitLayout(4, 3, Orientation.SCREEN)
    assert layout.cells.bit_count() == 12
    assert layout.cells_of(layout.row_mask(2)) == [(0, 2), (1, 2), (2, 2), (3, 2)]
    assert layout.cells_of(layout.col_mask(1)) == [(1, 0), (1, 1), (1, 2)]
    assert list(iter_bits(0b10110)) == [1, 2, 4]


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 9), st.integers(2, 9), st.integers(0, 2 ** 81 - 1), st.sampled_from(list(Orientation)))
def test_distances_agree_with_generic_bfs(width, height, noise, orientation):
    layout = BitLayout(width, height, orientation)
    rows = [["." if (noise >> (r * width + c)) % 4 else "#" for c in range(width)] for r in range(height)]
    rows[0][0] = "."
    grid = Grid.from_rows(rows)

    def row_of(pos: Pos) -> int:   # this layout's row numbering of a screen position
        return pos.row if orientation is Orientation.SCREEN else height - 1 - pos.row
    passable = sum(layout.bit(p.col, row_of(p)) for p, v in grid.items() if v == ".")
    opened = layout.open_masks(passable)
    start = Pos(0, 0)
    dist = bfs_distances(start, lambda p: (q for _, q in grid.neighbours(p) if grid[q] == "."))
    seed = layout.bit(0, row_of(start))
    region = layout.flood(seed, opened)
    assert region == sum(layout.bit(p.col, row_of(p)) for p in dist)
    for pos, d in dist.items():
        target = layout.bit(pos.col, row_of(pos))
        assert layout.distance(seed, opened, target) == d
        path = layout.path(seed, opened, target)
        assert path is not None and len(path) == d + 1

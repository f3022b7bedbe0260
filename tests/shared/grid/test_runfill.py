"""``RunFill`` agrees with the cell-by-cell ``BitLayout.flood`` on random grids."""

from __future__ import annotations

import random

import pytest

from shared.grid import BitLayout, Orientation
from shared.grid.runfill import RunFill


def test_run_fill_matches_the_plain_flood():
    rng = random.Random(1)
    for _ in range(200):
        width, height = rng.randint(1, 40), rng.randint(1, 12)
        layout = BitLayout(width, height, Orientation.SCREEN)
        passable = sum(layout.bit(c, r) for r in range(height) for c in range(width) if rng.random() < 0.65)
        if not passable:
            continue
        seed = 1 << rng.choice(sorted(i for i in range(passable.bit_length()) if passable >> i & 1))
        expected = layout.flood(seed, layout.open_masks(passable))
        assert RunFill(passable, layout.stride, width).fill(seed) == expected


def test_seed_outside_is_dropped_and_bad_geometry_refused():
    layout = BitLayout(3, 1, Orientation.SCREEN)
    assert RunFill(0b011, layout.stride, 3).fill(0b100) == 0
    with pytest.raises(ValueError):
        RunFill(1, 3, 3)

"""The generator: every difficulty, every size, every seed gives a solvable, scrambled level."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.circuit import (DIFFICULTIES, CircuitGeneratorError, Difficulty, TileKind, UnknownDifficultyError,
                            feasible_pairs, generate_level, solved)
from shared.circuit import generate as generate_module
from shared.grid import Pos


def test_every_difficulty_has_levels_at_every_size_of_its_range():
    # The generator's proof of success rests on this table being non-empty everywhere.
    for difficulty in DIFFICULTIES.values():
        for n in range(difficulty.sizes[0], difficulty.sizes[1] + 1):
            pairs = feasible_pairs(n, difficulty)
            assert pairs, (difficulty.name, n)
            assert {m for m, _ in pairs} == set(range(difficulty.movable[0], difficulty.movable[1] + 1))


def check_level(level, size=None):
    """Every promise of the generator; ``size`` is the forced grid side, if one was asked for."""
    difficulty = level.difficulty
    path = level.path
    if size is None:
        assert difficulty.sizes[0] <= level.size <= difficulty.sizes[1], (difficulty.name, level.size)
    else:
        assert level.size == size
    assert level.size == level.initial.width == level.initial.height == level.solution.width
    assert difficulty.movable[0] <= level.movable <= difficulty.movable[1]
    assert difficulty.corners[0] <= level.corners <= difficulty.corners[1]
    assert len(set(path)) == len(path)                                     # self-avoiding
    assert all(a.manhattan(b) == 1 for a, b in zip(path, path[1:]))
    assert path[0].manhattan(path[-1]) >= 2                                # a minimum distance apart
    assert level.solution[path[0]].kind is TileKind.SOURCE and level.solution[path[-1]].kind is TileKind.TERMINAL
    on_path = set(path)
    for pos, tile in level.solution.grid().items():
        assert (tile.kind is TileKind.EMPTY) == (pos not in on_path)
    assert level.solution.connected and not level.initial.connected
    assert level.initial != level.solution
    assert len(level.scrambled) == max(1, int(level.movable * difficulty.scramble + 1e-9))
    for pos in level.initial.movable():
        correct = level.solution[pos].accepts(level.initial[pos].rotation)
        assert correct == (pos not in level.scrambled)
    fixed = solved(level.initial)
    assert fixed is not None and fixed.connected


@pytest.mark.parametrize("name", list(DIFFICULTIES))
def test_many_seeds_of_every_difficulty(name):
    for seed in range(150):
        check_level(generate_level(name, seed=seed))


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(list(DIFFICULTIES)), st.integers(0, 2**32), st.none() | st.integers(8, 12))
def test_any_seed_and_larger_sizes(name, seed, size):
    check_level(generate_level(name, seed=seed, size=size), size)


@pytest.mark.parametrize("name", list(DIFFICULTIES))
def test_grid_sides_stay_in_each_difficultys_range(name):
    difficulty = DIFFICULTIES[name]
    sides = {generate_level(name, seed=seed).size for seed in range(60)}
    assert sides == set(range(difficulty.sizes[0], difficulty.sizes[1] + 1))


def test_the_draw_covers_the_ranges():
    levels = [generate_level("hell", seed=s) for s in range(300)]
    assert {lv.size for lv in levels} == {7, 8}
    assert {lv.movable for lv in levels} == set(range(6, 16))
    assert {lv.corners for lv in levels} == set(range(4, 13))
    assert len({lv.path[0] for lv in levels}) > 20                  # sources all over the grid


def test_seeds_reproduce_levels():
    a, b = generate_level("hard", seed=42), generate_level("HARD", seed=42)
    assert a.initial == b.initial and a.solution == b.solution and a.path == b.path
    assert generate_level("hard", seed=43).initial != a.initial
    custom = Difficulty("custom", (3, 4), (1, 2), 0.5, (4, 4))
    check_level(generate_level(custom, seed=1))
    check_level(generate_level("easy", seed=1, size=9), 9)


def test_bad_parameters_are_named():
    with pytest.raises(UnknownDifficultyError, match="unknown difficulty 'extreme'; expected one of easy"):
        generate_level("extreme")
    with pytest.raises(CircuitGeneratorError, match="grid side 99 is out of range"):
        generate_level("easy", size=99)
    too_long = Difficulty("long", (20, 20), (1, 20), 1.0, (3, 3))
    with pytest.raises(CircuitGeneratorError, match="no long level fits a 3x3 grid"):
        generate_level(too_long)


def is_monotone(path):
    """True when the path never turns back along one of the axes (the snake family's shape)."""
    def one_way(values):
        return all(a <= b for a, b in zip(values, values[1:])) or all(a >= b for a, b in zip(values, values[1:]))
    return one_way([p.row for p in path]) or one_way([p.col for p in path])


@pytest.mark.parametrize("name", list(DIFFICULTIES))
def test_paths_are_not_all_monotone(name):
    levels = [generate_level(name, seed=seed) for seed in range(200)]
    winding = [lv for lv in levels if not is_monotone(lv.path)]
    assert len(winding) >= 20, len(winding)            # measured: 39 (easy) to 94 (hell) of 200
    assert all(lv.drawn_by == "dfs" for lv in winding)
    assert {lv.drawn_by for lv in levels} == {"dfs", "snake"}


def test_dfs_paths_never_touch_themselves():
    for name in DIFFICULTIES:
        for seed in range(100):
            level = generate_level(name, seed=seed)
            if level.drawn_by != "dfs":
                continue
            index = {p: i for i, p in enumerate(level.path)}
            for i, p in enumerate(level.path):
                for q in (Pos(p.row + 1, p.col), Pos(p.row, p.col + 1)):
                    assert q not in index or abs(index[q] - i) == 1, (name, seed, p, q)


def test_the_snake_construction_takes_over_when_the_dfs_gives_up(monkeypatch):
    monkeypatch.setattr(generate_module, "DFS_ATTEMPTS", 0)
    for name in DIFFICULTIES:
        for seed in range(60):
            level = generate_level(name, seed=seed)
            assert level.drawn_by == "snake" and is_monotone(level.path)
            check_level(level)

"""The maze generator: sizes, densities, seeds, and solvability exactly as asked."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.ice import DIFFICULTIES, KATA_SIDES, IceGeneratorError, best_route, generate_maze


def test_a_seed_makes_the_maze_reproducible():
    assert generate_maze(20, seed=7) == generate_maze(20, seed=7)
    assert generate_maze(20, seed=7) != generate_maze(20, seed=8)
    maze = generate_maze(34, 10, seed=1)
    assert (maze.width, maze.height) == (34, 10)


def test_densities_follow_the_kata():
    text = "".join(generate_maze(34, seed=s, solvable=None).render() for s in range(10))
    cells = len(text) - text.count("\n")
    assert 0.70 < text.count(" ") / cells < 0.80
    assert 0.16 < text.count("#") / cells < 0.24
    assert 0.03 < text.count("x") / cells < 0.07
    assert set(generate_maze(10, ice=0, obstacle=0, sticky=1, seed=3).render()) <= set("xSE\n")


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 12), st.integers(2, 12), st.integers(0, 10**6), st.booleans(),
       st.sampled_from([(0.75, 0.20, 0.05), (0.2, 0.8, 0.0), (1.0, 0.0, 0.0), (0.0, 0.0, 1.0)]))
def test_solvability_is_as_asked(width, height, seed, solvable, densities):
    ice, obstacle, sticky = densities
    maze = generate_maze(width, height, ice=ice, obstacle=obstacle, sticky=sticky, seed=seed, solvable=solvable)
    assert (maze.width, maze.height) == (width, height)
    assert (best_route(maze) is not None) is solvable


def test_both_outcomes_occur_when_not_asked():
    outcomes = {best_route(generate_maze(10, seed=s, solvable=None)) is None for s in range(60)}
    assert outcomes == {True, False}


@pytest.mark.parametrize("kwargs, words", [
    ({"width": 1}, "width 1 is out of range"),
    ({"width": 5, "height": 201}, "height 201 is out of range"),
    ({"width": 5, "ice": -1}, "non-negative"),
    ({"width": 5, "ice": 0, "obstacle": 0, "sticky": 0}, "not all zero"),
])
def test_bad_parameters_are_named(kwargs, words):
    with pytest.raises(IceGeneratorError, match=words):
        generate_maze(**kwargs)


def test_without_a_side_the_kata_sides_are_drawn_by_the_seed():
    mazes = [generate_maze(seed=s) for s in range(80)]
    sides = {maze.width for maze in mazes}
    assert all(maze.width == maze.height for maze in mazes)
    assert sides <= set(range(KATA_SIDES[0], KATA_SIDES[1] + 1)) == set(range(10, 35))
    assert len(sides) > 10 and min(sides) < 15 and max(sides) > 29          # spread over the range
    assert generate_maze(seed=5) == generate_maze(seed=5)
    assert generate_maze(height=4, seed=5).height == 4
    assert generate_maze(20, seed=7).width == 20                             # an asked side still wins


@pytest.mark.parametrize("name", list(DIFFICULTIES))
def test_every_maze_of_a_difficulty_needs_its_minimum_of_moves(name):
    difficulty = DIFFICULTIES[name]
    for seed in range(60):
        maze = generate_maze(seed=seed, difficulty=name)
        low, high = difficulty.sides
        assert low <= maze.width == maze.height <= high
        assert best_route(maze).moves >= difficulty.min_moves, (name, seed)
    assert generate_maze(seed=3, difficulty=name) == generate_maze(seed=3, difficulty=difficulty)   # the same draw


def test_the_minimums_grow_with_the_difficulty():
    assert [DIFFICULTIES[n].min_moves for n in ("easy", "normal", "hard", "hell")] == [4, 8, 12, 16]
    assert DIFFICULTIES["kata"].sides == KATA_SIDES


def test_a_minimum_of_moves_holds_for_any_side_and_seed():
    for seed in range(40):
        maze = generate_maze(12, seed=seed, min_moves=9)
        assert best_route(maze).moves >= 9
        assert generate_maze(12, seed=seed, min_moves=9) == maze                      # still one maze a seed
    assert best_route(generate_maze(20, seed=7, difficulty="easy")).moves >= 4           # an asked side wins


def test_a_minimum_out_of_reach_is_an_error_after_bounded_draws():
    with pytest.raises(IceGeneratorError, match="no solvable 3x3 maze needing 20 moves"):
        generate_maze(3, seed=1, min_moves=20)
    with pytest.raises(IceGeneratorError, match="unknown difficulty 'insane'"):
        generate_maze(seed=1, difficulty="insane")
    for solvable in (None, False):                    # the minimum is for solvable mazes only
        assert generate_maze(3, seed=1, min_moves=20, solvable=solvable).width == 3


def test_without_a_minimum_the_draw_is_unchanged():
    # The kata default (no difficulty) keeps the mazes it always gave; seed 7 happens to take one move.
    assert best_route(generate_maze(seed=7)).moves == 1
    assert best_route(generate_maze(seed=7, difficulty="kata")).moves >= 8

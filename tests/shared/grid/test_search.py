"""Breadth-first search, paths and flood fill over a neighbour function."""

import random

from shared.grid import Grid, Pos, bfs_distances, flood_fill, shortest_path

MAZE = Grid.parse("""
#######
#S..#.#
#.#.#.#
#.#...#
#######
""")


def open_neighbours(pos: Pos):
    return (p for _, p in MAZE.neighbours(pos) if MAZE[p] != "#")


def test_distances_in_a_maze():
    dist = bfs_distances(Pos(1, 1), open_neighbours)
    assert dist[Pos(1, 1)] == 0 and dist[Pos(1, 3)] == 2 and dist[Pos(1, 5)] == 8
    assert Pos(0, 0) not in dist


def test_shortest_path_and_unreachable_goals():
    path = shortest_path(Pos(1, 1), lambda p: p == Pos(3, 5), open_neighbours)
    assert path[0] == Pos(1, 1) and path[-1] == Pos(3, 5) and len(path) == 7
    assert all(a.manhattan(b) == 1 for a, b in zip(path, path[1:]))
    assert shortest_path(Pos(1, 1), lambda p: p == Pos(0, 0), open_neighbours) is None
    assert shortest_path(Pos(1, 1), lambda p: True, open_neighbours) == [Pos(1, 1)]


def test_flood_fill_and_multi_source():
    region = flood_fill(Pos(1, 1), open_neighbours)
    assert len(region) == 11 and Pos(1, 5) in region
    assert bfs_distances([Pos(1, 1), Pos(1, 5)], open_neighbours, multi=True)[Pos(3, 5)] == 2


def test_flood_fill_is_the_reach_of_the_breadth_first_search():
    rng = random.Random(3)
    for _ in range(50):
        grid = Grid.from_rows([[rng.choice("..#") for _ in range(9)] for _ in range(7)])

        def free(pos: Pos):
            return [p for _, p in grid.neighbours(pos) if grid[p] == "."]
        starts = [Pos(rng.randrange(7), rng.randrange(9)) for _ in range(2)]
        assert flood_fill(starts[0], free) == set(bfs_distances(starts[0], free))
        both = flood_fill(iter(starts), free, multi=True)
        assert both == flood_fill(starts[0], free) | flood_fill(starts[1], free)
    assert flood_fill(Pos(0, 0), lambda p: []) == {Pos(0, 0)}

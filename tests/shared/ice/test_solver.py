"""The solver is optimal under (moves, distance): the kata's example and an exhaustive check on small mazes."""

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.grid import Direction, Pos, flood_fill
from shared.ice import best_route, check_answer, entry_moves, explore, parse_maze, solve

KATA = "    x \n  #   \n   E  \n #    \n    # \nS    #"


def test_the_kata_example():
    assert solve(parse_maze(KATA)) == ["u", "r", "d", "l", "u", "r"]
    route = best_route(parse_maze(KATA))
    assert route.cost == (6, 16) and route.stops[0] == Pos(5, 0) and route.stops[-1] == Pos(2, 3)


def test_unsolvable_mazes_give_none():
    assert solve(parse_maze("S#E")) is None
    assert solve(parse_maze("S  \n###\n E ")) is None
    # E sits in the middle of an ice field: every slide runs along the border and misses it.
    assert solve(parse_maze("S    \n     \n  E  \n     \n     ")) is None


def test_among_fewest_moves_the_shortest_distance_wins():
    maze = parse_maze("   E#\n ## #\n #  #\nx x S")
    route = best_route(maze)
    assert route.letters == ["l", "u", "r", "u"] and route.cost == (4, 6)
    assert sorted(set(_all_costs(maze, 4))) == [6, 10]      # another 4-move route slides 10
    assert not any(_all_costs(maze, k) for k in (1, 2, 3))


def _all_costs(maze, moves):
    """Distances of every ``moves``-move sequence that ends on E (brute force over 4**moves)."""
    costs = []
    for code in range(4 ** moves):
        pos, dist = maze.start, 0
        for _ in range(moves):
            if pos == maze.end:
                break
            pos, n = maze.slide(pos, list(Direction)[code % 4])
            code //= 4
            dist += n
        if pos == maze.end:
            costs.append(dist)
    return costs


def exhaustive(maze):
    """(moves, distance) of an optimal route by brute force, or None.

    Every (position, distance) pair reachable in exactly k moves is kept (all four directions,
    blocked moves included, no pruning), so layer k is the set of outcomes of all 4**k
    sequences. Reachability is decided separately by a cell-by-cell flood fill.
    """
    def moves_from(pos):
        return [] if pos == maze.end else [maze.slide(pos, d)[0] for d in Direction]

    if maze.end not in flood_fill(maze.start, moves_from):
        return None
    frontier = {(maze.start, 0)}
    for k in range(1, maze.width * maze.height + 1):      # a fewest-moves route repeats no stop
        nxt = set()
        for pos, dist in frontier:
            if pos != maze.end:
                for d in Direction:
                    p, n = maze.slide(pos, d)
                    nxt.add((p, dist + n))
        ends = [dist for pos, dist in nxt if pos == maze.end]
        if ends:
            return k, min(ends)
        frontier = {(p, d) for p, d in nxt if p != maze.end}
    raise AssertionError("E was reachable but not reached")


@st.composite
def small_mazes(draw):
    width = draw(st.integers(2, 5))
    height = draw(st.integers(2, 5))
    cells = draw(st.lists(st.sampled_from("     ###x"), min_size=width * height, max_size=width * height))
    start, end = draw(st.lists(st.integers(0, width * height - 1), min_size=2, max_size=2, unique=True))
    cells[start], cells[end] = "S", "E"
    return parse_maze(["".join(cells[r * width:(r + 1) * width]) for r in range(height)])


@settings(max_examples=300, deadline=None)
@given(small_mazes())
def test_the_solver_matches_an_exhaustive_search(maze):
    route = best_route(maze)
    expected = exhaustive(maze)
    if expected is None:
        assert route is None and solve(maze) is None
        return
    assert route is not None and route.cost == expected
    verdict = check_answer(maze, route.letters)        # the route replays to E with those costs
    assert verdict.valid and verdict.reached and verdict.optimal
    assert (verdict.moves, verdict.distance) == expected


@settings(max_examples=100, deadline=None)
@given(small_mazes())
def test_explore_agrees_with_the_slide_rule(maze):
    stops, touched = explore(maze.rows(), maze.start)
    by_hand = flood_fill(maze.start, lambda p: [] if p == maze.end else [maze.slide(p, d)[0] for d in Direction])
    assert stops == by_hand and stops <= touched
    assert (maze.end in touched) == (best_route(maze) is not None)


@settings(max_examples=100, deadline=None)
@given(small_mazes())
def test_entry_moves_are_the_optimal_moves_to_an_end_put_there(maze):
    grid = maze.grid()
    grid[maze.end] = " "                               # the rows without E, as the generator asks
    rows = ["".join(row) for row in grid.rows()]
    entered = entry_moves(rows, maze.start)
    assert maze.start not in entered
    for pos in grid.positions():
        if pos == maze.start or grid[pos] == "#":       # an obstacle is never entered, so never listed
            assert pos not in entered
            continue
        moved = grid.copy()
        moved[pos] = "E"
        route = best_route(parse_maze(["".join(row) for row in moved.rows()]))
        assert (route.moves if route else None) == entered.get(pos)

"""Property tests: random legal play keeps both paths open, judge agrees with the legal list, and an
independent oracle (generic BFS over Locations, no bitboards) agrees with the fast wall generator."""

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.grid import shortest_path
from shared.quoridor import (
    RULESETS, BlockBar, Location, Position, Step, parse_diagram, parse_position, parse_step, diagram,
    position_text, step_name,
)

ALL_WALLS = [BlockBar.of(x, y, x + 2, y) for x in range(0, 8) for y in range(1, 9)] + \
            [BlockBar.of(x, y, x, y + 2) for x in range(1, 9) for y in range(0, 8)]
ALL_CELLS = [Location(x, y) for x in range(1, 10) for y in range(1, 10)]


def positions(max_steps: int = 60):
    """Positions reached by playing random legal steps (walls favoured) from the start."""
    @st.composite
    def build(draw):
        pos = Position.initial(RULESETS[draw(st.sampled_from(sorted(RULESETS)))])
        for choice in draw(st.lists(st.integers(0, 10 ** 6), max_size=max_steps)):
            if pos.is_over():
                break
            steps = pos.legal_steps()
            pos = pos.apply(steps[choice % len(steps)])
        return pos
    return build()


def oracle_has_path(pos: Position, player: int) -> bool:
    goal = 9 if player == 0 else 1

    def neighbours(loc: Location):
        for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            nxt = Location(loc.x + dx, loc.y + dy)
            if pos.can_move(loc, nxt):
                yield nxt
    return shortest_path(pos.pawn(player), lambda loc: loc.y == goal, neighbours) is not None


def oracle_wall_legal(pos: Position, wall: BlockBar) -> bool:
    """Overlap and crossing from the list of walls, then a BFS for both pawns after placing it."""
    for other in pos.walls:
        if wall.is_h() == other.is_h():
            axis = 0 if wall.is_h() else 1
            same_line = wall.start[1 - axis] == other.start[1 - axis]
            if same_line and abs(wall.start[axis] - other.start[axis]) < 2:
                return False
        elif not pos.ruleset.walls_may_cross:
            mid = lambda w: ((w.start.x + w.stop.x) / 2, (w.start.y + w.stop.y) / 2)  # noqa: E731
            if mid(wall) == mid(other):
                return False
    after = pos.apply(Step(new_wall=wall))
    return oracle_has_path(after, 0) and oracle_has_path(after, 1)


@settings(max_examples=150, deadline=None)
@given(positions())
def test_both_pawns_always_keep_a_path(pos):
    assert oracle_has_path(pos, 0) and oracle_has_path(pos, 1)
    assert pos.distance(0) is not None and pos.distance(1) is not None


@settings(max_examples=120, deadline=None)
@given(positions())
def test_judge_is_ok_exactly_for_the_legal_steps(pos):
    legal = set(pos.legal_steps())
    candidates = [Step(new_wall=w) for w in ALL_WALLS] + [Step(loc) for loc in ALL_CELLS]
    for step in candidates:
        assert pos.judge(step).ok == (step in legal), (position_text(pos), step_name(step))
    assert pos.count_legal_steps() == len(legal)


@settings(max_examples=120, deadline=None)
@given(positions())
def test_fast_wall_generation_matches_the_bfs_oracle(pos):
    fast = set(pos.legal_walls())
    if pos.walls_left[pos.turn] == 0:
        assert fast == set()
        return
    oracle = {w for w in ALL_WALLS if oracle_wall_legal(pos, w)}
    assert fast == oracle, position_text(pos)


@settings(max_examples=100, deadline=None)
@given(positions())
def test_distance_matches_the_bfs_oracle(pos):
    for player in (0, 1):
        path = pos.shortest_path(player)
        assert path is not None and len(path) - 1 == pos.distance(player)
        assert all(pos.can_move(a, b) for a, b in zip(path, path[1:]))
        assert path[-1].y == (9 if player == 0 else 1)


@settings(max_examples=100, deadline=None)
@given(positions())
def test_text_forms_round_trip(pos):
    assert parse_position(position_text(pos)) == pos
    assert parse_diagram(diagram(pos)) == pos
    for step in pos.legal_steps():
        assert parse_step(step_name(step)) == step


@settings(max_examples=60, deadline=None)
@given(positions(), st.integers(0, 10 ** 6))
def test_apply_changes_exactly_what_the_step_says(pos, choice):
    if pos.is_over():
        return
    steps = pos.legal_steps()
    step = steps[choice % len(steps)]
    after = pos.apply(step)
    assert after.turn == 1 - pos.turn
    if step.is_move():
        assert after.pawn(pos.turn) == step.new_loc and after.walls == pos.walls
    else:
        assert after.has_wall(step.new_wall)
        assert len(after.walls) == len(pos.walls) + 1
        assert after.walls_left[pos.turn] == pos.walls_left[pos.turn] - 1
    assert after.pawn(1 - pos.turn) == pos.pawn(1 - pos.turn)

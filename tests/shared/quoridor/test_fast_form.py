"""The fast form for search (cells and slots as ints) agrees with the friendly one, and what ``apply``
carries forward from a parent (paths, closing slots) gives the same answers as a fresh position."""

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.quoridor import (
    RULESETS, STANDARD, BlockBar, Location, Position, Step, parse_position, parse_step, position_text,
)
from shared.quoridor.geometry import GOAL_ROWS, H_STEPS, V_STEPS, cell_index, wall_slot

from .test_properties import ALL_WALLS


@st.composite
def games(draw, max_steps: int = 60):
    """A random legal game from the start: the positions, each made by ``apply``; the legal list is
    asked only at some of them, so a child starts with and without what its parent worked out."""
    pos = Position.initial(RULESETS[draw(st.sampled_from(sorted(RULESETS)))])
    line = [pos]
    for choice, ask in draw(st.lists(st.tuples(st.integers(0, 10 ** 6), st.booleans()), max_size=max_steps)):
        if pos.is_over():
            break
        if ask:
            pos.legal_steps()
        fresh = Position.setup((pos.pawn(0), pos.pawn(1)), pos.walls, walls_left=pos.walls_left, turn=pos.turn,
                               ruleset=pos.ruleset)
        steps = fresh.legal_steps()
        pos = pos.apply(steps[choice % len(steps)])
        line.append(pos)
    return line


def fresh_copy(pos: Position) -> Position:
    """The same board made from its parts, with nothing carried from a parent."""
    return Position.setup((pos.pawn(0), pos.pawn(1)), pos.walls, walls_left=pos.walls_left, turn=pos.turn,
                          ruleset=pos.ruleset)


@settings(max_examples=150, deadline=None)
@given(games())
def test_a_position_made_by_apply_answers_like_one_made_from_its_parts(line):
    for pos in line:
        fresh = fresh_copy(pos)
        assert pos == fresh and hash(pos) == hash(fresh)
        assert pos.legal_steps() == fresh.legal_steps(), position_text(pos)
        assert pos.legal_wall_masks() == fresh.legal_wall_masks(), position_text(pos)
        assert pos.count_legal_steps() == fresh.count_legal_steps()
        assert (pos.distance(0), pos.distance(1)) == (fresh.distance(0), fresh.distance(1))
    last = line[-1]
    for wall in ALL_WALLS:
        step = Step(new_wall=wall)
        assert last.judge(step) == fresh_copy(last).judge(step)


@settings(max_examples=150, deadline=None)
@given(games())
def test_the_fast_form_agrees_with_the_friendly_one(line):
    for pos in line:
        assert pos.move_targets() == [cell_index(*loc) for loc in pos.legal_moves()]
        h, v = pos.legal_wall_masks()
        walls = [H_STEPS[p].new_wall for p in range(100) if h >> p & 1] + \
                [V_STEPS[p].new_wall for p in range(100) if v >> p & 1]
        assert pos.legal_walls() == (walls if pos.walls_left[pos.turn] else [])
        if pos.is_over():
            continue
        for cell in pos.move_targets():
            assert pos.apply_move(cell) == pos.apply(Step(Location(*_location(cell))))
        for p in range(100):
            if h >> p & 1:
                assert pos.apply_wall(True, p) == pos.apply(H_STEPS[p]) == pos.apply(Step(new_wall=H_STEPS[p].new_wall))
            if v >> p & 1:
                assert pos.apply_wall(False, p) == pos.apply(V_STEPS[p])


def _location(cell: int) -> tuple[int, int]:
    """``(x, y)`` of a cell bit index, worked out here rather than read from the module under test."""
    return cell % 10 + 1, cell // 10 + 1


@settings(max_examples=150, deadline=None)
@given(games())
def test_path_cells_is_a_path_from_the_pawn_to_its_goal_row(line):
    for pos in line:
        for player in (0, 1):
            assert pos.path_cells(player) >> cell_index(*pos.pawn(player)) & 1
            assert _walks_home(pos, player), (position_text(pos), player)


def test_apply_takes_steps_built_by_hand_with_the_ends_either_way_round():
    pos = Position.initial()
    by_hand = Step(new_wall=BlockBar.of(6, 3, 4, 3))   # e3h written right to left
    assert pos.apply(by_hand) == pos.apply(parse_step("e3h")) == pos.apply_wall(*wall_slot(by_hand.new_wall))
    assert pos.apply(Step.move(5, 2)) == pos.apply_move(cell_index(5, 2))


def test_apply_move_and_apply_wall_pass_the_turn_and_count_the_wall():
    pos = Position.initial()
    after = pos.apply_wall(True, 34)                    # e3h: slot (4, 3)
    assert after.turn == 1 and after.walls_left == (9, 10) and after.has_wall(BlockBar.of(4, 3, 6, 3))
    after = after.apply_move(cell_index(5, 8))
    assert after.turn == 0 and after.pawn(1) == (5, 8) and after.walls_left == (9, 10)


def test_a_wall_that_shuts_a_pocket_holding_goal_cells_but_not_the_pawn_is_legal():
    # Player 1's path ends b2-b1; a1h shuts a1 and b1 off, but player 1 still reaches row 1 at g1.
    pos = parse_position("e1 d9 0 8 9 c1h,e1h,b1v standard")
    assert pos.path_cells(1) >> cell_index(2, 1) & 1
    assert pos.judge(parse_step("a1h")).ok
    assert parse_step("a1h") in pos.legal_steps()


def test_a_wall_that_shuts_the_pawn_in_a_pocket_without_goal_cells_is_illegal():
    # Player 0 on a1 behind a wall along a1-a2's right side: a2h shuts a1 and a2 off from row 9.
    pos = Position.setup(((1, 1), (5, 9)), [BlockBar.of(1, 0, 1, 2)], ruleset=STANDARD)
    assert pos.path_cells(0) >> cell_index(1, 2) & 1
    assert not pos.judge(parse_step("a2h")).ok
    assert parse_step("a2h") not in pos.legal_steps()


def _walks_home(pos: Position, player: int) -> bool:
    """Walking only on ``path_cells(player)``, the pawn reaches its goal row."""
    path, start = pos.path_cells(player), cell_index(*pos.pawn(player))
    seen, frontier = {start}, [start]
    while frontier:
        here = frontier.pop()
        if GOAL_ROWS[player] >> here & 1:
            return True
        for there in (here + 10, here - 10, here + 1, here - 1):
            if there >= 0 and path >> there & 1 and there not in seen and \
                    pos.can_move(Location(*_location(here)), Location(*_location(there))):
                seen.add(there)
                frontier.append(there)
    return False


def test_a_path_carried_across_pawn_moves_stays_a_path():
    # Player 0's path runs up the e file; it steps off it to d1 (the path gains d1), on to d2 (next to
    # e2 on the path too: the path is found again), back onto e2 and down to e1, while player 1 shuffles.
    pos = Position.initial()
    assert pos.path_cells(0) == sum(1 << cell_index(5, y) for y in range(1, 10))
    for mine, theirs in (("d1", "d9"), ("d2", "e9"), ("e2", "d9"), ("e1", "e9")):
        pos = pos.apply(parse_step(mine))
        assert _walks_home(pos, 0), mine
        pos = pos.apply(parse_step(theirs))
        assert _walks_home(pos, 0) and _walks_home(pos, 1), theirs
        assert pos.legal_steps() == fresh_copy(pos).legal_steps()


def test_a_path_mended_round_a_new_wall_stays_a_path():
    # Player 0 steps off the e file to d1 (its path: d1, then the e file) and places e2h, which cuts e2-e3.
    # The way round by d2-d3 would put d2 beside d1 and e2 on the path: the path is found again instead.
    # Walked on, d1-d2-e2, a path mended anyway would lose its way back to the e file.
    pos = Position.initial()
    assert _walks_home(pos, 0)
    for step in ("d1", "d9", "e2h", "e9", "d2", "d9", "e2", "e9"):
        pos = pos.apply(parse_step(step))
        assert _walks_home(pos, 0) and _walks_home(pos, 1), step
        assert pos.legal_steps() == fresh_copy(pos).legal_steps(), step


def test_a_path_cut_by_a_wall_is_mended_round_its_near_end():
    pos = Position.initial()
    pos.path_cells(0)                      # up the e file
    after = pos.apply(parse_step("e2h"))   # cuts e2-e3; d2 and d3 lead round the wall's left end
    mended = sum(1 << cell_index(5, y) for y in range(1, 10)) | 1 << cell_index(4, 2) | 1 << cell_index(4, 3)
    assert after.path_cells(0) == mended and _walks_home(after, 0)


def test_walls_known_to_seal_a_pawn_in_stay_known_only_while_the_pawns_stand_still():
    # Player 0 on a1 behind a wall along a1-a2's right side: a2h shuts it in. The board keeps that for
    # these pawns; a wall placed elsewhere keeps it true, but once player 0 has gone on to a3 (the
    # positions on the way sharing the board), a2h shuts in nobody.
    pos = Position.setup(((1, 1), (5, 9)), [BlockBar.of(1, 0, 1, 2)], ruleset=STANDARD)
    assert parse_step("a2h") not in pos.legal_steps()
    walled = pos.apply(parse_step("h8h"))
    assert parse_step("a2h") not in walled.legal_steps()
    assert walled.legal_steps() == fresh_copy(walled).legal_steps()
    moved = pos
    for step in ("a2", "e8", "a3"):
        moved = moved.apply(parse_step(step))
    assert moved.board is pos.board
    assert parse_step("a2h") in moved.legal_steps()
    assert moved.legal_steps() == fresh_copy(moved).legal_steps()

"""Legal-step counts from known positions."""

from shared.quoridor import COURSE, STANDARD, BlockBar, Location, Position, parse_step


def test_131_legal_steps_at_the_start():
    pos = Position.initial()
    assert pos.count_legal_steps() == 131
    steps = pos.legal_steps()
    assert len(steps) == len(set(steps)) == 131
    assert sum(s.is_move() for s in steps) == 3
    assert len(pos.legal_walls()) == 128


def test_one_wall_removes_three_slots_in_course_rules_and_four_in_standard():
    # A wall in the middle: itself and its two overlapping neighbours; standard also the crossing one.
    for ruleset, lost in ((COURSE, 3), (STANDARD, 4)):
        pos = Position.initial(ruleset).play(parse_step("e5h"))
        assert len(pos.legal_walls()) == 128 - lost, ruleset


def test_walls_at_the_edge_remove_two_slots():
    pos = Position.initial().play(parse_step("a5h"))   # no left neighbour slot
    assert len(pos.legal_walls()) == 126


def test_no_walls_left_leaves_only_moves():
    pos = Position.setup(walls_left=(0, 10))
    assert pos.count_legal_steps() == 3 == len(pos.legal_steps())


def test_sealing_slots_are_excluded_from_the_count():
    # Pawn 0 on a1 with a wall right of a1 and a2 (a1v): a wall above a1 (a1h) seals a1 and a wall
    # above a2 (a2h) seals the a1-a2 pocket; every other free slot stays legal.
    pos = Position.setup((Location(1, 1), Location(5, 9)), [BlockBar.of(1, 0, 1, 2)], walls_left=(9, 10))
    walls = set(pos.legal_walls())
    assert parse_step("a1h").new_wall not in walls
    assert parse_step("a2h").new_wall not in walls
    assert parse_step("a3h").new_wall in walls
    # 128 slots minus a1v itself, a2v (overlap), a1h and a2h (sealing)
    assert len(walls) == 128 - 4

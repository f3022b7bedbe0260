"""A game's records keep no object per step: a step that stood is recorded as the rules core's shared step.

A server plays hundreds of games at once; every object a record keeps alive is one more for the garbage
collector to scan, so a step that stood is recorded as the equal step the legal-step lists hand out.
"""

from shared.quoridor import BlockBar, GameStatus, Location, Position, Step
from shared.referee import GameReferee, RefereeSettings, TurnRequest


def play(steps: list[Step]) -> GameReferee:
    """A referee fed ``steps`` (fresh objects, as a transport decodes them), each 10 ms after its turn went out."""
    ref = GameReferee(("alice", "bob"), RefereeSettings())
    events = ref.start()
    now = 100.0
    for step in steps:
        request = events[-1]
        assert isinstance(request, TurnRequest)
        ref.clock_started(request.turn, now)
        now += 0.010
        events = ref.receive_step(request.seat, request.turn, step, now)
        now += 0.001
    return ref


def shared(position: Position, step: Step) -> Step:
    """The object the legal-step list of ``position`` holds for ``step``."""
    return next(s for s in position.legal_steps() if s == step)


def test_steps_that_stood_are_recorded_as_the_rules_shared_steps():
    moves = [Step(Location(5, 2)), Step(Location(5, 8)), Step(Location(4, 2), BlockBar.of(1, 3, 3, 3))]
    wall = Step(new_wall=BlockBar(Location(6, 5), Location(8, 5)))
    ref = play([*moves, wall])
    position = Position.initial()
    expected = []
    for step in [*moves[:2], Step(Location(4, 2)), wall]:
        expected.append(shared(position, step))
        position = position.apply(step)
    assert [r.status for r in ref.records] == [GameStatus.OK] * 4
    assert [r.step for r in ref.records] == expected
    assert all(r.step is e for r, e in zip(ref.records, expected))


def test_a_wall_written_end_first_is_recorded_as_the_player_wrote_it():
    reversed_wall = Step(new_wall=BlockBar(Location(8, 5), Location(6, 5)))
    ref = play([reversed_wall])
    assert ref.records[-1].status is GameStatus.OK
    assert ref.records[-1].step == reversed_wall
    assert ref.records[-1].step.new_wall.start == Location(8, 5)


def test_a_violation_is_recorded_as_sent():
    bad = Step(Location(9, 9))
    ref = play([bad])
    assert ref.records[-1].status is GameStatus.INVALID_STEP
    assert ref.records[-1].step is bad

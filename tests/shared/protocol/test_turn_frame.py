"""``turn_frame`` writes the ``turn`` frame by hand for the server's hot path: it must be exactly
what the pydantic model dumps, for every turn the referee can produce and any game id."""

from hypothesis import given
from hypothesis import strategies as st

from shared.protocol import Turn, cell, dump, parse_server, step_judgement, to_verdict, turn_frame, wall
from shared.quoridor import NO_WALL, BlockBar, Cause, ChessboardChange, GameStatus, Location, StepVerdict

locations = st.builds(Location, st.integers(-1, 10), st.integers(-1, 10))
walls = st.one_of(st.just(NO_WALL), st.builds(BlockBar, locations, locations))
changes = st.builds(ChessboardChange, st.sampled_from(list(GameStatus)), locations, locations, walls)
# Game ids are the server's own, but nothing should depend on that: quotes, backslashes, control
# characters, non-ASCII and astral characters all go through.
texts = st.one_of(st.sampled_from(["t1-r1-p1-g1", "", 'a"b\\c', "tab\there", "\x00\x1f\x7f", "é中🎲"]),
                  st.text(st.characters(exclude_categories=("Cs",)), max_size=20))
game_ids = texts
# The verdict on the receiver's previous step: the referee's causes and reasons, or any text at all.
verdicts = st.one_of(st.none(), st.builds(
    StepVerdict, st.sampled_from([GameStatus.TIMEOUT, GameStatus.INSUFFICIENT_BLOCK, GameStatus.INVALID_STEP]),
    st.sampled_from(list(Cause)) | texts,
    st.sampled_from(["a5 is not reachable in one step from e1", "answered after 1,203 ms; the limit is 1,000 ms",
                     "wall ((-1,1),(1,1)) lies outside the board"]) | texts,
    st.integers(0, 10 ** 7)))


@given(game_ids, st.integers(0, 10 ** 6), changes, st.tuples(st.integers(0, 10), st.integers(0, 10)),
       st.one_of(st.none(), st.integers(1, 10 ** 7)), verdicts)
def test_turn_frame_is_the_models_dump(game, turn, change, walls_left, limit, verdict):
    model = Turn(game=game, turn=turn, status=int(change.status), my_loc=cell(change.my_loc),
                 enemy_loc=cell(change.enemy_loc), enemy_wall=wall(change.new_enemy_wall),
                 walls_left=walls_left, time_limit_ms=limit, judgement=step_judgement(verdict))
    assert turn_frame(game, turn, change, walls_left, limit, verdict) == dump(model)


def test_a_turn_frame_parses_back_to_its_fields():
    change = ChessboardChange(GameStatus.INVALID_STEP, Location(5, 2), Location(5, 9),
                              BlockBar(Location(2, 3), Location(4, 3)))
    verdict = StepVerdict(GameStatus.INVALID_STEP, Cause.NOT_REACHABLE, "a5 is not reachable in one step from e2", 41)
    message = parse_server(turn_frame("g7", 3, change, (9, 10), 1000, verdict))
    assert isinstance(message, Turn)
    assert (message.game, message.turn, message.status, message.my_loc, message.enemy_loc, message.enemy_wall,
            message.walls_left, message.time_limit_ms) == (
        "g7", 3, int(GameStatus.INVALID_STEP), (5, 2), (5, 9), ((2, 3), (4, 3)), (9, 10), 1000)
    assert message.judgement is not None and message.judgement.cause == "not_reachable"
    assert to_verdict(message.judgement) == verdict and to_verdict(message.judgement).cause is Cause.NOT_REACHABLE


def test_a_turn_after_a_step_that_stood_has_a_null_judgement():
    frame = turn_frame("g7", 0, ChessboardChange(), (10, 10), None)
    assert frame.endswith(',"time_limit_ms":null,"judgement":null}')
    assert parse_server(frame).judgement is None


def test_a_cause_this_client_does_not_know_is_kept_as_its_code():
    verdict = StepVerdict(GameStatus.INVALID_STEP, "wall_too_pretty", "a newer server's rule", 3)
    message = parse_server(turn_frame("g", 4, ChessboardChange(GameStatus.INVALID_STEP), (10, 10), 1000, verdict))
    assert to_verdict(message.judgement) == verdict


def test_a_turn_from_a_server_without_judgements_still_parses():
    old = ('{"type":"turn","game":"g","turn":2,"status":7,"my_loc":[5,1],"enemy_loc":[5,8],"enemy_wall":null,'
           '"walls_left":[10,10],"time_limit_ms":1000}')
    message = parse_server(old)
    assert isinstance(message, Turn) and message.status == 7 and message.judgement is None
    assert "judgement" not in message.model_fields_set

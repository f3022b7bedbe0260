"""``turn_frame`` writes the ``turn`` frame by hand for the server's hot path: it must be exactly
what the pydantic model dumps, for every turn the referee can produce and any game id."""

from hypothesis import given
from hypothesis import strategies as st

from shared.protocol import Turn, cell, dump, parse_server, turn_frame, wall
from shared.quoridor import NO_WALL, BlockBar, ChessboardChange, GameStatus, Location

locations = st.builds(Location, st.integers(-1, 10), st.integers(-1, 10))
walls = st.one_of(st.just(NO_WALL), st.builds(BlockBar, locations, locations))
changes = st.builds(ChessboardChange, st.sampled_from(list(GameStatus)), locations, locations, walls)
# Game ids are the server's own, but nothing should depend on that: quotes, backslashes, control
# characters, non-ASCII and astral characters all go through.
game_ids = st.one_of(st.sampled_from(["t1-r1-p1-g1", "", 'a"b\\c', "tab\there", "\x00\x1f\x7f", "é中🎲"]),
                     st.text(st.characters(exclude_categories=("Cs",)), max_size=20))


@given(game_ids, st.integers(0, 10 ** 6), changes, st.tuples(st.integers(0, 10), st.integers(0, 10)),
       st.one_of(st.none(), st.integers(1, 10 ** 7)))
def test_turn_frame_is_the_models_dump(game, turn, change, walls_left, limit):
    model = Turn(game=game, turn=turn, status=int(change.status), my_loc=cell(change.my_loc),
                 enemy_loc=cell(change.enemy_loc), enemy_wall=wall(change.new_enemy_wall),
                 walls_left=walls_left, time_limit_ms=limit)
    assert turn_frame(game, turn, change, walls_left, limit) == dump(model)


def test_a_turn_frame_parses_back_to_its_fields():
    change = ChessboardChange(GameStatus.INVALID_STEP, Location(5, 2), Location(5, 9),
                              BlockBar(Location(2, 3), Location(4, 3)))
    message = parse_server(turn_frame("g7", 3, change, (9, 10), 1000))
    assert isinstance(message, Turn)
    assert (message.game, message.turn, message.status, message.my_loc, message.enemy_loc, message.enemy_wall,
            message.walls_left, message.time_limit_ms) == (
        "g7", 3, int(GameStatus.INVALID_STEP), (5, 2), (5, 9), ((2, 3), (4, 3)), (9, 10), 1000)

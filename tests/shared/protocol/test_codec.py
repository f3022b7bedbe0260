"""The codec: round trips of every message, each refusal of parse_client with a readable message,
parse_server, conversions to the rules core, and the JSON Schema."""

import json

import pytest

from shared.protocol import (
    CLIENT_MESSAGES, ERROR_CODES, MAX_FRAME_BYTES, MAX_SERVER_FRAME_BYTES, SERVER_MESSAGES, ErrorMessage, Hello,
    ProtocolError, StandingRow, Standings, StepMessage, Welcome, cell, dump, json_schema, parse_client, parse_server,
    to_blockbar, to_location, to_step, wall,
)
from shared.quoridor import NO_LOCATION, NO_WALL, BlockBar, Location, Position, Step, parse_step

HELLO = {"type": "hello", "protocol": 1, "role": "player", "key": "k1"}


def refusal(frame, parse=parse_client) -> ProtocolError:
    """The ProtocolError that parsing ``frame`` (a str, bytes, or a value to dump as JSON) raises."""
    data = frame if isinstance(frame, (str, bytes, bytearray)) else json.dumps(frame)
    with pytest.raises(ProtocolError) as info:
        parse(data)
    return info.value


# --- round trips ---

def test_client_messages_round_trip(client_message):
    text = dump(client_message)
    assert parse_client(text) == client_message
    assert dump(parse_client(text)) == text


def test_server_messages_round_trip(server_message):
    text = dump(server_message)
    assert parse_server(text) == server_message
    assert dump(parse_server(text)) == text


def test_messages_round_trip_through_python_objects(message):
    assert type(message).model_validate(message.model_dump()) == message


def test_a_client_refuses_client_messages(client_message):
    assert refusal(dump(client_message), parse_server).code == "unknown_type"


def test_a_server_refuses_server_messages(server_message):
    assert refusal(dump(server_message), parse_client).code == "unknown_type"


# --- dump ---

def test_dump_is_compact_json_with_every_field():
    text = dump(StepMessage(game="g1", turn=3, move=(5, 2)))
    assert text == '{"type":"step","game":"g1","turn":3,"move":[5,2],"wall":null}'


def test_dump_keeps_unicode_and_escapes_control_characters():
    text = dump(ErrorMessage(code="bad_json", message="ключ\n\"x\""))
    assert "ключ" in text and "\\n" in text and json.loads(text)["message"] == "ключ\n\"x\""


# --- every refusal of parse_client ---

def test_binary_frames_are_refused():
    error = refusal(b'{"type": "hello"}')
    assert error.code == "binary_frame" and "text frames" in error.message
    assert refusal(bytearray(b"x")).code == "binary_frame"


def test_frames_over_the_size_limit_are_refused():
    error = refusal(json.dumps({**HELLO, "pad": "x" * MAX_FRAME_BYTES}))
    assert error.code == "frame_too_large" and str(MAX_FRAME_BYTES) in error.message


def test_a_client_reads_the_table_of_a_big_tournament():
    # 1,000 players' standings: 200 KB and more, over what a server takes from a client, not what a client reads.
    rows = [StandingRow(rank=i + 1, player=f"student{i:04}", points=1.0, games=8, wins=1, losses=7, draws=0,
                        elo=-123.25, elo_error=300.5, elo_low=-700.0, elo_high=350.0, thinking_ms=12_345)
            for i in range(1_000)]
    frame = dump(Standings(tournament="t1", games_done=4_000, games_total=4_000, rows=rows))
    assert MAX_FRAME_BYTES < len(frame) <= MAX_SERVER_FRAME_BYTES
    assert parse_server(frame).rows == rows
    error = refusal(json.dumps({"type": "standings", "pad": "x" * MAX_SERVER_FRAME_BYTES}), parse_server)
    assert error.code == "frame_too_large" and str(MAX_SERVER_FRAME_BYTES) in error.message


@pytest.mark.parametrize("data", ["", "{", "{'type': 'hello'}", "hello", '{"type": "hello",}', "[1, 2", "\ufeff{}",
                                  '{"x": "\\ud800"}', "[" * 10_000])
def test_text_that_is_not_json_is_refused(data):
    error = refusal(data)
    assert error.code == "bad_json" and error.message.startswith("the frame is not valid JSON")
    assert error.frame_type is None


@pytest.mark.parametrize("data", ["\ud800", '{"type": "watch", "game": "\udfff"}'])
def test_text_that_is_not_unicode_is_refused(data):
    assert refusal(data).code == "bad_json"


@pytest.mark.parametrize("data, shown", [("[1, 2]", "[1, 2]"), ('"hello"', '"hello"'), ("42", "42"),
                                         ("null", "null"), ("true", "true")])
def test_json_that_is_not_an_object_is_refused(data, shown):
    error = refusal(data)
    assert error.code == "not_an_object" and error.message == f"a frame should be a JSON object, got {shown}"


def test_a_frame_without_type_is_refused_with_the_known_types():
    error = refusal({"game": "g1"})
    assert error.code == "unknown_type" and '"type"' in error.message
    assert all(name in error.message for name in CLIENT_MESSAGES)


@pytest.mark.parametrize("kind", [5, None, ["hello"], {"a": 1}, True])
def test_a_type_that_is_not_a_string_is_refused(kind):
    error = refusal({**HELLO, "type": kind})
    assert error.code == "unknown_type" and error.frame_type is None


def test_an_unknown_type_is_refused_and_named():
    error = refusal({"type": "move", "game": "g1"})
    assert error.code == "unknown_type" and error.frame_type == "move"
    assert error.message.startswith('unknown frame type "move"; expected one of hello, step, watch')


def test_hello_with_another_protocol_version_is_refused():
    error = refusal({**HELLO, "protocol": 2})
    assert (error.code, error.frame_type) == ("protocol_version", "hello")
    assert error.message == "this server speaks protocol 1 only (got 2)"


def test_protocol_version_wins_over_other_problems():
    # A client of another version may send fields we do not know: the version is what it must hear.
    assert refusal({"type": "hello", "protocol": 3, "hi": "there"}).code == "protocol_version"


@pytest.mark.parametrize("frame, expected", [
    ({"type": "hello", "protocol": 1}, "invalid hello frame: role is missing; key is missing"),
    ({**HELLO, "protocol": "1"}, 'invalid hello frame: protocol should be an integer (got "1")'),
    ({**HELLO, "role": "referee"},
     "invalid hello frame: role should be 'player', 'spectator' or 'submitter' (got \"referee\")"),
    ({**HELLO, "key": "a b"},
     'invalid hello frame: key should hold printable ASCII characters only, no spaces (got "a b")'),
    ({**HELLO, "name": "x" * 41}, "invalid hello frame: name should have at most 40 characters (got \"xxxxx"),
    ({"type": "step", "game": "g1", "turn": -1}, "invalid step frame: turn should be greater than or equal to 0 (got -1)"),
    ({"type": "step", "game": "g1", "turn": 1.0}, "invalid step frame: turn should be an integer (got 1.0)"),
    ({"type": "step", "game": "g1", "turn": 1, "move": "e2"},
     'invalid step frame: move should be a cell [x, y] of integers -1..10 or null (got "e2")'),
    ({"type": "step", "game": "g1", "turn": 1, "move": [5, 2, 1]},
     "invalid step frame: move should be a cell [x, y] of integers -1..10 or null (got [5, 2, 1])"),
    ({"type": "step", "game": "g1", "turn": 1, "move": [5, 11]},
     "invalid step frame: move[1] should be less than or equal to 10 (got 11)"),
    ({"type": "step", "game": "g1", "turn": 1, "wall": [[4, 1], 6, 1]},
     "invalid step frame: wall should be a wall [[x1, y1], [x2, y2]] of integers -1..10 or null"),
    ({"type": "step", "game": 12, "turn": 1}, "invalid step frame: game should be a string (got 12)"),
    ({"type": "watch"}, "invalid watch frame: game is missing"),
    ({"type": "puzzle_request", "room": "quoridor"},
     "invalid puzzle_request frame: room should be 'sokoban', 'ice' or 'circuit' (got \"quoridor\")"),
    ({"type": "solution", "puzzle": "p", "answer": {"moves": "lurd"}},
     "invalid solution frame: answer should be a string, an array of strings or an array of integers"),
    ({"type": "action", "puzzle": "p", "action": "rotate", "args": {"row": 1.5}},
     "invalid action frame: args should be an object of integers or strings (got {\"row\": 1.5})"),
])
def test_invalid_fields_are_named_with_what_was_expected(frame, expected):
    error = refusal(frame)
    assert (error.code, error.frame_type) == ("invalid_fields", frame["type"])
    assert error.message.startswith(expected), error.message
    assert "pydantic" not in error.message and "\n" not in error.message


def test_many_bad_fields_are_summed_up_in_one_short_line():
    error = refusal({"type": "puzzle_request", "room": 1, "collection": 2, "index": "3", "xsb": 4, "size": "5"})
    assert error.message.endswith("; and 2 more") and len(error.message) < 400


def test_quoted_input_is_cut_short():
    error = refusal({**HELLO, "key": "k" * 5000})
    assert error.code == "invalid_fields" and len(error.message) < 200


def test_a_protocol_error_becomes_an_error_frame():
    error = refusal({"type": "watch"})
    frame = error.to_message()
    assert isinstance(frame, ErrorMessage)
    assert (frame.code, frame.message, frame.frame_type) == ("invalid_fields", error.message, "watch")
    assert str(error) == f"invalid_fields: {error.message}" and isinstance(error, ValueError)


def test_protocol_errors_only_take_known_codes():
    with pytest.raises(ValueError, match="unknown protocol error code 'oops'"):
        ProtocolError("oops", "x")


def test_extra_fields_and_duplicate_keys_do_not_refuse_a_frame():
    assert parse_client(json.dumps({**HELLO, "version2_field": [1, 2]})) == Hello(protocol=1, role="player", key="k1")
    assert parse_client('{"type": "watch", "game": "a", "game": "b"}').game == "b"


# --- parse_server ---

def test_parse_server_refuses_like_parse_client():
    assert refusal(b"{}", parse_server).code == "binary_frame"
    assert refusal("{", parse_server).code == "bad_json"
    assert refusal("[]", parse_server).code == "not_an_object"
    error = refusal({"type": "turn", "game": "g1"}, parse_server)
    assert error.code == "invalid_fields" and error.message.startswith("invalid turn frame: turn is missing")
    assert all(name in refusal({"type": "x"}, parse_server).message for name in SERVER_MESSAGES)


def test_parse_server_names_fields_inside_nested_objects():
    frame = {"type": "standings", "tournament": "t", "games_done": 1, "games_total": 2,
             "rows": [{"rank": 1, "player": "p", "points": 1, "games": 1, "wins": 1, "losses": 0}]}
    assert refusal(frame, parse_server).message == "invalid standings frame: rows[0].draws is missing"


def test_a_client_refuses_a_server_of_another_version():
    rules = {"ruleset": "course", "time_limit_ms": 1000, "violations_allowed": 3, "step_cap": 100,
             "walls_per_player": 10}
    frame = {"type": "welcome", "protocol": 2, "player": "p", "server": "s", "rules": rules}
    assert refusal(frame, parse_server).code == "protocol_version"
    assert isinstance(parse_server(json.dumps({**frame, "protocol": 1})), Welcome)


# --- conversions to the rules core ---

def test_cells_and_walls_convert_both_ways():
    assert cell(Location(5, 2)) == (5, 2) and to_location((5, 2)) == Location(5, 2)
    bar = BlockBar.of(6, 1, 4, 1)
    assert wall(bar) == ((6, 1), (4, 1)) and to_blockbar(((6, 1), (4, 1))) == bar
    assert wall(NO_WALL) is None and to_blockbar(None) == NO_WALL and to_location(None) == NO_LOCATION


@pytest.mark.parametrize("move, wire_wall, step", [
    ((5, 2), None, Step.move(5, 2)),
    (None, ((4, 1), (6, 1)), Step.wall(4, 1, 6, 1)),
    ((5, 2), ((4, 1), (6, 1)), Step(Location(5, 2), BlockBar.of(4, 1, 6, 1))),
    (None, None, Step()),
])
def test_to_step(move, wire_wall, step):
    assert to_step(StepMessage(game="g", turn=0, move=move, wall=wire_wall)) == step


def test_a_step_with_both_counts_as_a_move_for_the_rules_core():
    pos = Position.initial()
    both = to_step(StepMessage(game="g", turn=0, move=(5, 2), wall=((4, 1), (6, 1))))
    assert both.is_move() and pos.play(both) == pos.play(parse_step("e2"))
    assert to_step(StepMessage(game="g", turn=0)).is_nan()


# --- JSON Schema ---

def test_the_schema_describes_both_unions():
    schema = json_schema()
    assert schema["title"] == "Quoridor Arena protocol v1" and "2020-12" in schema["$schema"]
    assert schema["oneOf"] == [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}]
    defs = schema["$defs"]
    for union, messages in (("ClientMessage", CLIENT_MESSAGES), ("ServerMessage", SERVER_MESSAGES)):
        assert defs[union]["discriminator"]["propertyName"] == "type"
        assert set(defs[union]["discriminator"]["mapping"]) == set(messages)
        for name, cls in messages.items():
            definition = defs[cls.__name__]
            assert definition["properties"]["type"]["const"] == name
            assert definition["required"][0] == "type"  # defaulted in Python, required on the wire
            assert set(definition["properties"]) == set(cls.model_fields)


def test_the_schema_is_deterministic():
    assert json.dumps(json_schema(), sort_keys=True) == json.dumps(json_schema(), sort_keys=True)


def test_the_schema_states_the_hello_constraints():
    hello = json_schema()["$defs"]["Hello"]["properties"]
    assert hello["protocol"]["const"] == 1
    assert (hello["key"]["minLength"], hello["key"]["maxLength"], hello["key"]["pattern"]) == (1, 64, "^[!-~]+$")


def test_error_codes_are_identifiers_with_one_line_meanings():
    for code, meaning in ERROR_CODES.items():
        assert code.isidentifier() and code == code.lower()
        assert meaning and "\n" not in meaning

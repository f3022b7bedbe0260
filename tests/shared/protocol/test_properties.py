"""Property tests: whatever arrives, parsing raises nothing but ProtocolError, and what it accepts
dumps and parses back to the same message."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.protocol import CLIENT_MESSAGES, SERVER_MESSAGES, ProtocolError, dump, parse_client, parse_server

PARSERS = {"client": (parse_client, CLIENT_MESSAGES), "server": (parse_server, SERVER_MESSAGES)}

# Numbers near the edges: the coordinate range, 0, huge integers, floats that are integers.
numbers = st.one_of(st.integers(-3, 12), st.integers(), st.integers(2 ** 63, 2 ** 70),
                    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([0.0, 1.0, -0.0, 1e300]))
scalars = st.one_of(st.none(), st.booleans(), numbers, st.text(max_size=20),
                    st.sampled_from(["player", "spectator", "quoridor", "sokoban", "*", "u", "", "hello"]))
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)), max_leaves=20)
# Shapes the models use, so that the valid path is explored too.
cells = st.lists(st.integers(-2, 11), min_size=0, max_size=3)
shaped = st.one_of(json_values, cells, st.lists(cells, max_size=3), st.integers(0, 3),
                   st.lists(st.sampled_from(["u", "d"]), max_size=3),
                   st.dictionaries(st.sampled_from(["row", "col"]), st.integers(0, 3), max_size=2))


def frames_of(messages):
    """Objects with a valid type and a random selection of that message's fields (plus strangers)."""
    @st.composite
    def build(draw):
        kind = draw(st.sampled_from(sorted(messages)))
        names = sorted(messages[kind].model_fields)
        fields = draw(st.dictionaries(st.sampled_from(names) | st.text(max_size=6), shaped, max_size=len(names) + 1))
        if draw(st.booleans()):  # often give hello a protocol that passes
            fields.setdefault("protocol", 1)
        return {**fields, "type": kind}
    return build()


def check(side: str, data) -> None:
    parse, _ = PARSERS[side]
    try:
        message = parse(data)
    except ProtocolError as error:
        assert error.code in ("binary_frame", "bad_json", "not_an_object", "unknown_type", "invalid_fields",
                              "protocol_version", "frame_too_large", "bad_version", "bad_concurrency")
        assert error.message and "\n" not in error.message and len(error.message) < 1000
        dump(error.to_message())
        return
    assert parse(dump(message)) == message


@settings(deadline=None, max_examples=150)
@given(st.sampled_from(sorted(PARSERS)), json_values)
def test_any_json_value_gives_a_message_or_a_protocol_error(side, value):
    check(side, json.dumps(value))


@settings(deadline=None)
@given(st.sampled_from(sorted(PARSERS)), st.binary(max_size=64))
def test_any_bytes_are_a_binary_frame(side, data):
    check(side, data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    check(side, text)


@settings(deadline=None)
@given(st.sampled_from(sorted(PARSERS)), st.text(st.characters(exclude_categories=()), max_size=64))
def test_any_text_gives_a_message_or_a_protocol_error(side, text):
    check(side, text)


@settings(deadline=None, max_examples=300)
@given(st.data())
def test_objects_with_a_valid_type_give_a_message_or_a_protocol_error(data):
    side = data.draw(st.sampled_from(sorted(PARSERS)))
    frame = data.draw(frames_of(PARSERS[side][1]))
    check(side, json.dumps(frame))


@settings(deadline=None, max_examples=300)
@given(st.data())
def test_mutated_valid_frames_give_a_message_or_a_protocol_error(samples, data):
    side = data.draw(st.sampled_from(sorted(PARSERS)))
    sample = data.draw(st.sampled_from(samples[0] if side == "client" else samples[1]))
    frame = json.loads(dump(sample))
    for name in sorted(frame):
        if name != "type":
            action = data.draw(st.sampled_from(["keep", "keep", "drop", "replace"]))
            if action == "drop":
                del frame[name]
            elif action == "replace":
                frame[name] = data.draw(shaped)
    frame.update(data.draw(st.dictionaries(st.text(max_size=6).filter(lambda key: key != "type"), json_values,
                                           max_size=2)))
    check(side, json.dumps(frame))

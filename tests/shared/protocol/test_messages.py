"""The message models: defaults, immutability, forward compatibility and the field checks of hello."""

import typing

import pytest
from pydantic import ValidationError

from shared.protocol import (
    CLIENT_MESSAGES, SERVER_MESSAGES, ClientMessage, GameStart, Hello, Message, RulesInfo, ServerMessage, Solution,
    StepMessage, Turn, Verdict, Welcome,
)
from shared.quoridor import GameStatus


def test_samples_cover_every_message_type(samples):
    client, server = samples
    assert {m.type for m in client} == set(CLIENT_MESSAGES)
    assert {m.type for m in server} == set(SERVER_MESSAGES)


def test_the_unions_hold_exactly_the_registered_messages():
    def members(union):
        return set(typing.get_args(typing.get_args(union)[0]))
    assert members(ClientMessage) == set(CLIENT_MESSAGES.values())
    assert members(ServerMessage) == set(SERVER_MESSAGES.values())
    assert not set(CLIENT_MESSAGES) & set(SERVER_MESSAGES)


def test_every_message_defaults_its_type_to_its_own_name():
    for name, cls in {**CLIENT_MESSAGES, **SERVER_MESSAGES}.items():
        assert cls.model_fields["type"].default == name
        assert issubclass(cls, Message)
    turn = Turn(game="g", turn=0, status=0, my_loc=(5, 1), enemy_loc=(5, 9), enemy_wall=None, walls_left=(10, 10),
                time_limit_ms=1000)
    assert turn.type == "turn"


def test_messages_are_frozen(message):
    with pytest.raises(ValidationError):
        message.type = "other"  # type: ignore[misc]


def test_unknown_fields_are_ignored():
    step = StepMessage.model_validate({"type": "step", "game": "g", "turn": 1, "move": [5, 2], "future": {"x": 1}})
    assert step == StepMessage(game="g", turn=1, move=(5, 2))
    assert "future" not in step.model_dump()


def test_optional_fields_default_to_none_or_empty():
    step = StepMessage(game="g", turn=0)
    assert (step.move, step.wall) == (None, None)
    verdict = Verdict(puzzle="p", valid=True, solved=False)
    assert (verdict.failed_at, verdict.reason, verdict.figures) == (None, None, {})
    hello = Hello(protocol=1, role="player", key="k")
    assert (hello.room, hello.name) == ("quoridor", None)
    assert Welcome(player="p", server="s", rules=RulesInfo(ruleset="course", time_limit_ms=None,
                                                           violations_allowed=3, step_cap=100,
                                                           walls_per_player=10)).protocol == 1


def test_nullable_fields_without_default_are_required():
    with pytest.raises(ValidationError, match="enemy_wall"):
        Turn(game="g", turn=0, status=0, my_loc=(5, 1), enemy_loc=(5, 9), walls_left=(10, 10), time_limit_ms=1)


@pytest.mark.parametrize("key", ["k", "A" * 64, "~!#$%&'()*+,-./:;<=>?@[]^_`{|}", "0123"])
def test_hello_accepts_keys_of_printable_ascii(key):
    assert Hello(protocol=1, role="player", key=key).key == key


@pytest.mark.parametrize("key, problem", [
    ("", "at least 1 character"), ("A" * 65, "at most 64 characters"), ("a b", "printable ASCII"),
    ("tab\there", "printable ASCII"), ("ключ", "printable ASCII"), ("nul\x00", "printable ASCII"),
])
def test_hello_refuses_other_keys(key, problem):
    with pytest.raises(ValidationError, match=problem):
        Hello(protocol=1, role="player", key=key)


def test_hello_checks_the_display_name():
    assert Hello(protocol=1, role="player", key="k", name="Ünïcode ☃ team").name == "Ünïcode ☃ team"
    for name, problem in [("x" * 41, "at most 40"), ("\x1b[2J", "printable"), ("", "at least 1")]:
        with pytest.raises(ValidationError, match=problem):
            Hello(protocol=1, role="player", key="k", name=name)


def test_hello_speaks_protocol_1_only():
    with pytest.raises(ValidationError, match="protocol_version"):
        Hello(protocol=2, role="player", key="k")


@pytest.mark.parametrize("cell", [(-1, -1), (0, 10), (10, 5), (1, 1), (9, 9)])
def test_coordinates_from_minus_1_to_10_pass_the_protocol(cell):
    assert StepMessage(game="g", turn=0, move=cell).move == cell


@pytest.mark.parametrize("cell", [(-2, 1), (1, 11), (100, 100)])
def test_coordinates_beyond_the_sane_range_are_refused(cell):
    with pytest.raises(ValidationError):
        StepMessage(game="g", turn=0, move=cell)


def test_walls_keep_their_point_order():
    wall = ((6, 1), (4, 1))
    assert StepMessage(game="g", turn=0, wall=wall).wall == wall


def test_answers_keep_their_kind():
    assert Solution(puzzle="p", answer="lurd").answer == "lurd"
    assert Solution(puzzle="p", answer=["u", "l"]).answer == ["u", "l"]
    assert Solution(puzzle="p", answer=[90, 0]).answer == [90, 0]


def test_figures_keep_booleans_apart_from_numbers():
    figures = Verdict(puzzle="p", valid=True, solved=True, figures={"optimal": True, "moves": 1, "r": 0.5}).figures
    assert figures == {"optimal": True, "moves": 1, "r": 0.5}
    assert type(figures["optimal"]) is bool and type(figures["moves"]) is int


def test_seat_is_0_or_1():
    with pytest.raises(ValidationError):
        GameStart(game="g", opponent="o", seat=2)


def test_status_accepts_the_rules_core_enum():
    turn = Turn(game="g", turn=0, status=GameStatus.INVALID_STEP, my_loc=(5, 1), enemy_loc=(5, 9),
                enemy_wall=None, walls_left=(10, 10), time_limit_ms=None)
    assert turn.status == 7 and '"status":7' in turn.model_dump_json()

"""docs/protocol.md and docs/protocol.schema.json agree with the protocol models, and the docs'
worked example bot plays a game against a scripted server."""

import asyncio
import importlib.util
import json
import pathlib
import re

import pytest
from websockets.asyncio.server import serve

from shared.protocol import LadderRow, OrganiserRow, OrganiserTournament, OrganiserVersion, WorstGame
from shared.protocol import (
    CLIENT_MESSAGES, ERROR_CODES, SERVER_MESSAGES, BoardState, ReplayFolder, ReplayGameEntry, GameOver, GameStart, Hello, ProtocolError, RulesInfo,
    StandingRow, StepJudgement, StepMessage, TournamentOver, Turn, Welcome, dump, parse_client, parse_server,
)
from shared.quoridor import Cause, GameStatus

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
MESSAGES = {**CLIENT_MESSAGES, **SERVER_MESSAGES}
NESTED = {"welcome": [RulesInfo], "standings": [StandingRow], "game_update": [BoardState], "turn": [StepJudgement],
          "replays": [ReplayFolder, ReplayGameEntry], "ladder": [LadderRow],
          "organiser": [OrganiserRow, OrganiserVersion, WorstGame, OrganiserTournament]}


def load_tool():
    spec = importlib.util.spec_from_file_location("gen_protocol_schema", ROOT / "tools" / "gen_protocol_schema.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fenced(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", DOC, flags=re.S | re.M)


def section(kind: str) -> str:
    """The text under the heading of message ``kind``, up to the next heading."""
    match = re.search(rf"^###? `{kind}`\n(.*?)(?=^##)", DOC + "\n##", flags=re.S | re.M)
    assert match, f"docs/protocol.md has no heading for the {kind!r} message"
    return match[1]


def table_names(text: str) -> set[str]:
    """The names in the first column of the tables in ``text``."""
    return set(re.findall(r"^\| `([^`]+)` \|", text, flags=re.M))


# --- the schema file ---

def test_the_committed_schema_is_generated_from_the_models():
    tool = load_tool()
    assert tool.SCHEMA_PATH == ROOT / "docs" / "protocol.schema.json"
    assert tool.SCHEMA_PATH.read_text(encoding="utf-8") == tool.render(), \
        "docs/protocol.schema.json is out of date: run python tools/gen_protocol_schema.py"


def test_the_tool_checks_and_writes(tmp_path, capsys):
    tool = load_tool()
    target = tmp_path / "schema.json"
    assert tool.main(["--check", "--output", str(target)]) == 1
    assert "is missing" in capsys.readouterr().err
    assert tool.main(["--output", str(target)]) == 0
    assert tool.main(["--check", "--output", str(target)]) == 0
    target.write_text("{}\n", encoding="utf-8")
    assert tool.main(["--check", "--output", str(target)]) == 1
    assert "differs from the protocol models" in capsys.readouterr().err
    assert target.read_text(encoding="utf-8") == "{}\n"


# --- the page ---

@pytest.mark.parametrize("kind", sorted(MESSAGES))
def test_every_message_has_a_section_with_every_field_in_its_table(kind):
    text = section(kind)
    fields = set(MESSAGES[kind].model_fields)
    for nested in NESTED.get(kind, []):
        fields |= set(nested.model_fields)
    missing = fields - table_names(text)
    assert not missing, f"the {kind!r} section of docs/protocol.md lacks table rows for {sorted(missing)}"
    unknown = table_names(text) - fields
    assert not unknown, f"the {kind!r} section of docs/protocol.md documents unknown fields {sorted(unknown)}"


def test_every_message_has_a_json_example():
    shown = {json.loads(block)["type"] for block in fenced("json")}
    assert shown == set(MESSAGES)


def is_shown(example, actual) -> bool:
    """True when every key of the example is in the message as dumped, with the same value."""
    if isinstance(example, dict):
        return isinstance(actual, dict) and all(key in actual and is_shown(value, actual[key])
                                                for key, value in example.items())
    if isinstance(example, list):
        return isinstance(actual, list) and len(example) == len(actual) and all(map(is_shown, example, actual))
    if isinstance(example, bool) or isinstance(actual, bool):
        return example is actual
    return example == actual


@pytest.mark.parametrize("block", fenced("json"), ids=lambda block: json.loads(block)["type"])
def test_every_json_example_parses_and_shows_only_real_fields(block):
    kind = json.loads(block)["type"]
    parse = parse_client if kind in CLIENT_MESSAGES else parse_server
    message = parse(block)
    assert is_shown(json.loads(block), json.loads(dump(message))), \
        f"the {kind!r} example shows a field the model does not have (it would be silently ignored)"


def test_the_error_example_is_what_the_codec_says():
    block = next(block for block in fenced("json") if json.loads(block)["type"] == "error")
    example = parse_server(block)
    with pytest.raises(ProtocolError) as info:
        parse_client('{"type": "step", "game": "g12", "turn": -1}')
    assert info.value.to_message() == example


def test_every_error_code_is_in_the_table_and_nothing_else():
    table = DOC.split("## Error codes", 1)[1].split("\n## ", 1)[0]
    assert table_names(table) == set(ERROR_CODES)


def test_every_cause_is_in_the_table_with_its_status():
    table = DOC.split("## Causes", 1)[1].split("\n## ", 1)[0]
    assert table_names(table) == {cause.value for cause in Cause}
    statuses = dict(re.findall(r"^\| `(\w+)` \| (\d+) \|", table, flags=re.M))
    assert statuses.pop("late") == str(int(GameStatus.TIMEOUT))
    assert statuses.pop("no_walls_left") == str(int(GameStatus.INSUFFICIENT_BLOCK))
    assert set(statuses.values()) == {str(int(GameStatus.INVALID_STEP))}


def test_every_game_status_is_in_the_table():
    table = DOC.split("## GameStatus", 1)[1].split("\n## ", 1)[0]
    rows = set(re.findall(r"^\| (\w+) \| (\d+) \|", table, flags=re.M))
    names = {"OK": "Ok", "ENEMY_CLOSED": "EnemyClosed", "RULES_BREAKER": "RulesBreaker",
             "INSUFFICIENT_BLOCK": "InsufficientBlock", "INVALID_STEP": "InvalidStep"}
    assert rows == {(names.get(s.name, s.name.title()), str(s.value)) for s in GameStatus}


def test_the_transport_and_timing_are_stated():
    for phrase in ("ws://HOST:19330/", "Text frames only", "includes the network", "equal to the limit or more",
                   "discarded", "tournament_over"):
        assert phrase in DOC


# --- the worked example ---

def example_bot() -> dict:
    (source,) = [block for block in fenced("python") if "import websockets" in block]
    assert "shared" not in source, "the example must not need our package"
    namespace = {"__name__": "example_bot"}
    exec(compile(source, "docs/protocol.md", "exec"), namespace)
    return namespace


async def test_the_example_bot_plays_by_the_protocol(capsys):
    """A scripted server: hello, a game of two turns (the second behind a wall), game over, goodbye."""
    seen = []

    async def script(ws):
        seen.append(parse_client(await ws.recv()))
        rules = RulesInfo(ruleset="course", time_limit_ms=1000, violations_allowed=3, step_cap=100, walls_per_player=10)
        await ws.send(dump(Welcome(player="bot", server="script", rules=rules)))
        await ws.send(dump(GameStart(game="g1", opponent="wall-builder", seat=0)))
        await ws.send(dump(Turn(game="g1", turn=0, status=0, my_loc=(5, 1), enemy_loc=(5, 9), enemy_wall=None,
                                walls_left=(10, 10), time_limit_ms=1000)))
        seen.append(parse_client(await ws.recv()))
        # The opponent walls off (5,2)-(5,3) and (6,2)-(6,3): the shortest way round goes left.
        await ws.send(dump(Turn(game="g1", turn=2, status=0, my_loc=(5, 2), enemy_loc=(5, 8),
                                enemy_wall=((6, 2), (4, 2)), walls_left=(10, 9), time_limit_ms=1000)))
        seen.append(parse_client(await ws.recv()))
        await ws.send(dump(GameOver(game="g1", status=1, result="win", reason="goal", winner="bot")))
        await ws.send(dump(TournamentOver(tournament="t1", rows=[])))
        await ws.close()

    async with serve(script, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        await asyncio.wait_for(example_bot()["play"](f"ws://127.0.0.1:{port}/", "k1"), timeout=10)

    hello, first, second = seen
    assert isinstance(hello, Hello) and (hello.protocol, hello.role, hello.key) == (1, "player", "k1")
    assert first == StepMessage(game="g1", turn=0, move=(5, 2), wall=None)
    assert second == StepMessage(game="g1", turn=2, move=(4, 2), wall=None)
    assert "g1 win by goal" in capsys.readouterr().out


def test_the_example_bot_jumps_over_a_pawn_in_its_way():
    bot = example_bot()
    assert bot["choose_move"]((5, 4), (5, 5), 9, set()) == (5, 6)
    assert bot["choose_move"]((5, 6), (5, 5), 1, set()) == (5, 4)
    walled_in = {frozenset({(1, 1), (2, 1)}), frozenset({(1, 1), (1, 2)})}
    assert bot["first_step"]((1, 1), 9, walled_in) is None

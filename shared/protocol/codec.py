"""Text frames to messages and back, conversions to the rules core's types, and the JSON Schema.

``parse_client`` and ``parse_server`` never let anything but ``ProtocolError`` escape, whatever the
frame holds. Valid frames take one pass of pydantic's JSON validator (the hot path); only a frame
that fails is looked at again to say precisely what is wrong with it.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import pydantic_core
from pydantic import TypeAdapter, ValidationError

from ..quoridor import NO_LOCATION, NO_WALL, BlockBar, Cause, ChessboardChange, GameStatus, Location, Step, StepVerdict
from .base import Cell, Message, ProtocolModel, Wall
from .errors import ERROR_CODES, ProtocolError, explain_invalid, quote
from .messages import (
    CLIENT_MESSAGES, PROTOCOL_VERSION, SERVER_MESSAGES, ClientMessage, ServerMessage, StepJudgement, StepMessage,
    Welcome,
)

__all__ = [
    "ERROR_CODES", "MAX_FRAME_BYTES", "MAX_SERVER_FRAME_BYTES", "SCHEMA_TITLE", "ProtocolError", "parse_client",
    "parse_server", "dump",
    "turn_frame", "json_string", "wall_json", "cell", "wall", "to_location", "to_blockbar", "to_step", "step_judgement", "to_verdict",
    "json_schema",
]

MAX_FRAME_BYTES = 128 * 1024
"""The largest frame a server should accept (a 64 KiB XSB level fits with room to spare)."""
MAX_SERVER_FRAME_BYTES = 16 * 1024 * 1024
"""The largest frame a client should read from a server: a big tournament's table (about 270 bytes a row: 1,000
players make 267 KB) in ``standings``, or whole in a spectator's ``tournament_over``."""
SCHEMA_TITLE = f"Quoridor Arena protocol v{PROTOCOL_VERSION}"
"""The title of the JSON Schema document."""

# Built once: building a TypeAdapter compiles the validator, which takes milliseconds.
_CLIENT = TypeAdapter(ClientMessage)
_SERVER = TypeAdapter(ServerMessage)


def parse_client(data: str | bytes) -> ClientMessage:
    """The message in a frame a client sent; raises ``ProtocolError`` (and nothing else) for a bad frame."""
    return _parse(data, _CLIENT, CLIENT_MESSAGES, MAX_FRAME_BYTES)


def parse_server(data: str | bytes) -> ServerMessage:
    """The message in a frame a server sent (up to ``MAX_SERVER_FRAME_BYTES``); raises ``ProtocolError`` (and nothing
    else) for a bad frame."""
    message = _parse(data, _SERVER, SERVER_MESSAGES, MAX_SERVER_FRAME_BYTES)
    if isinstance(message, Welcome) and message.protocol != PROTOCOL_VERSION:
        raise ProtocolError("protocol_version", f"the server speaks protocol {message.protocol}, this client "
                                                f"speaks {PROTOCOL_VERSION}", "welcome")
    return message


def _parse(data: Any, adapter: TypeAdapter[Any], known: dict[str, type[Message]], limit: int) -> Any:
    if not isinstance(data, str):
        raise ProtocolError("binary_frame", "binary frames are not accepted: send JSON in text frames")
    if len(data) > limit:  # characters <= bytes, so this never refuses a frame within the limit
        raise ProtocolError("frame_too_large", f"the frame has {len(data)} characters; the limit is {limit} bytes")
    try:
        # strict: JSON types must match exactly ("5" is not an integer, 1.0 is not a turn number).
        return adapter.validate_json(data, strict=True)
    except ValidationError as error:
        raise _diagnose(data, error, known) from None


def _diagnose(data: str, error: ValidationError, known: dict[str, type[Message]]) -> ProtocolError:
    """The ProtocolError that says why ``data`` failed validation (the slow path: bad frames only)."""
    types = ", ".join(known)
    problems = error.errors(include_url=False)
    if problems[0]["type"] == "string_unicode" and not problems[0]["loc"]:
        # Lone surrogates: a str no UTF-8 frame can carry (websockets never delivers one).
        return ProtocolError("bad_json", "the frame is not valid JSON: it is not valid Unicode text")
    try:
        frame = pydantic_core.from_json(data)
    except ValueError as bad:
        return ProtocolError("bad_json", f"the frame is not valid JSON: {_first_line(bad)}")
    if not isinstance(frame, dict):
        return ProtocolError("not_an_object", f"a frame should be a JSON object, got {quote(frame)}")
    kind = frame.get("type")
    if kind is None:
        return ProtocolError("unknown_type", f'the frame has no "type"; expected one of {types}')
    if not isinstance(kind, str):
        return ProtocolError("unknown_type", f"the frame's type should be a string, one of {types} "
                                             f"(got {quote(kind)})")
    if kind not in known:
        return ProtocolError("unknown_type", f"unknown frame type {quote(kind)}; expected one of {types}",
                             kind[:64])
    if any(item["type"] == "protocol_version" for item in problems):
        return ProtocolError("protocol_version", f"this server speaks protocol {PROTOCOL_VERSION} only "
                                                 f"(got {quote(frame.get('protocol'))})", kind)
    fields = [item["loc"][-1] if item["loc"] else None for item in problems]
    if kind == "hello" and all(field in ("version", "concurrency") for field in fields):
        # The ladder's own hello fields get codes of their own: a client can tell what to fix.
        code = "bad_version" if fields[0] == "version" else "bad_concurrency"
        return ProtocolError(code, explain_invalid(known[kind], frame, error), kind)
    return ProtocolError("invalid_fields", explain_invalid(known[kind], frame, error), kind)


def _first_line(error: Exception) -> str:
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    return text.removeprefix("Invalid JSON: ")


def dump(message: ProtocolModel) -> str:
    """The frame for ``message``: compact JSON, every field included (None as null)."""
    return message.model_dump_json()


def turn_frame(game: str, turn: int, change: ChessboardChange, walls_left: tuple[int, int],
               time_limit_ms: int | None, judgement: StepVerdict | None = None) -> str:
    """``dump(Turn(...))`` for these fields, character for character, written directly (the server's hot path).

    ``judgement`` (the verdict on the receiver's previous step, ``None`` when it stood) is written
    as ``step_judgement`` gives it. Building and dumping the pydantic model costs more than the rest
    of a step's own work; the values come from the referee, so there is nothing to validate.
    ``tests/shared/protocol`` checks this against the model on generated turns.
    """
    x, y = change.my_loc
    ex, ey = change.enemy_loc
    enemy_wall = wall_json(change.new_enemy_wall)
    limit = "null" if time_limit_ms is None else time_limit_ms
    if judgement is None:
        verdict = "null"
    else:
        verdict = (f'{{"status":{int(judgement.status)},"cause":{json_string(str(judgement.cause))},'
                   f'"reason":{json_string(judgement.reason)},"thinking_ms":{judgement.thinking_ms}}}')
    return (f'{{"type":"turn","game":{json_string(game)},"turn":{turn},"status":{int(change.status)},'
            f'"my_loc":[{x},{y}],"enemy_loc":[{ex},{ey}],"enemy_wall":{enemy_wall},'
            f'"walls_left":[{walls_left[0]},{walls_left[1]}],"time_limit_ms":{limit},"judgement":{verdict}}}')


def wall_json(bar: BlockBar) -> str:
    """``bar`` as JSON, as pydantic writes a ``Wall`` (``null`` for the empty wall), for frames written directly."""
    if bar.is_none():
        return "null"
    (sx, sy), (tx, ty) = bar
    return f"[[{sx},{sy}],[{tx},{ty}]]"


@lru_cache(maxsize=4096)
def json_string(text: str) -> str:
    """``text`` as a JSON string, as pydantic writes a str: UTF-8 kept as it is, quotes, backslashes and control
    characters escaped (for frames written directly, such as ``turn_frame``)."""
    return json.dumps(text, ensure_ascii=False)


# --- conversions to and from the rules core -----------------------------------------------------

def cell(loc: Location) -> Cell:
    """The wire form ``(x, y)`` of a Location."""
    return (loc.x, loc.y)


def wall(bar: BlockBar) -> Wall | None:
    """The wire form of a BlockBar, end points in the order given; None for the empty wall."""
    if bar.is_none():
        return None
    return ((bar.start.x, bar.start.y), (bar.stop.x, bar.stop.y))


def to_location(value: Cell | None) -> Location:
    """The Location of a wire cell; None gives the empty location (-1, -1)."""
    return NO_LOCATION if value is None else Location(value[0], value[1])


def to_blockbar(value: Wall | None) -> BlockBar:
    """The BlockBar of a wire wall; None gives the empty wall."""
    if value is None:
        return NO_WALL
    return BlockBar(to_location(value[0]), to_location(value[1]))


def to_step(message: StepMessage) -> Step:
    """The rules core's Step for a ``step`` frame: move, wall, both (the referee counts it a move) or neither."""
    return Step(to_location(message.move), to_blockbar(message.wall))


def step_judgement(verdict: StepVerdict | None) -> StepJudgement | None:
    """The wire form (``turn.judgement``, ``game_over.judgement``) of the referee's verdict; None stays None."""
    if verdict is None:
        return None
    return StepJudgement(status=int(verdict.status), cause=str(verdict.cause), reason=verdict.reason,
                         thinking_ms=verdict.thinking_ms)


def to_verdict(judgement: StepJudgement | None) -> StepVerdict | None:
    """The rules core's ``StepVerdict`` of a wire ``judgement``; None stays None.

    A cause this version does not know (from a newer server) stays the plain string; a status that is
    no ``GameStatus`` raises ``ValueError``, as it does in ``GameStatus(turn.status)``.
    """
    if judgement is None:
        return None
    try:
        cause: Cause | str = Cause(judgement.cause)
    except ValueError:
        cause = judgement.cause
    return StepVerdict(GameStatus(judgement.status), cause, judgement.reason, judgement.thinking_ms)


# --- JSON Schema ---------------------------------------------------------------------------------

def json_schema() -> dict[str, Any]:
    """One JSON Schema (2020-12) document for every frame: ``$defs`` ClientMessage and ServerMessage."""
    schemas, top = TypeAdapter.json_schemas(
        [("ClientMessage", "validation", _CLIENT), ("ServerMessage", "validation", _SERVER)],
        title=SCHEMA_TITLE,
    )
    definitions = dict(top.get("$defs", {}))
    for key, mode in schemas:
        definitions[key] = {
            "description": f"Any frame a {'client' if key == 'ClientMessage' else 'server'} may send.",
            **schemas[(key, mode)],
        }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": SCHEMA_TITLE,
        "description": "Websocket text frames, one JSON object each, told apart by their \"type\". "
                       "Unknown fields must be ignored: later versions may add some.",
        "oneOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
        "$defs": definitions,
    }

"""The protocol's error codes, ``ProtocolError``, and short readable explanations of invalid frames.

A bot author reads these messages in a log, often from another language: they name the field, say
what was expected and quote what came, in one line, never pydantic's whole report.
"""

from __future__ import annotations

import json
import re
from types import NoneType, UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from .base import Cell, Wall
from .messages import ErrorMessage

__all__ = ["ERROR_CODES", "ProtocolError", "explain_invalid", "quote"]

ERROR_CODES: dict[str, str] = {
    "bad_json": "the frame is not valid JSON",
    "binary_frame": "a binary frame was sent; send JSON in text frames",
    "not_an_object": "the frame is JSON but not an object",
    "unknown_type": 'the frame has no "type", or a type this server does not know',
    "invalid_fields": "a field is missing, of the wrong type or out of range",
    "protocol_version": "hello asked for a protocol version this server does not speak",
    "hello_first": "the first frame of a connection must be hello",
    "already_hello": "hello was already sent on this connection",
    "unknown_key": "the key in hello is not registered on this server",
    "key_in_use": "another connection is already using this key",
    "not_a_player": "only a connection with the player role may send this frame",
    "not_a_spectator": "only a connection with the spectator role may send this frame",
    "wrong_room": "this frame belongs to another room than the one chosen in hello",
    "wrong_game": "the game id is not a game of yours (or is over)",
    "not_your_turn": "a step came when the server is not waiting for your step",
    "stale_turn": "the step answers a turn that is already over; it was discarded",
    "frame_too_large": "the frame is larger than the server accepts",
    "rate_limited": "too many frames in too short a time; slow down",
    "busy": "a puzzle room or the submissions cannot take this request now (earlier ones are still being "
            "answered, or every worker is busy); wait for the answers, then try again",
    "too_many_connections": "too many connections (from your address, or to this server)",
    "room_unavailable": "this server does not serve the requested room",
    "unknown_puzzle": "the puzzle id is unknown or expired",
    "bad_level": "the requested level does not exist or cannot be read",
    "bad_answer": "the answer is not in the form this room expects",
    "server_full": "the server accepts no more players",
    "unknown_game": "no game or log of that name on this server",
    "bad_log": "an uploaded game log cannot be read; the message says where, in one line",
    "internal_error": "the server failed while handling the frame; the frame was dropped",
    "bad_version": "the version in hello is not 1 to 64 printable ASCII characters without spaces",
    "bad_concurrency": "the concurrency in hello is not a whole number from 1 to 64",
    "paused": "the practice ladder paused your bot (too many games in a row with a violation or a timeout); "
              "reconnect to play again",
    "not_a_submitter": "only a connection with the submitter role may send this frame",
    "submission_too_large": "the bot's zip archive is larger than the server accepts (1 MiB by default)",
    "bad_zip": "the submitted archive is not valid base64 of a readable zip archive",
    "bad_part": "a submit part came out of order, or did not match the submission's first part",
    "unsafe_path": "a file in the archive has an absolute path, a '..' part, or is a link or a device",
    "too_many_files": "the archive holds more files than the server accepts",
    "no_python": "the archive holds no bot: no .py file, no C++ file, and no entry naming a program",
    "bad_entry": "the entry names no file of the archive (or none is named and the archive has several .py or C++ "
                 "files), or cannot be read",
    "sandbox_unavailable": "the server cannot run handed-in code now (its sandbox is unavailable); the message "
                           "says why",
    "already_asked": "final_table_request was already sent on this connection: it is taken once per connection",
    "no_compiler": "the server cannot build C++ bots (no g++ or no JSON headers: the message says what to install); "
                   "it still takes Python bots",
}
"""Every error code the server may send, with its meaning. Codes are stable: new ones may be added."""

_SUBJECT = re.compile(r"^(Input|String|Value|List|Tuple|Dictionary|Object) (?=should)")
_MAX_FIELDS = 3  # fields explained in one message; the rest are counted
_QUOTE_CHARS = 40


class ProtocolError(ValueError):
    """A frame that breaks the protocol: a stable ``code`` (one of ``ERROR_CODES``) and a message for people."""

    def __init__(self, code: str, message: str, frame_type: str | None = None) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown protocol error code {code!r} (expected one of {', '.join(ERROR_CODES)})")
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.frame_type = frame_type

    def to_message(self) -> ErrorMessage:
        """The ``error`` frame that reports this error to the client."""
        return ErrorMessage(code=self.code, message=self.message, frame_type=self.frame_type)


def quote(value: Any, limit: int = _QUOTE_CHARS) -> str:
    """``value`` as JSON text in ASCII (control characters escaped), cut to ``limit`` characters."""
    try:
        text = json.dumps(value, separators=(", ", ": "))  # ASCII: nothing can reach a terminal raw
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


# Singular and plural nouns for the types used in the models, to say what a field expected.
_NOUNS: dict[Any, tuple[str, str]] = {
    str: ("a string", "strings"), int: ("an integer", "integers"), float: ("a number", "numbers"),
    bool: ("true or false", "booleans"), NoneType: ("null", "nulls"), Any: ("any value", "values"),
    Cell: ("a cell [x, y] of integers -1..10", "cells [x, y]"),
    Wall: ("a wall [[x1, y1], [x2, y2]] of integers -1..10", "walls [[x1, y1], [x2, y2]]"),
}


def _nouns(annotation: Any) -> tuple[str, str]:
    try:
        if annotation in _NOUNS:
            return _NOUNS[annotation]
    except TypeError:  # an unhashable annotation: not one of ours
        pass
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        return _nouns(args[0])
    if origin in (Union, UnionType):
        singular, plural = zip(*(_nouns(arg) for arg in args))
        return _either(singular), _either(plural)
    if origin is Literal:
        text = " or ".join(json.dumps(arg) for arg in args)
        return text, text
    if origin is list:
        return f"an array of {_nouns(args[0])[1]}", "arrays"
    if origin is tuple and len(args) == 2 and args[0] == args[1]:
        return f"a pair of {_nouns(args[0])[1]}", "pairs"
    if origin is dict:
        return f"an object of {_nouns(args[1])[1]}", "objects"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return f"a {annotation.__name__} object", f"{annotation.__name__} objects"
    return str(annotation), str(annotation)


def _either(words: tuple[str, ...]) -> str:
    return ", ".join(words[:-1]) + " or " + words[-1]


def _path(loc: tuple[int | str, ...]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _sentence(item: dict[str, Any]) -> str:
    # pydantic's sentence says best what a constraint wants, once its subject ("Input", "String")
    # is replaced by the field's path.
    path = _path(item["loc"])
    if item["type"] == "missing":
        return f"{path} is missing"
    message = _SUBJECT.sub("", item["msg"], count=1)
    joint = " " if message.startswith("should") else ": "
    return f"{path}{joint}{message} (got {quote(item['input'])})"


def _explain_field(model: type[BaseModel], name: str, value: Any, errors: list[dict[str, Any]]) -> str:
    first = errors[0]
    missing = first["type"] == "missing" and first["loc"] == (name,)
    if len(errors) == 1 and (missing or first["type"] not in _TYPE_ERRORS):
        return _sentence(first)  # a constraint (range, length, literal, our checks), or a missing field
    field = model.model_fields.get(name)
    if field is None or _holds_model(field.annotation):
        return _sentence(first)  # inside a nested object: name the exact place
    # The wrong kind of value, maybe for a union (several errors): say what the field takes.
    return f"{name} should be {_nouns(field.annotation)[0]} (got {quote(value)})"


def _holds_model(annotation: Any) -> bool:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return True
    return any(_holds_model(arg) for arg in get_args(annotation))


# Errors about the kind of value (as opposed to a constraint on a value of the right kind).
_TYPE_ERRORS = frozenset({
    "int_type", "int_parsing", "int_from_float", "float_type", "float_parsing", "finite_number",
    "string_type", "bool_type", "list_type", "tuple_type", "dict_type", "model_type",
    "model_attributes_type", "too_short", "too_long", "missing", "none_required",
})


def explain_invalid(model: type[BaseModel], frame: dict[str, Any], error: ValidationError) -> str:
    """One line saying which fields of ``frame`` (a ``model`` frame) are wrong and what they should be."""
    by_field: dict[str, list[dict[str, Any]]] = {}
    for item in error.errors(include_url=False):
        loc = item["loc"]
        if loc and loc[0] == frame.get("type"):
            loc = loc[1:]  # the discriminated union puts the tag first
        item["loc"] = loc
        by_field.setdefault(str(loc[0]) if loc else "", []).append(item)
    parts = [_explain_field(model, name, frame.get(name), errors) for name, errors in by_field.items()]
    if len(parts) > _MAX_FIELDS:
        parts = [*parts[:_MAX_FIELDS], f"and {len(parts) - _MAX_FIELDS} more"]
    return f"invalid {frame.get('type')} frame: " + "; ".join(parts)

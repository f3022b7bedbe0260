"""The roster: who may play (key -> player name), and whose entry seats their handed-in bot.

Pure: ``parse_roster`` reads a roster's text (``server.cli`` reads the file). Two forms, told apart by
the first character: a JSON object, or lines ``KEY NAME [submission[:VERSION]]`` and ``KEY NAME organiser``
(``docs/roster.md``).
A mistake an organiser can make (a key no hello can carry, an empty name, a key listed twice) is a
``ValueError`` saying where, in one line.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Roster", "parse_roster"]


_KEY = re.compile(r"[!-~]{1,64}")  # what a hello may carry: printable ASCII, no spaces


def _check_entry(path: Path | str, where: str, key: object, name: object) -> None:
    # A key no hello can carry, or a name that is empty or holds control characters, is a typo
    # the organiser should hear about now, not when a team cannot log in.
    if not isinstance(key, str) or not isinstance(name, str):
        raise ValueError(f"roster {path}{where}: every key and name must be a string")
    if not _KEY.fullmatch(key):
        raise ValueError(f"roster {path}{where}: key {key!r} is not 1 to 64 printable ASCII characters "
                         "without spaces")
    if not name.strip() or not name.isprintable():
        raise ValueError(f"roster {path}{where}: the name of key {key!r} is empty or not printable")


def _json_object(path: Path | str, pairs: list[tuple[str, object]]) -> dict[str, object]:
    # json.loads keeps the last of two equal keys without a word; a roster must not.
    data: dict[str, object] = {}
    for key, value in pairs:
        if key in data:
            raise ValueError(f"roster {path}: key {key!r} is listed twice")
        data[key] = value
    return data


#: The last field of a roster line that seats the key's handed-in bot: ``submission`` (its newest accepted
#: version) or ``submission:VERSION`` (that version; the 12 hex digits ``quoridor-submit --list`` shows).
_SUBMISSION_FIELD = re.compile(r"(?P<name>.*?)[\s,]+(?P<field>submission(?::\S*)?)")
_VERSION = re.compile(r"[0-9a-f]{12}")
#: The last field of a roster line that makes the key an organiser's (the organiser's page; the key plays no games).
_ORGANISER_FIELD = re.compile(r"(?P<name>.*?)[\s,]+organiser")


@dataclass(frozen=True)
class Roster:
    """A roster as read: each key's player name, the keys whose entry names their handed-in bot, and the organisers'."""

    names: dict[str, str]
    #: key -> the version its entry names, or None for the key's newest accepted version.
    submissions: dict[str, str | None] = dataclasses.field(default_factory=dict)
    #: The organisers' keys (entries ``KEY NAME organiser``) -> their names: they open the organiser's page, never play.
    organisers: dict[str, str] = dataclasses.field(default_factory=dict)


def _version(where: str, text: str) -> str:
    version = text.strip().lower()
    if not _VERSION.fullmatch(version):
        raise ValueError(f"roster {where}: submission version {text!r} is not a version id (12 hex digits, as "
                         "quoridor-submit --list shows them)")
    return version


def _json_submission(where: str, key: str, value: object) -> str | None | bool:
    """What a JSON entry's ``"submission"`` names: its newest accepted version (None), a version, or nothing (False)."""
    if value is True:
        return None
    if value is False or value is None:
        return False
    if isinstance(value, str):
        return _version(where, value)
    raise ValueError(f"roster {where}: the \"submission\" of key {key!r} should be true or a version id, "
                     f"got {json.dumps(value)}")


def parse_roster(text: str, source: str = "roster") -> Roster:
    """A roster from its text (pure; ``source`` names it in errors): a JSON object, or lines ``KEY NAME``.

    JSON: ``{"key": "name"}``, where a value may also be ``{"name": "Team 7", "submission": true}`` (or
    a version id instead of ``true``), or ``{"name": "Ms Smith", "role": "organiser"}``. Lines: ``KEY NAME [submission[:VERSION]]``: the key ends at the
    first space or comma, the rest is the name, and a last field ``submission`` or ``submission:VERSION``
    (after a space or a comma) seats the key's handed-in bot, its newest accepted version or that one; a last
    field ``organiser`` makes the key an organiser's (``organisers``: it opens the organiser's page and plays no game).
    Blank lines and lines whose first non-blank character is ``#`` are skipped; anywhere else ``#`` is
    part of the key or the name. ``ValueError`` says what is wrong, in one line.
    """
    names: dict[str, str] = {}
    submissions: dict[str, str | None] = {}
    organisers: dict[str, str] = {}
    if text.lstrip().startswith(("{", "[")):
        try:
            data = json.loads(text, object_pairs_hook=lambda pairs: _json_object(source, pairs))
        except json.JSONDecodeError as exc:
            raise ValueError(f"roster {source} is not valid JSON: {exc.msg} at line {exc.lineno}") from None
        if not isinstance(data, dict):
            raise ValueError(f"roster {source}: expected a JSON object {{\"key\": \"name\"}}, "
                             f"got a {type(data).__name__}")
        for key, value in data.items():
            wanted: str | None | bool = False
            organiser = False
            if isinstance(value, dict):
                unknown = sorted(set(value) - {"name", "submission", "role"})
                if unknown or "name" not in value:
                    raise ValueError(f"roster {source}: the entry of key {key!r} should be a name, or an object "
                                     f"with \"name\" and \"submission\" (true or a version id) or \"role\", got "
                                     f"{json.dumps(value)}")
                role = value.get("role", "player")
                if role not in ("player", "organiser"):
                    raise ValueError(f"roster {source}: the \"role\" of key {key!r} should be \"player\" or "
                                     f"\"organiser\", got {json.dumps(role)}")
                organiser = role == "organiser"
                wanted = _json_submission(source, key, value.get("submission", False))
                if organiser and wanted is not False:
                    raise ValueError(f"roster {source}: key {key!r} is an organiser's: it hands in no bot to seat "
                                     "(drop its \"submission\")")
                value = value["name"]
            _check_entry(source, "", key, value)
            if organiser:
                organisers[key] = value.strip()  # type: ignore[union-attr]
                continue
            names[key] = value.strip()  # type: ignore[union-attr]
            if wanted is not False:
                submissions[key] = wanted  # type: ignore[assignment]
    else:
        for number, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            # A comment is a whole line: keys and names may hold '#' ("k3y Team #7" is team "Team #7").
            if not line or line.startswith("#"):
                continue
            # The key ends at the first space or comma; the rest (spaces, commas and all) is the name.
            parts = re.split(r"[\s,]+", line, maxsplit=1)
            if len(parts) != 2 or not parts[1].strip():
                raise ValueError(f"roster {source} line {number}: expected 'KEY NAME', got {line!r}")
            key, name = parts[0], parts[1].strip()
            if key in names or key in organisers:
                raise ValueError(f"roster {source} line {number}: key {key!r} is listed twice")
            chief = _ORGANISER_FIELD.fullmatch(name)
            if chief is not None and chief["name"].strip(" ,"):        # "k1 organiser" is the team "organiser"
                name = chief["name"].strip(" ,")
                _check_entry(source, f" line {number}", key, name)
                organisers[key] = name
                continue
            marked = _SUBMISSION_FIELD.fullmatch(name)
            if marked is not None and marked["name"].strip(" ,"):       # "k1 submission" is the team "submission"
                name, spec = marked["name"].strip(" ,"), marked["field"]
                _, _, version = spec.partition(":")
                submissions[key] = _version(f"{source} line {number}", version) if ":" in spec else None
            _check_entry(source, f" line {number}", key, name)
            names[key] = name
    if not names:
        raise ValueError(f"roster {source} lists no players")
    return Roster(names, submissions, organisers)

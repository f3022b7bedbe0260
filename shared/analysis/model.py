"""The analysis as values: ``PlyAnalysis`` per step, ``PlayerSummary`` per seat, ``GameAnalysis`` and its JSON form.

The JSON form (``GameAnalysis.to_json``) is the one the server's store, the pages, ``quoridor-replay --json``
and the reports share: plain dicts, lists, strings and numbers; ``from_json`` reads it back and refuses,
with a one-line ``ValueError``, anything that is not that form.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["LABELS", "THRESHOLDS", "VIOLATION", "PlyAnalysis", "PlayerSummary", "GameAnalysis"]

#: The labels of a step by its drop in winning chance, mildest first (Lichess's names).
LABELS = ("inaccuracy", "mistake", "blunder")
#: The smallest drop (on the -1..1 scale) that earns each of ``LABELS``: Lichess's thresholds.
THRESHOLDS = (0.1, 0.2, 0.3)
#: The label of a row that timed out or sent an illegal step (the turn passed).
VIOLATION = "violation"
_ALL_LABELS = (*LABELS, VIOLATION)


@dataclass(frozen=True)
class PlyAnalysis:
    """One step of the game: the mover's chances with the engine's best and with the played step, and the facts."""

    #: 1-based: the log's step rows in order.
    ply: int
    #: Who stepped (0 or 1).
    seat: int
    #: The step in notation (``step_name``); ``""`` for a row that sent no step that stood (timeout, violation).
    played: str
    #: The engine's best step in notation; ``None`` when the game was already over (or nothing was legal).
    best: str | None
    #: The mover's winning chance (-1..1) with the best step, and after the played one.
    chance_before: float
    chance_after: float
    #: ``chance_before - chance_after``, at least 0 (0 for the engine's own step).
    drop: float
    #: One of ``LABELS`` by ``THRESHOLDS``, ``"violation"`` for a timed-out or illegal row, else ``None``.
    label: str | None
    #: Shortest path lengths of seat 0 and seat 1 before and after the step (-1: cut off, only in rows
    #: drawn as an inconsistent log gives them).
    paths_before: tuple[int, int]
    paths_after: tuple[int, int]
    #: Walls left to seat 0 and seat 1 after the step.
    walls_left: tuple[int, int]
    #: A plain sentence for a labelled step (``reasons.step_reason``, or the violation's own reason); else ``None``.
    reason: str | None

    def to_json(self) -> dict[str, Any]:
        """This step as a JSON object (pairs as lists)."""
        return {"ply": self.ply, "seat": self.seat, "played": self.played, "best": self.best,
                "chance_before": self.chance_before, "chance_after": self.chance_after, "drop": self.drop,
                "label": self.label, "paths_before": list(self.paths_before), "paths_after": list(self.paths_after),
                "walls_left": list(self.walls_left), "reason": self.reason}

    @classmethod
    def from_json(cls, data: Any) -> PlyAnalysis:
        """The step of a JSON object made by ``to_json``; ``ValueError`` for anything else."""
        obj = _object(data, "a ply")
        label = _optional(obj, "label", str, "a ply")
        if label is not None and label not in _ALL_LABELS:
            raise ValueError(f"a ply's label {label!r} is not one of {', '.join(_ALL_LABELS)}")
        return cls(ply=_field(obj, "ply", int, "a ply"), seat=_seat(obj, "a ply"),
                   played=_field(obj, "played", str, "a ply"), best=_optional(obj, "best", str, "a ply"),
                   chance_before=_number(obj, "chance_before"), chance_after=_number(obj, "chance_after"),
                   drop=_number(obj, "drop"), label=label, paths_before=_pair(obj, "paths_before"),
                   paths_after=_pair(obj, "paths_after"), walls_left=_pair(obj, "walls_left"),
                   reason=_optional(obj, "reason", str, "a ply"))


@dataclass(frozen=True)
class PlayerSummary:
    """One seat's play: its accuracy (0..100), its steps counted by label, and the plies of its three worst steps."""

    seat: int
    #: The player's name in the log's header.
    name: str
    #: 0..100: the mean of its steps' accuracies (``game.step_accuracy``, Lichess's formula).
    accuracy: float
    #: Its steps by label: each of ``LABELS`` and ``"violation"``, zeros included.
    counts: dict[str, int]
    #: The plies of its (at most) three steps with the largest drops, worst first; steps that lost nothing are left out.
    worst: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """This summary as a JSON object."""
        return {"seat": self.seat, "name": self.name, "accuracy": self.accuracy, "counts": dict(self.counts),
                "worst": list(self.worst)}

    @classmethod
    def from_json(cls, data: Any) -> PlayerSummary:
        """The summary of a JSON object made by ``to_json``; ``ValueError`` for anything else."""
        obj = _object(data, "a player")
        counts = _object(obj.get("counts"), "a player's counts")
        if set(counts) != set(_ALL_LABELS) or not all(_is_int(v) and v >= 0 for v in counts.values()):
            raise ValueError(f"a player's counts must count each of {', '.join(_ALL_LABELS)}, got {counts!r}")
        worst = obj.get("worst")
        if not isinstance(worst, list) or not all(_is_int(p) and p >= 1 for p in worst) or len(worst) > 3:
            raise ValueError(f"a player's worst steps must be a list of at most 3 plies, got {worst!r}")
        return cls(seat=_seat(obj, "a player"), name=_field(obj, "name", str, "a player"),
                   accuracy=_number(obj, "accuracy"), counts={k: counts[k] for k in _ALL_LABELS}, worst=tuple(worst))


@dataclass(frozen=True)
class GameAnalysis:
    """A game analysed: the engine's version and node budget, every step, and both players' summaries."""

    engine: str
    nodes: int
    plies: tuple[PlyAnalysis, ...]
    players: tuple[PlayerSummary, PlayerSummary]

    def to_json(self) -> dict[str, Any]:
        """The one JSON form of an analysis (see the module doc)."""
        return {"engine": self.engine, "nodes": self.nodes, "plies": [p.to_json() for p in self.plies],
                "players": [p.to_json() for p in self.players]}

    @classmethod
    def from_json(cls, data: Any) -> GameAnalysis:
        """The analysis of its JSON form (keys beyond the form's, like a store's ``key``, are ignored)."""
        obj = _object(data, "an analysis")
        plies, players = obj.get("plies"), obj.get("players")
        if not isinstance(plies, list):
            raise ValueError(f"an analysis's plies must be a list, got {plies!r:.60}")
        if not isinstance(players, list) or len(players) != 2:
            raise ValueError(f"an analysis has two players, got {players!r:.60}")
        nodes = _field(obj, "nodes", int, "an analysis")
        return cls(engine=_field(obj, "engine", str, "an analysis"), nodes=nodes,
                   plies=tuple(PlyAnalysis.from_json(p) for p in plies),
                   players=(PlayerSummary.from_json(players[0]), PlayerSummary.from_json(players[1])))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _object(data: Any, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ValueError(f"{what} must be a JSON object, got {data!r:.60}")
    return data


def _field(obj: dict[str, Any], key: str, kind: type, what: str) -> Any:
    value = obj.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ValueError(f"{what}'s {key!r} must be a {kind.__name__}, got {value!r:.60}")
    return value


def _optional(obj: dict[str, Any], key: str, kind: type, what: str) -> Any:
    return None if obj.get(key) is None else _field(obj, key, kind, what)


def _number(obj: dict[str, Any], key: str) -> float:
    value = obj.get(key)
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise ValueError(f"{key!r} must be a number, got {value!r:.60}")
    return float(value)


def _seat(obj: dict[str, Any], what: str) -> int:
    seat = obj.get("seat")
    if seat not in (0, 1) or isinstance(seat, bool):
        raise ValueError(f"{what}'s seat must be 0 or 1, got {seat!r:.60}")
    return int(seat)


def _pair(obj: dict[str, Any], key: str) -> tuple[int, int]:
    value = obj.get(key)
    if not isinstance(value, list) or len(value) != 2 or not all(_is_int(v) for v in value):
        raise ValueError(f"{key!r} must be two integers, got {value!r:.60}")
    return value[0], value[1]

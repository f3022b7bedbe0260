"""Building blocks of the wire protocol: coordinates on the wire and the common model bases.

A cell is the JSON array ``[x, y]`` and a wall ``[[x1, y1], [x2, y2]]`` (either point order), as in
``quoridor-rules.md``. The protocol checks only that coordinates are integers in a sane range; the
referee judges whether a cell or a wall is legal, so a bot asking for ``[10, 5]`` earns an
``InvalidStep`` violation rather than an ``error`` frame.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["COORD_MIN", "COORD_MAX", "Coord", "Cell", "Wall", "ProtocolModel", "Message"]

COORD_MIN = -1
"""Smallest coordinate the protocol accepts (-1 is the handout's "no cell")."""
COORD_MAX = 10
"""Largest coordinate the protocol accepts (one past the board, so off-board moves reach the referee)."""

Coord = Annotated[int, Field(ge=COORD_MIN, le=COORD_MAX)]
"""One coordinate of a cell or of a wall's end point."""
Cell = tuple[Coord, Coord]
"""A cell ``(x, y)``, JSON ``[x, y]``: x = 1..9 left to right, y = 1..9 bottom to top."""
Wall = tuple[Cell, Cell]
"""A wall by its two end points on the grid lines, JSON ``[[x1, y1], [x2, y2]]``, either order."""


def _require_type(schema: dict[str, Any]) -> None:
    # The discriminator has a default so Python callers can omit it, but on the wire it is the one
    # field every frame must carry: the schema says so, whatever pydantic infers from the default.
    if "type" in schema.get("properties", {}):
        schema["required"] = ["type", *(name for name in schema.get("required", []) if name != "type")]


class ProtocolModel(BaseModel):
    """Base of every protocol model: immutable, and unknown fields are ignored (later versions may add some)."""

    # allow_inf_nan=False: JSON has no NaN or Infinity, so a float field never carries one.
    model_config = ConfigDict(extra="ignore", frozen=True, allow_inf_nan=False)


class Message(ProtocolModel):
    """Base of the frames: each subclass declares ``type: Literal[...]`` with its own name as default."""

    model_config = ConfigDict(json_schema_extra=_require_type)

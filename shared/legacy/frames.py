"""The course's original binary TCP protocol (``legacy-tcp.md``), sans I/O: bytes in, frames out.

Every message has a fixed size given by its first field; all integers are signed 32-bit
big-endian. Client -> server: the key frame (68 bytes: ``1`` + 64-byte key) once, then step
frames (92 bytes: ``2`` + the key + ``x, y, x1, y1, x2, y2``). Server -> client: board changes
(44 bytes: ``1002, 0, status, myX, myY, enemyX, enemyY, bx1, by1, bx2, by2``) and the close
frame (8 bytes: ``1001, -1``). The server never answers the key frame.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from ..quoridor.types import NO_LOCATION, BlockBar, ChessboardChange, GameStatus, Location, Step

__all__ = [
    "KEY_FRAME", "STEP_FRAME", "BOARD_FRAME", "CLOSE_FRAME", "KEY_BYTES", "LegacyProtocolError", "KeyFrame",
    "StepFrame", "LegacyDecoder", "encode_key", "encode_step", "encode_board_change", "encode_close",
    "decode_server_frame", "name_from_key",
]

KEY_FRAME, STEP_FRAME, BOARD_FRAME, CLOSE_FRAME = 1, 2, 1002, 1001
KEY_BYTES = 64
_KEY = struct.Struct(">i64s")
_STEP = struct.Struct(">i64s6i")
_BOARD = struct.Struct(">11i")
_CLOSE = struct.Struct(">2i")
_ID = struct.Struct(">i")


class LegacyProtocolError(ValueError):
    """Bytes that are not a frame of the legacy protocol (wrong id, bad key, key sent twice, ...)."""


@dataclass(frozen=True)
class KeyFrame:
    """The first frame of a connection: the 64-byte key, as text."""

    key: str


@dataclass(frozen=True)
class StepFrame:
    """A step: a move when ``x != -1``, else a wall ``((x1, y1), (x2, y2))`` (all -1: nothing)."""

    key: str
    x: int
    y: int
    x1: int
    y1: int
    x2: int
    y2: int

    def step(self) -> Step:
        """The ``Step`` this frame carries (a move wins over a wall, as the old server read it)."""
        if self.x != -1:
            return Step(Location(self.x, self.y))
        wall = BlockBar(Location(self.x1, self.y1), Location(self.x2, self.y2))
        return Step(NO_LOCATION, wall)


def _key_text(raw: bytes) -> str:
    try:
        return raw.decode("ascii")
    except UnicodeDecodeError:
        raise LegacyProtocolError("the key is not ASCII text") from None


def name_from_key(key: str) -> str:
    """The display name the old server derived from a key: the text before the first ``_``."""
    name = key.split("_", 1)[0].strip()
    return name or "PLAYER"


class LegacyDecoder:
    """Turns the bytes a legacy client sends into frames: a key frame first, then step frames."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self.key: str | None = None

    def feed(self, data: bytes) -> list[KeyFrame | StepFrame]:
        """Take in bytes; return every complete frame. Raises ``LegacyProtocolError`` on garbage."""
        self._buffer += data
        frames: list[KeyFrame | StepFrame] = []
        while len(self._buffer) >= _ID.size:
            (frame_id,) = _ID.unpack_from(self._buffer)
            if frame_id == KEY_FRAME:
                if self.key is not None:
                    raise LegacyProtocolError("a second key frame on the same connection")
                if len(self._buffer) < _KEY.size:
                    break
                _, raw = _KEY.unpack_from(self._buffer)
                del self._buffer[:_KEY.size]
                self.key = _key_text(raw)
                frames.append(KeyFrame(self.key))
            elif frame_id == STEP_FRAME:
                if self.key is None:
                    raise LegacyProtocolError("a step frame before the key frame")
                if len(self._buffer) < _STEP.size:
                    break
                _, raw, *numbers = _STEP.unpack_from(self._buffer)
                del self._buffer[:_STEP.size]
                frames.append(StepFrame(_key_text(raw), *numbers))
            else:
                raise LegacyProtocolError(f"unknown frame id {frame_id} (expected {KEY_FRAME} or {STEP_FRAME})")
        return frames

    @property
    def pending(self) -> int:
        """Bytes received that do not yet form a whole frame (a short read at close is an error)."""
        return len(self._buffer)


def encode_key(key: str) -> bytes:
    """A key frame: the key padded with ``_`` (or cut) to 64 bytes, as the old client sent it."""
    raw = key.encode("ascii")[:KEY_BYTES].ljust(KEY_BYTES, b"_")
    return _KEY.pack(KEY_FRAME, raw)


def encode_step(key: str, step: Step) -> bytes:
    """A step frame for ``step`` (a client's side of the protocol; used by tests and tools)."""
    raw = key.encode("ascii")[:KEY_BYTES].ljust(KEY_BYTES, b"_")
    if step.new_loc.is_valid() or (not step.new_loc.is_nan()):
        numbers = (step.new_loc.x, step.new_loc.y, -1, -1, -1, -1)
    else:
        wall = step.new_wall
        numbers = (-1, -1, wall.start.x, wall.start.y, wall.stop.x, wall.stop.y)
    return _STEP.pack(STEP_FRAME, raw, *numbers)


def encode_board_change(change: ChessboardChange) -> bytes:
    """A 44-byte board change (auth state 0)."""
    wall = change.new_enemy_wall
    return _BOARD.pack(BOARD_FRAME, 0, int(change.status), change.my_loc.x, change.my_loc.y,
                       change.enemy_loc.x, change.enemy_loc.y, wall.start.x, wall.start.y, wall.stop.x, wall.stop.y)


def encode_close() -> bytes:
    """The 8-byte close frame that ends the contest."""
    return _CLOSE.pack(CLOSE_FRAME, -1)


def decode_server_frame(data: bytes) -> tuple[ChessboardChange | None, int]:
    """Decode one server frame from the start of ``data``: ``(change, size)``, or ``(None, 8)`` for close.

    Raises ``LegacyProtocolError`` for an unknown id and ``ValueError`` when ``data`` is too short.
    """
    (frame_id,) = _ID.unpack_from(data)
    if frame_id == CLOSE_FRAME:
        return None, _CLOSE.size
    if frame_id != BOARD_FRAME:
        raise LegacyProtocolError(f"unknown server frame id {frame_id}")
    if len(data) < _BOARD.size:
        raise ValueError("a board change needs 44 bytes")
    _, _, status, mx, my, ex, ey, x1, y1, x2, y2 = _BOARD.unpack_from(data)
    return ChessboardChange(GameStatus(status), Location(mx, my), Location(ex, ey),
                            BlockBar(Location(x1, y1), Location(x2, y2))), _BOARD.size

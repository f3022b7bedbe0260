"""The course's original binary TCP protocol, as pure encode/decode functions (``legacy-tcp.md``)."""

from .frames import (
    BOARD_FRAME, CLOSE_FRAME, KEY_BYTES, KEY_FRAME, STEP_FRAME, KeyFrame, LegacyDecoder, LegacyProtocolError,
    StepFrame, decode_server_frame, encode_board_change, encode_close, encode_key, encode_step, name_from_key,
)

__all__ = [
    "BOARD_FRAME", "CLOSE_FRAME", "KEY_BYTES", "KEY_FRAME", "STEP_FRAME", "KeyFrame", "LegacyDecoder",
    "LegacyProtocolError", "StepFrame", "decode_server_frame", "encode_board_change", "encode_close", "encode_key",
    "encode_step", "name_from_key",
]

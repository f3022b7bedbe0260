"""The legacy binary frames, byte by byte (legacy-tcp.md)."""

import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.legacy import (
    KeyFrame, LegacyDecoder, LegacyProtocolError, StepFrame, decode_server_frame, encode_board_change, encode_close,
    encode_key, encode_step, name_from_key,
)
from shared.quoridor import BlockBar, ChessboardChange, GameStatus, Location, Step

KEY = "193304BASELINE_A1B2C3D4E5F6"


def test_key_frame_is_68_bytes_big_endian_and_padded_with_underscores():
    frame = encode_key(KEY)
    assert len(frame) == 68
    assert frame[:4] == b"\x00\x00\x00\x01"
    assert frame[4:4 + len(KEY)] == KEY.encode() and frame[-1:] == b"_"
    assert encode_key("X" * 80)[4:] == b"X" * 64          # cut to 64 bytes


def test_step_frame_layout():
    move = encode_step(KEY, Step.move(5, 2))
    assert len(move) == 92
    assert struct.unpack(">i", move[:4]) == (2,)
    assert struct.unpack(">6i", move[68:]) == (5, 2, -1, -1, -1, -1)
    wall = encode_step(KEY, Step.wall(4, 1, 6, 1))
    assert struct.unpack(">6i", wall[68:]) == (-1, -1, 4, 1, 6, 1)
    assert struct.unpack(">6i", encode_step(KEY, Step())[68:]) == (-1,) * 6


def test_board_change_and_close_layout():
    change = ChessboardChange(GameStatus.INVALID_STEP, Location(5, 1), Location(5, 9), BlockBar.of(4, 7, 6, 7))
    data = encode_board_change(change)
    assert len(data) == 44
    assert struct.unpack(">11i", data) == (1002, 0, 7, 5, 1, 5, 9, 4, 7, 6, 7)
    assert decode_server_frame(data) == (change, 44)
    assert encode_close() == struct.pack(">2i", 1001, -1)
    assert decode_server_frame(encode_close()) == (None, 8)


def test_decoder_reassembles_frames_split_anywhere():
    data = encode_key(KEY) + encode_step(KEY, Step.move(5, 2)) + encode_step(KEY, Step.wall(4, 1, 6, 1))
    for cut in range(1, len(data)):
        decoder = LegacyDecoder()
        frames = decoder.feed(data[:cut]) + decoder.feed(data[cut:])
        assert [type(f) for f in frames] == [KeyFrame, StepFrame, StepFrame]
        assert frames[1].step() == Step.move(5, 2) and frames[2].step() == Step.wall(4, 1, 6, 1)
        assert decoder.pending == 0


def test_a_step_with_both_a_cell_and_a_wall_is_a_move():
    frame = StepFrame(KEY, 5, 2, 4, 1, 6, 1)
    assert frame.step() == Step.move(5, 2)


@pytest.mark.parametrize("data, problem", [
    (struct.pack(">i", 7) + b"\x00" * 64, "unknown frame id 7"),
    (encode_step(KEY, Step.move(5, 2)), "before the key"),
    (encode_key(KEY) + encode_key(KEY), "second key"),
    (struct.pack(">i", 1) + b"\xff" * 64, "not ASCII"),
])
def test_garbage_is_refused_with_a_reason(data, problem):
    with pytest.raises(LegacyProtocolError, match=problem):
        LegacyDecoder().feed(data)


def test_short_reads_stay_pending():
    decoder = LegacyDecoder()
    assert decoder.feed(encode_key(KEY)[:30]) == []
    assert decoder.pending == 30


def test_names_come_from_the_key():
    assert name_from_key("193304BASELINE_A1B2C3D4E5F6______") == "193304BASELINE"
    assert name_from_key("_____") == "PLAYER"


@given(st.binary(max_size=300))
def test_the_decoder_never_fails_except_with_its_own_error(data):
    decoder = LegacyDecoder()
    try:
        decoder.feed(data)
    except LegacyProtocolError:
        pass

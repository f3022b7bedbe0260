"""The one reader of a log's contents: the size cap at its boundary, a BOM, bad UTF-8, binary data, non-logs."""

from pathlib import Path

import pytest

from shared.gamelog import MAX_LOG_BYTES, GameHeader, GameLog, LogFormatError, StepRecord, format_log, read_log_data
from shared.quoridor import GameStatus, Step

LEGACY = Path(__file__).parent / "legacy"


def a_log() -> GameLog:
    steps = [StepRecord("alice", Step.move(5, 2), GameStatus.OK, 120, 0),
             StepRecord("bob", Step.wall(4, 7, 6, 7), GameStatus.OK, 340, 1)]
    return GameLog(GameHeader(("alice", "bob"), game="g-1"), steps)


def padded(size: int) -> bytes:
    """Our log, then blank lines up to ``size`` bytes: a game log of exactly that size."""
    data = format_log(a_log()).encode("utf-8")
    return data + b"\n" * (size - len(data))


def refusal(data: bytes | str, name: str = "game.csv") -> LogFormatError:
    with pytest.raises(LogFormatError) as caught:
        read_log_data(data, name)
    assert "\n" not in str(caught.value) and str(caught.value).startswith(" ".join(name.split()))
    return caught.value


def test_a_log_of_the_cap_is_read_and_one_byte_more_is_refused():
    assert read_log_data(padded(MAX_LOG_BYTES), "game.csv").steps == a_log().steps
    error = refusal(padded(MAX_LOG_BYTES + 1))
    assert error.line is None and f"more than {MAX_LOG_BYTES} bytes, far too large for a game log" in error.problem


def test_text_is_capped_by_its_utf8_bytes_not_its_characters():
    header = format_log(a_log())
    fill = MAX_LOG_BYTES - len(header.encode("utf-8"))
    assert read_log_data(header + "\n" * fill, "upload.csv").steps == a_log().steps
    two_bytes = header.replace("alice", "alicé")                  # one character more than its bytes
    assert len(two_bytes) + fill == MAX_LOG_BYTES
    assert "far too large" in refusal(two_bytes + "\n" * fill, "upload.csv").problem


def test_a_byte_order_mark_and_crlf_lines_are_read():
    data = format_log(a_log()).replace("\n", "\r\n").encode("utf-8")
    assert read_log_data(b"\xef\xbb\xbf" + data, "windows.csv") == read_log_data(data, "windows.csv")
    legacy = (LEGACY / "server_0_DEFENSIVE_VS_BASELINE.csv").read_bytes()
    assert len(read_log_data(b"\xef\xbb\xbf" + legacy, "old.csv").steps) == 87


def test_bad_utf8_names_the_line_the_byte_and_its_offset():
    data = format_log(a_log()).encode("utf-8")
    bad = data + "Jürgen,5,2,-1,-1,-1,-1,0\n".encode("latin-1")
    error = refusal(bad)
    assert error.line == data.count(b"\n") + 1
    assert error.problem == f"not UTF-8 text (byte 0xfc at offset {len(data) + 1}); a game log is CSV text"
    with_bom = refusal(b"\xef\xbb\xbf" + bad)                       # the offset counts the mark's three bytes
    assert f"at offset {len(data) + 4}" in with_bom.problem


@pytest.mark.parametrize("data", [b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "\x89PNG\r\n\x1a\n\x00IHDR"],
                         ids=["bytes", "text"])
def test_binary_data_is_refused_at_its_nul(data):
    error = refusal(data)
    assert error.line == 3 and error.problem == "binary data (a NUL byte at offset 8); a game log is CSV text"


@pytest.mark.parametrize("data, line, problem", [
    (b"", 1, "empty file"),
    (b"\n \n", 1, "empty file"),
    (b'{"logFile": "log.csv"}\n', 1, "missing column(s)"),
    (b"Dear diary,\ntoday I played Quoridor.\n", 1, "missing column(s)"),
    (format_log(a_log()).encode("utf-8") + b"a,5,2\n", format_log(a_log()).count("\n") + 1,
     "3 fields, but the header line names"),
], ids=["empty", "blank", "json", "prose", "short row"])
def test_what_is_not_a_log_is_refused_in_one_line_naming_the_line(data, line, problem):
    error = refusal(data, "notes.txt")
    assert error.line == line and problem in error.problem and str(error).startswith(f"notes.txt, line {line}: ")



def test_a_name_on_several_lines_is_told_on_one():
    error = refusal(b"", "my\ngame\r\n.csv")
    assert str(error).startswith("my game .csv, line 1: empty file")
    assert "far too large" in refusal("x" * (MAX_LOG_BYTES + 1), "up\nload.csv").problem

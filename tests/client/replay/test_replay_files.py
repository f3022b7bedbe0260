"""Reading files: every kind of bad file gives one line naming the file and the line, and exit code 1."""

from __future__ import annotations

import pytest

from client.replay import LogFileSource, ReplayFileError, read_log_file
from client.replay.cli import main
from tests.client.replay.helpers import legacy, write_small_log

HEADER = b"player,newLoc_x,newLoc_y,newBar_start_x,newBar_start_y,newBar_stop_x,newBar_stop_y,status\n"

BAD_FILES = {
    "empty": (b"", "line 1: empty file"),
    "blank": (b"\n\n  \n", "line 1: empty file"),
    "json": (b'{"player": "alice", "moves": []}\n', "line 1: missing column(s)"),
    "prose": (b"Dear diary,\ntoday I played Quoridor.\n", "line 1: missing column(s)"),
    "wrong columns": (b"name,x,y\nalice,5,2\n", "line 1: missing column(s) player, newLoc_x"),
    "binary": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "line 3: binary data (a NUL byte at offset 8)"),
    "latin-1": (HEADER + "Jürgen,5,2,-1,-1,-1,-1,0\n".encode("latin-1"), "line 2: not UTF-8 text (byte 0xfc"),
    "bad number": (HEADER + b"a,5,2,-1,-1,-1,-1,0\nb,5,8,-1,-1,-1,-1,0\na,x,3,-1,-1,-1,-1,0\n",
                   "line 4: column newLoc_x is 'x', expected an integer"),
    "short row": (HEADER + b"a,5,2,-1,-1,-1,-1,0\nb,5,8\n", "line 3: 3 fields, but the header line names 8 columns"),
    "bad status": (HEADER + b"a,5,2,-1,-1,-1,-1,42\n", "line 2: status 42 is not a game status"),
    "one player": (HEADER + b"a,5,2,-1,-1,-1,-1,0\n", "line 2: only one player name"),
    "bad quoting": (HEADER + b'a,5,2,-1,-1,-1,-1,"0\n', "not readable as CSV"),
}


@pytest.fixture(params=sorted(BAD_FILES), ids=str)
def bad_file(request, tmp_path):
    data, expected = BAD_FILES[request.param]
    path = tmp_path / "game.csv"
    path.write_bytes(data)
    return path, expected


def test_bad_files_raise_one_line_naming_the_line(bad_file):
    path, expected = bad_file
    with pytest.raises(ReplayFileError) as info:
        read_log_file(path)
    message = str(info.value)
    assert message.startswith(str(path)) and expected in message and "\n" not in message


def test_bad_files_exit_1_with_one_line_and_no_traceback(bad_file, capsys):
    path, expected = bad_file
    for extra in ([], ["--print"], ["--svg", str(path.with_suffix(".svg"))]):
        assert main([str(path), *extra]) == 1
        captured = capsys.readouterr()
        assert captured.out == ""
        lines = captured.err.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"quoridor-replay: {path}") and expected in lines[0]
        assert "Traceback" not in captured.err
    assert not path.with_suffix(".svg").exists()


def test_missing_and_huge_files(tmp_path, capsys):
    assert main([str(tmp_path / "nope.csv")]) == 1
    assert "nope.csv: cannot read it: No such file or directory" in capsys.readouterr().err
    huge = tmp_path / "huge.csv"
    with huge.open("wb") as handle:
        handle.truncate(9 * 1024 * 1024)      # sparse: no time spent writing
    with pytest.raises(ReplayFileError, match="far too large for a game log"):
        read_log_file(huge)


def test_good_files_of_every_kind_are_read(tmp_path):
    ours = LogFileSource(write_small_log(tmp_path))
    assert list(ours.games) == ["g7.csv"] and ours.games["g7.csv"].players == ("alice", "bob")
    for name in ("client_example.csv", "server_0_DEFENSIVE_VS_BASELINE.csv"):
        assert len(LogFileSource(legacy(name)).games) == 1
    with_bom = tmp_path / "bom.csv"
    with_bom.write_bytes(b"\xef\xbb\xbf" + legacy("server_0_DEFENSIVE_VS_BASELINE.csv").read_bytes())
    assert len(read_log_file(with_bom).steps) == 87

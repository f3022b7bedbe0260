"""Reading files: every kind of bad file (special files too) gives one line naming the file, and exit code 1."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from client.replay import LogFileSource, read_log_file
from client.replay.cli import main
from shared.gamelog import MAX_LOG_BYTES, LogFormatError
from tests.client.replay.helpers import ROOT, legacy, write_small_log

try:
    import resource
except ImportError:        # not POSIX: no FIFOs, no memory cap
    resource = None

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
    with pytest.raises(LogFormatError) as info:
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
    with pytest.raises(LogFormatError, match="far too large for a game log"):
        read_log_file(huge)


def test_good_files_of_every_kind_are_read(tmp_path):
    ours = LogFileSource(write_small_log(tmp_path))
    assert list(ours.games) == ["g7.csv"] and ours.games["g7.csv"].players == ("alice", "bob")
    for name in ("client_example.csv", "server_0_DEFENSIVE_VS_BASELINE.csv"):
        assert len(LogFileSource(legacy(name)).games) == 1
    with_bom = tmp_path / "bom.csv"
    with_bom.write_bytes(b"\xef\xbb\xbf" + legacy("server_0_DEFENSIVE_VS_BASELINE.csv").read_bytes())
    assert len(read_log_file(with_bom).steps) == 87


def run_cli_limited(*argv: str) -> subprocess.CompletedProcess:
    """``quoridor-replay`` in a child process whose memory is capped: a file read without bound fails, not the box."""
    def cap_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 * 1024 ** 3, 2 * 1024 ** 3))

    return subprocess.run([sys.executable, "-c", "import sys; from client.replay.cli import main; sys.exit(main())",
                           *argv], cwd=ROOT, capture_output=True, text=True, timeout=120, preexec_fn=cap_memory)


@pytest.mark.skipif(not hasattr(os, "mkfifo") or resource is None, reason="no FIFOs here")
@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "/dev/urandom"])
def test_special_files_are_refused_in_one_line(kind, tmp_path):
    if kind == "fifo":
        path = tmp_path / "game.csv"
        os.mkfifo(path)                  # no writer: reading it would block for ever
        expected = "is a pipe (FIFO), not a game log file"
    else:
        path = Path(kind)
        if not path.exists():
            pytest.skip(f"{kind} is absent")
        expected = "is a character device, not a game log file"
    done = run_cli_limited(str(path), "--print")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines() == [f"quoridor-replay: {path}: {expected}"]
    with pytest.raises(LogFormatError, match=re.escape(expected)):
        read_log_file(path)               # in this process too: refused before anything is read


def test_a_log_of_the_limit_is_read_and_one_byte_more_is_refused(tmp_path):
    data = legacy("server_0_DEFENSIVE_VS_BASELINE.csv").read_bytes()
    path = tmp_path / "game.csv"
    path.write_bytes(data + b"\n" * (MAX_LOG_BYTES - len(data)))      # blank lines to the limit: still the game
    assert len(read_log_file(path).steps) == 87
    with path.open("ab") as handle:
        handle.write(b"\n")
    with pytest.raises(LogFormatError, match=f"more than {MAX_LOG_BYTES} bytes, far too large for a game log"):
        read_log_file(path)

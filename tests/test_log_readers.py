"""Every caller of the one game-log reader gives the same verdict on the same file: the pages (a ``game_request``
answered by the server's desk), the server's ``logfile.read_log`` and the replay viewer (its file and its command)."""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import Callable
from pathlib import Path

import pytest

from client.replay.cli import main as replay_main
from client.replay.sources import read_log_file
from server.logs.logfile import read_log
from server.web.desk import WebDesk
from shared.gamelog import MAX_LOG_BYTES, GameHeader, GameLog, LogFormatError, StepRecord, format_log
from shared.protocol import GameRequest, ProtocolError
from shared.quoridor import GameStatus, Step

LOG = GameLog(GameHeader(("alice", "bob"), game="g-1"),
              [StepRecord("alice", Step.move(5, 2), GameStatus.OK, 120, 0),
               StepRecord("bob", Step.wall(4, 7, 6, 7), GameStatus.OK, 340, 1)])
TEXT = format_log(LOG).encode("utf-8")
AFTER = TEXT.count(b"\n") + 1
"""The line after the log's last."""

#: A file's contents, and the end of the one line every reader says about it (after the file's name).
BAD_FILES: dict[str, tuple[bytes, str]] = {
    "empty": (b"", "line 1: empty file: a game log starts with the header line"),
    "not a log": (b'{"logFile": "log.csv"}\n', "line 1: missing column(s)"),
    "binary": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
               "line 3: binary data (a NUL byte at offset 8); a game log is CSV text"),
    "latin-1": (TEXT + "Jürgen,5,2,-1,-1,-1,-1,0\n".encode("latin-1"),
                f"line {AFTER}: not UTF-8 text (byte 0xfc at offset {len(TEXT) + 1})"),
    "too large": (TEXT + b"\n" * (MAX_LOG_BYTES + 1 - len(TEXT)),
                  f": more than {MAX_LOG_BYTES} bytes, far too large for a game log"),
    "short row": (TEXT + b"a,5,2\n", f"line {AFTER}: 3 fields, but the header line names"),
}


def from_the_desk(data_dir: Path, relative: str) -> str:
    """What a page reads when it asks for the log (``game_request``): the error frame's message."""
    with pytest.raises(ProtocolError) as caught:
        asyncio.run(WebDesk(data_dir).answer(GameRequest(game=relative)))
    assert caught.value.code == "unknown_game"
    return caught.value.message


def from_the_server(data_dir: Path, relative: str) -> str:
    with pytest.raises(LogFormatError) as caught:
        read_log(data_dir / relative)
    return str(caught.value).removeprefix(str(data_dir) + "/")


def from_the_replay(data_dir: Path, relative: str) -> str:
    with pytest.raises(LogFormatError) as caught:
        read_log_file(data_dir / relative)
    return str(caught.value).removeprefix(str(data_dir) + "/")


def from_the_replay_command(data_dir: Path, relative: str) -> str:
    """What ``quoridor-replay FILE --print`` writes: one line on stderr, exit status 1."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        assert replay_main([str(data_dir / relative), "--print"]) == 1
    lines = err.getvalue().splitlines()
    assert len(lines) == 1
    return lines[0].removeprefix("quoridor-replay: ").removeprefix(str(data_dir) + "/")


CALLERS: dict[str, Callable[[Path, str], str]] = {
    "desk": from_the_desk, "server": from_the_server, "replay": from_the_replay,
    "replay command": from_the_replay_command,
}


@pytest.mark.parametrize("caller", sorted(CALLERS), ids=str)
@pytest.mark.parametrize("kind", sorted(BAD_FILES), ids=str)
def test_every_caller_gives_the_same_one_line_verdict(kind, caller, tmp_path):
    data, verdict = BAD_FILES[kind]
    (tmp_path / "t1").mkdir()
    (tmp_path / "t1" / "game.csv").write_bytes(data)
    said = CALLERS[caller](tmp_path, "t1/game.csv")
    assert said.startswith("t1/game.csv") and verdict in said and "\n" not in said


def test_every_caller_reads_a_log_with_a_byte_order_mark_and_crlf_lines(tmp_path):
    (tmp_path / "t1").mkdir()
    path = tmp_path / "t1" / "game.csv"
    path.write_bytes(b"\xef\xbb\xbf" + TEXT.replace(b"\n", b"\r\n"))
    record = asyncio.run(WebDesk(tmp_path).answer(GameRequest(game="t1/game.csv")))
    assert read_log(path) == read_log_file(path) == LOG and len(record.steps) == len(LOG.steps)

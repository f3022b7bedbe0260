"""A player named with a comma: the server's log file stays readable by the course's comma-splitting viewer."""

from __future__ import annotations

from server.logs.logfile import LiveLogWriter, read_log
from shared.gamelog import COLUMNS, GameHeader, GameOutcome, StepRecord
from shared.quoridor import GameStatus, Step


def test_a_log_written_for_smith_j_splits_into_the_header_columns_on_every_line(tmp_path):
    path = tmp_path / "t1-r1-p1-g1_Smith_J_vs_bob.csv"
    writer = LiveLogWriter(path, GameHeader(("Smith, J", "bob"), game="t1-r1-p1-g1"))
    writer.append(StepRecord("Smith, J", Step.move(5, 2), GameStatus.OK, 12, 0))
    writer.append_many([StepRecord("bob", Step.wall(3, 2, 5, 2), GameStatus.OK, 30, 1),
                        StepRecord("Smith, J", Step(), GameStatus.TIMEOUT, 1000, 2)])
    part = writer.part.read_text(encoding="utf-8")            # the live file, as a crash would leave it
    writer.finish(GameOutcome(1, "disconnect", (1012, 30), (1, 0)))
    for text in (part, path.read_text(encoding="utf-8")):
        lines = text.splitlines()
        assert all(len(line.split(",")) == len(COLUMNS) for line in lines), text
        names = [line.split(",")[0] for line in lines[1:]]
        assert set(names) == {"", "Smith; J", "bob"}
    log = read_log(path)                                        # our reader gets the name back as it was
    assert log.header.players == ("Smith, J", "bob") and log.steps[0].player == "Smith, J"

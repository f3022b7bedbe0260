"""Writing and reading the CSV text: layout, quoting, the old viewer's view of it, and every kind of bad file."""

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.gamelog import (
    COLUMNS, HEADER_LINE, LEGACY_COLUMNS, GameHeader, GameLog, GameOutcome, LogFormatError, RowFormatter, StepRecord,
    canonical_step, format_header, format_log, format_row, log_safe_name, parse_log, row_lines,
)
from shared.quoridor import PLAYER0_LOC, PLAYER1_LOC, BlockBar, GameStatus, Location, Step

S = GameStatus
LEGACY_HEADER = ",".join(LEGACY_COLUMNS)
#: The header of our logs before the ``reason`` column was added.
OLDER_HEADER_LINE = LEGACY_HEADER + ",thinking_ms,turn,seat,meta,value\n"
LATE = "answered after 1,000 ms; the limit is 1,000 ms"


def short_game() -> GameLog:
    header = GameHeader(("alice", "bob"), game="g-1", tournament="spring", started="2024-05-01T12:00:00Z")
    steps = [
        StepRecord("alice", Step.move(5, 2), S.OK, 120, 0),
        StepRecord("bob", Step.wall(3, 2, 5, 2), S.OK, 80, 1),
        StepRecord("alice", Step(), S.TIMEOUT, 1000, 2, LATE),
        StepRecord("bob", Step.move(5, 8), S.OK, 95, 3),
    ]
    return GameLog(header, steps, GameOutcome(0, "forfeit", (1120, 175), (1, 0)))


def old_viewer(text: str) -> tuple[tuple[str, str], list[tuple[str, Step, int]]]:
    """A model of the course viewer's ``LogLoader``: no CSV quoting, blanks trimmed, columns by name,
    rows with an empty name skipped, the first two names as players, seated by the first name's first cell."""
    lines = text.splitlines()
    header = [cell.strip(" \t") for cell in lines[0].split(",")]
    where = [header.index(column) for column in LEGACY_COLUMNS]
    player0 = player1 = ""
    first_cell = Location()
    rows = []
    for line in lines[1:]:
        cells = [cell.strip(" \t") for cell in line.split(",")]
        if len(cells) > len(header):
            raise ValueError("log file have too many columns")
        name = cells[where[0]]
        x, y, sx, sy, tx, ty, status = (int(cells[i]) for i in where[1:])
        step = Step(Location(x, y), BlockBar.of(sx, sy, tx, ty))
        if not name:
            continue
        if not player0 and (not player1 or player1 != name):
            player0 = name
        if not player1 and (not player0 or player0 != name):
            player1 = name
        if first_cell.x <= 0 and first_cell.y <= 0 and name == player0 and step.is_move():
            first_cell = step.new_loc
        if name in (player0, player1):
            rows.append((name, step, status))
    if first_cell.distance(PLAYER0_LOC) > first_cell.distance(PLAYER1_LOC):
        player0, player1 = player1, player0
    return (player0, player1), rows


# -- writing -----------------------------------------------------------------------------------
def test_the_first_eight_columns_are_the_course_viewers():
    assert HEADER_LINE.startswith(LEGACY_HEADER + ",thinking_ms,turn,")
    assert HEADER_LINE.endswith("\n") and HEADER_LINE.count("\n") == 1
    assert COLUMNS[:8] == LEGACY_COLUMNS


def test_the_reason_column_comes_after_the_older_columns():
    assert HEADER_LINE == OLDER_HEADER_LINE.rstrip("\n") + ",reason\n"


def test_rows_as_the_spec_shows_them():
    assert format_row(StepRecord("A", Step.move(5, 2), S.OK, 12, 0), seat=0) == "A,5,2,-1,-1,-1,-1,0,12,0,0,,,\n"
    assert format_row(StepRecord("B", Step.wall(3, 2, 5, 2), S.OK)) == "B,-1,-1,3,2,5,2,0,,,,,,\n"
    assert format_row(StepRecord("B", Step(), S.TIMEOUT, 1000, 7), seat=1) == "B,-1,-1,-1,-1,-1,-1,3,1000,7,1,,,\n"
    illegal = StepRecord("A", Step.move(1, 5), S.INVALID_STEP, 12, 2, "a5 is not reachable in one step from e2")
    assert format_row(illegal, seat=0) == "A,1,5,-1,-1,-1,-1,7,12,2,0,,,a5 is not reachable in one step from e2\n"


def test_a_reason_is_written_without_commas_and_read_back_as_it_was():
    late = StepRecord("B", Step(), S.TIMEOUT, 1203, 7, "answered after 1,203 ms; the limit is 1,000 ms")
    row = format_row(late, seat=1)
    assert row == "B,-1,-1,-1,-1,-1,-1,3,1203,7,1,,,answered after 1%2C203 ms; the limit is 1%2C000 ms\n"
    assert row.count(",") == len(COLUMNS) - 1
    log = GameLog(GameHeader(("A", "B")), [StepRecord("A", Step.move(5, 2), S.OK, 5, 0), late])
    assert parse_log(format_log(log)).steps[1].reason == "answered after 1,203 ms; the limit is 1,000 ms"


@pytest.mark.parametrize("reason", ['wall "x" is 100% odd, really', "50%2C", "%", "trailing blank "])
def test_any_one_line_reason_round_trips(reason):
    log = GameLog(GameHeader(("A", "B")), [StepRecord("A", Step(), S.INVALID_STEP, 5, 0, reason)])
    text = format_log(log)
    assert parse_log(text) == log
    assert all(len(line.split(",")) == len(COLUMNS) for line in text.splitlines())
    old_viewer(text)


def test_a_reason_is_one_line_of_text():
    with pytest.raises(ValueError, match="reason"):
        StepRecord("A", Step(), S.INVALID_STEP, 5, 0, "two\nlines")


def test_a_cell_and_a_wall_together_are_written_as_the_move():
    both = Step(Location(5, 2), BlockBar.of(4, 7, 6, 7))
    assert format_row(StepRecord("A", both, S.OK)) == "A,5,2,-1,-1,-1,-1,0,,,,,,\n"
    assert canonical_step(both) == Step.move(5, 2)
    off_board_and_wall = Step(Location(0, 3), BlockBar.of(4, 7, 6, 7))
    assert canonical_step(off_board_and_wall) == Step.wall(4, 7, 6, 7)
    assert canonical_step(Step(Location(0, 3))) == Step(Location(0, 3))


def test_format_row_refuses_what_it_cannot_write():
    with pytest.raises(ValueError, match="empty"):
        format_row(StepRecord("", Step(), S.TIMEOUT))
    with pytest.raises(ValueError, match="seat"):
        format_row(StepRecord("A", Step(), S.TIMEOUT), seat=2)
    log = short_game()
    stranger = GameLog(log.header, [StepRecord("carol", Step.move(5, 2), S.OK)])
    with pytest.raises(ValueError, match="'carol' does not play"):
        format_log(stranger)


def test_metadata_rows_and_result_last():
    text = format_log(short_game())
    lines = text.splitlines()
    assert lines[0] == HEADER_LINE.rstrip("\n")
    assert lines[1] == ",-1,-1,-1,-1,-1,-1,2000,,,,format,quoridor-arena/1,"
    assert lines[2] == ",-1,-1,-1,-1,-1,-1,2000,,,0,player,alice,"
    assert lines[3] == ",-1,-1,-1,-1,-1,-1,2000,,,1,player,bob,"
    assert lines[-1] == ",-1,-1,-1,-1,-1,-1,2000,,,0,result,forfeit,"
    assert ",-1,-1,-1,-1,-1,-1,2000,,,0,thinking_ms,1120," in lines
    assert all(line.count(",") == len(COLUMNS) - 1 for line in lines)


def test_row_lines_match_the_written_text():
    log = short_game()
    steps, result = row_lines(log)
    lines = format_log(log).splitlines()
    assert [lines[n - 1].split(",")[0] for n in steps] == [r.player for r in log.steps]
    assert result == len(lines) and lines[result - 1].endswith("result,forfeit,")
    unfinished = GameLog(log.header, log.steps)
    assert row_lines(unfinished) == (steps, None)


# -- reading -----------------------------------------------------------------------------------
def test_round_trip_keeps_everything():
    log = short_game()
    again = parse_log(format_log(log))
    assert again == log
    assert again.problems == []
    assert list(again.step_lines) == row_lines(log)[0]


def test_a_game_judged_on_the_cpu_clock_names_it_and_keeps_both_clocks_times():
    log = short_game()
    judged = GameLog(dataclasses.replace(log.header, clock="cpu"), log.steps,
                     dataclasses.replace(log.outcome, cpu_ms=((120, 900), (None, None)),
                                         wall_ms=((400, 1200), (None, None))))
    text = format_log(judged)
    assert ",clock,cpu," in text and ",0,wall_ms,400 1200," in text and ",1,wall_ms,- -," in text
    again = parse_log(text)
    assert again == judged and again.problems == []
    steps, result = row_lines(judged)
    assert result == len(text.splitlines()) and list(again.step_lines) == steps
    assert ",clock," not in format_log(log) and "wall_ms" not in format_log(log)     # the wall clock: as before
    with pytest.raises(ValueError, match="clock"):
        dataclasses.replace(log.header, clock="sundial")


def test_an_unfinished_log_has_no_outcome():
    log = short_game()
    text = format_log(GameLog(log.header, log.steps))
    parsed = parse_log(text)
    assert parsed.outcome is None and not parsed.finished and len(parsed.steps) == 4


def test_a_game_without_steps():
    log = GameLog(GameHeader(("a", "b")), [], GameOutcome(1, "forfeit", (0, 0), (0, 0)))
    assert parse_log(format_log(log)) == log


@pytest.mark.parametrize("names", [("Smith, John", 'The "Bot"'), ('"', ","), ("a'b", "ü,ß"), ("50%2C", "%")])
def test_names_with_commas_and_quotes_round_trip(names):
    log = GameLog(GameHeader(names, game="g,1", tournament='cup, "open"'),
                  [StepRecord(names[0], Step.move(5, 2), S.OK, 3, 0)])
    text = format_log(log)
    assert parse_log(text) == log
    assert all(len(line.split(",")) == len(COLUMNS) for line in text.splitlines())    # no comma in any text
    if '"' not in names[0]:       # the step row spells the name as the old viewer shows it (quotes aside)
        assert f"\n{log_safe_name(names[0])},5,2," in text


def test_a_log_for_smith_j_is_readable_by_a_comma_splitting_reader():
    header = GameHeader(("Smith, J", "bob"), game="t1-r1-p1-g1", tournament="tournament-20240501-120000")
    steps = [StepRecord("Smith, J", Step.move(5, 2), S.OK, 120, 0), StepRecord("bob", Step.wall(3, 2, 5, 2), S.OK, 80, 1),
             StepRecord("Smith, J", Step(), S.TIMEOUT, 1000, 2), StepRecord("bob", Step.move(5, 8), S.OK, 95, 3)]
    log = GameLog(header, steps, GameOutcome(1, "forfeit", (1120, 175), (1, 0)))
    live = format_header(header) + "".join(format_row(r, seat=i % 2) for i, r in enumerate(steps))    # the .part file
    for text in (format_log(log), live):
        assert all(len(line.split(",")) == len(COLUMNS) for line in text.splitlines())      # no extra column
        players, rows = old_viewer(text)        # raises "log file have too many columns" on one comma too many
        assert players == ("Smith; J", "bob")
        assert [(name, step) for name, step, _ in rows] == [("Smith; J", Step.move(5, 2)), ("bob", Step.wall(3, 2, 5, 2)),
                                                            ("Smith; J", Step()), ("bob", Step.move(5, 8))]
    assert ",player,Smith%2C J,\n" in format_log(log)
    parsed = parse_log(format_log(log))          # our reader gets the name back as it was
    assert parsed == log and parsed.problems == []


def test_an_older_log_with_a_quoted_comma_name_still_reads():
    text = (OLDER_HEADER_LINE + ",-1,-1,-1,-1,-1,-1,2000,,,,format,quoridor-arena/1\n"
            ',-1,-1,-1,-1,-1,-1,2000,,,0,player,"Smith, J"\n,-1,-1,-1,-1,-1,-1,2000,,,1,player,bob\n'
            '"Smith, J",5,2,-1,-1,-1,-1,0,5,0,0,,\n')
    log = parse_log(text)
    assert log.header.players == ("Smith, J", "bob") and log.steps[0].player == "Smith, J"


def test_an_older_log_without_the_reason_column_reads_with_empty_reasons():
    older = format_log(short_game()).replace(",reason\n", "\n", 1).replace(",\n", "\n").replace(
        f",{LATE.replace(',', '%2C')}\n", "\n")
    assert older.startswith(OLDER_HEADER_LINE)
    assert all(len(line.split(",")) == len(COLUMNS) - 1 for line in older.splitlines())
    log = parse_log(older)
    assert [r.reason for r in log.steps] == ["", "", "", ""] and log.problems == []
    assert log.steps == [dataclasses.replace(r, reason="") for r in short_game().steps]


def test_names_that_would_be_written_alike_are_refused():
    assert log_safe_name("Smith, J") == "Smith; J" == log_safe_name("Smith; J") and log_safe_name("bob") == "bob"
    with pytest.raises(ValueError, match="would both be written 'a;b'"):
        GameHeader(("a,b", "a;b"))


def test_bom_crlf_blank_lines_and_blanks_around_numbers_are_tolerated():
    text = format_log(short_game())
    messy = "\ufeff" + text.replace("\n", "\r\n").replace(",5,2,", ", 5 ,2 ,") + "\r\n\r\n"
    assert parse_log(messy) == short_game()


def test_columns_are_matched_by_name_and_extras_ignored():
    text = ("status,player,comment,newBar_stop_y,newBar_stop_x,newBar_start_y,newBar_start_x,newLoc_y,newLoc_x\n"
            "0,A,hello,-1,-1,-1,-1,2,5\n"
            "0,B,,2,5,2,3,-1,-1\n")
    log = parse_log(text)
    assert log.header.players == ("A", "B")
    assert [r.step for r in log.steps] == [Step.move(5, 2), Step.wall(3, 2, 5, 2)]
    assert log.problems == []


def test_unknown_metadata_keys_are_ignored():
    lines = format_log(short_game()).splitlines(keepends=True)
    lines.insert(2, ",-1,-1,-1,-1,-1,-1,2000,,,,time_limit_ms,1000,\n")
    assert parse_log("".join(lines)) == short_game()


def test_our_logs_read_by_the_old_viewer_show_only_the_steps():
    log = short_game()
    players, rows = old_viewer(format_log(log))
    assert players == log.header.players
    assert rows == [(r.player, canonical_step(r.step), int(r.status)) for r in log.steps]


def test_old_viewer_never_takes_metadata_for_a_player():
    # One step, then seat 1 left: a marker-named result row would have become the viewer's second player.
    log = GameLog(GameHeader(("alice", "bob")), [StepRecord("alice", Step.move(5, 2), S.OK, 5, 0)],
                  GameOutcome(0, "disconnect", (5, 0), (0, 0)))
    players, rows = old_viewer(format_log(log))
    assert players == ("alice", "") and len(rows) == 1


# -- bad files ---------------------------------------------------------------------------------
OURS = format_log(short_game())
OUR_LINES = OURS.splitlines(keepends=True)


def ours_with(line: int, text: str | None) -> str:
    """Our short game with 1-based ``line`` replaced by ``text`` (``None`` removes it)."""
    lines = list(OUR_LINES)
    if text is None:
        del lines[line - 1]
    else:
        lines[line - 1] = text + "\n"
    return "".join(lines)


META = ",-1,-1,-1,-1,-1,-1,2000,,,"
BAD_FILES = {
    "empty": ("", 1, "empty file"),
    "blank": ("  \n\n", 1, "empty file"),
    "json": ('{\n  "logFile": "log.csv"\n}\n', 1, "missing column(s) player"),
    "no status column": ("player,newLoc_x,newLoc_y,newBar_start_x,newBar_start_y,newBar_stop_x,newBar_stop_y\n"
                         "A,5,2,-1,-1,-1,-1\n", 1, "missing column(s) status"),
    "twice a column": (LEGACY_HEADER + ",status\nA,5,2,-1,-1,-1,-1,0,0\n", 1, "'status' appears twice"),
    "header only": (LEGACY_HEADER + "\n", 1, "no step rows"),
    "not an integer": (LEGACY_HEADER + "\nA,5,2,-1,-1,-1,-1,0\nB,five,8,-1,-1,-1,-1,0\n", 3,
                       "column newLoc_x is 'five', expected an integer"),
    "empty number": (LEGACY_HEADER + "\nA,5,,-1,-1,-1,-1,0\n", 2, "column newLoc_y is '', expected an integer"),
    "huge number": (LEGACY_HEADER + "\nA," + "9" * 5000 + ",2,-1,-1,-1,-1,0\n", 2, "expected an integer"),
    "unknown status": (LEGACY_HEADER + "\nA,5,2,-1,-1,-1,-1,9\n", 2, "status 9 is not a game status"),
    "third player": (LEGACY_HEADER + "\nA,5,2,-1,-1,-1,-1,0\nB,5,8,-1,-1,-1,-1,0\nC,5,3,-1,-1,-1,-1,0\n", 4,
                     "a third player name 'C'"),
    "one player": (LEGACY_HEADER + "\nA,5,2,-1,-1,-1,-1,0\n", 2, "only one player name ('A')"),
    "too few fields": (LEGACY_HEADER + "\nA,5,2,-1,-1,-1,-1,0\nB,5,8,-1\n", 3, "4 fields, but the header line names 8"),
    "too many fields": (LEGACY_HEADER + "\nA,5,2,-1,-1,-1,-1,0,7\n", 2, "9 fields"),
    "empty name": (LEGACY_HEADER + "\nA,5,2,-1,-1,-1,-1,0\n,5,8,-1,-1,-1,-1,0\n", 3, "player column is empty"),
    "control character": (LEGACY_HEADER + "\nA\x01,5,2,-1,-1,-1,-1,0\n", 2, "control character"),
    "broken quoting": (LEGACY_HEADER + '\nA,5,2,-1,-1,-1,-1,0\n"B,5,8,-1,-1,-1,-1,0\n', 3, "not readable as CSV"),
    "text after quotes": (LEGACY_HEADER + '\n"A"x,5,2,-1,-1,-1,-1,0\n', 2, "not readable as CSV"),
    "unknown format": (ours_with(2, META + ",format,quoridor-arena/9" + ","), 2, "'quoridor-arena/9' is not supported"),
    "player without seat": (ours_with(3, META + ",player,alice" + ","), 3, "needs seat 0 or 1"),
    "seat 1 unnamed": (ours_with(4, None), 3, "not the one of seat 1"),
    "same name twice": (ours_with(4, META + "1,player,alice" + ","), 4, "both seats are named 'alice'"),
    "second player row": (ours_with(4, META + "0,player,bob" + ","), 4, "a second 'player' row of seat 0"),
    "bad seat": (ours_with(4, META + "2,player,bob" + ","), 4, "column seat is '2'"),
    "unknown ruleset": (ours_with(5, META + ",ruleset,chess" + ","), 5, "unknown ruleset 'chess'"),
    "bad start time": (ours_with(8, META + ",started,noon" + ","), 8, "ISO 8601"),
    "seat disagrees": (ours_with(9, "alice,5,2,-1,-1,-1,-1,0,120,0,1,,,"), 9, "the seat column says 1"),
    "stranger": (ours_with(10, "carol,-1,-1,3,2,5,2,0,80,1,1,,,"), 10, "'carol' is not a player of this game"),
    "negative time": (ours_with(9, "alice,5,2,-1,-1,-1,-1,0,-120,0,0,,,"), 9, "column thinking_ms is '-120'"),
    "meta on a step": (ours_with(9, "alice,5,2,-1,-1,-1,-1,0,120,0,0,note,x,"), 9, "has 'note' in the meta column"),
    "header after steps": (ours_with(11, META + ",game,g-2" + ","), 11, "after the first step row (line 9)"),
    "step after totals": (ours_with(14, "bob,5,8,-1,-1,-1,-1,0,95,3,1,,,"), 14, "after the outcome rows"),
    "missing total": (ours_with(16, None), 16, "missing: thinking_ms of seat 1"),
    "bad total": (ours_with(13, META + "0,violations,many" + ","), 13, "column value is 'many'"),
    "unknown reason": (ours_with(17, META + "0,result,boredom" + ","), 17, "result reason 'boredom' is unknown"),
    "row after result": (OURS + "bob,5,8,-1,-1,-1,-1,0,95,3,1,,,\n", 18, "after the result row of line 17"),
}


@pytest.mark.parametrize("case", BAD_FILES, ids=str)
def test_bad_files_raise_naming_the_line(case):
    text, line, fragment = BAD_FILES[case]
    with pytest.raises(LogFormatError) as caught:
        parse_log(text, name="bad.csv")
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.line == line, str(error)
    assert fragment in error.problem, str(error)
    assert str(error).startswith(f"bad.csv, line {line}: ")


def test_the_line_numbers_used_above_are_ours():
    # The bad-file cases edit lines of the short game by number; pin its layout.
    keys = [line.split(",")[11] or line.split(",")[0] for line in OUR_LINES[1:]]
    assert keys == ["format", "player", "player", "ruleset", "game", "tournament", "started",
                    "alice", "bob", "alice", "bob", "violations", "violations", "thinking_ms", "thinking_ms",
                    "result"]


def _csv_writer_row(record: StepRecord, seat: int | None) -> str:
    """The row as the csv module writes it (the name without commas): what ``format_row``'s direct path must match."""
    import csv
    import io
    buffer = io.StringIO()
    step = canonical_step(record.step)
    loc, (start, stop) = step.new_loc, step.new_wall
    csv.writer(buffer, lineterminator="\n").writerow([
        log_safe_name(record.player), loc.x, loc.y, start.x, start.y, stop.x, stop.y, int(record.status),
        "" if record.thinking_ms is None else record.thinking_ms, "" if record.turn is None else record.turn,
        "" if seat is None else seat, "", "", record.reason.replace("%", "%25").replace(",", "%2C")])
    return buffer.getvalue()


@given(name=st.text(st.characters(exclude_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=12)
       .map(str.strip).filter(bool) | st.sampled_from(["a,b", 'say "hi"', "x'y", "'", "ünï", "a;b"]),
       step=st.sampled_from([Step.move(5, 2), Step.wall(3, 2, 5, 2), Step(), Step(Location(1, 1), BlockBar.of(2, 3, 4, 3))]),
       status=st.sampled_from(list(GameStatus)), thinking=st.none() | st.integers(0, 10 ** 6),
       turn=st.none() | st.integers(0, 500), seat=st.sampled_from([None, 0, 1]),
       reason=st.text(st.characters(exclude_categories=("Cc", "Cs", "Zl", "Zp")), max_size=20)
       | st.sampled_from(["", "a5 is not reachable in one step from e1", "answered after 1,203 ms", 'say "hi"']))
def test_format_row_writes_what_the_csv_module_writes(name, step, status, thinking, turn, seat, reason):
    record = StepRecord(name, step, status, thinking, turn, reason)
    assert format_row(record, seat=seat) == _csv_writer_row(record, seat)


@given(key=st.sampled_from(["format", "player", "game", "result", "k,ey"]),
       value=st.none() | st.integers(-5, 10 ** 6) | st.text(max_size=15) | st.sampled_from(['a,b', 'say "hi"', "x\ny"]),
       seat=st.sampled_from([None, 0, 1]))
def test_metadata_rows_are_what_the_csv_module_writes(key, value, seat):
    import csv
    import io

    from shared.gamelog.csvformat import _META_NUMBERS, _meta_row
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(["", *_META_NUMBERS, "", "", "" if seat is None else seat,
                                                      key, value, ""])
    assert _meta_row(key, value, seat) == buffer.getvalue()


_TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=12)
_NAME = _TEXT.map(str.strip).filter(bool)
_CELL = st.builds(Location, st.integers(-2, 11), st.integers(-2, 11))
_STEPS = st.one_of(st.just(Step()), st.builds(Step, _CELL), st.builds(Step, _CELL, st.builds(BlockBar, _CELL, _CELL)),
                   st.builds(Step, st.just(Location()), st.builds(BlockBar, _CELL, _CELL)))


@given(names=st.tuples(_NAME, _NAME).filter(lambda n: log_safe_name(n[0]) != log_safe_name(n[1])),
       seat=st.integers(0, 1), step=_STEPS, status=st.sampled_from(list(GameStatus)),
       thinking=st.none() | st.integers(0, 10**7), turn=st.none() | st.integers(0, 10**4), reason=_TEXT)
def test_a_games_row_formatter_writes_what_format_row_writes(names, seat, step, status, thinking, turn, reason):
    header = GameHeader(names)
    record = StepRecord(names[seat], step, status, thinking, turn, reason.strip())
    assert RowFormatter(header)(record) == format_row(record, seat=seat)


def test_a_games_row_formatter_refuses_a_player_from_another_game():
    with pytest.raises(ValueError):
        RowFormatter(GameHeader(("A", "B")))(StepRecord("C", Step.move(5, 2), S.OK, 1, 0))

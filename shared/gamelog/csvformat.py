"""The game log as CSV text (``replay-csv.md``): writing our logs, reading ours and the legacy ones.

Layout. The first eight columns are exactly the course viewer's; six extra columns follow::

    player,newLoc_x,newLoc_y,newBar_start_x,newBar_start_y,newBar_stop_x,newBar_stop_y,status,thinking_ms,turn,seat,meta,value,reason
    ,-1,-1,-1,-1,-1,-1,2000,,,,format,quoridor-arena/1,
    ,-1,-1,-1,-1,-1,-1,2000,,,0,player,193304BASELINE,
    ,-1,-1,-1,-1,-1,-1,2000,,,1,player,193304DEFENSIVE,
    ,-1,-1,-1,-1,-1,-1,2000,,,,ruleset,course,
    ,-1,-1,-1,-1,-1,-1,2000,,,,game,g-17,                      (game, tournament, started: when known)
    193304BASELINE,5,2,-1,-1,-1,-1,0,153,0,0,,,                (one step row per turn, in play order)
    193304DEFENSIVE,-1,-1,3,2,5,2,0,87,1,1,,,
    193304BASELINE,1,5,-1,-1,-1,-1,7,12,2,0,,,a5 is not reachable in one step from e2
    ...
    ,-1,-1,-1,-1,-1,-1,2000,,,0,violations,1,                  (the outcome rows, only when finished)
    ,-1,-1,-1,-1,-1,-1,2000,,,1,violations,2,
    ,-1,-1,-1,-1,-1,-1,2000,,,0,thinking_ms,8123,
    ,-1,-1,-1,-1,-1,-1,2000,,,1,thinking_ms,9211,
    ,-1,-1,-1,-1,-1,-1,2000,,,0,cpu_ms,12 40 - 7,              (hosted bots only: CPU ms of each step)
    ,-1,-1,-1,-1,-1,-1,2000,,,1,cpu_ms,3 5 9,
    ,-1,-1,-1,-1,-1,-1,2000,,,0,wall_ms,40 88 - 9,             (the cpu clock only: wall ms of each step)
    ,-1,-1,-1,-1,-1,-1,2000,,,1,wall_ms,-,
    ,-1,-1,-1,-1,-1,-1,2000,,,0,result,goal,                   (seat = the winner, empty = a draw; always last)

* A step row: the player's name, its step (a move fills ``newLoc``, a wall the four bar
  columns, the rest -1; a step with both a cell and a wall is written as the move it counts
  as; an empty step or a timeout is all -1), the judged status, then its thinking time, the
  referee's turn number, the player's seat and, for a violation, the referee's reason for people
  (empty for a step that stood; logs written before the column existed have no ``reason``).
* A metadata row has an **empty** ``player``, the key in ``meta`` and the value in ``value``
  (``seat`` says which seat a per-seat value belongs to). Why an empty name: the old viewer's
  ``LogLoader`` skips a row with an empty player before doing anything else with it, so such
  rows are never taken for a player, never drawn and never listed, wherever they stand. A
  reserved marker name (say ``#result``) would not be safe: the viewer takes the first two
  distinct names as the players, so in a game that ended after one step the marker would
  become the second player. The seven numbers are -1 and the status 2000 (None, "never sent")
  only because the viewer parses every row's numbers before looking at the name.
* A finished game ends with the ``result`` row, written once, last: a file without it is an
  unfinished game. (The server's live ``.part`` file is unfinished by its name: it gets its result
  rows only in the moment before it is renamed to the finished log's name.) The per-seat totals
  stand in the ``value`` column, so summing the ``thinking_ms`` column still gives them.
* Games of bots the server runs itself (``server/sandbox``) add, per seat, a ``cpu_ms`` row before
  the result: the CPU milliseconds of each of that seat's steps, in the order of its step rows,
  separated by blanks (``-``: not measured). The step rows' ``thinking_ms`` is the time the referee
  judged: the wall time, except in a game judged on the ``cpu`` clock (``--hosted-clock cpu``: a
  ``clock`` header row says ``cpu``), where a hosted bot's steps were judged by their CPU time and
  their wall times follow in a ``wall_ms`` row per seat, written as ``cpu_ms``. When a
  hosted bot's process died, the result row's ``reason`` column says why
  (``seat 1 memory_limit: ...``). Metadata rows are added this way, never columns: the old viewer,
  and readers of older versions, skip keys they do not know.

No commas in the text. The old viewer splits every line on commas without CSV quoting (even a
metadata row, before it looks at the name): one comma anywhere makes it stop with "log file
have too many columns". So the step rows name a player as ``log_safe_name`` spells it, each
comma as ``;`` (what the old viewer shows), and the ``player``, ``game`` and ``tournament`` rows
and the ``reason`` column hold their text with ``,`` written ``%2C`` and ``%`` written ``%25``
(``answered after 1%2C203 ms``); a reader decodes them and takes a step row's ``;`` spelling as
the declared name, so our logs still read back exactly.
(``GameHeader`` refuses two names that the step rows would spell alike.) A text with a quote
character is quoted; the old viewer shows the quotes doubled and reads the file all the same.
The old client's ``LogPlayer`` (a bot replaying a log) takes every row as a step, metadata rows
included; only the viewer is kept compatible.

Reading (``parse_log``): columns are matched by name, unknown extra columns and unknown
metadata keys are ignored, numbers may carry surrounding blanks (the old viewer trims them).
A log without ``player`` rows is a legacy log, seated as the old viewer seats it: its players
are the first two distinct names; the first name plays seat 0 (starts at (5,1)) unless the
first cell it ever tried to move to (any status) lies nearer (5,9) than (5,1). Wall-only
openings therefore decide nothing: in ``server_1`` DEFENSIVE opens with walls and its first
attempted move is to (5,1) itself, so it is seat 0. This agrees with "seat 0 moves first"
whenever that first attempt was a legal move (it is then within 2 cells of its start); when
the two disagree the replay reports the out-of-turn row.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import re
from collections.abc import Callable
from typing import NoReturn

from ..quoridor import PLAYER0_LOC, PLAYER1_LOC, BlockBar, GameStatus, Location, Step
from .layout import HEADER_KEYS, TOTAL_KEYS
from .records import REASONS, GameHeader, GameLog, GameOutcome, StepRecord, check_player_name, log_safe_name
from .replay import validate

__all__ = [
    "LEGACY_COLUMNS", "COLUMNS", "HEADER_LINE", "FORMAT", "LogFormatError", "canonical_step",
    "format_row", "format_header", "format_outcome", "format_log", "parse_log",
]

LEGACY_COLUMNS = ("player", "newLoc_x", "newLoc_y", "newBar_start_x", "newBar_start_y",
                  "newBar_stop_x", "newBar_stop_y", "status")
"""The course viewer's eight columns, in its order."""
COLUMNS = LEGACY_COLUMNS + ("thinking_ms", "turn", "seat", "meta", "value", "reason")
"""The columns of the logs we write."""
HEADER_LINE = ",".join(COLUMNS) + "\n"
"""The first line of every log we write, line break included."""
FORMAT = "quoridor-arena/1"
"""The value of our ``format`` row; a reader refuses logs of another format version."""

_META_NUMBERS = ("-1",) * 6 + (str(int(GameStatus.NONE)),)
_HEADER_KEYS = ("format", "player", "ruleset", "game", "tournament", "started", "clock")
_INT = re.compile(r"-?[0-9]{1,12}")      # bounded: a million-digit "number" is not a coordinate
_COUNT = re.compile(r"[0-9]{1,12}")
_KNOWN_STATUSES = ", ".join(str(int(s)) for s in GameStatus)


class LogFormatError(ValueError):
    """Text that is not a game log; ``line`` is the 1-based line at fault (``None``: the whole file)."""

    def __init__(self, name: str, line: int | None, problem: str) -> None:
        super().__init__(f"{name}, line {line}: {problem}" if line is not None else f"{name}: {problem}")
        self.name = name
        self.line = line
        self.problem = problem


# -- writing ----------------------------------------------------------------------------------
def canonical_step(step: Step) -> Step:
    """``step`` as a log row stores it: a cell and a wall together keep only the cell (rule 5)."""
    if step.is_move():
        return Step(step.new_loc)
    if not step.new_wall.is_none():
        # The rules judge a wall whenever the cell is off the board, so the cell carries nothing.
        return Step(new_wall=step.new_wall)
    return step


def _csv_line(fields: list[object]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(fields)
    return buffer.getvalue()


_META_PREFIX = ",".join(str(n) for n in _META_NUMBERS)


def _text(value: int | None) -> str:
    return "" if value is None else str(value)


def _meta_row(key: str, value: object, seat: int | None = None, reason: str = "") -> str:
    text = str(value)
    if value is None or any(c in text + key + reason for c in _QUOTED):
        return _csv_line(["", *_META_NUMBERS, "", "", _text(seat), key, value, reason])
    return f",{_META_PREFIX},,,{_text(seat)},{key},{text},{reason}\n"     # what csv writes when nothing needs quotes


#: Characters that make the csv module quote a field.
_QUOTED = (",", '"', "\n", "\r")


def format_row(record: StepRecord, *, seat: int | None = None) -> str:
    """One step row, line break included (for appending as the game goes); ``seat`` fills the seat column.

    The player is written as ``log_safe_name`` gives it and the reason encoded: never with a comma
    (module doc).
    """
    check_player_name(record.player)   # an empty name would turn the row into a metadata row
    if seat not in (None, 0, 1):
        raise ValueError(f"seat must be 0, 1 or None, got {seat!r}")
    step = canonical_step(record.step)
    loc, (start, stop) = step.new_loc, step.new_wall
    name = log_safe_name(record.player)
    reason = _encode(record.reason) if record.reason else ""
    if '"' in name or '"' in reason:   # with commas gone, the only character of a valid text that CSV must quote
        return _csv_line([name, loc.x, loc.y, start.x, start.y, stop.x, stop.y, int(record.status),
                          _text(record.thinking_ms), _text(record.turn), _text(seat), "", "", reason])
    # Every other field is a number, empty or a text without quotes, commas or line breaks: the csv
    # module would write them as they are. (A server writes a row per step; this is 5x faster than a
    # csv.writer per row.)
    return (f"{name},{loc.x},{loc.y},{start.x},{start.y},{stop.x},{stop.y},{int(record.status)},"
            f"{_text(record.thinking_ms)},{_text(record.turn)},{_text(seat)},,,{reason}\n")


_ENCODED_KEYS = ("player", "game", "tournament")
_ESCAPES = {"%": "%25", ",": "%2C"}
_ESCAPED = re.compile("%25|%2C")


def _encode(text: str) -> str:
    """A metadata text without commas for the old viewer: ``,`` as ``%2C``, ``%`` as ``%25``."""
    return "".join(_ESCAPES.get(c, c) for c in text) if "," in text or "%" in text else text


def _decode(text: str) -> str:
    """The text ``_encode`` wrote (a text without ``%`` is read as it stands)."""
    return _ESCAPED.sub(lambda m: "%" if m.group() == "%25" else ",", text) if "%" in text else text


def _header_items(header: GameHeader) -> list[tuple[str, str, int | None]]:
    items = [("format", FORMAT, None), ("player", _encode(header.players[0]), 0),
             ("player", _encode(header.players[1]), 1), ("ruleset", header.ruleset, None)]
    items += [(key, _encode(value) if key in _ENCODED_KEYS else value, None)
              for key in HEADER_KEYS if (value := getattr(header, key)) is not None]
    return items


def format_header(header: GameHeader) -> str:
    """The start of a log: the header line and the metadata rows of ``header``."""
    return HEADER_LINE + "".join(_meta_row(key, value, seat) for key, value, seat in _header_items(header))


def format_outcome(outcome: GameOutcome) -> str:
    """The end of a finished log: per-seat totals, then the ``result`` row."""
    rows = [_meta_row(key, getattr(outcome, key)[seat], seat) for key in TOTAL_KEYS for seat in (0, 1)]
    for key, times in (("cpu_ms", outcome.cpu_ms), ("wall_ms", outcome.wall_ms)):
        if times is not None:
            rows += [_meta_row(key, " ".join("-" if ms is None else str(ms) for ms in times[seat]), seat)
                     for seat in (0, 1)]
    return "".join(rows) + _meta_row("result", outcome.reason, outcome.winner, _encode(outcome.note))


def format_log(log: GameLog) -> str:
    """The whole log as CSV text (``\\n`` line breaks), without a comma in any text (module doc);
    ``ValueError`` if a row names no player of the game."""
    rows = [format_row(r, seat=log.header.seat(r.player)) for r in log.steps]
    end = format_outcome(log.outcome) if log.outcome is not None else ""
    return format_header(log.header) + "".join(rows) + end


# -- reading ----------------------------------------------------------------------------------
def parse_log(text: str, *, name: str = "<log>") -> GameLog:
    """Read a log (ours, the old server's or the old client's) and replay it; ``problems`` lists disagreements.

    Raises ``LogFormatError`` naming ``name`` and the line when ``text`` is not a game log.
    """
    log = _Parser(name).parse(text)
    return dataclasses.replace(log, problems=validate(log))


def _short(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


class _Parser:
    """One pass over the CSV rows, collecting steps and metadata with the line of each."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.index: dict[str, int] = {}
        self.width = 0
        self.steps: list[StepRecord] = []
        self.lines: list[int] = []
        self.seats: list[int | None] = []
        self.seen: dict[tuple[str, int | None], int] = {}    # metadata key and seat -> line
        self.declared: dict[int, str] = {}
        self.texts: dict[str, str] = {}
        self.totals: dict[str, dict[int, int]] = {key: {} for key in TOTAL_KEYS}
        self.totals_line: int | None = None
        self.result: tuple[int | None, str] | None = None
        self.result_line: int | None = None
        self.note = ""
        self.cpu: dict[int, tuple[int | None, ...]] = {}
        self.wall: dict[int, tuple[int | None, ...]] = {}

    def fail(self, line: int | None, problem: str) -> NoReturn:
        raise LogFormatError(self.name, line, problem)

    def parse(self, text: str) -> GameLog:
        text = text.removeprefix("\ufeff")
        if not text.strip():
            self.fail(1, f"empty file: a game log starts with the header line {','.join(LEGACY_COLUMNS)!r}")
        reader = csv.reader(io.StringIO(text, newline=""), strict=True)
        try:
            for fields in reader:
                if not self.index:
                    self.read_header(reader.line_num, fields)
                elif any(field.strip() for field in fields):
                    self.read_row(reader.line_num, fields)
        except csv.Error as exc:
            self.fail(reader.line_num, f"not readable as CSV: {exc}")
        return self.finish()

    def read_header(self, line: int, fields: list[str]) -> None:
        columns = [field.strip() for field in fields]
        for column in columns:
            if column and columns.count(column) > 1:
                self.fail(line, f"column {column!r} appears twice in the header line")
        missing = [column for column in LEGACY_COLUMNS if column not in columns]
        if missing:
            self.fail(line, f"missing column(s) {', '.join(missing)}: the header line of a game log names "
                            f"{','.join(LEGACY_COLUMNS)}; found {_short(','.join(fields))}")
        self.index = {column: i for i, column in enumerate(columns) if column}
        self.width = len(fields)

    def read_row(self, line: int, fields: list[str]) -> None:
        if len(fields) != self.width:
            self.fail(line, f"{len(fields)} fields, but the header line names {self.width} columns")
        if self.result_line is not None:
            self.fail(line, f"a row after the result row of line {self.result_line}, which ends a finished log")

        def get(column: str) -> str:
            return fields[self.index[column]] if column in self.index else ""

        player, meta = get("player").strip(), get("meta").strip()
        if player and meta:
            self.fail(line, f"the step row of {player!r} has {meta!r} in the meta column; "
                            "only rows with an empty player carry metadata")
        if player:
            self.read_step(line, player, get)
        elif meta:
            self.read_meta(line, meta, get("value"), self.seat(line, get("seat")), get("reason"))
        else:
            self.fail(line, "the player column is empty (and the row is no metadata row)")

    # -- fields
    def integer(self, line: int, column: str, text: str) -> int:
        if not _INT.fullmatch(text.strip()):
            self.fail(line, f"column {column} is {_short(text)}, expected an integer")
        return int(text)

    def count(self, line: int, column: str, text: str) -> int | None:
        if not text.strip():
            return None
        if not _COUNT.fullmatch(text.strip()):
            self.fail(line, f"column {column} is {_short(text)}, expected a non-negative integer or nothing")
        return int(text)

    def seat(self, line: int, text: str) -> int | None:
        if text.strip() not in ("", "0", "1"):
            self.fail(line, f"column seat is {_short(text)}, expected 0, 1 or nothing")
        return int(text) if text.strip() else None

    # -- rows
    def read_step(self, line: int, player: str, get: Callable[[str], str]) -> None:
        if self.totals_line is not None:
            self.fail(line, f"a step row after the outcome rows that began on line {self.totals_line}")
        try:
            check_player_name(player)
        except ValueError as exc:
            self.fail(line, str(exc))
        x, y, sx, sy, tx, ty, code = (self.integer(line, c, get(c)) for c in LEGACY_COLUMNS[1:])
        try:
            status = GameStatus(code)
        except ValueError:
            self.fail(line, f"status {code} is not a game status; expected one of {_KNOWN_STATUSES}")
        step = Step(Location(x, y), BlockBar(Location(sx, sy), Location(tx, ty)))
        thinking_ms, turn = self.count(line, "thinking_ms", get("thinking_ms")), self.count(line, "turn", get("turn"))
        try:
            record = StepRecord(player, step, status, thinking_ms, turn, _decode(get("reason")))
        except ValueError as exc:
            self.fail(line, str(exc))
        self.steps.append(record)
        self.lines.append(line)
        self.seats.append(self.seat(line, get("seat")))

    def read_meta(self, line: int, key: str, value: str, seat: int | None, reason: str = "") -> None:
        if key in _HEADER_KEYS and self.steps:
            self.fail(line, f"header row {key!r} after the first step row (line {self.lines[0]}); "
                            "header rows come before the steps")
        if (key, seat) in self.seen:
            which = "" if seat is None else f" of seat {seat}"
            self.fail(line, f"a second {key!r} row{which} (the first is on line {self.seen[key, seat]})")
        self.seen[key, seat] = line
        if key in ("player", *TOTAL_KEYS):
            self.read_seat_meta(line, key, value, seat)
        elif key == "format":
            if value.strip() != FORMAT:
                self.fail(line, f"log format {_short(value.strip())} is not supported; this reader knows {FORMAT!r}")
        elif key in ("ruleset", "game", "tournament", "started", "clock"):
            text = value.strip() if key in ("ruleset", "started", "clock") else _decode(value)
            try:   # the header's own checks, one field at a time so the error names this line
                GameHeader(("a", "b"), **{key: text})
            except ValueError as exc:
                self.fail(line, str(exc))
            self.texts[key] = text
        elif key == "result":
            if value.strip() not in REASONS:
                self.fail(line, f"result reason {_short(value.strip())} is unknown; expected one of: {', '.join(REASONS)}")
            self.result, self.result_line = (seat, value.strip()), line
            self.note = _decode(reason.strip())
        elif key in ("cpu_ms", "wall_ms"):
            self.read_times(line, key, value, seat)
        # Other keys are ignored: a later writer may add metadata this reader does not need.

    def read_times(self, line: int, key: str, value: str, seat: int | None) -> None:
        """A ``cpu_ms`` or ``wall_ms`` row: one seat's milliseconds per step, blank-separated (``-``: not measured)."""
        if seat is None:
            self.fail(line, f"the {key!r} row needs seat 0 or 1 in the seat column")
        times: list[int | None] = []
        for item in value.split():
            if item != "-" and not _COUNT.fullmatch(item):
                self.fail(line, f"the {key!r} row holds {_short(item)}; expected whole milliseconds or '-'")
            times.append(None if item == "-" else int(item))
        (self.cpu if key == "cpu_ms" else self.wall)[seat] = tuple(times)

    def read_seat_meta(self, line: int, key: str, value: str, seat: int | None) -> None:
        """A row that belongs to one seat: its player's name or one of its totals."""
        if seat is None:
            self.fail(line, f"the {key!r} row needs seat 0 or 1 in the seat column")
        if key == "player":
            try:
                self.declared[seat] = check_player_name(_decode(value.strip()))
            except ValueError as exc:
                self.fail(line, str(exc))
            return
        number = self.count(line, "value", value)
        if number is None:
            self.fail(line, f"the {key!r} row needs a non-negative integer in the value column")
        self.totals[key][seat] = number
        self.totals_line = self.totals_line or line

    # -- the whole log
    def finish(self) -> GameLog:
        players = self.players()
        # A step row names its player as declared, or spelled without commas (``log_safe_name``).
        spelled = {name: name for name in players}
        for name in players:
            spelled.setdefault(log_safe_name(name), name)
        for index, (record, line, seat) in enumerate(zip(self.steps, self.lines, self.seats)):
            name = spelled.get(record.player)
            if name is None:
                self.fail(line, f"{record.player!r} is not a player of this game "
                                f"({players[0]!r} and {players[1]!r})")
            if seat is not None and players[seat] != name:
                self.fail(line, f"the seat column says {seat}, but {record.player!r} plays seat "
                                f"{players.index(name)}")
            if name != record.player:
                self.steps[index] = dataclasses.replace(record, player=name)
        header = GameHeader(players, **self.texts)
        return GameLog(header, self.steps, self.outcome(), [], tuple(self.lines), self.result_line)

    def players(self) -> tuple[str, str]:
        if self.declared:
            for seat in (0, 1):
                if seat not in self.declared:
                    self.fail(self.seen["player", 1 - seat],
                              f"the log names the player of seat {1 - seat} but not the one of seat {seat}")
            if self.declared[0] == self.declared[1]:
                self.fail(self.seen["player", 1], f"both seats are named {self.declared[0]!r}; "
                                                  "the players of a game need distinct names")
            if log_safe_name(self.declared[0]) == log_safe_name(self.declared[1]):
                self.fail(self.seen["player", 1], f"seats named {self.declared[0]!r} and {self.declared[1]!r} "
                                                  "cannot be told apart in the step rows, which spell both "
                                                  f"{log_safe_name(self.declared[0])!r}")
            return self.declared[0], self.declared[1]
        if not self.steps:
            self.fail(1, "no step rows and no player rows: the file records no game")
        names: list[str] = []
        for record, line in zip(self.steps, self.lines):
            if record.player not in names:
                if len(names) == 2:
                    self.fail(line, f"a third player name {record.player!r}; this game's players are "
                                    f"{names[0]!r} and {names[1]!r}")
                names.append(record.player)
        if len(names) < 2:
            self.fail(self.lines[0], f"only one player name ({names[0]!r}) in the log: its opponent is never named")
        return _legacy_seats(names[0], names[1], self.steps)

    def outcome(self) -> GameOutcome | None:
        if self.result is None:
            return None   # totals without a result row do not make a finished game
        missing = [f"{key} of seat {seat}" for key in TOTAL_KEYS for seat in (0, 1) if seat not in self.totals[key]]
        if missing:
            self.fail(self.result_line, f"the result row needs the totals rows before it; missing: {', '.join(missing)}")
        winner, reason = self.result
        by_seat = {key: (self.totals[key][0], self.totals[key][1]) for key in TOTAL_KEYS}
        cpu = (self.cpu.get(0, ()), self.cpu.get(1, ())) if self.cpu else None
        wall = (self.wall.get(0, ()), self.wall.get(1, ())) if self.wall else None
        return GameOutcome(winner, reason, by_seat["thinking_ms"], by_seat["violations"], cpu, self.note, wall)


def _legacy_seats(first: str, second: str, steps: list[StepRecord]) -> tuple[str, str]:
    """The old viewer's rule: ``first`` is seat 0 unless its first attempted cell lies nearer (5,9)."""
    cell = next((r.step.new_loc for r in steps if r.player == first and r.step.is_move()), None)
    if cell is not None and cell.distance(PLAYER0_LOC) > cell.distance(PLAYER1_LOC):
        return second, first
    return first, second

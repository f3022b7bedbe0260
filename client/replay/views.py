"""Views of a replay as rich renderables: the board and what happened, a folder's games, plain text.

``render_frame`` is what ``--print`` writes (always plain text) and what the interactive screen
shows in its panels. A view (``GameView``, the course viewer's seam) is one class with ``show``
(one frame) and ``show_game`` (all of it); the Textual screen (``app.ReplayApp``), the text
printers here (``TextView``: boards; ``LineView``: a line per step, for live games) and the
exports (``export``) are views. A ``ReplayController`` joins a view to a source of steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from rich import box
from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from client.render import PAWN_STYLES, render_board_marked
from shared.quoridor import square

from .frames import STATUS_NAMES, Frame, ReplayGame, describe_step
from .listing import GameEntry

__all__ = [
    "GameView", "TextView", "LineView", "render_title", "render_info", "render_frame", "render_frame_board",
    "render_listing", "print_listing", "frame_line", "format_ms",
]

_NAME_COLUMNS = ("game", "seat 0", "seat 1")
_BAD = "bold red"
_WARN = "bold yellow"
_GOOD = "green"


@runtime_checkable
class GameView(Protocol):
    """Something that shows a game: one frame of it, or the whole of it (the course viewer's ``GameView``)."""

    def show(self, game: ReplayGame, index: int) -> None:
        """Show frame ``index`` of ``game``."""

    def show_game(self, game: ReplayGame) -> None:
        """Show the whole game."""


def format_ms(ms: int | None) -> str:
    """``153 ms``, ``12.4 s``; ``—`` when unknown."""
    if ms is None:
        return "—"
    return f"{ms} ms" if ms < 1000 else f"{ms / 1000:.1f} s"


def _player(game: ReplayGame, seat: int | None, name: str | None = None) -> Text:
    if seat is None:
        return Text(name or "?", _BAD)
    return Text(game.players[seat], PAWN_STYLES[seat])


def render_title(game: ReplayGame) -> Text:
    """``alice (0) vs bob (1) · course rules · alice won (goal)``, with a warning when the log disagrees.

    Seat 0 starts on e1 and moves first; seat 1 starts on e9.
    """
    text = Text()
    text.append_text(_player(game, 0)).append(" (0) vs ")
    text.append_text(_player(game, 1)).append(" (1)")
    text.append(f" · {game.ruleset} rules · ")
    text.append(game.result(), _WARN if game.end_unverified else _GOOD if game.over else "")
    if game.problems:
        text.append(f" · disagrees with the rules at {game.problems[0].split(':')[0]}", _BAD)
    return text


def render_info(game: ReplayGame, index: int) -> Text:
    """What frame ``index`` shows, line by line: step, who did what, status, walls, times, violations."""
    frame = game.frames[index]
    text = Text()
    where = f" · line {frame.line}" if frame.line is not None else ""
    text.append(f"step {frame.step}/{game.last_step}", "bold").append(where + "\n")
    if frame.seat is None and frame.player is None:
        text.append("the start: nobody has moved yet\n" if frame.step == 0 else "joined here\n")
    else:
        text.append_text(_player(game, frame.seat, frame.player))
        text.append(f" {describe_step(frame.sent, frame.status)}")
        text.append(f"  [{frame.notation}]\n" if frame.notation else "\n")
    if frame.ignored_wall_note:
        text.append(frame.ignored_wall_note + "\n", _WARN)
    if frame.status is not None:
        name = STATUS_NAMES.get(frame.status, str(int(frame.status)))
        checked = frame.problem is None and frame.unverified is None and frame.stop is None
        text.append("status: " if checked else "status in the log: ").append(name, _BAD if frame.is_violation else _GOOD)
        if frame.reason:
            text.append(f": {frame.reason}", _BAD if frame.is_violation else "")
        text.append("\n")
    if frame.problem is not None:      # a live frame has no line: its problem is the server's board
        text.append(f"✗ the log disagrees with the rules (line {frame.line}): {frame.problem}\n"
                    if frame.line is not None else f"✗ {frame.problem}\n", _BAD)
    if frame.stop is not None:
        later = game.rows - frame.step
        text.append(f"✗ line {frame.line}: {frame.stop}; {later} later row(s) not shown\n", _BAD)
    if frame.unverified_note:
        text.append(frame.unverified_note + "\n", _WARN)
    pos = frame.position
    # One row per figure, seat 0 first, each in its player's colour (the first row says who is who; the
    # second where each pawn stands at this step and its goal row: seat 0 starts on e1, seat 1 on e9).
    cells = [square(pos.pawn(seat)) if pos.pawn(seat).is_valid() else "?" for seat in (0, 1)]
    for label, values in (("players", (f"{game.players[0]} (seat 0)", f"{game.players[1]} (seat 1)")),
                          ("pawn on", (f"{cells[0]} → row 9", f"{cells[1]} → row 1")),
                          ("walls left", (str(pos.walls_left[0]), str(pos.walls_left[1]))),
                          ("thinking", _times(frame)),
                          ("violations", (str(frame.violations[0]), str(frame.violations[1])))):
        text.append(f"{label:<11}")
        text.append(values[0], PAWN_STYLES[0]).append(" · ").append(values[1], PAWN_STYLES[1]).append("\n")
    if index == len(game.frames) - 1 and game.over:
        text.append(game.result(), _WARN if game.end_unverified else _GOOD)
    elif index == len(game.frames) - 1 and game.live:
        text.append("in progress", _WARN)
    text.rstrip()
    return text


def _times(frame: Frame) -> tuple[str, str]:
    if frame.clocks_ms is None:
        return "—", "—"
    times = [f"total {format_ms(frame.clocks_ms[0])}", f"total {format_ms(frame.clocks_ms[1])}"]
    if frame.seat is not None and frame.thinking_ms is not None:
        times[frame.seat] = f"{format_ms(frame.thinking_ms)}, {times[frame.seat]}"
    return times[0], times[1]


def render_frame_board(frame: Frame) -> Text:
    """The board of ``frame``, its step (a placed wall, the cell moved to) standing out."""
    applied = frame.applied
    wall = frame.sent.new_wall if applied and not frame.sent.is_move() else None
    cell = frame.sent.new_loc if applied and frame.sent.is_move() else None
    return render_board_marked(frame.position, wall=wall, cell=cell, status_line=False)


def render_frame(game: ReplayGame, index: int) -> Group:
    """Frame ``index`` of ``game``: the title, the board (the last step stands out) and the info lines."""
    return Group(render_title(game), render_frame_board(game.frames[index]), render_info(game, index))


def frame_line(game: ReplayGame, frame: Frame) -> str:
    """One line for a step of a live game: ``g1 step 3: bob e2h Ok · clocks 0.3 s / 0.4 s``."""
    who = frame.player or "?"
    status = STATUS_NAMES.get(frame.status, "?") if frame.status is not None else "?"
    clocks = "" if frame.clocks_ms is None else \
        f" · clocks {format_ms(frame.clocks_ms[0])} / {format_ms(frame.clocks_ms[1])}"
    line = f"{game.key} step {frame.step}: {who} {frame.notation} {status}{clocks}"
    if frame.reason:
        line += f" ({frame.reason})"
    if frame.problem:
        line += f" ✗ {frame.problem}"
    if frame.over:
        line += f" · {game.result()}"
    return line


def render_listing(entries: Sequence[GameEntry], title: str = "") -> Table:
    """A folder's games as a table: number, game, players, score, result, steps, notes."""
    table = Table(title=title or None, title_justify="left", box=box.SIMPLE_HEAD,
                  show_edge=False, collapse_padding=True)
    for column, justify in (("#", "right"), ("game", "left"), ("seat 0", "left"), ("seat 1", "left"),
                            ("score", "center"), ("end", "left"), ("steps", "right"), ("note", "left")):
        # Names are never broken across lines (a pipe is 80 columns wide): see print_listing.
        table.add_column(column, justify=justify, overflow="fold",  # type: ignore[arg-type]
                         no_wrap=column in _NAME_COLUMNS)
    for n, entry in enumerate(entries, 1):
        table.add_row(str(n), entry.game, Text(entry.white, PAWN_STYLES[0]), Text(entry.black, PAWN_STYLES[1]),
                      entry.score, entry.result, "" if entry.steps is None else str(entry.steps),
                      Text(entry.note, _BAD if not entry.openable or "disagrees" in entry.note else ""))
    return table


def print_listing(console: Console, entries: Sequence[GameEntry], title: str = "") -> None:
    """Print the listing as wide as its names need, even past the console's width (a pipe's 80 columns)."""
    table = render_listing(entries, title)
    need = Measurement.get(console, console.options.update(max_width=100_000), table).maximum
    if need > console.width:
        console = Console(file=console.file, width=need, color_system=console.color_system,  # type: ignore[arg-type]
                          force_terminal=console.is_terminal, highlight=False)
    console.print(table)


class TextView:
    """Prints frames to a rich console as text (``--print``: the console is made without colour)."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def _print(self, renderable: RenderableType) -> None:
        self.console.print(renderable, highlight=False)

    def show(self, game: ReplayGame, index: int) -> None:
        """Print frame ``index``."""
        self._print(render_frame(game, index))

    def show_game(self, game: ReplayGame) -> None:
        """Print every frame, the title once; then the disagreements, if any."""
        self._print(render_title(game))
        for index, frame in enumerate(game.frames):
            self._print(Text(""))
            self._print(render_frame_board(frame))
            self._print(render_info(game, index))
        for problem in game.problems:
            self._print(Text(f"✗ {problem}", _BAD))


class LineView:
    """Prints one line per step (``frame_line``): ``--live --print`` follows every game through it."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def show(self, game: ReplayGame, index: int) -> None:
        """Print the line of frame ``index`` (nothing for a start that no step led to)."""
        frame = game.frames[index]
        if frame.seat is not None or frame.player is not None:
            self.console.print(Text(frame_line(game, frame)), highlight=False)

    def show_game(self, game: ReplayGame) -> None:
        """Print the line of every step."""
        for index in range(len(game.frames)):
            self.show(game, index)

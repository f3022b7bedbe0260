"""What the server shows while it runs: a rich live dashboard on a terminal, plain lines otherwise.

Both are ``Reporter`` implementations. On the practice ladder (``ladder_status``, ``ladder_table``) the
dashboard shows the games played, the bots connected, why nothing plays when nothing does (and when
play resumes), the games in progress and the published table instead of a tournament's progress.
The dashboard keeps a small snapshot of the tournament
and renders it with pure functions (``render_dashboard``) into a ``Live(auto_refresh=False)``,
refreshed at most a few times a second so that hundreds of games never slow the referee. It
is on screen from the moment the server listens (the seats filling, ``2 of 4 joined``), and a
terminal too small for the full tables (80x24) gets a compact layout that fits it line for line.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.panel import Panel
from rich.progress_bar import ProgressBar
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from shared.ladder import Idle, PublishedRow
from shared.quoridor import Step, step_name
from shared.referee import StepJudged
from shared.tournament import GameResult, Row, Standings, interval_text, score_text

from server.views.standings import (
    crosstable_text, is_final_table, render_crosstable, render_standings, standings_text,
)

__all__ = ["PlainReporter", "LiveReporter", "Snapshot", "render_dashboard", "describe_result", "replay_hint",
           "replay_command"]

#: The full layout needs this many columns (its standings table); a narrower terminal gets the compact one.
FULL_WIDTH = 100


def describe_result(white: str, black: str, result: GameResult) -> str:
    """``alice 1-0 bob (goal)``: a finished game in one line."""
    score = score_text(result.winner, result.reason)
    return f"{white} {score} {black} ({result.reason.replace('_', ' ')})"


def replay_command() -> str:
    """``quoridor-replay`` as a shell word to paste: the script beside this Python, relative when under the cwd.

    The rule of ``client.commands.installed_command`` (server and client do not import each other):
    after the README's quick start the virtual environment is not activated, so a bare name is not found.
    """
    folder = Path(sys.executable).absolute().parent     # not resolved: a venv's python is a symlink
    for path in (folder / "quoridor-replay", folder / "quoridor-replay.exe"):
        if path.is_file():
            try:
                return shlex.quote(str(path.relative_to(Path.cwd())))
            except ValueError:
                return shlex.quote(str(path))
    found = shutil.which("quoridor-replay")
    return shlex.quote(found) if found else "quoridor-replay"


def replay_hint(logs: Sequence[Path]) -> list[str]:
    """The end screen's lines on replaying: a game's log (the first played), and the folder to pick one from."""
    if not logs:
        return []
    command = replay_command()
    return [f"replay a game:  {command} {shlex.quote(str(logs[0]))}",
            f"pick a game:    {command} {shlex.quote(str(logs[0].parent) + os.sep)}"]


class PlainReporter:
    """One line per event, for logs, pipes and CI."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.done = 0
        self.total: int | None = None
        self._idle: str | None = None       # the ladder's idle reason last told

    def _line(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def players_waiting(self, joined: Sequence[str], seats: int, news: str | None) -> None:
        """A join or a leave before the start, with the seats taken: ``alice joined from … — 2 of 4 joined``."""
        if news is not None:        # the empty lobby: the "listening … waiting for 4 players" line said it
            self._line(f"{news} — {len(joined)} of {seats} joined")

    def tournament_started(self, name: str, players: Sequence[str], games_total: int | None) -> None:
        self.total = games_total
        self._line(f"tournament {name}: {len(players)} players ({', '.join(players)}), "
                   + (f"{games_total} games" if games_total is not None else
                      "games round by round until it is decided"))

    def game_started(self, game_id: str, white: str, black: str) -> None:
        self._line(f"{game_id}: {white} (seat 0) vs {black} (seat 1) started")

    def game_step(self, game_id: str, judged: StepJudged) -> None:
        return None

    def game_finished(self, game_id: str, white: str, black: str, result: GameResult) -> None:
        self.done += 1
        of = f"/{self.total}" if self.total else ""
        self._line(f"[{self.done}{of}] {game_id}: {describe_result(white, black, result)}")

    def standings(self, standings: Standings) -> None:
        return None

    def ladder_status(self, bots: int, playing: int, idle: Idle | None) -> None:
        """The ladder's state after a matchmaking decision: one line when it falls idle (why) or plays again."""
        reason = idle.reason if idle is not None else None
        if reason != self._idle:
            self._idle = reason
            self._line(f"ladder idle: {idle_text(idle)}" if idle is not None else "ladder: playing again")

    def ladder_table(self, rows: Sequence[PublishedRow]) -> None:
        return None

    def message(self, text: str) -> None:
        self._line(text)

    def tournament_finished(self, standings: Standings, files: Sequence[Path], logs: Sequence[Path] = ()) -> None:
        self._line("final standings:")
        self._line(standings_text(standings.rows()))
        self._line("crosstable (points/games of the row player against each column player):")
        self._line(crosstable_text(standings))
        for path in files:
            self._line(f"results written to {path}")
        for line in replay_hint(logs):
            self._line(line)


def idle_text(idle: Idle, resumes_in_s: float | None = None) -> str:
    """Why the ladder plays nothing and when it resumes, in one line (``resumes_in_s`` given: counted down)."""
    left = idle.resumes_in_s if resumes_in_s is None else resumes_in_s
    return idle.reason + (f" · play resumes in {max(left, 0):.0f} s" if left is not None else "")


@dataclass
class LadderView:
    """The dashboard's ladder: bots connected, games in progress, why it is idle (and until when), the table."""

    bots: int = 0
    playing: int = 0
    idle: Idle | None = None
    resumes_at: float | None = None      # time.monotonic() when play resumes, while idle
    table: list[PublishedRow] = field(default_factory=list)


@dataclass
class _GameView:
    white: str
    black: str
    steps: int = 0
    last: Step | None = None           # named when drawn: most steps are never shown
    clocks_ms: tuple[int, int] = (0, 0)
    violations: list[int] = field(default_factory=lambda: [0, 0])


@dataclass
class Snapshot:
    """The dashboard's state: plain data, rendered by ``render_dashboard``."""

    name: str = ""
    total: int | None = None
    #: While the seats fill: the players seated so far and the seats there are (None once it started).
    waiting: tuple[list[str], int] | None = None
    done: int = 0
    games: dict[str, _GameView] = field(default_factory=dict)
    recent: deque[str] = field(default_factory=lambda: deque(maxlen=8))
    standings: Standings | None = None
    #: On the practice ladder: what it shows instead of a tournament's progress and standings.
    ladder: LadderView | None = None
    _rows: tuple[int, int, list[Row]] | None = field(default=None, repr=False)

    def standing_rows(self) -> list[Row]:
        """The standings' rows, worked out once per finished game (a big table costs milliseconds)."""
        standings = self.standings
        assert standings is not None
        key = (id(standings), standings.games_done)
        if self._rows is None or self._rows[:2] != key:
            self._rows = (*key, standings.rows())
        return self._rows[2]


def _name(step: Step | None) -> str:
    if step is None:
        return ""
    try:
        return step_name(step)
    except ValueError:          # an empty or malformed step has no algebraic name
        return "?"


def _header(left: str, right: str, completed: int, total: int) -> list[RenderableType]:
    """The title line and the progress bar under it (two lines)."""
    header = Table.grid(expand=True)
    header.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
    header.add_column(justify="right", no_wrap=True)
    header.add_row(Text(left, style="bold"), Text(right))
    # A bare ProgressBar ends without a line break, so the next title would share its line: a grid row ends one.
    bar = Table.grid(expand=True)
    bar.add_row(ProgressBar(total=max(total, 1), completed=completed))
    return [header, bar]


def _lines(texts: Sequence[str]) -> Table:
    """Plain lines, one screen line each (a long one is cut with ``…``)."""
    table = Table.grid(expand=True)
    table.add_column(no_wrap=True, overflow="ellipsis")
    for text in texts:
        table.add_row(text)
    return table


def render_dashboard(snap: Snapshot, *, max_games: int = 12, max_rows: int = 20,
                     height: int | None = None, width: int | None = None, now: float = 0.0) -> Group:
    """The whole dashboard as one renderable: progress, games in progress, the standings' top, recent events.

    While the seats fill it shows who has joined (``2 of 4 joined``). Given the terminal's ``height``
    (and ``width``), a layout that would not fit (taller, or narrower than ``FULL_WIDTH``) becomes the
    compact one: borderless tables, one line per row, cut to fit ``height - 1`` lines. ``now`` is the
    ``time.monotonic()`` of the drawing: an idle ladder counts down to its ``resumes_at`` from it.
    """
    if snap.waiting is not None:
        return _render_waiting(snap, height)
    if snap.ladder is not None:
        return _render_ladder(snap, snap.ladder, height, now, max_games=max_games, max_rows=max_rows)
    games = list(snap.games.items())[:max_games]
    rows = snap.standing_rows()[:max_rows] if snap.standings is not None and snap.standings.games_done else []
    if height is not None and ((width is not None and width < FULL_WIDTH) or
                               _full_height(snap, len(games), len(rows)) > height - 1):
        return _render_compact(snap, height, max_games=max_games, max_rows=max_rows)
    total = snap.total or max(snap.done + len(snap.games), 1)
    parts = _header(f"Quoridor Arena · {snap.name}", f"{snap.done}/{snap.total if snap.total else '?'} games",
                    snap.done, total)
    table = Table(title="games in progress", expand=True, title_style="bold")
    for column in ("game", "seat 0", "seat 1", "steps", "last", "clocks (s)", "violations"):
        table.add_column(column)
    for game_id, view in games:
        table.add_row(*_game_cells(game_id, view))
    if len(snap.games) > max_games:
        table.caption = f"… and {len(snap.games) - max_games} more"
    parts.append(table)
    if rows:
        standings = render_standings(rows, title="standings")
        hidden = len(snap.standing_rows()) - len(rows)
        if hidden:
            standings.caption = f"… and {hidden} more (all of them at the end)"
        parts.append(standings)
    if snap.recent:
        parts.append(Panel("\n".join(snap.recent), title="recent", title_align="left"))
    return Group(*parts)


def _game_cells(game_id: str, view: _GameView) -> tuple[str | Text, ...]:
    return (game_id, Text(view.white, "bright_cyan"), Text(view.black, "bright_magenta"), str(view.steps),
            _name(view.last), f"{view.clocks_ms[0] / 1000:.1f} / {view.clocks_ms[1] / 1000:.1f}",
            f"{view.violations[0]} / {view.violations[1]}")


def _full_height(snap: Snapshot, games: int, rows: int) -> int:
    """Lines the full layout takes: header and bar, each table's title, borders, header and caption, the panel."""
    height = 2 + 5 + games + (len(snap.games) > games)
    if rows:
        height += 5 + rows + (len(snap.standing_rows()) > rows)
        height += 2 * is_final_table(snap.standing_rows())      # a final's note: two lines at most at FULL_WIDTH
    if snap.recent:
        height += 2 + len(snap.recent)
    return height


def _share(room: int, wanted: Sequence[int], floors: Sequence[int], order: Sequence[int]) -> list[int]:
    """Rows for each section within ``room`` lines, a section shown taking one line more (its header).

    First each section's floor, then all it wants, sections taken in ``order`` both times.
    """
    given = [0] * len(wanted)
    for limits in (floors, wanted):
        for i in order:
            header = 1 if given[i] == 0 else 0
            extra = min(min(limits[i], wanted[i]) - given[i], room - header)
            if extra > 0:
                given[i] += extra
                room -= extra + header
    return given


def _games_in_progress(snap: Snapshot, shown_n: int, *, game_width: int, name_width: int) -> list[RenderableType]:
    """The first ``shown_n`` games in progress as a borderless table (a line saying how many more when cut)."""
    if not shown_n:
        return []
    table = Table(expand=True, box=None, show_edge=False, pad_edge=False, header_style="bold")
    for column, least, most in (("game", game_width, None), ("seat 0", 6, name_width), ("seat 1", 6, name_width),
                                ("steps", 5, None), ("last", 4, None), ("clocks (s)", 11, None), ("viol.", 5, None)):
        table.add_column(column, no_wrap=True, overflow="ellipsis", min_width=least, max_width=most)
    shown = list(snap.games.items())
    cut = len(shown) > shown_n
    for game_id, view in shown[:shown_n - cut]:
        table.add_row(*_game_cells(game_id, view))
    parts: list[RenderableType] = [table]
    if cut:
        parts.append(_lines([f"… and {len(shown) - shown_n + 1} more games in progress"]))
    return parts


def _render_compact(snap: Snapshot, height: int, *, max_games: int, max_rows: int) -> Group:
    """The dashboard in ``height - 1`` lines: every table borderless, one line per row, cut with ``… and N more``."""
    total = snap.total or max(snap.done + len(snap.games), 1)
    parts = _header(f"Quoridor Arena · {snap.name}", f"{snap.done}/{snap.total if snap.total else '?'} games",
                    snap.done, total)
    all_rows = snap.standing_rows() if snap.standings is not None and snap.standings.games_done else []
    wanted = [min(len(snap.games), max_games), min(len(all_rows), max_rows), len(snap.recent)]
    # Floors: a couple of games, the leaders and the latest news show first; then the rest of the
    # standings, of the games, of the news.
    games_n, rows_n, recent_n = _share(height - 1 - len(parts), wanted, floors=(2, 3, 1), order=(1, 0, 2))
    parts.extend(_games_in_progress(snap, games_n, game_width=11, name_width=16))
    if rows_n:
        cut = len(all_rows) > rows_n
        parts.append(render_standings(all_rows[:rows_n - cut], compact=True))
        if cut:
            parts.append(_lines([f"… and {len(all_rows) - rows_n + 1} more players (all of them at the end)"]))
    if recent_n:
        parts.append(Rule("recent", align="left", style="dim"))
        parts.append(_lines(list(snap.recent)[-recent_n:]))
    return Group(*parts)


def _render_waiting(snap: Snapshot, height: int | None) -> Group:
    """Before the start: how many of the seats are taken, by whom, and the latest news."""
    assert snap.waiting is not None
    joined, seats = snap.waiting
    parts = _header("Quoridor Arena · waiting for players", f"{len(joined)} of {seats} joined", len(joined), seats)
    parts.append(_lines([f"joined: {', '.join(joined)}" if joined else "nobody has joined yet"]))
    recent = list(snap.recent)
    if height is not None:
        room = height - 1 - len(parts) - 2          # the panel's borders take two lines
        recent = recent[-room:] if room > 0 else []
    if recent:
        parts.append(Panel(_lines(recent), title="recent", title_align="left"))
    return Group(*parts)


def _ladder_table(rows: Sequence[PublishedRow]) -> Table:
    """The published table, borderless, one line per version."""
    table = Table(expand=True, box=None, show_edge=False, pad_edge=False, header_style="bold", title_justify="left")
    for column, least in (("#", 2), ("bot@version", 12), ("games", 5), ("score", 5), ("rating", 6),
                          ("95% interval", 12)):
        table.add_column(column, no_wrap=True, overflow="ellipsis", min_width=least,
                         justify="left" if column == "bot@version" else "right")
    for rank, row in enumerate(rows, 1):
        table.add_row(str(rank), row.track, str(row.games), f"{row.score:g}",
                      "-" if row.rating is None else f"{row.rating:+.0f}",
                      interval_text(row.low, row.high))
    return table


def _render_ladder(snap: Snapshot, view: LadderView, height: int | None, now: float, *,
                   max_games: int, max_rows: int) -> Group:
    """The practice ladder: games played and bots connected, what it does now (or why it is idle and until when),
    the games in progress, the published table and the news, cut to ``height - 1`` lines."""
    header = Table.grid(expand=True)
    header.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
    header.add_column(justify="right", no_wrap=True)
    header.add_row(Text("Quoridor Arena · practice ladder", style="bold"),
                   Text(f"{snap.done} games played · {view.bots} bot{'s' * (view.bots != 1)} connected"))
    if view.idle is not None:
        left = None if view.resumes_at is None else view.resumes_at - now
        status = Text(f"idle: {idle_text(view.idle, left)}", "yellow")
    else:
        status = Text(f"playing {len(snap.games)} game{'s' * (len(snap.games) != 1)}", "green")
    line = Table.grid(expand=True)
    line.add_column(no_wrap=True, overflow="ellipsis")
    line.add_row(status)
    parts: list[RenderableType] = [header, line]
    wanted = [min(len(snap.games), max_games), min(len(view.table), max_rows), len(snap.recent)]
    room = (height - 1 - len(parts)) if height is not None else sum(wanted) + 3
    games_n, rows_n, recent_n = _share(room, wanted, floors=(2, 3, 1), order=(1, 0, 2))
    parts.extend(_games_in_progress(snap, games_n, game_width=8, name_width=20))
    if rows_n:
        cut = len(view.table) > rows_n
        parts.append(_ladder_table(view.table[:rows_n - cut]))
        if cut:
            parts.append(_lines([f"… and {len(view.table) - rows_n + 1} more (--report table lists them all)"]))
    if recent_n:
        parts.append(Rule("recent", align="left", style="dim"))
        parts.append(_lines(list(snap.recent)[-recent_n:]))
    return Group(*parts)


class LiveReporter:
    """A rich ``Live`` dashboard, redrawn after events but at most ``fps`` times a second."""

    def __init__(self, console: Console, fps: float = 4.0) -> None:
        self.console = console
        self.snap = Snapshot()
        self.live = Live(console=console, auto_refresh=False, transient=False)
        self.min_interval = 1 / fps
        self._drawn = 0.0
        self._started = False

    def _draw(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._drawn < self.min_interval:
            return
        self._drawn = now
        if not self._started:
            self.live.start()
            self._started = True
        size = self.console.size
        self.live.update(render_dashboard(self.snap, height=size.height, width=size.width, now=now), refresh=True)

    def stop(self) -> None:
        """Leave the last frame on screen."""
        if self._started:
            self._draw(force=True)
            self.live.stop()
            self._started = False

    def players_waiting(self, joined: Sequence[str], seats: int, news: str | None) -> None:
        """Show the seats filling (the dashboard's first frame, as soon as the server listens)."""
        self.snap.waiting = (list(joined), seats)
        if news is not None:
            self.snap.recent.append(news)
        self._draw(force=True)          # a join is rare and the view small: never leave a stale count on screen

    def tournament_started(self, name: str, players: Sequence[str], games_total: int | None) -> None:
        self.snap.name, self.snap.total, self.snap.waiting = name, games_total, None
        self.snap.standings = Standings(list(players))
        self._draw(force=True)

    def game_started(self, game_id: str, white: str, black: str) -> None:
        self.snap.games[game_id] = _GameView(white, black)
        self._draw()

    def game_step(self, game_id: str, judged: StepJudged) -> None:
        view = self.snap.games.get(game_id)
        if view is None:
            return
        view.steps += 1
        view.clocks_ms = judged.clocks_ms
        if judged.record.status.is_violation:
            view.violations[judged.seat] += 1
        view.last = judged.record.step
        self._draw()

    def game_finished(self, game_id: str, white: str, black: str, result: GameResult) -> None:
        self.snap.games.pop(game_id, None)
        self.snap.done += 1
        self.snap.recent.append(f"{game_id}: {describe_result(white, black, result)}")
        self._draw()        # not forced: hundreds of games may end at once

    def standings(self, standings: Standings) -> None:
        self.snap.standings = standings
        self._draw()

    def ladder_status(self, bots: int, playing: int, idle: Idle | None) -> None:
        """The ladder's state after each matchmaking decision (a few a second): drawn at most ``fps`` times a second."""
        view = self.snap.ladder
        if view is None:
            view = self.snap.ladder = LadderView()
            self.snap.waiting = None
        if (idle.reason if idle else None) != (view.idle.reason if view.idle else None):
            left = None if idle is None else idle.resumes_in_s
            view.resumes_at = None if left is None else time.monotonic() + left
        view.bots, view.playing, view.idle = bots, playing, idle
        self._draw()

    def ladder_table(self, rows: Sequence[PublishedRow]) -> None:
        """The refitted published table."""
        if self.snap.ladder is None:
            self.snap.ladder = LadderView()
        self.snap.ladder.table = list(rows)
        self._draw()

    def message(self, text: str) -> None:
        if self._started:
            self.snap.recent.append(text)
            self._draw()
        else:
            self.console.print(text)

    def tournament_finished(self, standings: Standings, files: Sequence[Path], logs: Sequence[Path] = ()) -> None:
        self.snap.standings = standings
        self.stop()
        self.console.print(render_crosstable(standings))
        for path in files:
            self.console.print(f"results written to {path}", highlight=False)
        for line in replay_hint(logs):
            self.console.print(line, highlight=False, soft_wrap=True)

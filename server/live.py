"""What the server shows while it runs: a rich live dashboard on a terminal, plain lines otherwise.

Both are ``Reporter`` implementations. The dashboard keeps a small snapshot of the tournament
and renders it with pure functions (``render_dashboard``) into a ``Live(auto_refresh=False)``,
refreshed at most a few times a second so that hundreds of games never slow the referee.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from rich.console import Console, Group
from rich.live import Live
from rich.panel import Panel
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from shared.quoridor import Step, step_name
from shared.referee import StepJudged
from shared.tournament import GameResult, Row, Standings

from .standings_view import crosstable_text, render_crosstable, render_standings, standings_text

__all__ = ["PlainReporter", "LiveReporter", "Snapshot", "render_dashboard", "describe_result"]


def describe_result(white: str, black: str, result: GameResult) -> str:
    """``alice 1-0 bob (goal)``: a finished game in one line."""
    score = {0: "1-0", 1: "0-1", None: "½-½"}[result.winner]
    return f"{white} {score} {black} ({result.reason.replace('_', ' ')})"


class PlainReporter:
    """One line per event, for logs, pipes and CI."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.done = 0
        self.total: int | None = None

    def _line(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def tournament_started(self, name: str, players: Sequence[str], games_total: int | None) -> None:
        self.total = games_total
        self._line(f"tournament {name}: {len(players)} players ({', '.join(players)}), "
                   f"{games_total if games_total is not None else 'knockout:'} games")

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

    def message(self, text: str) -> None:
        self._line(text)

    def tournament_finished(self, standings: Standings, files: Sequence[Path]) -> None:
        self._line("final standings:")
        self._line(standings_text(standings.rows()))
        self._line("crosstable (points/games of the row player against each column player):")
        self._line(crosstable_text(standings))
        for path in files:
            self._line(f"results written to {path}")


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
    done: int = 0
    games: dict[str, _GameView] = field(default_factory=dict)
    recent: deque[str] = field(default_factory=lambda: deque(maxlen=8))
    standings: Standings | None = None
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


def render_dashboard(snap: Snapshot, *, max_games: int = 12, max_rows: int = 20) -> Group:
    """The whole dashboard as one renderable: progress, games in progress, the standings' top, recent events."""
    total = snap.total or max(snap.done + len(snap.games), 1)
    header = Table.grid(expand=True)
    header.add_column(ratio=1)
    header.add_column(justify="right")
    header.add_row(Text(f"Quoridor Arena · {snap.name}", style="bold"),
                   Text(f"{snap.done}/{snap.total if snap.total else '?'} games"))
    # A bare ProgressBar ends without a line break, so the next title would share its line: a grid row ends one.
    bar = Table.grid(expand=True)
    bar.add_row(ProgressBar(total=total, completed=snap.done))
    parts: list = [header, bar]
    games = Table(title="games in progress", expand=True, title_style="bold")
    for column in ("game", "seat 0", "seat 1", "steps", "last", "clocks (s)", "violations"):
        games.add_column(column)
    for game_id, view in list(snap.games.items())[:max_games]:
        games.add_row(game_id, Text(view.white, "bright_cyan"), Text(view.black, "bright_magenta"),
                      str(view.steps), _name(view.last),
                      f"{view.clocks_ms[0] / 1000:.1f} / {view.clocks_ms[1] / 1000:.1f}",
                      f"{view.violations[0]} / {view.violations[1]}")
    if len(snap.games) > max_games:
        games.caption = f"… and {len(snap.games) - max_games} more"
    parts.append(games)
    if snap.standings is not None and snap.standings.games_done:
        rows = snap.standing_rows()
        table = render_standings(rows[:max_rows], title="standings")
        if len(rows) > max_rows:
            table.caption = f"… and {len(rows) - max_rows} more (all of them at the end)"
        parts.append(table)
    if snap.recent:
        parts.append(Panel("\n".join(snap.recent), title="recent", title_align="left"))
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
        self.live.update(render_dashboard(self.snap), refresh=True)

    def stop(self) -> None:
        """Leave the last frame on screen."""
        if self._started:
            self._draw(force=True)
            self.live.stop()
            self._started = False

    def tournament_started(self, name: str, players: Sequence[str], games_total: int | None) -> None:
        self.snap.name, self.snap.total = name, games_total
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

    def message(self, text: str) -> None:
        if self._started:
            self.snap.recent.append(text)
            self._draw()
        else:
            self.console.print(text)

    def tournament_finished(self, standings: Standings, files: Sequence[Path]) -> None:
        self.snap.standings = standings
        self.stop()
        self.console.print(render_crosstable(standings))
        for path in files:
            self.console.print(f"results written to {path}")

"""The interactive replay screen (Textual): the board, what happened, and keys to move through a game.

``ReplayApp`` is the interactive view (a ``GameView``): a ``ReplayController`` joins it to a
source's games (one log, or a server's live games, switched with ``[`` and ``]``), or it shows a
folder's listing and opens the log chosen there. Keys are the old viewer's (``n``/``p``) plus
arrows, Home/End, ``g``, Space, ``+``/``-``, ``?`` and ``q``.

Given an ``analyser`` (``quoridor-replay GAME --analyse``), the screen also shows the game's analysis: the evaluation
graph under the board (the step shown marked), the step list beside it (each step's label, the engine's best step
beside the played one) and the note of the step shown. The analyser runs in a worker thread, its progress in the
graph's place, so the game can be stepped through meanwhile; quitting stops it at its next step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import Static

from client.render import render_board
from shared.gamelog import LogFormatError
from shared.quoridor import Position

from .analysis_view import render_graph, render_ply_note, render_step_list
from .controller import Controller, ReplayController, StepOutOfRange
from .frames import ReplayGame
from .listing import GameEntry
from .screens import GotoScreen, HelpScreen, ListScreen
from .sources import GameSource, LiveSourceError, LogFileSource, StepSource
from .views import render_frame_board, render_info, render_title

if TYPE_CHECKING:
    from shared.analysis import GameAnalysis

__all__ = ["ReplayApp", "Analyser", "AnalysisStopped"]

Analyser = Callable[[Callable[[int, int], None]], "GameAnalysis"]
"""Makes the analysis of the game shown, calling its argument with (steps done, steps in all) as it goes."""


class AnalysisStopped(Exception):
    """Raised in the analyser's thread, from its progress callback, when the screen is closing."""


class ReplayApp(App[int]):
    """The interactive viewer (a ``GameView``) of a source's games, or of a folder's listing (``entries``)."""

    TITLE = "quoridor-replay"
    ENABLE_COMMAND_PALETTE = False      # nothing useful in it here: the keys are in the ? help
    CSS = """
    #title {height: auto; max-height: 3; padding: 0 1}
    #main {height: 1fr; overflow-y: auto}
    #board {width: 43; padding: 0 1 0 1}
    #info {width: 1fr; padding: 0 1}
    #steps {width: 34; padding: 0 1; border-left: vkey $panel}
    #graph {height: auto; padding: 0 1; border-top: hkey $panel}
    #bar {height: auto; max-height: 2; dock: bottom; background: $panel; padding: 0 1}
    """
    BINDINGS = [
        Binding("n,right,enter", "next", "next"), Binding("p,left", "prev", "previous"),
        Binding("home", "home", "first"), Binding("end", "end", "last"), Binding("g", "goto", "go to"),
        Binding("space", "play", "play/pause"), Binding("plus,equals_sign", "faster", "faster"),
        Binding("minus", "slower", "slower"), Binding("right_square_bracket", "next_game", "next game"),
        Binding("left_square_bracket", "prev_game", "previous game"), Binding("l,escape", "list", "games"),
        Binding("question_mark", "help", "help"), Binding("q", "quit", "quit"),
    ]

    def __init__(self, source: StepSource | None = None, *, entries: Sequence[GameEntry] | None = None,
                 folder: Path | None = None, step: int | None = None, analyser: Analyser | None = None) -> None:
        super().__init__()
        self.analyser = analyser
        #: The game's analysis, once the analyser has made it.
        self.analysis: GameAnalysis | None = None
        #: What the analysis is doing ("analysing: 12/87 steps"), or why it failed; "" once it is shown.
        self.analysis_state = "analysing…" if analyser is not None else ""
        self._analysis_stopping = False
        self.entries = list(entries) if entries is not None else None
        self.folder = folder
        self.start_step = step
        #: What joins the source to this screen (None until a game is open).
        self.replay: ReplayController | None = None
        self.message = ""
        #: What a live source is doing ("watching ...", "the tournament is over"); stays until it changes.
        self.source_state = ""
        self._timer: Timer | None = None
        if source is not None:
            self._attach(source)

    def _attach(self, source: StepSource) -> None:
        self._stop_timer()
        self.replay = ReplayController(source, self, on_news=self._news)

    @property
    def source(self) -> StepSource | None:
        """Where the games shown come from."""
        return self.replay.source if self.replay is not None else None

    @property
    def games(self) -> dict[str, ReplayGame]:
        """The source's games by id."""
        return self.replay.games if self.replay is not None else {}

    @property
    def game(self) -> ReplayGame | None:
        """The game shown."""
        return self.replay.game if self.replay is not None else None

    @property
    def controller(self) -> Controller | None:
        """The frame and playing of the game shown."""
        return self.replay.cursor if self.replay is not None else None

    @property
    def live(self) -> bool:
        """True when the source's games grow while they are shown."""
        return bool(getattr(self.source, "live", False))

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="main"):
            yield Static(id="board")
            yield Static(id="info")
            if self.analyser is not None:
                yield Static(id="steps")
        if self.analyser is not None:
            yield Static(id="graph")
        yield Static(id="bar")

    def on_mount(self) -> None:
        if self.start_step is not None and self.controller is not None:
            self._goto(self.start_step)
        self.refresh_view()
        if self.entries is not None:
            self.action_list()
        if self.live:
            self.run_worker(self._follow(), exclusive=True, exit_on_error=False)
        if self.analyser is not None:
            self.run_worker(self._analyse, thread=True, exit_on_error=False, group="analysis")

    def on_unmount(self) -> None:
        self._analysis_stopping = True       # however the screen closes, an analysis under way stops at its next step

    # -- the analysis (in a worker thread) ------------------------------------------------------------
    def _analyse(self) -> None:
        assert self.analyser is not None
        try:
            analysis = self.analyser(self._progress_in_thread)
        except AnalysisStopped:
            return
        except Exception as exc:  # noqa: BLE001 - say it on the screen rather than lose it in a worker
            if not self._analysis_stopping:
                self.call_from_thread(self._analysis_failed, f"the analysis failed: {exc}")
            return
        if not self._analysis_stopping:
            self.call_from_thread(self._analysed, analysis)

    def _progress_in_thread(self, done: int, total: int) -> None:
        if self._analysis_stopping:
            raise AnalysisStopped()
        self.call_from_thread(self._analysis_progress, done, total)

    def _analysis_progress(self, done: int, total: int) -> None:
        self.analysis_state = f"analysing: {done}/{total} steps…"
        self._show_analysis()

    def _analysed(self, analysis: GameAnalysis) -> None:
        self.analysis, self.analysis_state = analysis, ""
        self.refresh_view()

    def _analysis_failed(self, message: str) -> None:
        self.analysis_state = message
        self._show_analysis()

    def _show_analysis(self, index: int | None = None) -> None:
        """The graph and step list at frame ``index`` (the current one when None), or the analysis's progress."""
        if self.analyser is None:
            return
        graph, steps = self.query_one("#graph", Static), self.query_one("#steps", Static)
        if self.analysis is None:
            graph.update(Text(self.analysis_state, "bold"))
            steps.update(Text("the labels come with the analysis", "dim"))
            return
        if index is None:
            index = self.controller.index if self.controller is not None else 0
        graph.update(render_graph(self.analysis, index, width=max(20, self.size.width - 4)))
        steps.update(render_step_list(self.analysis, index, rows=max(5, self.size.height - 14)))

    # -- the source -------------------------------------------------------------------------
    async def _follow(self) -> None:
        assert self.replay is not None
        self.source_state = f"connecting to {self.replay.source.name}"
        try:
            await self.replay.run()
        except LiveSourceError as exc:
            self.source_state = str(exc)
        except Exception as exc:  # noqa: BLE001 - say it on the screen rather than lose it in a worker
            self.source_state = f"the live view stopped: {type(exc).__name__}: {exc}"
        else:
            over = getattr(self.source, "over", False)
            self.source_state = "the tournament is over" if over else "the server closed the connection"
        self.refresh_view()

    def _news(self) -> None:
        """News from a live source about no game in particular: it is being watched."""
        if self.source is not None:
            self.source_state = f"live: watching {self.source.name}"
        self.refresh_view()

    def select(self, key: str) -> None:
        """Show game ``key`` (each game keeps its own frame and speed)."""
        self._stop_timer()
        if self.replay is not None:
            self.replay.select(key)

    def open_entry(self, entry: GameEntry | None) -> None:
        """Open a game chosen in the folder's list (None: keep the one shown)."""
        if entry is None or entry.path is None:
            return
        try:
            source = LogFileSource(entry.path)
        except LogFormatError as exc:
            self.action_list()
            if isinstance(self.screen, ListScreen):
                self.screen.say(str(exc))
            return
        self._attach(source)
        self.message = ""
        self.refresh_view()

    # -- drawing --------------------------------------------------------------------------------
    def say(self, message: str) -> None:
        """Show ``message`` in the bottom bar until the next one."""
        self.message = message
        self.refresh_view()

    def show_game(self, game: ReplayGame) -> None:
        """Open ``game`` on this screen at its first frame, to step through (a ``GameView`` shows a whole game so)."""
        self._attach(GameSource(game))
        self.message = ""
        if self.is_running:
            self.refresh_view()

    def show(self, game: ReplayGame, index: int) -> None:
        """Draw frame ``index`` of ``game`` and the bar (the ``GameView`` of this screen)."""
        title = render_title(game)
        if len(self.games) > 1:
            keys = list(self.games)
            state = "live" if game.live and not game.over else "over" if game.live else ""
            title = Text(f"game {keys.index(game.key) + 1}/{len(keys)} {game.key} {state}  ", "bold") + title
        elif game.title:
            title = Text(f"{game.title}  ", "bold") + title
        self.query_one("#title", Static).update(title)
        self.query_one("#board", Static).update(render_frame_board(game.frames[index]))
        info = render_info(game, index)
        if self.analysis is not None:
            info = Text("\n").join([info, render_ply_note(self.analysis, index)])
        self.query_one("#info", Static).update(info)
        self._show_analysis(index)
        self.query_one("#bar", Static).update(self._bar())

    def refresh_view(self) -> None:
        """Redraw everything from the current game and controller."""
        if self.replay is not None and self.game is not None:
            self.replay.show()
        else:
            waiting = f"waiting for games on {self.source.name}…" if self.source is not None else "no game open"
            self.query_one("#title", Static).update(Text(waiting, "bold"))
            self.query_one("#board", Static).update(render_board(Position.initial(), status_line=False))
            self.query_one("#info", Static).update("")
            self.query_one("#bar", Static).update(self._bar())

    def _bar(self) -> Text:
        c = self.controller
        play = "pause" if c is not None and c.playing else "play"
        speed = f" {c.speed:g}/s" if c is not None else ""
        text = Text(f"n/p step · Home/End · g go to · Space {play}{speed} · +/- speed · ? help · q quit")
        if self.source_state:
            text = Text(self.source_state, "bold") + Text("  ·  ") + text
        if self.message:
            text = Text(self.message, "bold red") + Text("  ·  ") + text
        return text

    # -- keys -----------------------------------------------------------------------------------
    def _navigate(self, move: str) -> None:
        if self.controller is not None:
            getattr(self.controller, move)()
            self.message = ""
            self.refresh_view()

    def action_next(self) -> None:
        """One step on."""
        self._navigate("next")

    def action_prev(self) -> None:
        """One step back."""
        self._navigate("prev")

    def action_home(self) -> None:
        """The start."""
        self._navigate("home")

    def action_end(self) -> None:
        """The last step (a live game: and follow it)."""
        self._navigate("end")

    def action_goto(self) -> None:
        """Ask for a step number and go there."""
        if self.game is not None:
            self.push_screen(GotoScreen(self.game.first_step, self.game.last_step), self._goto)

    def _goto(self, step: int | None) -> None:
        if step is None or self.controller is None:
            return
        try:
            self.controller.goto(step)
            self.message = ""
        except StepOutOfRange as exc:
            self.message = str(exc)
        self.refresh_view()

    def action_play(self) -> None:
        """Play or pause."""
        if self.controller is None:
            return
        if self.controller.toggle_play():
            self._start_timer()
        else:
            self._stop_timer()
        self.refresh_view()

    def _start_timer(self) -> None:
        self._stop_timer()
        assert self.controller is not None
        self._timer = self.set_interval(self.controller.interval, self.action_tick)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def action_tick(self) -> None:
        """One frame of playing (the timer calls it)."""
        if self.controller is None:
            return
        self.controller.tick()
        if not self.controller.playing:
            self._stop_timer()
        self.refresh_view()

    def _speed(self, change: str) -> None:
        if self.controller is not None:
            getattr(self.controller, change)()
            if self.controller.playing:
                self._start_timer()
            self.refresh_view()

    def action_faster(self) -> None:
        """Play faster."""
        self._speed("faster")

    def action_slower(self) -> None:
        """Play slower."""
        self._speed("slower")

    def _switch(self, by: int) -> None:
        if self.game is None or len(self.games) < 2:
            return
        keys = list(self.games)
        self.select(keys[(keys.index(self.game.key) + by) % len(keys)])
        self.message = ""
        self.refresh_view()

    def action_next_game(self) -> None:
        """The next game of the source."""
        self._switch(1)

    def action_prev_game(self) -> None:
        """The previous game of the source."""
        self._switch(-1)

    def action_list(self) -> None:
        """The folder's list of games (when the viewer was opened on a folder)."""
        if self.entries is None or isinstance(self.screen, ListScreen):
            return
        self._stop_timer()
        if self.controller is not None:
            self.controller.playing = False
        title = f"{len(self.entries)} games in {self.folder}" if self.folder else f"{len(self.entries)} games"
        self.push_screen(ListScreen(self.entries, title), self.open_entry)

    def action_help(self) -> None:
        """The keys."""
        self.push_screen(HelpScreen())

    async def action_quit(self) -> None:
        """Leave the viewer (an analysis under way stops at its next step)."""
        self._analysis_stopping = True
        self.exit(0)

"""What the three terminal puzzles share: the screen's layout and the same keys for the same things.

Arrows move (or move the cursor), ``u`` undoes and ``r`` redoes (``z``/``y`` too, as in most
editors), ``Esc`` starts the puzzle again, ``q`` quits; the footer lists each puzzle's own keys.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Static

__all__ = ["PuzzleApp", "arrow_bindings", "UNDO", "REDO", "RESTART", "QUIT"]

UNDO = Binding("u,z", "undo", "undo")
REDO = Binding("r,y", "redo", "redo")
RESTART = Binding("escape", "restart", "restart")
QUIT = Binding("q", "quit", "quit")


def arrow_bindings(action: str) -> list[Binding]:
    """The four arrow keys calling ``action('u')``, ``action('d')``, ... (not listed in the footer)."""
    return [Binding(key, f"{action}('{letter}')", key, show=False)
            for key, letter in (("up", "u"), ("down", "d"), ("left", "l"), ("right", "r"))]


class PuzzleApp(App[None]):
    """A board above a status line and the footer of keys; subclasses draw both in ``refresh_board``."""

    CSS = "#board { padding: 1 2; height: auto; } #status { height: 1; background: $boost; padding: 0 1; }"

    def compose(self) -> ComposeResult:
        yield Static(id="board")
        yield Static(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_board()

    def refresh_board(self) -> None:
        """Redraw the board and the status line."""
        raise NotImplementedError

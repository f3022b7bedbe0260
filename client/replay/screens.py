"""The screens the replay viewer opens over the game: the keys (help), go to a step, a folder's games."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Input, Static

from .listing import GameEntry

__all__ = ["HELP", "HelpScreen", "GotoScreen", "ListScreen"]

HELP = """\
n  →  Enter    next step
p  ←           previous step
Home  End      first step, last step
g              go to a step (type its number, Enter)
Space          play / pause
+  -           faster, slower
[  ]           previous game, next game (live games)
l  Esc         the list of games (a folder)
?              this help
q              quit"""
"""The keys, as the help screen shows them."""


class HelpScreen(ModalScreen[None]):
    """The keys; any of Esc, ``?``, ``q`` closes it."""

    BINDINGS = [Binding("escape,question_mark,q", "close", "close")]
    DEFAULT_CSS = "HelpScreen {align: center middle} #help {width: auto; border: round $accent; padding: 0 2}"

    def compose(self) -> ComposeResult:
        yield Static(Text("keys\n\n" + HELP), id="help")

    def action_close(self) -> None:
        """Back to the game."""
        self.dismiss(None)


class GotoScreen(ModalScreen[int | None]):
    """Asks for a step number; dismissed with it (None on Esc or when nothing was typed)."""

    BINDINGS = [Binding("escape", "cancel", "cancel")]
    DEFAULT_CSS = "GotoScreen {align: center middle} #goto {width: 44; height: auto; border: round $accent}"

    def __init__(self, first: int, last: int) -> None:
        super().__init__()
        self.first, self.last = first, last

    def compose(self) -> ComposeResult:
        with Vertical(id="goto"):
            yield Static(f"go to step ({self.first} to {self.last}), then Enter:")
            yield Input(placeholder=str(self.last), restrict=r"[0-9]*", max_length=6, id="step")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter: the number typed."""
        self.dismiss(int(event.value) if event.value else None)

    def action_cancel(self) -> None:
        """Esc: no step."""
        self.dismiss(None)


class ListScreen(Screen[GameEntry | None]):
    """A folder's games in a table; Enter opens the one under the cursor."""

    BINDINGS = [Binding("escape", "back", "back to the game"), Binding("q", "app.quit", "quit")]
    DEFAULT_CSS = "ListScreen #table {height: 1fr} ListScreen #listbar {height: auto; dock: bottom}"

    def __init__(self, entries: Sequence[GameEntry], title: str) -> None:
        super().__init__()
        self.entries, self.heading = list(entries), title

    def compose(self) -> ComposeResult:
        yield Static(Text(self.heading, "bold"), id="heading")
        yield DataTable(cursor_type="row", zebra_stripes=True, id="table")
        yield Static("↑ ↓ choose · Enter open · q quit", id="listbar")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("#", "game", "seat 0", "seat 1", "score", "end", "steps", "note")
        for n, e in enumerate(self.entries, 1):
            table.add_row(str(n), e.game, e.white, e.black, e.score, e.result,
                          "" if e.steps is None else str(e.steps), e.note)
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a row: open its game, or say why it cannot be opened."""
        entry = self.entries[event.cursor_row]
        if entry.openable:
            self.dismiss(entry)
        else:
            self.say(f"{entry.game} cannot be opened: {entry.note or 'no log'}")

    def say(self, message: str) -> None:
        """Show ``message`` under the table."""
        self.query_one("#listbar", Static).update(Text(message, "bold red"))

    def action_back(self) -> None:
        """Esc: back to the game shown before, if any."""
        if getattr(self.app, "game", None) is not None:
            self.dismiss(None)

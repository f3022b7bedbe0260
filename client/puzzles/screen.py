"""What the three terminal puzzles share: the screen's layout, the same keys for the same things, the help.

Arrows move (or move the cursor), ``u`` undoes and ``r`` redoes (``z``/``y`` too, as in most
editors), ``Esc`` starts the puzzle again, ``?`` opens the help (the keys and what each symbol
means; ``?`` or ``Esc`` closes it), ``q`` quits; the footer lists each puzzle's own keys. A line
under the board, the legend, says what the board's symbols mean. Textual's command palette is
off: it offers nothing a puzzle needs, and its ``^p`` only crowded the footer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

__all__ = ["PuzzleApp", "HelpScreen", "Symbol", "arrow_bindings", "help_text", "key_names", "legend_text",
           "UNDO", "REDO", "RESTART", "HELP", "QUIT"]

UNDO = Binding("u,z", "undo", "undo")
REDO = Binding("r,y", "redo", "redo")
RESTART = Binding("escape", "restart", "restart")
HELP = Binding("question_mark", "help", "help")
QUIT = Binding("q", "quit", "quit")

# How the help names keys that Textual spells out.
_KEY_NAMES = {"escape": "Esc", "question_mark": "?", "space": "Space", "enter": "Enter"}


@dataclass(frozen=True)
class Symbol:
    """One entry of a legend: a symbol as the board draws it (its character and style) and what it means."""

    char: str
    style: str | Style
    meaning: str


def arrow_bindings(action: str) -> list[Binding]:
    """The four arrow keys calling ``action('u')``, ``action('d')``, ... (not listed in the footer)."""
    return [Binding(key, f"{action}('{letter}')", key, show=False)
            for key, letter in (("up", "u"), ("down", "d"), ("left", "l"), ("right", "r"))]


def key_names(binding: Binding) -> str:
    """A binding's keys as the help shows them: ``"u,z"`` is ``u z``, ``"escape"`` is ``Esc``."""
    return " ".join(_KEY_NAMES.get(key.strip(), key.strip()) for key in binding.key.split(","))


def legend_text(symbols: Sequence[Symbol]) -> Text:
    """The legend on one line: each symbol in its board style, then its meaning."""
    text = Text()
    for index, symbol in enumerate(symbols):
        if index:
            text.append("  ")
        text.append(symbol.char, style=symbol.style)
        text.append(f" {symbol.meaning}")
    return text


def help_text(keys: Sequence[tuple[str, str]], symbols: Sequence[Symbol]) -> Text:
    """The help: a table of keys and what they do, then the legend one symbol a line."""
    width = max((len(name) for name, _ in keys), default=0)
    text = Text("keys\n", style="bold")
    for name, what in keys:
        text.append(f"  {name.ljust(width)}  {what}\n")
    if symbols:
        text.append("\nsymbols\n", style="bold")
        for symbol in symbols:
            text.append("  ")
            text.append(symbol.char, style=symbol.style)
            text.append(f"  {symbol.meaning}\n")
    text.append("\n? or Esc closes this help", style="italic")
    return text


class HelpScreen(ModalScreen[None]):
    """The keys and the legend over the puzzle; ``?``, ``Esc`` or ``q`` closes it (no other key reaches the puzzle)."""

    BINDINGS = [Binding("escape,question_mark,q", "close", "close help")]
    DEFAULT_CSS = "HelpScreen {align: center middle} #help {width: auto; border: round $accent; padding: 0 2}"

    def __init__(self, text: Text) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield Static(self.text, id="help")

    def action_close(self) -> None:
        """Back to the puzzle."""
        self.dismiss(None)


class PuzzleApp(App[None]):
    """A board, its legend, a status line and the footer of keys; subclasses draw the board in ``refresh_board``."""

    CSS = ("#board { padding: 1 2; height: auto; } #legend { padding: 0 2 1 2; height: auto; color: $text-muted; } "
           "#status { height: 1; background: $boost; padding: 0 1; }")
    ENABLE_COMMAND_PALETTE = False
    #: What each symbol on the board means (the line under the board, and the help).
    LEGEND: ClassVar[Sequence[Symbol]] = ()
    #: What the arrow keys do, for the help.
    ARROWS: ClassVar[str] = "move"

    def compose(self) -> ComposeResult:
        yield Static(id="board")
        yield Static(legend_text(self.LEGEND), id="legend")
        yield Static(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_board()

    def refresh_board(self) -> None:
        """Redraw the board and the status line."""
        raise NotImplementedError

    def help_keys(self) -> list[tuple[str, str]]:
        """The keys the help lists: the arrows, then every binding the footer shows, in order."""
        bindings: list[BindingType] = list(self.BINDINGS)
        return [("arrows", self.ARROWS)] + [(key_names(b), b.description) for b in bindings
                                            if isinstance(b, Binding) and b.show]

    def action_help(self) -> None:
        """Show the keys and the legend until ``?`` or ``Esc``."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(help_text(self.help_keys(), self.LEGEND)))

"""What the three terminal puzzles share: the screen's layout, ONE key map for all three, the help made from it.

``KEY_MAP`` is the puzzles' key map, the same as the browser's (``shared/web/static/puzzles.js``, checked by
tests/server/web/test_puzzle_touch.py): arrows move (the cursor, in circuit repair), ``u``/``z``/``Backspace``
undo, ``r``/``y`` redo, ``Esc`` restarts when pressed twice (the first press asks; any other key keeps the
moves), ``Space``/``Enter`` turn and ``l`` locks a circuit tile, ``?`` opens the help (the map, each
puzzle's own keys and what each symbol means; ``?`` or ``Esc`` closes it). ``q`` quits. A line under the
board, the legend, says what the board's symbols mean. Textual's command palette is off: it offers
nothing a puzzle needs, and its ``^p`` only crowded the footer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

__all__ = ["PuzzleApp", "HelpScreen", "PuzzleKey", "Symbol", "KEY_MAP", "arrow_bindings", "help_text",
           "key_names", "legend_text", "map_bindings", "QUIT", "RESTART_QUESTION"]


@dataclass(frozen=True)
class PuzzleKey:
    """One entry of the key map: the keys (as Textual names them), the action, the footer's label, the help's line."""

    keys: tuple[str, ...]
    action: str
    label: str
    what: str
    #: The puzzles the keys act in (the help lists every entry in every puzzle, as the browser's does).
    puzzles: tuple[str, ...] = ("sokoban", "ice", "circuit")


#: The one key map of the three puzzles, in the terminal and (the same keys) in the browser.
KEY_MAP: tuple[PuzzleKey, ...] = (
    PuzzleKey(("up", "down", "left", "right"), "move", "move",
              "move: walk and push (Sokoban), slide (ice), move the cursor (circuit)"),
    PuzzleKey(("u", "z", "backspace"), "undo", "undo", "undo the last move"),
    PuzzleKey(("r", "y"), "redo", "redo", "redo what was undone"),
    PuzzleKey(("escape",), "restart", "restart", "restart: press it twice (the first press asks, any other key "
                                                 "keeps your moves)"),
    PuzzleKey(("space", "enter"), "rotate", "turn", "circuit: turn the tile under the cursor", ("circuit",)),
    PuzzleKey(("l",), "lock", "lock", "circuit: lock or unlock the tile under the cursor", ("circuit",)),
    PuzzleKey(("question_mark",), "help", "help", "this help"),
)
QUIT = Binding("q", "quit", "quit")
#: What the status line asks after a first press of the restart key.
RESTART_QUESTION = "restart? Esc again starts over; any other key keeps your moves"

_ARROWS = ("up", "down", "left", "right")
_RESTART_KEYS = next(entry.keys for entry in KEY_MAP if entry.action == "restart")
# How the help names keys that Textual spells out.
_KEY_NAMES = {"escape": "Esc", "question_mark": "?", "space": "Space", "enter": "Enter", "backspace": "Backspace"}


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


def map_bindings(puzzle: str) -> list[Binding]:
    """The key map's bindings for ``puzzle``: the arrows call ``move('u')`` etc., the others their action."""
    bindings: list[Binding] = []
    for entry in KEY_MAP:
        if puzzle not in entry.puzzles:
            continue
        if entry.keys == _ARROWS:
            bindings += arrow_bindings(entry.action)
        else:
            bindings.append(Binding(",".join(entry.keys), entry.action, entry.label))
    return bindings


def key_names(keys: Binding | Sequence[str]) -> str:
    """Keys as the help shows them: ``u,z`` is ``u z``, ``escape`` is ``Esc``, the four arrows are ``arrows``."""
    names = [key.strip() for key in keys.key.split(",")] if isinstance(keys, Binding) else list(keys)
    if tuple(names) == _ARROWS:
        return "arrows"
    return " ".join(_KEY_NAMES.get(key, key) for key in names)


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
    """A board, its legend, a status line and the footer of keys; subclasses draw the board in ``refresh_board``.

    The restart key asks first: its first press puts ``RESTART_QUESTION`` on the status line, a second
    press calls ``restart``, any other key takes the question back.
    """

    CSS = ("#board { padding: 1 2; height: auto; } #legend { padding: 0 2 1 2; height: auto; color: $text-muted; } "
           "#status { height: 1; background: $boost; padding: 0 1; }")
    ENABLE_COMMAND_PALETTE = False
    #: What each symbol on the board means (the line under the board, and the help).
    LEGEND: ClassVar[Sequence[Symbol]] = ()

    def __init__(self) -> None:
        super().__init__()
        #: True after a first press of the restart key, until the next key.
        self.restart_asked = False

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

    def restart(self) -> None:
        """Put the puzzle back to its start (the restart key's second press)."""
        raise NotImplementedError

    def on_key(self, event: events.Key) -> None:
        """Any key but the restart key takes a pending restart question back (it runs before the key's action)."""
        if self.restart_asked and event.key not in _RESTART_KEYS:
            self.restart_asked = False
            self.refresh_board()

    def action_restart(self) -> None:
        """Ask on the first press; restart on the second."""
        if not self.restart_asked:
            self.restart_asked = True
            self.query_one("#status", Static).update(RESTART_QUESTION)
            return
        self.restart_asked = False
        self.restart()
        self.refresh_board()

    def help_keys(self) -> list[tuple[str, str]]:
        """The keys the help lists: the whole key map, then the puzzle's own keys the footer shows."""
        mapped = {",".join(entry.keys) for entry in KEY_MAP}
        own = [(key_names(b), b.description) for b in self.BINDINGS
               if isinstance(b, Binding) and b.show and b.key not in mapped]
        return [(key_names(entry.keys), entry.what) for entry in KEY_MAP] + own

    def action_help(self) -> None:
        """Show the keys and the legend until ``?`` or ``Esc``."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(help_text(self.help_keys(), self.LEGEND)))

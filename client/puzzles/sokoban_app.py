"""The Textual screen for playing Sokoban: the puzzles' key map (``screen.KEY_MAP``), ``n``/``p`` levels.

``?`` shows the keys and what the XSB symbols mean (the legend under the board says it in short).
"""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Static

from shared.grid import Direction
from shared.sokoban import Collection, Game, LevelError

from .screen import QUIT, PuzzleApp, Symbol, map_bindings
from .sokoban_render import STYLES, board_text

__all__ = ["SokobanApp", "LEGEND"]

#: What the XSB symbols mean, in the board's styles.
LEGEND: tuple[Symbol, ...] = tuple(Symbol(char, STYLES[char], meaning) for char, meaning in (
    ("#", "wall"), ("@", "you"), ("+", "you on a goal"), ("$", "box"), ("*", "box on a goal"), (".", "goal")))


class SokobanApp(PuzzleApp):
    """Play the levels of a collection, starting at ``index`` (from 0); each level is parsed when shown."""

    BINDINGS = [
        *map_bindings("sokoban"), Binding("n", "level(1)", "next level"), Binding("p", "level(-1)", "previous level"),
        QUIT,
    ]
    LEGEND = LEGEND

    def __init__(self, collection: Collection, index: int = 0, *, push_rows: bool = False) -> None:
        super().__init__()
        self.collection = collection
        self.count = len(collection)
        self.push_rows = push_rows
        self.index = index
        self.game: Game | None = None
        self.problem: str | None = None
        self._load(index)

    def _load(self, index: int) -> None:
        self.index = index
        try:
            self.game = Game(self.collection.level(index), push_rows=self.push_rows)
            self.problem = None
        except LevelError as exc:       # show a bad level's error instead of leaving the screen
            self.game, self.problem = None, str(exc)
        name = self.collection.name or "sokoban"
        title = self.game.level.title if self.game else None
        self.title = f"{name} - level {index + 1}/{self.count}" + (f" - {title}" if title else "")

    def status(self) -> str:
        """The status line: level, counters, and a message once solved."""
        where = f"level {self.index + 1}/{self.count}"
        if self.game is None:
            return f"{where}: cannot be played: {self.problem}"
        game = self.game
        counters = f"{where}  moves {game.moves}  pushes {game.pushes}"
        if game.solved:
            return f"{counters}  Solved! n: next level"
        return counters

    def refresh_board(self) -> None:
        """Redraw the board and the status line."""
        board = self.query_one("#board", Static)
        if self.game is None:
            board.update("")
        else:
            board.update(board_text(self.game.level, self.game.player, self.game.boxes))
        self.query_one("#status", Static).update(self.status())

    def action_move(self, letter: str) -> None:
        """Step (and push) in a direction; a bell when blocked."""
        if self.game is None or self.game.solved:
            return
        if self.game.move(Direction.from_letter(letter)) is None:
            self.bell()
        self.refresh_board()

    def action_undo(self) -> None:
        """Take back the last step."""
        if self.game is not None:
            self.game.undo()
            self.refresh_board()

    def action_redo(self) -> None:
        """Play again the last undone step."""
        if self.game is not None:
            self.game.redo()
            self.refresh_board()

    def restart(self) -> None:
        """Back to the level's start."""
        if self.game is not None:
            self.game.reset()

    def action_level(self, delta: int) -> None:
        """Go to the next (``1``) or previous (``-1``) level, if there is one."""
        index = self.index + delta
        if 0 <= index < self.count:
            self._load(index)
            self.refresh_board()
        else:
            self.bell()

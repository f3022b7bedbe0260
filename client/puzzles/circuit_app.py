"""Circuit repair in the terminal: box-drawing tiles (rich) and a Textual app with a cursor and a rotate key.

Each tile is drawn 5 columns by 3 rows: the wire runs from the centre to each open side.
Tiles wired to the source are drawn heavy and yellow, the others light; ``●`` is the source,
``◎`` the terminal; a locked tile has a dark background, the cursor is shown reversed.
"""

from __future__ import annotations

from collections.abc import Collection

from rich.text import Text
from textual.binding import Binding
from textual.widgets import Static

from shared.circuit import Circuit, CircuitMoveError, Tile, TileKind, solve
from shared.grid import Direction, Pos

from .screen import QUIT, PuzzleApp, Symbol, map_bindings

__all__ = ["render_circuit", "tile_lines", "CircuitApp", "CircuitGame", "LEGEND"]

_N, _E, _S, _W = Direction.UP, Direction.RIGHT, Direction.DOWN, Direction.LEFT
# (light, heavy) box-drawing pieces.
_JOIN = {frozenset({_W, _E}): "─━", frozenset({_N, _S}): "│┃", frozenset({_N, _E}): "└┗",
         frozenset({_E, _S}): "┌┏", frozenset({_S, _W}): "┐┓", frozenset({_W, _N}): "┘┛"}
_CENTRE = {TileKind.SOURCE: "●", TileKind.TERMINAL: "◎", TileKind.EMPTY: "·"}
_LIT, _UNLIT, _EMPTY = "bold yellow", "white", "grey42"
_END_LIT, _END_UNLIT = "bold green", "bold red"
_LOCKED, _CURSOR = " on grey19", " reverse"

#: What the drawing's symbols and styles mean, as ``render_circuit`` draws them.
LEGEND: tuple[Symbol, ...] = (
    Symbol(_CENTRE[TileKind.SOURCE], _END_LIT, "source"),
    Symbol(_CENTRE[TileKind.TERMINAL], _END_UNLIT, "terminal"),
    Symbol("━", _LIT, "powered"), Symbol("─", _UNLIT, "unpowered"),
    Symbol(_CENTRE[TileKind.EMPTY], _EMPTY, "empty"), Symbol("─", _UNLIT + _LOCKED, "locked"),
    Symbol("─", _UNLIT + _CURSOR, "cursor"),
)


def tile_lines(tile: Tile, *, powered: bool = False) -> tuple[str, str, str]:
    """The three 5-character lines that draw ``tile`` (heavy lines when ``powered``)."""
    heavy = int(powered)
    sides = tile.openings
    vertical, horizontal = "│┃"[heavy], "─━"[heavy]
    centre = _CENTRE.get(tile.kind) or _JOIN[sides][heavy]
    top = f"  {vertical}  " if _N in sides else "     "
    bottom = f"  {vertical}  " if _S in sides else "     "
    middle = (horizontal * 2 if _W in sides else "  ") + centre + (horizontal * 2 if _E in sides else "  ")
    return top, middle, bottom


def render_circuit(circuit: Circuit, *, cursor: Pos | None = None, locked: Collection[Pos] = ()) -> Text:
    """The circuit drawn with box-drawing tiles, as styled text (plain text when printed to a file)."""
    powered = circuit.powered()
    text = Text()
    for row in range(circuit.height):
        lines: list[list[tuple[str, str]]] = [[], [], []]
        for col in range(circuit.width):
            pos = Pos(row, col)
            tile = circuit[pos]
            lit = pos in powered and tile.kind is not TileKind.EMPTY
            style = _LIT if lit else (_EMPTY if tile.kind is TileKind.EMPTY else _UNLIT)
            if tile.kind in (TileKind.SOURCE, TileKind.TERMINAL):
                style = _END_LIT if lit else _END_UNLIT
            if pos in locked:
                style += _LOCKED
            if pos == cursor:
                style += _CURSOR
            for index, line in enumerate(tile_lines(tile, powered=lit)):
                lines[index].append((line, style))
        for index, parts in enumerate(lines):
            for line, style in parts:
                text.append(line, style=style)
            if index < 2 or row < circuit.height - 1:
                text.append("\n")
    return text


class CircuitGame:
    """The play state behind the app (no UI): tiles, locks, a cursor, and the history for undo and redo."""

    def __init__(self, circuit: Circuit) -> None:
        self.initial = circuit
        self.circuit = circuit
        self.locked: set[Pos] = set()
        self.history: list[tuple[str, Pos]] = []
        #: What undo took back, newest last; a new turn or lock forgets it.
        self.undone: list[tuple[str, Pos]] = []
        self.cursor = circuit.movable()[0] if circuit.movable() else Pos(0, 0)

    @property
    def rotations(self) -> int:
        """Quarter turns played (undone ones not counted)."""
        return sum(what == "rotate" for what, _ in self.history)

    @property
    def solved(self) -> bool:
        """True when the source and the terminal are connected."""
        return self.circuit.connected

    def move_cursor(self, direction: Direction) -> None:
        """Move the cursor one cell, staying in the grid."""
        nxt = self.cursor.step(direction)
        if self.circuit.in_bounds(nxt):
            self.cursor = nxt

    def rotate(self) -> str | None:
        """Turn the tile under the cursor a quarter clockwise; the reason when it cannot turn."""
        if self.cursor in self.locked:
            return "this tile is locked (l unlocks it)"
        try:
            self.circuit = self.circuit.rotate(self.cursor)
        except CircuitMoveError:
            return "only straight and corner tiles turn"
        self.history.append(("rotate", self.cursor))
        self.undone.clear()
        return None

    def toggle_lock(self) -> str | None:
        """Lock or unlock the tile under the cursor; the reason when it is not a movable tile."""
        if not self.circuit[self.cursor].kind.movable:
            return "only straight and corner tiles can be locked"
        self.locked ^= {self.cursor}
        self.history.append(("lock", self.cursor))
        self.undone.clear()
        return None

    def undo(self) -> None:
        """Take back the last rotation or lock."""
        if self.history:
            what, pos = self.history.pop()
            if what == "rotate":
                self.circuit = self.circuit.rotate(pos, 3)
            else:
                self.locked ^= {pos}
            self.undone.append((what, pos))

    def redo(self) -> None:
        """Play again the last rotation or lock that undo took back."""
        if self.undone:
            what, pos = self.undone.pop()
            if what == "rotate":
                self.circuit = self.circuit.rotate(pos)
            else:
                self.locked ^= {pos}
            self.history.append((what, pos))

    def reset(self) -> None:
        """Back to the starting tiles, no locks."""
        self.circuit, self.locked, self.history, self.undone = self.initial, set(), [], []

    def hint(self) -> str:
        """Where the solver would turn next (respecting locks), or why it cannot help."""
        rotations = solve(self.circuit, fixed=self.locked)
        if rotations is None:
            return "no solution with these locks: unlock some tiles"
        for pos, rotation in sorted(rotations.items()):
            if not self.circuit[pos].accepts(rotation):
                return f"hint: turn the tile at row {pos.row}, column {pos.col}"
        return "already connected"

    def status(self) -> str:
        """The status line: counters, or the message once solved."""
        if self.solved:
            return f"Solved! The terminal has power after {self.rotations} rotations."
        return f"rotations {self.rotations}  locked {len(self.locked)}  cursor row {self.cursor.row}, col {self.cursor.col}"


class CircuitApp(PuzzleApp):
    """Repair a circuit with the puzzles' key map (arrows move the cursor, Space/Enter turn, ``l`` lock), ``h`` hints."""

    BINDINGS = [*map_bindings("circuit"), Binding("h", "hint", "hint"), QUIT]
    LEGEND = LEGEND

    def __init__(self, circuit: Circuit, *, title: str = "circuit repair") -> None:
        super().__init__()
        self.game = CircuitGame(circuit)
        self.note: str | None = None
        self.title = title

    def refresh_board(self) -> None:
        """Redraw the tiles and the status line."""
        game = self.game
        self.query_one("#board", Static).update(render_circuit(game.circuit, cursor=game.cursor, locked=game.locked))
        status = game.status()
        if self.note and not game.solved:
            status = f"{self.note}  |  {status}"
        self.query_one("#status", Static).update(status)
        self.note = None

    def action_move(self, letter: str) -> None:
        """Move the cursor."""
        self.game.move_cursor(Direction.from_letter(letter))
        self.refresh_board()

    def action_rotate(self) -> None:
        """Turn the tile under the cursor."""
        self.note = self.game.rotate()
        self.refresh_board()

    def action_lock(self) -> None:
        """Lock or unlock the tile under the cursor."""
        self.note = self.game.toggle_lock()
        self.refresh_board()

    def action_undo(self) -> None:
        """Undo the last rotation or lock."""
        self.game.undo()
        self.refresh_board()

    def action_redo(self) -> None:
        """Play again the last rotation or lock undone."""
        self.game.redo()
        self.refresh_board()

    def restart(self) -> None:
        """Back to the start."""
        self.game.reset()

    def action_hint(self) -> None:
        """Say which tile the solver would turn."""
        self.note = self.game.hint()
        self.refresh_board()

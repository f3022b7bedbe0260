"""The ice maze in the terminal: a rich renderer and a Textual app (arrows slide, u undo, r redo, Esc Esc restart).

``?`` shows the keys and what the symbols mean (the legend under the maze says it in short).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.binding import Binding
from textual.widgets import Static

from shared.grid import Direction, Pos
from shared.ice import END, ICE, OBSTACLE, START, STICKY, IceMaze, Route, best_route

from .screen import QUIT, PuzzleApp, Symbol, map_bindings

__all__ = ["render_maze", "IceApp", "IceGame", "LEGEND"]

_CELL = {ICE: ("·", "bright_cyan"), OBSTACLE: ("#", "bold white on grey23"), STICKY: ("x", "bold yellow"),
         START: ("S", "bold green"), END: ("E", "bold red")}
_ARROW = {Direction.UP: "↑", Direction.DOWN: "↓", Direction.LEFT: "←", Direction.RIGHT: "→"}
_PLAYER = ("@", "bold black on bright_white")
_TRAIL = "bold magenta"

#: What the maze's symbols mean, in the styles ``render_maze`` draws them.
LEGEND: tuple[Symbol, ...] = (
    Symbol(*_CELL[ICE], "ice"), Symbol(*_CELL[OBSTACLE], "obstacle"), Symbol(*_CELL[STICKY], "stops you"),
    Symbol(*_CELL[START], "start"), Symbol(*_CELL[END], "end"), Symbol(*_PLAYER, "you"),
    Symbol("→", _TRAIL, "your slides"),
)


def render_maze(maze: IceMaze, *, player: Pos | None = None, stops: Sequence[Pos] = ()) -> Text:
    """The maze as styled text, two columns a cell: ``·`` ice, ``#``, ``x``, ``S``, ``E``, ``@`` the player.

    ``stops`` (a route's stop points, start first) draws the slides between them as arrows.
    """
    trail: dict[Pos, str] = {}
    for a, b in zip(stops, stops[1:]):
        direction = _towards(a, b)
        p = a
        while p != b:
            p = p.step(direction)
            trail[p] = _ARROW[direction]
    text = Text()
    for row in range(maze.height):
        for col in range(maze.width):
            pos = Pos(row, col)
            char, style = _CELL[maze[pos]]
            if pos == player:
                char, style = _PLAYER
            elif pos in trail and maze[pos] == ICE:
                char, style = trail[pos], _TRAIL
            text.append(char + " ", style=style)
        if row < maze.height - 1:
            text.append("\n")
    return text


def _towards(a: Pos, b: Pos) -> Direction:
    if a.row == b.row:
        return Direction.RIGHT if b.col > a.col else Direction.LEFT
    return Direction.DOWN if b.row > a.row else Direction.UP


class IceGame:
    """The play state behind the app (no UI): moves with undo/redo, and the optimal route to compare with."""

    def __init__(self, maze: IceMaze) -> None:
        self.maze = maze
        self.best: Route | None = best_route(maze)
        self.stops: list[Pos] = [maze.start]
        self.slid: list[int] = []
        self.undone: list[Direction] = []

    @property
    def player(self) -> Pos:
        """Where the player stands."""
        return self.stops[-1]

    @property
    def solved(self) -> bool:
        """True once the player stands on ``E``."""
        return self.player == self.maze.end

    @property
    def moves(self) -> int:
        """Moves played."""
        return len(self.slid)

    @property
    def distance(self) -> int:
        """Cells slid in all."""
        return sum(self.slid)

    def move(self, direction: Direction, *, keep_redo: bool = False) -> bool:
        """Slide; False when blocked at once or already solved (nothing changes)."""
        stop, slid = self.maze.slide(self.player, direction)
        if self.solved or slid == 0:
            return False
        self.stops.append(stop)
        self.slid.append(slid)
        if not keep_redo:
            self.undone.clear()
        return True

    def undo(self) -> None:
        """Take the last move back."""
        if self.slid:
            a, b = self.stops[-2], self.stops.pop()
            self.slid.pop()
            self.undone.append(_towards(a, b))

    def redo(self) -> None:
        """Play the last undone move again."""
        if self.undone:
            self.move(self.undone.pop(), keep_redo=True)

    def reset(self) -> None:
        """Back to the start."""
        self.stops, self.slid, self.undone = [self.maze.start], [], []

    def status(self) -> str:
        """The status line: counters, or the verdict once solved."""
        if not self.solved:
            return f"moves {self.moves}  distance {self.distance}"
        if self.best is not None and (self.moves, self.distance) == self.best.cost:
            return f"Solved in {self.moves} moves, distance {self.distance}: optimal!"
        best = self.best.cost if self.best else (0, 0)
        return (f"Solved in {self.moves} moves, distance {self.distance}; "
                f"the optimal route takes {best[0]} moves, distance {best[1]}")


class IceApp(PuzzleApp):
    """Play an ice maze with the puzzles' key map (arrows slide until stopped), ``s`` the optimal route."""

    BINDINGS = [*map_bindings("ice"), Binding("s", "show", "optimal route"), QUIT]
    LEGEND = LEGEND

    def __init__(self, maze: IceMaze, *, title: str = "ice maze") -> None:
        super().__init__()
        self.game = IceGame(maze)
        self.showing = False
        self.title = title

    def refresh_board(self) -> None:
        """Redraw the maze and the status line."""
        game = self.game
        stops = game.best.stops if self.showing and game.best else game.stops
        self.query_one("#board", Static).update(render_maze(game.maze, player=game.player, stops=stops))
        status = game.status()
        if self.showing:
            status = ("optimal: " + " ".join(game.best.letters)) if game.best else "no route reaches E"
        self.query_one("#status", Static).update(status)

    def action_move(self, letter: str) -> None:
        """Slide in a direction."""
        self.showing = False
        if not self.game.move(Direction.from_letter(letter)) and not self.game.solved:
            self.bell()
        self.refresh_board()

    def action_undo(self) -> None:
        """Undo the last move."""
        self.showing = False
        self.game.undo()
        self.refresh_board()

    def action_redo(self) -> None:
        """Redo an undone move."""
        self.showing = False
        self.game.redo()
        self.refresh_board()

    def restart(self) -> None:
        """Back to the start."""
        self.showing = False
        self.game.reset()

    def action_show(self) -> None:
        """Toggle showing the optimal route."""
        self.showing = not self.showing
        self.refresh_board()

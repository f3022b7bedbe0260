"""The controller of the viewer: ``ReplayController`` joins a source of steps to a view; ``Controller`` is one game's frame.

As in the course viewer, the two seams are a source (``sources.StepSource``, alias
``DataLoader``) and a view (``views.GameView``); the ``ReplayController`` is all that joins them:
it follows the source, keeps a ``Controller`` per game (which frame, playing, speed) and tells
the view what to show. Pure: no clock, no I/O of its own (``run`` awaits the source).

The view calls ``tick()`` every ``interval`` seconds while ``playing``; everything else is a key.
Frames are indexed from 0; ``goto`` takes a step number, which is the index plus ``first_step``
(0 for a log; a live game joined late starts later).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:       # the seams' types only: importing them would pull in the network and rich
    from .frames import ReplayGame
    from .sources import StepSource
    from .views import GameView

__all__ = ["Controller", "ReplayController", "StepOutOfRange", "SPEEDS"]

SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
"""The playing speeds, in steps per second."""
_DEFAULT_SPEED = 2


class StepOutOfRange(ValueError):
    """A step number that the game does not have."""


class Controller:
    """The current frame of a game with ``total`` frames, and play/pause at a speed.

    ``follow`` is True while the view stays on the last frame: when frames are added
    (``resize``, a live game), it moves along with them. ``live_wait``: playing waits on the
    last frame for more frames instead of stopping.
    """

    def __init__(self, total: int, index: int = 0, *, first_step: int = 0, live_wait: bool = False) -> None:
        if total < 1:
            raise ValueError(f"a game to show has at least one frame, got {total}")
        self.total = total
        self.first_step = first_step
        self.index = 0
        self.playing = False
        self.speed_index = _DEFAULT_SPEED
        self.follow = False
        #: A live game: playing waits on the last frame for more frames instead of stopping.
        self.live_wait = live_wait
        self._move(index)

    def _move(self, index: int) -> bool:
        index = max(0, min(index, self.total - 1))
        moved = index != self.index
        self.index = index
        self.follow = index == self.total - 1
        return moved

    @property
    def at_end(self) -> bool:
        """True on the last frame."""
        return self.index == self.total - 1

    @property
    def step(self) -> int:
        """The step number of the current frame."""
        return self.first_step + self.index

    # -- navigation (each returns True when the frame changed) ---------------------------------
    def next(self) -> bool:
        """One frame on (stays on the last)."""
        return self._move(self.index + 1)

    def prev(self) -> bool:
        """One frame back (stays on the first)."""
        return self._move(self.index - 1)

    def home(self) -> bool:
        """The first frame."""
        return self._move(0)

    def end(self) -> bool:
        """The last frame (and follow new ones)."""
        return self._move(self.total - 1)

    def goto(self, step: int) -> bool:
        """The frame of step number ``step``; ``StepOutOfRange`` when the game has no such step."""
        last = self.first_step + self.total - 1
        if not self.first_step <= step <= last:
            raise StepOutOfRange(f"no step {step}: this game shows steps {self.first_step} to {last}")
        return self._move(step - self.first_step)

    # -- playing ----------------------------------------------------------------------------
    @property
    def speed(self) -> float:
        """Steps per second while playing."""
        return SPEEDS[self.speed_index]

    @property
    def interval(self) -> float:
        """Seconds between two ``tick`` calls while playing."""
        return 1.0 / self.speed

    def faster(self) -> float:
        """The next speed up (stays at the fastest); returns the speed."""
        self.speed_index = min(self.speed_index + 1, len(SPEEDS) - 1)
        return self.speed

    def slower(self) -> float:
        """The next speed down (stays at the slowest); returns the speed."""
        self.speed_index = max(self.speed_index - 1, 0)
        return self.speed

    def toggle_play(self) -> bool:
        """Play or pause; playing from the last frame starts again from the first. Returns ``playing``."""
        self.playing = not self.playing
        if self.playing and self.at_end and not self.live_wait:
            self.home()
        return self.playing

    def tick(self) -> bool:
        """One frame on while playing; playing stops on the last frame (unless ``live_wait``)."""
        if not self.playing:
            return False
        moved = self.next()
        if self.at_end and not self.live_wait:
            self.playing = False
        return moved

    def resize(self, total: int) -> None:
        """The game now has ``total`` frames; a controller that followed the end moves to the new end."""
        if total < 1:
            raise ValueError(f"a game to show has at least one frame, got {total}")
        following = self.follow
        self.total = total
        self._move(total - 1 if following else self.index)


class ReplayController:
    """Joins ``source`` to ``view``: the game shown (``key``), a ``Controller`` per game, and what the view is told.

    A screen (``every_frame`` False) is told to redraw the frame it shows whenever the source
    changes a game, and follows a game's end while it stands on it; a printer (``every_frame``
    True) is shown each new frame of every game, once, in order. ``on_news`` is called for news
    that concern no game (a live tournament's standings).
    """

    def __init__(self, source: StepSource, view: GameView, *, every_frame: bool = False,
                 on_news: Callable[[], None] | None = None) -> None:
        self.source, self.view = source, view
        self.every_frame = every_frame
        self.on_news = on_news
        self.cursors: dict[str, Controller] = {}
        self.key: str | None = None
        self._shown: dict[str, int] = {}
        if source.games:
            self.select(next(iter(source.games)))

    @property
    def games(self) -> dict[str, ReplayGame]:
        """The source's games by id."""
        return self.source.games

    @property
    def game(self) -> ReplayGame | None:
        """The game shown (None before the source has one)."""
        return self.source.games.get(self.key) if self.key is not None else None

    @property
    def cursor(self) -> Controller | None:
        """The ``Controller`` of the game shown."""
        return self.cursors.get(self.key) if self.key is not None else None

    def _cursor(self, key: str, *, at_end: bool) -> Controller:
        game = self.source.games[key]
        cursor = self.cursors.get(key)
        if cursor is None:
            total = len(game.frames)
            cursor = self.cursors[key] = Controller(total, total - 1 if at_end else 0, first_step=game.first_step,
                                                    live_wait=game.live)
        else:
            cursor.resize(len(game.frames))
        return cursor

    def select(self, key: str) -> None:
        """Make game ``key`` the one shown, on the frame it was left at (its first, the first time)."""
        if key not in self.source.games:
            raise KeyError(f"no game {key!r} in {self.source.name}")
        self._cursor(key, at_end=False)
        self.key = key

    def goto(self, step: int) -> None:
        """Go to step number ``step`` of the game shown; ``StepOutOfRange`` when it has no such step."""
        if self.cursor is not None:
            self.cursor.goto(step)

    def show(self) -> None:
        """Tell the view to show the current frame of the game shown (nothing before there is a game)."""
        game, cursor = self.game, self.cursor
        if game is not None and cursor is not None:
            self.view.show(game, cursor.index)

    def show_game(self) -> None:
        """Tell the view to show the whole of the game shown."""
        if self.game is not None:
            self.view.show_game(self.game)

    def changed(self, key: str | None) -> None:
        """The source changed game ``key`` (None: news about no game); the view is told (see the class doc)."""
        if key is None:
            if self.on_news is not None:
                self.on_news()
            return
        self._cursor(key, at_end=True)    # a game first seen while it grows is followed from its end
        if self.key is None:
            self.key = key
        if self.every_frame:
            game = self.source.games[key]
            for index in range(self._shown.get(key, 0), len(game.frames)):
                self.view.show(game, index)
            self._shown[key] = len(game.frames)
        else:
            self.show()

    async def run(self) -> None:
        """Follow the source until nothing more will come, telling the view as games change."""
        await self.source.follow(self.changed)

"""``Controller``: which frame of a game is shown, and playing through them. Pure (no clock, no I/O).

The view calls ``tick()`` every ``interval`` seconds while ``playing``; everything else is a key.
Frames are indexed from 0; ``goto`` takes a step number, which is the index plus ``first_step``
(0 for a log; a live game joined late starts later).
"""

from __future__ import annotations

__all__ = ["Controller", "StepOutOfRange", "SPEEDS"]

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

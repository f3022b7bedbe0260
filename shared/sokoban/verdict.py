"""The verdict on a LURD answer: replayed from the start, valid or not (and where it failed), solved or not."""

from __future__ import annotations

from dataclasses import dataclass

from shared.grid import Direction

from .game import Game, parse_lurd
from .level import Level

__all__ = ["Verdict", "judge"]


@dataclass(frozen=True)
class Verdict:
    """What replaying an answer showed. ``failed_at`` is the index of the first step that could not be played."""

    valid: bool
    solved: bool
    moves: int
    pushes: int
    failed_at: int | None = None
    reason: str | None = None


def judge(level: Level, answer: str) -> Verdict:
    """Replay ``answer`` (LURD; blanks ignored) on ``level``, letter case included: ``L`` must push, ``l`` must not.

    Raises ``LurdError`` for text that is not LURD at all; every playable problem is a verdict.
    ``moves`` and ``pushes`` count the steps played before any failure.
    """
    game = Game(level)
    for index, (direction, push) in enumerate(parse_lurd(answer)):
        pushed = game.can_move(direction)
        problem = None
        if pushed is None:
            problem = _blocked(game, direction)
        elif push and not pushed:
            problem = f"{direction.letter.upper()!r} should push a box but there is none to the {_name(direction)}"
        elif pushed and not push:
            problem = f"{direction.letter!r} walks into a box; a push is written {direction.letter.upper()!r}"
        if problem is not None:
            row, col = game.player_pos
            return Verdict(False, False, game.moves, game.pushes, index,
                           f"step {index} ({direction.letter.upper() if push else direction.letter!r}) "
                           f"from (row {row}, col {col}): {problem}")
        game.move(direction)
    solved = game.solved
    reason = None if solved else f"{_unplaced(game)} of {level.box_count} boxes are not on a goal at the end"
    return Verdict(True, solved, game.moves, game.pushes, None, reason)


def _blocked(game: Game, direction: Direction) -> str:
    target = game.player_pos.step(direction)
    if not game.level.is_floor(target):
        return f"a wall is to the {_name(direction)}"
    return f"the box to the {_name(direction)} cannot move (a wall or another box is behind it)"


def _name(direction: Direction) -> str:
    return direction.name.lower()


def _unplaced(game: Game) -> int:
    return (game.boxes & ~game.level.goals).bit_count()

"""Positions and a helper shared by the bot tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from client.player import Player
from shared.quoridor import ChessboardChange, GameStatus, Position, Step, parse_position

#: One-line positions (``parse_position``) every bot must answer with a legal step, seat to move noted.
POSITIONS = {
    "start": "e1 e9 0 10 10 -",
    "start, seat 1": "e2 e9 1 10 10 -",
    "mid-game": "c4 g6 0 6 5 c3h,e5h,e6v,g4h,b7v,f7h,d2v,h5v,a4h",
    "mid-game, seat 1": "c4 g6 1 6 5 c3h,e5h,e6v,g4h,b7v,f7h,d2v,h5v,a4h",
    "jump up": "e4 e5 0 10 10 -",
    "jump down": "e4 e5 1 10 10 -",
    "jump blocked by a wall": "e4 e5 0 3 3 e5h,c2v",
    "no walls left": "d5 f6 0 0 0 a1h,c2h,e3h,g4h,b5v,d6v,f7v,h8v,c7h,e8h,a6h,g2v,b3h,h6h,d4h,f5h,c1v,e2v,g6v,a8h",
    "no walls left, seat 1": "d5 f6 1 0 0 a1h,c2h,e3h,g4h,b5v,d6v,f7v,h8v,c7h,e8h,a6h,g2v,b3h,h6h,d4h,f5h,c1v,e2v,g6v,a8h",
    "mover has no walls, other has": "e5 e6 0 0 4 d5h,f3v",
}

#: The position the benchmark found in which the side to move has no legal step at all.
STUCK = ("e3 f3 1 0 0 a1h,e1h,f2h,c3h,f3h,h3h,c4h,b5h,a6h,f8h,g1v,a2v,f2v,d3v,g4v,c5v,f5v,b6v,b8v,e8v course")


def ask_bot(bot: Player, pos: Position) -> Step:
    """Seat ``bot`` as the side to move of ``pos`` and return its answer to the turn."""
    bot.begin_game(pos.turn, pos.ruleset)
    bot.tracker.position = pos   # as if the tracker had followed the game to here
    return bot.next_step(ChessboardChange(GameStatus.OK, pos.pawn(pos.turn), pos.pawn(1 - pos.turn)))


@pytest.fixture
def ask() -> Callable[[Player, Position], Step]:
    """``ask(bot, pos)``: the bot's answer when it is the side to move of ``pos``."""
    return ask_bot


@pytest.fixture(params=sorted(POSITIONS), ids=str)
def position(request: pytest.FixtureRequest) -> Position:
    """Each of ``POSITIONS`` in turn."""
    return parse_position(POSITIONS[request.param])


@pytest.fixture
def stuck() -> Position:
    """A position whose side to move has no legal step."""
    return parse_position(STUCK)

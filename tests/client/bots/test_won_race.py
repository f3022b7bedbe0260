"""``strong`` converts a won race: with its searcher kept from move to move, as in a match, it walks home.

A race is won (``evaluation.won_race``) when the opponent has no walls left and ``strong``'s path,
with ``strong`` to move, is shorter than the opponent's: nothing can stop it then but its own moves.
Each of its steps must then shorten its path, and it must arrive in at most as many steps as the path
is long (fewer only when it jumps the other pawn). The positions come from games against ``blocker``
in which the searcher kept all game walked back and forth, beside its goal or in the other pawn's
way, until the step cap, while a fresh one played the winning move. Two causes, one test each at
least: a slower win taken from the table outranked a quicker one not yet in sight (the 4-step
position: ``search._within``), and a decided race scored by its margin tied a step home with a step
in the loser's way (the 14-step ones: ``evaluation.evaluate``).

The searcher's clock counts its own reads (``TICK_S`` a read, about one read a node), so a search's
budget is a node count and every run of these tests plays the same moves on any machine.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from client.bots import BlockerPlayer, StrongPlayer
from client.bots.evaluation import won_race
from client.bots.search import Searcher
from client.driver import BotDriver
from client.match import play_game
from client.player import Player
from shared.quoridor import Position, Step, parse_position, position_text
from shared.referee import RefereeSettings
from tests.clocks import TickingClock

#: Seconds one read of the counting clock stands for: a budget of 1 ms is 1,000 reads.
TICK_S = 1e-6

_W = "d2h,f2h,h2h,b3h,e3h,g3h,d4h,h4h,d5h,f5h,g6h,c1v,e2v,c3v,c5v,f6v"
_G = "d1h,f1h,h1h,b3h,d3h,f3h,g4h,f5h,h5h,e1v,c2v,b3v,d3v,f3v,b5v,b7v,e8v"
_R = "b1h,d1h,f1h,h1h,a2h,c2h,e2h,g2h,c3h,d4h,b5h,d5h,f5h,h5h,a6h,e3v,g3v,b4v,f4v"

#: Won races (``strong`` to move) and the search budget (ms, i.e. thousands of nodes) they were lost with.
WON_RACES = [
    pytest.param(f"i7 h6 0 4 0 {_W}", 3, id="2 steps"),
    pytest.param(f"i5 h6 0 4 0 {_W}", 3, id="4 steps, the other pawn pacing beside the path"),
    pytest.param(f"g5 h5 0 4 0 {_W}", 3, id="6 steps, the other pawn pacing beside the path"),
    pytest.param(f"h3 d3 0 4 0 {_W}", 3, id="11 steps"),
    pytest.param(f"f2 e3 0 3 0 {_G}", 1, id="14 steps, the other pawn held up behind this one"),
    pytest.param(f"f3 e2 0 3 0 {_G}", 1, id="15 steps, the other pawn held up behind this one"),
    pytest.param(f"h4 i5 1 0 1 {_R}", 1, id="seat 1, 12 steps"),
    pytest.param(f"h3 h5 1 0 1 {_R}", 1, id="seat 1, 13 steps"),
]


def counted_strong(budget_ms: int) -> StrongPlayer:
    """``strong`` whose searcher reads a counting clock: ``budget_ms`` thousand reads a search."""
    bot = StrongPlayer("strong", time_budget_ms=budget_ms)
    bot.searcher = Searcher(clock=TickingClock(TICK_S))
    return bot


def play_out(strong: StrongPlayer, opponent: Player, pos: Position, ask: Callable[[Player, Position], Step],
             max_steps: int = 100) -> list[Position]:
    """Play from ``pos`` (``strong`` to move) until a pawn arrives or ``strong`` made ``max_steps``: the
    positions ``strong`` moved from, in order, then the last one. The same two bots play every turn."""
    seat = pos.turn
    before: list[Position] = []
    while not pos.is_over() and len(before) < max_steps:
        if pos.turn == seat:
            before.append(pos)
            step = ask(strong, pos)
        else:
            step = ask(opponent, pos)
        assert pos.is_legal(step)
        pos = pos.apply(step)
    before.append(pos)
    return before


def assert_walks_home(positions: list[Position], seat: int) -> None:
    """Each position after the first is one ``strong`` step later: every step shortens its path, and it arrives
    in at most as many steps as its path was long."""
    start, end = positions[0], positions[-1]
    assert end.winner() == seat, f"strong did not reach its goal in {len(positions) - 1} steps"
    lengths = [pos.distance(seat) for pos in positions]
    assert all(b < a for a, b in itertools.pairwise(lengths)), f"its path lengths went {lengths}"
    assert len(positions) - 1 <= start.distance(seat)


@pytest.mark.parametrize("text, budget_ms", WON_RACES)
def test_strong_walks_a_won_race_home_in_as_many_steps_as_its_path_is_long(text, budget_ms, ask):
    pos = parse_position(text)
    assert won_race(pos, pos.turn)
    positions = play_out(counted_strong(budget_ms), BlockerPlayer("b"), pos, ask)
    # A wall never shortens the mover's own path, so this also forbids walls.
    assert_walks_home(positions, pos.turn)


@pytest.mark.parametrize("budget_ms, strong_seat", [(3, 0), (2, 1)])
def test_a_whole_game_against_blocker_with_the_searcher_kept_ends_on_strongs_goal(budget_ms, strong_seat):
    # As in a match: one bot object per side for the whole game, driven turn by turn by the referee.
    strong = counted_strong(budget_ms)
    bots: list[Player] = [BlockerPlayer("b"), BlockerPlayer("b")]
    bots[strong_seat] = strong
    names = ("strong", "blocker") if strong_seat == 0 else ("blocker", "strong")
    game = play_game((BotDriver(bots[0]), BotDriver(bots[1])), names, RefereeSettings(time_limit_ms=None),
                     TickingClock(TICK_S))
    assert game.outcome.winner == strong_seat and game.outcome.reason == "goal"
    # Once strong had the race won, each step it took with the race won shortened its path, and it never
    # came back to a position.
    pos = Position.initial()
    won_turns = 0
    seen: set[Position] = set()
    for record in game.records:
        if pos.turn == strong_seat and (seen or won_race(pos, strong_seat)):
            assert pos not in seen, f"strong came back to {position_text(pos)}"
            seen.add(pos)
            if won_race(pos, strong_seat):
                won_turns += 1
                assert pos.apply(record.step).distance(strong_seat) < pos.distance(strong_seat), position_text(pos)
        pos = pos.apply(record.step)
    assert won_turns > 0, "strong never had the race won: the game no longer tests the conversion"

"""Openings: seeded, legal, never a finished game; played for the bots, whose boards agree with the referee's."""

import itertools
import random

import pytest

from client.driver import BotDriver
from client.match import play_game
from client.openings import opening_for, opening_position, random_opening
from shared.quoridor import STANDARD, ChessboardChange, Position, Step, step_name
from shared.referee import RefereeSettings, StepJudged
from tests.client.support import Walker, best_move


def test_an_opening_is_the_same_for_the_same_seed_and_number_and_differs_otherwise():
    assert opening_for(7, 0, 6) == opening_for(7, 0, 6)
    assert len({opening_for(7, n, 6) for n in range(10)}) == 10
    assert opening_for(8, 0, 6) != opening_for(7, 0, 6)
    assert opening_for(7, 0, 0) == ()
    # Pinned: a change of the draw would change every recorded run's openings.
    assert [step_name(s) for s in opening_for(7, 0, 6)] == ["c3h", "c2v", "f1", "d3v", "f2", "f9"]


@pytest.mark.parametrize("ruleset", [None, STANDARD])
def test_openings_are_legal_and_never_end_the_game(ruleset):
    kwargs = {} if ruleset is None else {"ruleset": ruleset}
    for number in range(30):
        opening = opening_for(1, number, 24, **kwargs)
        assert len(opening) == 24
        assert opening_position(opening, **kwargs).winner() is None    # play() checks every step on the way


def test_moves_and_walls_come_with_even_odds():
    opening = random_opening(400, random.Random(3))
    walls = sum(1 for step in opening if not step.is_move())
    assert walls == 20             # 10 walls each, then only moves: the walls run out early, as they should
    assert sum(1 for step in opening[:20] if step.is_move()) in range(4, 17)
    with pytest.raises(ValueError, match="0 or more plies"):
        random_opening(-1, random.Random(0))


class Recorder(Walker):
    """Walks; notes the board and the change of its first real turn, and counts the turns it was asked."""

    def __init__(self, key: str = "") -> None:
        super().__init__(key)
        self.first: tuple[Position, ChessboardChange] | None = None
        self.asked = 0

    def next_step(self, change):
        if self.first is None:
            self.first = (self.position, change)
        self.asked += 1
        return best_move(self)


class Plain:
    """A bot that is no ``Player``: only ``next_step``, no hooks."""

    def __init__(self) -> None:
        self.changes: list[ChessboardChange] = []

    def next_step(self, change):
        self.changes.append(change)
        return Step()


def test_the_opening_is_played_for_the_bots_and_each_bot_sees_the_position_after_it():
    walls_by_both = 0
    for number in range(12):
        opening = opening_for(5, number, 5)
        seat_walls = {ply % 2 for ply, step in enumerate(opening) if not step.is_move()}
        walls_by_both += seat_walls == {0, 1}
        bots = (Recorder("a"), Recorder("b"))
        positions: list[Position] = []

        def judged(event, positions=positions):
            if isinstance(event, StepJudged):
                positions.append(event.position)

        ticks = itertools.count()
        game = play_game((BotDriver(bots[0]), BotDriver(bots[1])), ("a", "b"), RefereeSettings(),
                         lambda: next(ticks) / 1e6, judged, opening=opening)
        assert [r.step for r in game.records[:5]] == list(opening)
        assert [r.player for r in game.records[:5]] == ["a", "b", "a", "b", "a"]
        after = opening_position(opening)
        assert positions[4] == after
        # Seat 1 moves first after 5 plies, with the referee's position; seat 0 next, after seat 1's first step.
        assert bots[1].first[0] == after
        assert bots[0].first[0] == positions[5]
        assert bots[1].first[1].my_loc == after.pawn(1) and bots[1].first[1].enemy_loc == after.pawn(0)
        # next_step was asked only for the turns after the opening.
        for seat, name in enumerate("ab"):
            assert bots[seat].asked == sum(1 for r in game.records if r.player == name) - (3 if seat == 0 else 2)
    assert walls_by_both >= 3       # the check above covered openings where both seats placed walls


def test_a_bot_without_hooks_plays_on_after_an_opening():
    plain, walker = Plain(), Recorder()
    opening = opening_for(2, 0, 4)
    game = play_game((BotDriver(plain), BotDriver(walker)), ("plain", "walker"), RefereeSettings(time_limit_ms=None),
                     opening=opening)
    assert [r.step for r in game.records[:4]] == list(opening)
    assert plain.changes[0].my_loc == opening_position(opening).pawn(0)   # its first turn: the pawns after the opening
    assert game.outcome.winner == 1


def test_openings_without_walls_are_pawn_moves_the_same_for_the_same_seed():
    openings = [opening_for(9, number, 8, walls=False) for number in range(20)]
    assert all(len(o) == 8 and all(step.is_move() for step in o) for o in openings)
    assert openings == [opening_for(9, number, 8, walls=False) for number in range(20)]
    assert len(set(openings)) > 10
    assert all(opening_position(o).winner() is None for o in openings)
    assert any(not step.is_move() for number in range(20) for step in opening_for(9, number, 8))   # walls: some

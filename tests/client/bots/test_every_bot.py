"""Every built-in bot answers every position with a legal step, from either seat."""

import pytest

from client.bots import BOTS, RandomPlayer, StrongPlayer
from client.player import Player
from shared.quoridor import Step, parse_position


def new_bot(name: str) -> Player:
    """A bot for quick tests: ``strong`` with a small budget, ``random`` seeded."""
    if name == "strong":
        return StrongPlayer("t", time_budget_ms=30)
    if name == "random":
        return RandomPlayer("t", seed=5)
    return BOTS[name]("t")


@pytest.mark.parametrize("name", list(BOTS))
def test_the_answer_is_one_of_the_legal_steps(name, position, ask):
    step = ask(new_bot(name), position)
    assert step in position.legal_steps()


@pytest.mark.parametrize("name", list(BOTS))
def test_with_no_legal_step_the_answer_is_the_empty_step(name, stuck, ask):
    assert stuck.legal_steps() == []
    assert ask(new_bot(name), stuck) == Step()


@pytest.mark.parametrize("name", list(BOTS))
def test_a_bot_without_walls_moves_its_pawn(name, ask):
    pos = parse_position("d5 f6 1 4 0 a1h,c2h,e3h,g4h,b5v,d6v")
    step = ask(new_bot(name), pos)
    assert step.is_move() and pos.is_legal(step)


@pytest.mark.parametrize("name", list(BOTS))
def test_a_bot_plays_a_second_game_after_restart(name, position, ask):
    bot = new_bot(name)
    ask(bot, position)
    bot.restart()
    assert ask(bot, position) in position.legal_steps()

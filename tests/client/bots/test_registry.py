"""The bot registry: names, construction and errors."""

import pytest

from client.bots import (
    BOTS,
    BlockerPlayer,
    DefenderPlayer,
    RandomPlayer,
    RunnerPlayer,
    StrongPlayer,
    make_bot,
)
from client.player import Player
from shared.hosting import BUILTIN_BOTS


def test_the_five_bots_are_registered_weakest_first():
    assert list(BOTS) == ["random", "runner", "blocker", "defender", "strong"]
    assert BOTS["random"] is RandomPlayer and BOTS["runner"] is RunnerPlayer and BOTS["blocker"] is BlockerPlayer
    assert BOTS["defender"] is DefenderPlayer and BOTS["strong"] is StrongPlayer


def test_the_registry_makes_every_built_in_bot_the_server_may_seat():
    assert tuple(BOTS) == BUILTIN_BOTS        # a resident the server seats by name is a bot the host can load


@pytest.mark.parametrize("name", list(BOTS))
def test_make_bot_builds_the_named_bot_with_its_key(name):
    bot = make_bot(name, key="k1")
    assert isinstance(bot, BOTS[name]) and isinstance(bot, Player)
    assert bot.key == "k1"


def test_make_bot_rejects_an_unknown_name_and_lists_the_known_ones():
    with pytest.raises(ValueError) as info:
        make_bot("alphazero")
    message = str(info.value)
    assert "alphazero" in message
    assert all(name in message for name in BOTS)


def test_strong_rejects_a_budget_of_zero():
    with pytest.raises(ValueError, match="budget"):
        StrongPlayer(time_budget_ms=0)


def test_a_bot_module_is_imported_when_that_bot_is_asked_for():
    import subprocess
    import sys

    code = ("import sys\nfrom client.bots import BOTS, make_bot\nnames = list(BOTS)\n"
            "before = 'client.bots.strong' in sys.modules\nmake_bot('random')\n"
            "print(names, before, 'client.bots.strong' in sys.modules, 'client.bots.random_bot' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split("]")[1].split() == ["False", "False", "True"]

"""What the client and ``quoridor-match`` print: a bot's error and a server's text exactly as they are."""

from __future__ import annotations

from client.match_cli import main as match_main
from client.player import Player
from shared.quoridor import ChessboardChange, Step
from tests.client.support import Walker, best_move, duel

BAD_BOT = '''
from client.player import Player
from shared.quoridor import Step


class Bad(Player):
    """Fails on its first turn of every game with brackets in its code and its message."""

    def __init__(self, key=""):
        super().__init__(key)
        self.turns = 0

    def next_step(self, change):
        self.turns += 1
        if self.turns == 1:
            table = {}
            key = "[/]"
            return table[key]
        pos = self.position
        return Step(min(pos.legal_moves(), key=lambda m: pos.apply(Step(m)).distance(self.seat)))

    def restart(self):
        self.turns = 0
'''


class Garbling(Player):
    """Fails on its first turn of every game; the code and the message look like rich markup."""

    def __init__(self, key: str = "") -> None:
        super().__init__(key)
        self.turns = 0

    def next_step(self, change: ChessboardChange) -> Step:
        self.turns += 1
        if self.turns == 1:
            table: dict[str, Step] = {}
            key = "[/]"
            return table[key]
        return best_move(self)

    def restart(self) -> None:
        self.turns = 0


def the_traceback(out: str) -> list[str]:
    """The lines of the first traceback in ``out``."""
    return out[out.index("Traceback (most recent call last):"):].splitlines()


async def test_a_bots_error_is_printed_as_it_is_and_the_run_goes_on(make_server):
    (bad, _), (out, _), _ = await duel(make_server, Garbling("one"), Walker("two"))
    assert bad.completed and bad.games == 2 and bad.bot_errors == 2
    assert "return table[key]" in out
    assert "KeyError: '[/]'" in out


async def test_the_traceback_starts_at_the_bots_own_frame(make_server):
    _, (out, _), _ = await duel(make_server, Garbling("one"), Walker("two"), games=1)
    lines = the_traceback(out)
    assert __file__ in lines[1] and "in next_step" in lines[1]
    frames = [line for line in lines if line.startswith('  File "')]
    assert len(frames) == 1, lines       # no runner, asyncio or thread-pool frames before the bot's
    assert "asyncio" not in out and "runner.py" not in out


async def test_server_text_is_printed_as_it_is(make_server):
    (_, _), (out, _), _ = await duel(make_server, Walker("one"), Walker("two"), games=1,
                                     server={"server_name": "arena[/]"},
                                     options=({}, {"name": "[bold]two[/]"}))
    assert "joined arena[/]" in out
    assert "against [bold]two[/]" in out


def test_quoridor_match_prints_a_bots_error_as_it_is(tmp_path, capsys):
    path = tmp_path / "bad_bot.py"
    path.write_text(BAD_BOT)
    assert match_main(["runner", f"{path}:Bad", "-g", "2", "--log-dir", "none", "-t", "0"]) == 1   # the bot failed
    out = capsys.readouterr().out
    assert "return table[key]" in out and "KeyError: '[/]'" in out
    lines = the_traceback(out)
    assert "bad_bot.py" in lines[1]
    assert "match_cli.py" not in out and "player.py" not in out


class BadRestart(Walker):
    """Plays well but its ``restart`` hook raises with markup-like text."""

    def restart(self) -> None:
        raise ValueError("[red]not red[/]")


async def test_an_error_in_a_bots_restart_is_reported_and_the_run_goes_on(make_server):
    (bad, _), (out, _), _ = await duel(make_server, BadRestart("one"), Walker("two"))
    assert bad.completed and bad.games == 2 and bad.bot_errors == 2
    assert "bot error in restart: ValueError: [red]not red[/]" in out
